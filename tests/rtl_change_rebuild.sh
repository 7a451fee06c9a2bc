#!/usr/bin/env bash
# An RTL edit that renames Verilator's output files rebuilds with one plain
# `cmake --build` (cmake/T3Block.cmake, t3_verilate): a project of one
# Verilated module (tests/data/rtl_change) is built, its RTL replaced by a
# version with a submodule (new and renamed generated files), and built
# again; the program must then show the new RTL's result. With Verilator's
# own verilate() alone the second build compiles the old file list and
# fails to link.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/data/rtl_change/CMakeLists.txt" "$here/data/rtl_change/main.cpp" "$work/"
cp "$here/data/rtl_change/top_v1.sv" "$work/top.sv"
cmake -S "$work" -B "$work/build" -DT3_CMAKE_DIR="$here/../cmake" >/dev/null
cmake --build "$work/build" -j2 >/dev/null
v1="$("$work/build/toy")"
[ "$v1" = 41 ] || { echo "version 1 gives $v1, expected 41"; exit 1; }
sleep 1  # a newer time stamp than the first build's outputs
cp "$here/data/rtl_change/top_v2.sv" "$work/top.sv"
if ! cmake --build "$work/build" -j2 >"$work/rebuild.log" 2>&1; then
  tail -n 30 "$work/rebuild.log"
  echo "FAIL: the build after the RTL edit failed"
  exit 1
fi
v2="$("$work/build/toy")"
[ "$v2" = 42 ] || { echo "FAIL: after the edit the program gives $v2, expected 42 (stale RTL)"; exit 1; }
echo "PASS: rebuilt after an RTL edit that renamed Verilator's files (41 -> 42)"
