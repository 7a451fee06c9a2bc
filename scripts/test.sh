#!/usr/bin/env bash
# Every test: unit tests, RTL lint, parameter and pin checks, the
# co-simulations (>= 1,000,000 random cycles each, on both engines), the
# demo, the synthesis flow on a small configuration of every block (a
# composition's RTL elaborated and checked); then the unit tests and the
# kernel-free co-simulations again under AddressSanitizer and
# UndefinedBehaviorSanitizer.
#   --long  also the tests labelled long: the whole synthesis flow on each
#           composition's small configuration (minutes each)
set -euo pipefail
cd "$(dirname "$0")/.."
labels=(-LE long)
for arg in "$@"; do
  case "$arg" in
    --long) labels=() ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test: unknown option '$arg'; allowed: --long, --help" >&2; exit 2 ;;
  esac
done
scripts/build.sh
ctest --test-dir build --output-on-failure -j2 "${labels[@]}"

echo "== sanitizers (ASan + UBSan)"
# The kernel-free engine only (T3_RTL_SYSTEMC=OFF): the models, scoreboards,
# stimulus and shared harness under the sanitizers, without a second
# Verilation of every block for the SystemC engine (docs/architecture.md,
# "Verification").
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DT3_SANITIZE=ON -DT3_RTL_SYSTEMC=OFF >/dev/null
cmake --build build-asan -j2 --target t3_sanitize_targets >/dev/null
ctest --test-dir build-asan --output-on-failure -j2 -L sanitize
