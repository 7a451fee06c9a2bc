#!/usr/bin/env bash
# Configures and builds the project (Release) in build/ after making sure the
# dependencies are installed. Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j2
