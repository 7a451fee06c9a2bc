#!/usr/bin/python3
"""scripts/rebuffer.py on a netlist made here: a flop whose output ABC-style
buffering serves through a chain of minimum buffers (NB sinks, FANOUT_ABC a
buffer), a chain as deep whose last buffer drives an output port (left
alone), and a short chain under the depth limit. Checks that every sink still hangs on the same root through
buffers only, the chain became a tree no deeper than log_fanout, the root's
own sinks stay on it, and the other nets are untouched."""

import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NB, FANOUT_ABC, FANOUT = 300, 9, 8
LIB = """library (t) {
  cell ("sky130_fd_sc_hd__clkbuf_1") {
    area : 3.75;
  }
  cell ("sky130_fd_sc_hd__buf_2") {
    area : 5.0;
  }
  cell ("sky130_fd_sc_hd__buf_4") {
    area : 7.5;
  }
}
"""


def netlist():
    lines = ["module top(clk_i, d_i, o_o, p_o);", "  input clk_i;", "  input d_i;", "  output o_o;",
             "  output p_o;", "  wire q;", "  wire r;"]
    cells = ["  sky130_fd_sc_hd__dfxtp_1 ff (\n    .CLK(clk_i),\n    .D(d_i),\n    .Q(q)\n  );\n"]
    # The chain: each buffer keeps FANOUT_ABC sinks and feeds the next.
    prev, k, n = "q", 0, 0
    cells.append("  sky130_fd_sc_hd__nand2_1 own (\n    .A(q),\n    .B(q),\n    .Y(o_o)\n  );\n")
    while n < NB:
        k += 1
        lines.append("  wire c%d;" % k)
        cells.append("  sky130_fd_sc_hd__clkbuf_1 b%d (\n    .A(%s),\n    .X(c%d)\n  );\n" % (k, prev, k))
        for _ in range(min(FANOUT_ABC, NB - n)):
            n += 1
            lines.append("  wire y%d;" % n)
            cells.append("  sky130_fd_sc_hd__inv_1 s%d (\n    .A(c%d),\n    .Y(y%d)\n  );\n" % (n, k, n))
        prev = "c%d" % k
    # A chain as deep and wide as the first whose last buffer drives a port:
    # left as it is (the port's net is not the pass's to rename).
    cells.append("  sky130_fd_sc_hd__dfxtp_1 ff2 (\n    .CLK(clk_i),\n    .D(d_i),\n    .Q(r)\n  );\n")
    prev = "r"
    for j in range(1, 9):
        out = "p_o" if j == 8 else "pc%d" % j
        if j < 8:
            lines.append("  wire pc%d;" % j)
        cells.append("  sky130_fd_sc_hd__clkbuf_1 pb%d (\n    .A(%s),\n    .X(%s)\n  );\n" % (j, prev, out))
        for t in range(FANOUT_ABC):
            lines.append("  wire py%d_%d;" % (j, t))
            cells.append("  sky130_fd_sc_hd__inv_1 ps%d_%d (\n    .A(%s),\n    .Y(py%d_%d)\n  );\n"
                         % (j, t, out, j, t))
        prev = out
    # A short chain (depth 2) stays as it is.
    lines += ["  wire e1;", "  wire e2;", "  wire z1;", "  wire z2;"]
    cells.append("  sky130_fd_sc_hd__clkbuf_1 e1b (\n    .A(d_i),\n    .X(e1)\n  );\n")
    cells.append("  sky130_fd_sc_hd__clkbuf_1 e2b (\n    .A(e1),\n    .X(e2)\n  );\n")
    cells.append("  sky130_fd_sc_hd__inv_1 z1i (\n    .A(e2),\n    .Y(z1)\n  );\n")
    cells.append("  sky130_fd_sc_hd__inv_1 z2i (\n    .A(e2),\n    .Y(z2)\n  );\n")
    return "\n".join(lines) + "\n" + "".join(cells) + "endmodule\n"


def parse(text):
    cells = {}
    for m in re.finditer(r"^  (sky130_fd_sc_hd__\w+) (\S+) \(\n(.*?)\n  \);\n", text, re.S | re.M):
        cells[m.group(2)] = (m.group(1), dict(re.findall(r"\.(\w+)\(([^()]*)\)", m.group(3))))
    return cells


def main():
    with tempfile.TemporaryDirectory() as d:
        src, out, lib = (os.path.join(d, f) for f in ("in.v", "out.v", "t.lib"))
        open(src, "w").write(netlist())
        open(lib, "w").write(LIB)
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "rebuffer.py"), src, out, lib,
                            "--min-sinks", "64", "--min-depth", "5", "--fanout", str(FANOUT)],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit("rebuffer.py failed: " + r.stderr)
        print(r.stdout.strip())
        before, after = parse(open(src).read()), parse(open(out).read())
    fails = []
    by_out = {pins.get("X"): name for name, (t, pins) in after.items() if "buf" in t}

    def root_and_depth(net):
        depth = 0
        while net in by_out:
            net = after[by_out[net]][1]["A"]
            depth += 1
        return net, depth

    depths = []
    for i in range(1, NB + 1):
        root, depth = root_and_depth(after["s%d" % i][1]["A"])
        if root != "q":
            fails.append("sink s%d hangs on %s, not on q" % (i, root))
        depths.append(depth)
    limit = math.ceil(math.log(NB, FANOUT))
    if max(depths) > limit:
        fails.append("tree depth %d, more than log_%d(%d) = %d" % (max(depths), FANOUT, NB, limit))
    if max(depths) >= NB // FANOUT_ABC:
        fails.append("still a chain: depth %d" % max(depths))
    if after["own"][1]["A"] != "q":
        fails.append("the root's own sink moved")
    for name in ("e1b", "e2b", "z1i", "z2i"):
        if after.get(name) != before[name]:
            fails.append("%s changed, though its chain is under the depth limit" % name)
    for name in [n for n in before if n.startswith(("pb", "ps"))]:
        if after.get(name) != before[name]:
            fails.append("%s changed, though its chain reaches the port p_o" % name)
    leaf_load = {}
    for name, (t, pins) in after.items():
        for p, n in pins.items():
            if p not in ("X", "Y", "Q"):
                leaf_load[n] = leaf_load.get(n, 0) + 1
    worst = max(leaf_load.get(pins["X"], 0) for name, (t, pins) in after.items() if name.startswith("_rb"))
    if worst > FANOUT:
        fails.append("a tree buffer drives %d sinks, more than %d" % (worst, FANOUT))
    for f in fails:
        print("FAIL: " + f)
    print("rebuffer_test: %d sinks, depth %d (limit %d), %s" % (NB, max(depths), limit,
                                                               "ok" if not fails else "FAILED"))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
