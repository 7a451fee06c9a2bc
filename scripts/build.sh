#!/usr/bin/env bash
# Configures and builds the project (Release) in build/ after making sure the
# dependencies are installed. Extra arguments go to cmake's configure step;
# T3_TARGETS="a b" builds only those targets (scripts/run.sh: the demo).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
targets=()
for t in ${T3_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build build -j2 "${targets[@]}"
