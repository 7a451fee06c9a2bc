#!/usr/bin/env bash
# The main job on its built-in default: GPU-0's memory side (Tracker, DMA
# trigger table, MCA arbiter, near-bank ALU) during a GEMM fused with a ring
# reduce-scatter, programmed by the firmware driver over TLM-2.0 and
# co-simulated (C++/SystemC model against the RTL, every cycle). Builds only
# what the demo needs. Arguments go to the demo; see `scripts/run.sh --help`.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
echo "run: setting up and building (log: build/build.log)" >&2
if ! T3_TARGETS=mem_subsystem_demo scripts/build.sh >build/build.log 2>&1; then
  tail -n 40 build/build.log >&2
  echo "run: build failed; full log in build/build.log" >&2
  exit 1
fi
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1  # SystemC prints its banner before our main
exec build/testbench/mem_subsystem_demo --out build "$@"
