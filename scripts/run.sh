#!/usr/bin/env bash
# The main job on its built-in default. Until the T3 system model exists this
# is the Tracker demo: GPU-0's Tracker during a fused GEMM + ring
# reduce-scatter, co-simulated (C++/SystemC model against the RTL).
# Arguments go to the demo; see `scripts/run.sh --help`.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
echo "run: setting up and building (log: build/build.log)" >&2
if ! scripts/build.sh >build/build.log 2>&1; then
  tail -n 40 build/build.log >&2
  echo "run: build failed; full log in build/build.log" >&2
  exit 1
fi
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1  # SystemC prints its banner before our main
exec build/testbench/tracker_demo --out build "$@"
