#!/usr/bin/env bash
# The main job on its built-in default: GPU-0's memory side (Tracker, DMA
# trigger table, MCA arbiter, near-bank ALU) during a GEMM fused with a ring
# reduce-scatter, programmed by the firmware driver over TLM-2.0 and
# co-simulated (C++/SystemC model against the RTL, every cycle).
#
#   scripts/run.sh [--scenario t3|innet-allreduce] [options]
#
# --scenario innet-allreduce: a 4-GPU all-reduce of real data on one
# in-network switch, push and pull mode, the switch's RTL against its model
# every cycle (testbench/innet_switch/innet_switch_demo.cpp,
# docs/innet_fabric.md). Builds only what the scenario needs. The other
# arguments go to the scenario's program; `scripts/run.sh [--scenario S] --help`
# lists them.
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=t3
if [[ "${1:-}" == "--scenario" ]]; then
  scenario="${2:-}"
  shift 2 || { echo "run: --scenario needs a value: t3 or innet-allreduce" >&2; exit 2; }
fi
case "$scenario" in
  t3) target=mem_subsystem_demo ;;
  innet-allreduce) target=innet_switch_demo ;;
  *) echo "run: --scenario = '$scenario'; allowed: t3 (the default), innet-allreduce" >&2; exit 2 ;;
esac
mkdir -p build
echo "run: setting up and building $target (log: build/build.log)" >&2
if ! T3_TARGETS=$target scripts/build.sh >build/build.log 2>&1; then
  tail -n 40 build/build.log >&2
  echo "run: build failed; full log in build/build.log" >&2
  exit 1
fi
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1  # SystemC prints its banner before our main
exec "build/testbench/$target" --out build "$@"
