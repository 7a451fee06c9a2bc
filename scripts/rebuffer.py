#!/usr/bin/python3
"""Rebuilds the buffering ABC gives a high-fanout net as a balanced tree.

ABC's `buffer` serves a net's fanout as a chain: each buffer keeps a few of
the most critical sinks and passes the rest on to the next one. With
thousands of sinks that are all about equally critical (a set index into
the leaves of every set lookup's mux tree), a sink ends up seven to eleven
minimum buffers down the chain, 2 to 3 ns. A placer's repair step builds a
tree instead. This pass does that before timing, on the flattened netlist
yosys writes: for each net driven by anything but a buffer, it follows the
buffers below it, and if they serve at least --min-sinks sinks, it replaces
them with a balanced tree (--fanout sinks a buffer, --leaf-cell at the
sinks, --node-cell above). The net's own sinks, which ABC kept on it as the
most critical, stay where they are; so do nets that reach a port.

    rebuffer.py IN.v OUT.v LIBERTY     (prints: trees rebuilt, buffers
                                        removed and added, area change)
"""

import argparse
import collections
import re
import sys

CELL = re.compile(r"^  (sky130_fd_sc_hd__\w+) (\S+) \(\n(.*?)\n  \);\n", re.S | re.M)
PIN = re.compile(r"\.(\w+)\(([^()]*)\)")
ASSIGN = re.compile(r"^  assign (\S+(?: \[\d+\])?) ?= (\S+(?: \[\d+\])?) ?;\n", re.M)
PORT_DECL = re.compile(r"^  (?:input|output|inout)\s+(?:\[\d+:\d+\]\s+)?(\S+);", re.M)
BUF = re.compile(r"sky130_fd_sc_hd__(?:clk)?buf_\d+$")
OUTPUTS = {"X", "Y", "Q", "Q_N", "COUT", "SUM", "HI", "LO"}


def cell_areas(liberty):
    areas, cell = {}, None
    for line in open(liberty, encoding="utf-8", errors="replace"):
        m = re.match(r'\s*cell\s*\("?(\w+)"?\)', line)
        if m:
            cell = m.group(1)
            continue
        m = re.match(r"\s*area\s*:\s*([\d.]+)", line)
        if m and cell and cell not in areas:
            areas[cell] = float(m.group(1))
    return areas


def norm(net):
    return net.strip()


def fmt(net):
    """An escaped identifier ends at white space."""
    return net + " " if net.startswith("\\") else net


def rebuffer(text, areas, min_sinks=64, min_depth=5, fanout=8,
             leaf_cell="sky130_fd_sc_hd__buf_2", node_cell="sky130_fd_sc_hd__buf_4"):
    """The netlist `text` (one flattened module) with its deep buffer chains
    rebuilt, and what changed: {"trees", "removed", "added", "area" (um2)}.
    `areas`: cell -> um2 (cell_areas)."""
    if text.count("\nmodule ") + text.startswith("module ") != 1:
        raise ValueError("the netlist holds more than one module; flatten first")
    for c in (leaf_cell, node_cell):
        if c not in areas:
            raise ValueError("cell %s is not in the liberty" % c)

    # Nets that assigns alias are one net.
    parent = {}

    def find(n):
        parent.setdefault(n, n)
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for m in ASSIGN.finditer(text):
        x, y = find(norm(m.group(1))), find(norm(m.group(2)))
        if x != y:
            parent[x] = y
    keep = {find(norm(m.group(1))) for m in PORT_DECL.finditer(text)}

    cells = []  # (type, name, [(pin, net)], span)
    for m in CELL.finditer(text):
        cells.append((m.group(1), m.group(2), [(p, norm(n)) for p, n in PIN.findall(m.group(3))],
                      m.span()))
    driver, sinks = {}, collections.defaultdict(list)
    for i, (typ, _, pins, _) in enumerate(cells):
        for p, n in pins:
            if n.startswith(("1'", "0'")) or not n:
                continue
            if p in OUTPUTS:
                driver[find(n)] = i
            else:
                sinks[find(n)].append((i, p))

    def is_buf(i):
        return bool(BUF.match(cells[i][0]))

    def out_net(i):
        return find(next(n for p, n in cells[i][2] if p == "X"))

    # rewired: (cell, pin) -> its new net; new_cells: the trees' buffers.
    removed, new_cells, rewired = set(), [], {}
    trees = added_area = removed_area = 0
    serial = 0
    for root in list(sinks):
        d = driver.get(root)
        if d is not None and is_buf(d):
            continue
        bufs, leaves, ok, depth = [], [], True, 0
        stack = [(i, 1) for i, p in sinks[root] if is_buf(i)]
        if not stack:
            continue
        while stack:
            b, dep = stack.pop()
            depth = max(depth, dep)
            net = out_net(b)
            if net in keep:
                ok = False
                break
            bufs.append(b)
            for i, p in sinks[net]:
                if is_buf(i):
                    stack.append((i, dep + 1))
                else:
                    leaves.append((i, p))
        if not ok or len(leaves) < min_sinks or depth < min_depth:
            continue
        trees += 1
        removed.update(bufs)
        removed_area += sum(areas.get(cells[b][0], 0.0) for b in bufs)
        # Balanced: groups of `fanout` sinks under leaf buffers, then groups
        # of buffers under node buffers, until one buffer hangs on the root.
        level, cell = [("sink", l) for l in leaves], leaf_cell
        while True:
            nxt = []
            for k in range(0, len(level), fanout):
                serial += 1
                net = "_rbn%d_" % serial
                for kind, s in level[k:k + fanout]:
                    if kind == "sink":
                        rewired[s] = net
                    else:
                        new_cells[s]["inp"] = net
                new_cells.append({"type": cell, "inp": None, "out": net})
                nxt.append(("buf", len(new_cells) - 1))
                added_area += areas[cell]
            level, cell = nxt, node_cell
            if len(level) == 1:
                new_cells[level[0][1]]["inp"] = root
                break

    # The netlist again: removed buffers dropped, sinks rewired, the trees added.
    out, pos = [], 0
    for i, (typ, name, pins, (s, e)) in enumerate(cells):
        if i in removed or any((i, p) in rewired for p, _ in pins):
            out.append(text[pos:s])
            pos = e
            if i in removed:
                continue
            body = ",\n".join("    .%s(%s)" % (p, fmt(rewired.get((i, p), n))) for p, n in pins)
            out.append("  %s %s (\n%s\n  );\n" % (typ, name, body))
    tail = text[pos:]
    end = tail.rindex("endmodule")
    decl = "".join("  wire %s;\n" % c["out"] for c in new_cells)
    inst = "".join("  %s _rb%d_ (\n    .A(%s),\n    .X(%s)\n  );\n"
                   % (c["type"], k + 1, fmt(c["inp"]), c["out"]) for k, c in enumerate(new_cells))
    out.append(tail[:end] + decl + inst + tail[end:])
    return "".join(out), {"trees": trees, "removed": len(removed), "added": len(new_cells),
                          "area": added_area - removed_area}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("netlist_in")
    ap.add_argument("netlist_out")
    ap.add_argument("liberty")
    ap.add_argument("--min-sinks", type=int, default=64,
                    help="rebuild a net's buffers when they serve at least this many sinks (default 64)")
    ap.add_argument("--min-depth", type=int, default=5,
                    help="... and reach a sink through at least this many buffers (default 5)")
    ap.add_argument("--fanout", type=int, default=8, help="sinks a tree buffer drives (default 8)")
    ap.add_argument("--leaf-cell", default="sky130_fd_sc_hd__buf_2")
    ap.add_argument("--node-cell", default="sky130_fd_sc_hd__buf_4")
    a = ap.parse_args()
    if not 2 <= a.fanout <= 64:
        sys.exit("rebuffer: --fanout = %d is out of range; allowed: 2..64" % a.fanout)
    if a.min_sinks < 2:
        sys.exit("rebuffer: --min-sinks = %d is out of range; allowed: 2 or more" % a.min_sinks)
    try:
        text, st = rebuffer(open(a.netlist_in, encoding="utf-8").read(), cell_areas(a.liberty),
                            a.min_sinks, a.min_depth, a.fanout, a.leaf_cell, a.node_cell)
    except ValueError as e:
        sys.exit("rebuffer: %s: %s" % (a.netlist_in, e))
    open(a.netlist_out, "w", encoding="utf-8").write(text)
    print("rebuffer: %d trees rebuilt, %d buffers removed, %d added, area %+.3f um2"
          % (st["trees"], st["removed"], st["added"], st["area"]))


if __name__ == "__main__":
    main()
