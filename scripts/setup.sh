#!/usr/bin/env bash
# Installs the Debian packages this project builds and runs with, if any is
# missing; does nothing when all are present. Safe to run on every build.
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3
  libsystemc-dev    # SystemC 2.3 with TLM-2.0
  verilator         # RTL -> C++/SystemC
  yosys opensta     # synthesis and static timing (scripts/synth.sh)
  iverilog          # second opinion on the RTL
  libgtest-dev libbenchmark-dev
  libmpfr-dev       # GNU MPFR: the reference the floating-point units are checked against
  python3-yaml python3-jinja2  # scripts/blockgen.py: the block descriptions and their templates
  python3-matplotlib           # scripts/plot_synth.py: the synthesis sweeps' plots
  valgrind          # scripts/bench.py: the models' instructions a cycle (callgrind), a figure host changes do not move
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
