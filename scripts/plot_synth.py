#!/usr/bin/env python3
"""Plots of scripts/synth.py's results: for every block with two or more
configurations in a synth_results.json, its area (logic and storage, stacked)
and the fastest clock it meets against its size, one PNG a block:
<out>/synth_sweep_<block>.png.

The configurations go left to right by storage bits (the block's
T3_SYNTH(storage) count), each named by its label and that count. The dashed
line is the clock the netlists were synthesized and timed against.

scripts/synth.py --sweep draws these itself; this script redraws them from a
saved result, e.g. scripts/plot_synth.py build/synth/synth_results.json.
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_block(block, rows, path):
    """One block's configurations: stacked area bars above, fastest clock below."""
    rows = sorted(rows, key=lambda r: r["storage_bits"] or 0)
    x = range(len(rows))
    logic = [r["logic_um2"] / 1e6 for r in rows]
    storage = [r["storage_um2"] / 1e6 for r in rows]
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 5.2), dpi=80)
    top.bar(x, logic, color="#4878a8", label="logic")
    top.bar(x, storage, bottom=logic, color="#e0a040", label="storage (cells inside t3_mem)")
    for i, r in enumerate(rows):
        top.annotate("%.3g" % (r["area_um2"] / 1e6), (i, logic[i] + storage[i]),
                     ha="center", va="bottom", fontsize=8)
    top.set_ylabel("area, mm²")
    top.set_ylim(0, max(map(sum, zip(logic, storage))) * 1.2)
    top.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1), ncol=2, frameon=False)
    fmax = [r["fmax_mhz"] for r in rows]
    bottom.plot(x, fmax, marker="o", color="#a83838")
    clocks = sorted(set(r["clock_ns"] for r in rows))
    for c in clocks:
        bottom.axhline(1000.0 / c, color="grey", linestyle="--", linewidth=1)
        bottom.annotate("target %g MHz" % (1000.0 / c), (0, 1000.0 / c), fontsize=8,
                        va="bottom", color="grey")
    bottom.set_ylim(0, max(fmax + [1000.0 / c for c in clocks]) * 1.2)
    bottom.set_ylabel("fastest clock met, MHz")
    bottom.set_xticks(list(x))
    bottom.set_xticklabels(["%s\n%s bits" % (r["label"], "-" if r["storage_bits"] is None else r["storage_bits"])
                            for r in rows], fontsize=8)
    bottom.set_xlabel("configuration and its storage bits")
    fig.suptitle("%s on sky130_fd_sc_hd (tt), pre-layout" % block, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_all(rows, out_dir):
    """A PNG for every block with two or more rows; returns {block: path}."""
    by_block = {}
    for r in rows:
        by_block.setdefault(r["block"], []).append(r)
    paths = {}
    for block, block_rows in sorted(by_block.items()):
        if len(block_rows) < 2:
            continue
        paths[block] = os.path.join(out_dir, "synth_sweep_%s.png" % block)
        plot_block(block, block_rows, paths[block])
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="a synth_results.json written by scripts/synth.py")
    ap.add_argument("--out", help="folder for the PNGs (default: the folder of the results)")
    a = ap.parse_args()
    try:
        with open(a.results, encoding="utf-8") as f:
            rows = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("plot_synth: cannot read %s: %s" % (a.results, e))
    out = a.out or os.path.dirname(os.path.abspath(a.results))
    os.makedirs(out, exist_ok=True)
    paths = plot_all(rows, out)
    if not paths:
        sys.exit("plot_synth: no block has two or more configurations in %s" % a.results)
    for block, path in sorted(paths.items()):
        print("plot_synth: %s -> %s" % (block, path))


if __name__ == "__main__":
    main()
