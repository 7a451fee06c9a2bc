#!/usr/bin/env python3
"""Area and timing of an RTL block on the SKY130 high-density library.

yosys synthesizes rtl/<block>.sv at the given parameters and maps it onto
../shared/pdk/sky130hd_tt.lib.gz (typical corner, 25 C, 1.8 V); OpenSTA then
times the netlist against a clock. Printed per configuration: cells, flops,
storage bits, area (um^2), critical path and the fastest clock it meets.
Results also go to <out>/synth_results.{json,csv}.

The figures are pre-layout: no placement, wires or clock tree. ABC buffers
high-fanout nets and sizes gates against a fixed load, standing in for what
a placer would do; the area omits routing. Good for comparing sizes and
seeing how a block scales, not for sign-off.
"""
import argparse
import csv
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB_GZ = os.path.join(ROOT, "..", "shared", "pdk", "sky130hd_tt.lib.gz")

# Per block: RTL defaults (every run checks them against the RTL source)
# and the storage its state arrays hold, in bits.
BLOCKS = {
    "tracker": {
        "defaults": {"SETS": 256, "WAYS": 8, "WG_ID_W": 12, "WF_ID_W": 3,
                     "ADDR_W": 48, "CNT_W": 16, "UPE_W": 4, "STAT_W": 32},
        # valid + tag {WG-id MSBs, WF-id} + start address + counter per entry
        "storage_bits": lambda p: p["SETS"] * p["WAYS"] * (
            1 + p["WG_ID_W"] - int(math.log2(p["SETS"])) + p["WF_ID_W"]
            + p["ADDR_W"] + p["CNT_W"]),
        "sweep": [{"SETS": 4, "WAYS": 8}, {"SETS": 16, "WAYS": 8}, {"SETS": 64, "WAYS": 8},
                  {"SETS": 256, "WAYS": 8}],
    },
}


def fail(msg):
    sys.stderr.write("synth: " + msg + "\n")
    sys.exit(2)


def rtl_defaults(block):
    """Parameter defaults as written in the RTL source."""
    text = open(os.path.join(ROOT, "rtl", block + ".sv")).read()
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"parameter\s+(\w+)\s*=\s*(\d+)\s*[,)/]", text)}


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


def synthesize(block, params, clock_ns, out_dir, timeout):
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
        f.write("read_verilog -sv %s\n" % os.path.join(ROOT, "rtl", block + ".sv"))
        if chparam:
            f.write("chparam %s %s\n" % (chparam, block))
        # One ABC run does the technology mapping (-noabc skips synth's own).
        f.write("synth -top %s -flatten -noabc\n" % block)
        f.write("dfflibmap -liberty %s\n" % lib)
        # A delay target (ps) and a constraint file make ABC buffer
        # high-fanout nets and size gates, which a placer would otherwise do;
        # without them a weak gate driving every write enable dominates the
        # timing. The fast mapping: at 16x8 ABC's full script took 12x longer
        # (5 min) for 10% less area and a slower critical path.
        # ABC's -fast -constr script, with topo + buffer -p: its plain
        # buffer aborts at 256x8 ("node has no fanout").
        script = "+strash;dretime;map,{D};topo;buffer,-p;upsize,{D};dnsize,{D};stime,-p"
        f.write("abc -D %d -constr %s -script %s -liberty %s\n"
                % (int(clock_ns * 1000), constr, script, lib))
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
        fail("could not read the worst slack from " + sta_log)
    ws = float(slack.group(1))
    path = "%s -> %s" % (register_name(start.group(1) if start else "?", netlist),
                         register_name(end.group(1) if end else "?", netlist))
    min_period = clock_ns - ws
    bits = BLOCKS[block]["storage_bits"](dict(BLOCKS[block]["defaults"], **params))
    return {
        "block": block,
        "params": dict(BLOCKS[block]["defaults"], **params),
        "cells": int(cells.group(1)),
        "flops": flops,
        "storage_bits": bits,
        "storage_kib": bits / 8192.0,
        "area_um2": float(area[-1]),
        "clock_ns": clock_ns,
        "worst_slack_ns": ws,
        "min_period_ns": min_period,
        "fmax_mhz": 1000.0 / min_period,
        "critical_path": path,
        "synth_s": round(t_syn, 1),
        "seconds": round(time.time() - t0, 1),
    }


def label(r):
    p = r["params"]
    return "%dx%d" % (p["SETS"], p["WAYS"]) if r["block"] == "tracker" else r["block"]


def print_table(rows):
    hdr = ("config", "cells", "flops", "storage bits", "KiB", "area um^2", "path ns",
           "fmax MHz", "run s")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "|".join("---" for _ in hdr) + "|")
    for r in rows:
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r.get("label", label(r)), r["cells"], r["flops"], r["storage_bits"],
            "%.2f" % r["storage_kib"], "%.0f" % r["area_um2"],
            "%.2f" % r["min_period_ns"] if r.get("min_period_ns") else "-",
            "%.1f" % r["fmax_mhz"] if r.get("fmax_mhz") else "-", r.get("seconds", "-")))


def extrapolate(rows, block, target):
    """Least-squares line through (entries, value) for the measured sizes."""
    xs = [r["params"]["SETS"] * r["params"]["WAYS"] for r in rows]
    x_t = target["SETS"] * target["WAYS"]
    out = {"block": block, "params": dict(BLOCKS[block]["defaults"], **target),
           "label": "%dx%d (fit)" % (target["SETS"], target["WAYS"])}
    for key in ("cells", "flops", "area_um2"):
        ys = [r[key] for r in rows]
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
        out[key] = int(round(my + slope * (x_t - mx))) if key != "area_um2" else my + slope * (x_t - mx)
        out[key + "_per_entry"] = slope
    bits = BLOCKS[block]["storage_bits"](out["params"])
    out.update(storage_bits=bits, storage_kib=bits / 8192.0, min_period_ns=None, fmax_mhz=None)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", default="tracker", help="RTL block (known: %s)" % ", ".join(BLOCKS))
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="override an RTL parameter, e.g. --param SETS=16 (repeatable)")
    ap.add_argument("--sweep", action="store_true",
                    help="synthesize the block's size sweep (Tracker: 4, 16, 64, 256 sets x 8 "
                         "ways, about 12 minutes); other --param values apply to every point")
    ap.add_argument("--clock-ns", type=float, default=10.0,
                    help="clock period for ABC's delay target and OpenSTA (default 10)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "synth"), help="work folder")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per tool run (default 3600)")
    a = ap.parse_args()

    if a.block not in BLOCKS:
        fail("--block = '%s' is not known; allowed: %s" % (a.block, ", ".join(BLOCKS)))
    spec = BLOCKS[a.block]
    if rtl_defaults(a.block) != spec["defaults"]:
        fail("parameter defaults in scripts/synth.py %s differ from rtl/%s.sv %s"
             % (spec["defaults"], a.block, rtl_defaults(a.block)))
    if not (0.5 <= a.clock_ns <= 1000):
        fail("--clock-ns = %g is out of range; allowed: 0.5..1000" % a.clock_ns)
    for tool in ("yosys", "sta"):
        if not shutil.which(tool):
            fail("%s not found; run scripts/setup.sh" % tool)
    params = {}
    for item in a.param:
        m = re.fullmatch(r"(\w+)=(\d+)", item)
        if not m:
            fail("--param '%s' is not NAME=VALUE with a whole number" % item)
        if m.group(1) not in spec["defaults"]:
            fail("--param %s: no such parameter of %s; allowed: %s"
                 % (m.group(1), a.block, ", ".join(spec["defaults"])))
        params[m.group(1)] = int(m.group(2))
    if a.block == "tracker":
        p = dict(spec["defaults"], **params)
        if p["SETS"] < 2 or p["SETS"] & (p["SETS"] - 1):
            fail("--param SETS=%d is out of range; allowed: a power of two >= 2" % p["SETS"])
        if p["WG_ID_W"] <= math.log2(p["SETS"]):
            fail("--param WG_ID_W=%d is out of range; allowed: > log2(SETS) = %d"
                 % (p["WG_ID_W"], math.log2(p["SETS"])))
    swept = set(k for c in spec["sweep"] for k in c)
    if a.sweep and swept & set(params):
        fail("--sweep sets %s itself; drop --param %s" % (", ".join(sorted(swept)),
                                                          ", ".join(sorted(swept & set(params)))))
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)

    configs = [dict(c, **params) for c in spec["sweep"]] if a.sweep else [params]
    rows = []
    for c in configs:
        sys.stderr.write("synth: %s %s ...\n" % (a.block, c or "defaults"))
        rows.append(synthesize(a.block, c, a.clock_ns, a.out, a.timeout))
        sys.stderr.write("synth:   done in %.0f s\n" % rows[-1]["seconds"])
    target = {k: spec["defaults"][k] for k in ("SETS", "WAYS")}
    measured = any(all(r["params"][k] == v for k, v in target.items()) for r in rows)
    if a.sweep and a.block == "tracker" and len(rows) >= 2 and not measured:
        rows.append(extrapolate(rows, a.block, target))

    with open(os.path.join(a.out, "synth_results.json"), "w") as f:
        json.dump(rows, f, indent=2)
    with open(os.path.join(a.out, "synth_results.csv"), "w", newline="") as f:
        keys = ["label", "cells", "flops", "storage_bits", "storage_kib", "area_um2",
                "min_period_ns", "fmax_mhz", "worst_slack_ns", "clock_ns", "critical_path", "seconds"]
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(dict(r, label=r.get("label", label(r))))
    print("%s on sky130_fd_sc_hd (tt, 25 C, 1.8 V), clock %g ns, pre-layout" % (a.block, a.clock_ns))
    print_table(rows)
    for r in rows:
        if r.get("critical_path"):
            print("critical path %s: %s" % (r.get("label", label(r)), r["critical_path"]))
    print("results: %s/synth_results.{json,csv}" % a.out)


if __name__ == "__main__":
    main()
