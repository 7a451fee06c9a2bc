#!/bin/bash
# scripts/new_block.py makes a block that builds and passes its own tests:
# stamps one into a copy of the source tree and builds that block alone
# (T3_ONLY_BLOCKS) with its co-simulation (both engines), unit test, pin
# check and generated-file check. Prints "PASS: new block" at the end.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-${TMPDIR:-/tmp}/t3_new_block_test}"
name=skel_try
rm -rf "$work"
mkdir -p "$work/src"
# The tree as it is (tracked files and new ones not ignored).
(cd "$src" && git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$work/src")
/usr/bin/python3 "$work/src/scripts/new_block.py" "$name"
/usr/bin/python3 "$work/src/scripts/blockgen.py" --check
cmake -S "$work/src" -B "$work/build" -DT3_ONLY_BLOCKS="$name" -DT3_RANDOM_CYCLES=200000 > "$work/configure.log"
cmake --build "$work/build" -j2 > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
(cd "$work/build" && ctest --output-on-failure -R "^${name}_")
n=$(cd "$work/build" && ctest -N -R "^${name}_" | sed -n 's/^Total Tests: //p')
if [ "$n" -lt 6 ]; then
  echo "FAIL: only $n tests of $name"
  exit 1
fi
echo "PASS: new block $name built, $n tests passed"
