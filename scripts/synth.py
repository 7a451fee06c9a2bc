#!/usr/bin/env python3
"""Area and timing of a block's RTL on the SKY130 high-density library.

yosys synthesizes rtl/<block>.sv (with the modules it instantiates from
rtl/) at the given parameters and maps it onto ../shared/pdk/sky130hd_tt.lib.gz
(typical corner, 25 C, 1.8 V); OpenSTA then times the netlist against a
clock. Printed per configuration: cells, flops, storage bits, area (um^2),
critical path and the fastest clock it meets. Results also go to
<out>/synth_results.{json,csv}.

Parameters, their defaults and ranges come from the block's list,
hw/<block>/<block>_params.def; the RTL itself refuses values it cannot take
(checked by a Verilator elaboration before synthesis).

The figures are pre-layout: no placement, wires or clock tree. ABC buffers
high-fanout nets and sizes gates against a fixed load, standing in for what
a placer would do; the area omits routing. Good for comparing sizes and
seeing how a block scales, not for sign-off.
"""
import argparse
import csv
import glob
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import t3block  # noqa: E402

ROOT = t3block.ROOT
LIB_GZ = os.path.join(ROOT, "..", "shared", "pdk", "sky130hd_tt.lib.gz")


def fail(msg):
    sys.stderr.write("synth: " + msg + "\n")
    sys.exit(2)


def clog2(v):
    return max(0, math.ceil(math.log2(v))) if v > 1 else 0


def storage_bits(block, params):
    expr = t3block.synth_hints(block).get("storage")
    if not expr:
        return None
    return int(eval(expr, {"__builtins__": {}}, dict(params, clog2=clog2, max=max)))


def label(block, params):
    fmt = t3block.synth_hints(block).get("label")
    return fmt.format(**params) if fmt else block


def liberty(out_dir):
    lib = os.path.join(out_dir, "sky130hd_tt.lib")
    if not os.path.exists(lib):
        if not os.path.exists(LIB_GZ):
            fail("cell library not found at " + os.path.normpath(LIB_GZ))
        with gzip.open(LIB_GZ, "rb") as src, open(lib, "wb") as dst:
            shutil.copyfileobj(src, dst)
    return lib


def run(cmd, log, timeout):
    with open(log, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
    if r.returncode != 0:
        tail = open(log).read().splitlines()[-15:]
        fail("%s failed (exit %d), see %s:\n  %s" % (cmd[0], r.returncode, log, "\n  ".join(tail)))


def register_name(point, netlist):
    """A flop instance (_123_) named by the register net on its Q pin."""
    m = re.fullmatch(r"(_\d+_)(/\w+)?", point)
    if not m:
        return point
    inst = re.search(r"sky130_fd_sc_hd__\w*df\w* %s \((.*?)\);" % re.escape(m.group(1)),
                     open(netlist).read(), re.S)
    q = re.search(r"\.Q\(([^)]*)\)", inst.group(1)) if inst else None
    return q.group(1).strip().lstrip("\\").replace(" ", "") if q else point


def elaborates(block, params):
    """None, or the RTL's own message refusing these parameters."""
    cmd = ["verilator", "--lint-only", "-y", os.path.join(ROOT, "rtl"), t3block.rtl_path(block)]
    cmd += ["-G%s=%d" % kv for kv in sorted(params.items())]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 0:
        return None
    msgs = re.findall(r"%(?:Warning-USERERROR|Error)[^:]*: [^:]*:\d+:\d+: (.*)", r.stdout + r.stderr)
    return "; ".join(msgs) or (r.stdout + r.stderr).strip()


def synthesize(block, params, clock_ns, out_dir, timeout):
    full = {p["name"]: p["default"] for p in t3block.params(block)}
    full.update(params)
    suffix = "_".join("%s%d" % (k.lower(), v) for k, v in sorted(params.items()))
    work = os.path.join(out_dir, block + ("_" + suffix if suffix else ""))
    os.makedirs(work, exist_ok=True)
    lib = liberty(out_dir)
    netlist = os.path.join(work, "netlist.v")
    chparam = " ".join("-set %s %d" % kv for kv in sorted(params.items()))
    constr = os.path.join(work, "abc.constr")
    with open(constr, "w") as f:
        f.write("set_driving_cell sky130_fd_sc_hd__buf_2\nset_load 0.005\n")  # pF
    ys = os.path.join(work, "synth.ys")
    with open(ys, "w") as f:
        for src in sorted(glob.glob(os.path.join(ROOT, "rtl", "*.sv"))):
            f.write("read_verilog -sv %s\n" % src)
        if chparam:
            f.write("chparam %s %s\n" % (chparam, block))
        # One ABC run does the technology mapping (-noabc skips synth's own).
        f.write("synth -top %s -flatten -noabc\n" % block)
        f.write("dfflibmap -liberty %s\n" % lib)
        # A delay target (ps) and a constraint file make ABC buffer
        # high-fanout nets and size gates, which a placer would otherwise do;
        # without them a weak gate driving every write enable dominates the
        # timing. The fast mapping: on a 16x8 Tracker ABC's full script took
        # 12x longer (5 min) for 10% less area and a slower critical path.
        # ABC's -fast -constr script, with topo + buffer -p: its plain
        # buffer aborts on the 256x8 Tracker ("node has no fanout").
        script = "+strash;dretime;map,{D};topo;buffer,-p;upsize,{D};dnsize,{D};stime,-p"
        f.write("abc -D %d -constr %s -script %s -liberty %s\n"
                % (int(clock_ns * 1000), constr, script, lib))
        # OpenSTA's Verilog reader takes no concatenation on the left of an
        # assign, which yosys writes for nets a flattened hierarchy aliases
        # (the near-bank ALU's lane adders); splitting nets into bits avoids it.
        f.write("splitnets\n")
        f.write("opt_clean -purge\n")
        f.write("stat -liberty %s\n" % lib)
        f.write("write_verilog -noattr -noexpr %s\n" % netlist)
    t0 = time.time()
    run(["yosys", "-q", "-l", os.path.join(work, "yosys.log"), ys],
        os.path.join(work, "yosys.out"), timeout)
    t_syn = time.time() - t0

    log = open(os.path.join(work, "yosys.log")).read()
    stats = log[log.rfind("Number of cells:"):]
    cells = re.search(r"Number of cells:\s+(\d+)", stats)
    area = re.findall(r"Chip area for module '\\?%s':\s+([\d.]+)" % block, log)
    if not cells or not area:
        fail("could not read cell count / area from " + os.path.join(work, "yosys.log"))
    flops = sum(int(n) for c, n in re.findall(r"(sky130_fd_sc_hd__\w+)\s+(\d+)", stats)
                if re.match(r"sky130_fd_sc_hd__(e|s)?df", c))
    unmapped = re.findall(r"(\$_\w+_)\s+(\d+)", stats)
    if unmapped:
        fail("cells left unmapped to the library: %s" % unmapped)
    # sky130 latches are the dlx*/dlr* cells (dlygate* are delay buffers).
    latches = [c for c, _ in re.findall(r"(sky130_fd_sc_hd__dl[xr]\w+)\s+(\d+)", stats)]
    if latches:
        fail("latches in the netlist: %s" % latches)
    # The synthesis front end must have read the RTL as the simulator does:
    # every storage bit a flop, and no output it thinks constant (yosys 0.23
    # has dropped whole arrays of some shapes without a word).
    bits = storage_bits(block, full)
    if bits is not None and flops < bits:
        fail("%d flops for %d storage bits: synthesis lost state the RTL holds; see %s"
             % (flops, bits, netlist))
    text = open(netlist).read()
    constant = sorted(set(re.findall(r"assign\s+\\?(\w+_o)(?:\s*\[[^\]]*\])?\s*=\s*\d+'[bh]", text)))

    tcl = os.path.join(work, "sta.tcl")
    with open(tcl, "w") as f:
        f.write("read_liberty %s\nread_verilog %s\nlink_design %s\n" % (lib, netlist, block))
        f.write("create_clock -name clk -period %g [get_ports clk_i]\n" % clock_ns)
        f.write("set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]\n")
        f.write("set_output_delay 0 -clock clk [all_outputs]\n")
        f.write("report_checks -path_delay max -digits 3\n")
        f.write("report_worst_slack -digits 3\n")
        f.write("exit\n")
    sta_log = os.path.join(work, "sta.log")
    run(["sta", "-no_splash", "-exit", tcl], sta_log, timeout)
    sta = open(sta_log).read()
    slack = re.search(r"worst slack\s+(-?[\d.]+)", sta)
    start = re.search(r"Startpoint:\s+(\S+)", sta)
    end = re.search(r"Endpoint:\s+(\S+)", sta)
    if not slack:
        errors = [l for l in sta.splitlines() if l.startswith("Error")][:5]
        fail("could not read the worst slack from %s%s" % (sta_log, "".join("\n  " + e for e in errors)))
    ws = float(slack.group(1))
    path = "%s -> %s" % (register_name(start.group(1) if start else "?", netlist),
                         register_name(end.group(1) if end else "?", netlist))
    min_period = clock_ns - ws
    return {
        "block": block,
        "label": label(block, full),
        "params": full,
        "cells": int(cells.group(1)),
        "flops": flops,
        "storage_bits": bits,
        "storage_kib": bits / 8192.0 if bits is not None else None,
        "area_um2": float(area[-1]),
        "clock_ns": clock_ns,
        "worst_slack_ns": ws,
        "min_period_ns": min_period,
        "fmax_mhz": 1000.0 / min_period,
        "critical_path": path,
        "constant_outputs": constant,
        "synth_s": round(t_syn, 1),
        "seconds": round(time.time() - t0, 1),
    }


def print_table(rows):
    hdr = ("config", "cells", "flops", "storage bits", "KiB", "area um^2", "path ns",
           "fmax MHz", "run s")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "|".join("---" for _ in hdr) + "|")
    for r in rows:
        bits = r["storage_bits"]
        print("| %s | %s | %s | %s | %s | %.0f | %.2f | %.1f | %s |" % (
            r["label"], r["cells"], r["flops"], "-" if bits is None else bits,
            "-" if bits is None else "%.2f" % r["storage_kib"], r["area_um2"],
            r["min_period_ns"], r["fmax_mhz"], r["seconds"]))


def parse_point(block, text, known):
    """'SETS=4 WAYS=8' -> {SETS: 4, WAYS: 8}, checked against the list."""
    out = {}
    for item in text.split():
        m = re.fullmatch(r"(\w+)=(\d+)", item)
        if not m:
            fail("'%s' is not NAME=VALUE with a whole number" % item)
        if m.group(1) not in known:
            fail("%s has no parameter %s; allowed: %s" % (block, m.group(1), ", ".join(known)))
        p = known[m.group(1)]
        v = int(m.group(2))
        if not t3block.in_range(p, v):
            fail("%s = %d is out of range; allowed: %s" % (p["name"], v, t3block.range_text(p)))
        out[m.group(1)] = v
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", help="the block to synthesize (known: %s)" % ", ".join(t3block.blocks()))
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="override an RTL parameter, e.g. --param SETS=16 (repeatable)")
    ap.add_argument("--sweep", action="store_true",
                    help="synthesize the block's size sweep (its T3_SYNTH(sweep) points; the "
                         "Tracker's 4..256 sets take about 12 minutes); other --param values "
                         "apply to every point")
    ap.add_argument("--clock-ns", type=float, default=10.0,
                    help="clock period for ABC's delay target and OpenSTA (default 10)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "synth"), help="work folder")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per tool run (default 3600)")
    a = ap.parse_args()

    if not a.block:
        fail("--block is required; known: %s" % ", ".join(t3block.blocks()))
    if a.block not in t3block.blocks():
        fail("--block = '%s' is not known; allowed: %s" % (a.block, ", ".join(t3block.blocks())))
    known = {p["name"]: p for p in t3block.params(a.block)}
    rtl = t3block.rtl_params(a.block)
    listed = {n: p["default"] for n, p in known.items()}
    if rtl != listed:
        fail("parameters of rtl/%s.sv %s differ from hw/%s/%s_params.def %s; "
             "scripts/check_params.py --block %s says more" % (a.block, rtl, a.block, a.block,
                                                               listed, a.block))
    if not (0.5 <= a.clock_ns <= 1000):
        fail("--clock-ns = %g is out of range; allowed: 0.5..1000" % a.clock_ns)
    for tool in ("yosys", "sta", "verilator"):
        if not shutil.which(tool):
            fail("%s not found; run scripts/setup.sh" % tool)
    params = parse_point(a.block, " ".join(a.param), known)
    sweep = t3block.synth_hints(a.block).get("sweep")
    if a.sweep and not sweep:
        fail("%s has no sweep (a T3_SYNTH(sweep, ...) line in its parameter list)" % a.block)
    points = [parse_point(a.block, pt, known) for pt in sweep.split("|")] if a.sweep else [{}]
    swept = set(k for pt in points for k in pt)
    if swept & set(params):
        fail("--sweep sets %s itself; drop --param %s" % (", ".join(sorted(swept)),
                                                          ", ".join(sorted(swept & set(params)))))
    configs = [dict(pt, **params) for pt in points]
    for c in configs:
        why = elaborates(a.block, c)
        if why:
            fail("rtl/%s.sv refuses %s: %s" % (a.block, c, why))
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)

    rows = []
    for c in configs:
        sys.stderr.write("synth: %s %s ...\n" % (a.block, c or "defaults"))
        rows.append(synthesize(a.block, c, a.clock_ns, a.out, a.timeout))
        sys.stderr.write("synth:   done in %.0f s\n" % rows[-1]["seconds"])

    with open(os.path.join(a.out, "synth_results.json"), "w") as f:
        json.dump(rows, f, indent=2)
    with open(os.path.join(a.out, "synth_results.csv"), "w", newline="") as f:
        keys = ["label", "cells", "flops", "storage_bits", "storage_kib", "area_um2",
                "min_period_ns", "fmax_mhz", "worst_slack_ns", "clock_ns", "critical_path", "seconds"]
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    print("%s on sky130_fd_sc_hd (tt, 25 C, 1.8 V), clock %g ns, pre-layout" % (a.block, a.clock_ns))
    print_table(rows)
    for r in rows:
        print("critical path %s: %s" % (r["label"], r["critical_path"]))
        if r["constant_outputs"]:
            print("outputs the netlist ties to a constant (%s): %s"
                  % (r["label"], ", ".join(r["constant_outputs"])))
    print("results: %s/synth_results.{json,csv}" % a.out)


if __name__ == "__main__":
    main()
