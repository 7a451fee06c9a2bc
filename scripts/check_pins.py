#!/usr/bin/env python3
"""Checks a block's pin list (hw/<block>/<block>_pins.h, as a co-simulation
binary reports it at its built parameters with --list-pins) against the
Verilated model (names, directions, widths, from Verilator's plain C++ header
V<block>_c.h) and the RTL source (names, directions), so that a pin added
on one side only fails. Exit 0 when all three agree; else the differences."""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import t3block  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--block", required=True)
    ap.add_argument("--binary", required=True, help="a co-simulation binary of the block")
    ap.add_argument("--verilated", required=True, help="Verilator's V<block>_c.h")
    a = ap.parse_args()

    out = subprocess.run([a.binary, "--list-pins"], capture_output=True, text=True,
                         env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if out.returncode != 0:
        sys.exit("check_pins: %s --list-pins failed:\n%s" % (a.binary, out.stderr))
    declared = {}
    for line in out.stdout.splitlines():
        m = re.fullmatch(r"(in|out) (\w+) (\d+)", line.strip())
        if m:
            declared[m.group(2)] = (m.group(1), int(m.group(3)))
    if not declared:
        sys.exit("check_pins: %s --list-pins printed no pins" % a.binary)

    verilated = {}
    for m in re.finditer(r"VL_(IN|OUT|INOUT)(?:8|16|64|W)?\(&(\w+),(\d+),(\d+)",
                         open(a.verilated).read()):
        verilated[m.group(2)] = (m.group(1).lower(), int(m.group(3)) - int(m.group(4)) + 1)
    if not verilated:
        sys.exit("check_pins: no ports found in %s" % a.verilated)

    rtl = t3block.rtl_ports(a.block)

    problems = []
    for name in sorted(set(declared) | set(verilated) | set(rtl)):
        d, v, r = declared.get(name), verilated.get(name), rtl.get(name)
        if d is None:
            problems.append("%s: in the RTL (%s) but not in the pin list" % (name, r or v[0]))
            continue
        if v is None or r is None:
            problems.append("%s: in the pin list but not in the %s" %
                            (name, "Verilated model" if v is None else "RTL source"))
            continue
        if d[0] != v[0] or d[0] != r:
            problems.append("%s: direction %s in the pin list, %s in the Verilated model, %s in "
                            "the RTL" % (name, d[0], v[0], r))
        if d[1] != v[1]:
            problems.append("%s: %d bits in the pin list, %d in the Verilated model"
                            % (name, d[1], v[1]))
    if problems:
        print("%s: the pin list and the RTL disagree:\n  %s" % (a.block, "\n  ".join(problems)))
        sys.exit(1)
    print("%s: %d pins agree (pin list, Verilated model, RTL source)" % (a.block, len(declared)))


if __name__ == "__main__":
    main()
