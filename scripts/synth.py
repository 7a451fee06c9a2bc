#!/usr/bin/env python3
"""Area, timing and power of the blocks' RTL on the SKY130 high-density library.

  scripts/synth.py --block all                    every block at its defaults, one table
  scripts/synth.py --block tracker --param SETS=16 --param WAYS=4
  scripts/synth.py --block all --sweep            every block's size sweep, a plot each
  scripts/synth.py --block all --update-doc       the table into docs/area_timing.md
  scripts/synth.py --block tracker --dry-run      the configurations and their storage bits only

Blocks: a folder hw/<b>/ with <b>_params.def and rtl/<b>.sv is a block. Its
parameters, defaults and ranges are its T3_PARAM lines; its label, storage
bits and size sweep its T3_SYNTH(label|storage|sweep) lines. The RTL itself
refuses values it cannot take (a Verilator elaboration before synthesis).

Flow: yosys synthesizes rtl/<b>.sv (with the modules it instantiates from
rtl/) and maps it onto ../shared/pdk/sky130hd_tt.lib.gz (typical corner,
25 C, 1.8 V), ABC aiming at --clock-ns less --flop-overhead-ps and kept off
the cells OpenROAD-flow-scripts marks dont-use on this library (lpflow,
probe); scripts/rebuffer.py rebuilds the deep buffer chains ABC makes on
high-fanout nets as balanced trees (--no-rebuffer: not); OpenSTA times the netlist against a clock of --clock-ns on clk_i (inputs and
outputs at the clock edge) and estimates its power.

Columns of the table (also <out>/synth_results.{json,csv}):
  cells, flops       standard cells in the netlist, and the flip-flops among them
  storage bits       the state the block holds by its own count (T3_SYNTH(storage))
  t3_mem bits        the bits held in instances of rtl/t3_mem.sv, the storage wrapper
  logic, storage um2 cell area outside and inside t3_mem instances: the flow keeps
                     t3_mem a module of its own through synthesis and counts its
                     cells as storage (0 while a block keeps its arrays in plain flops)
  with SRAM um2      logic + the t3_mem bits as SRAM macros at --sram-density
                     um2 a bit (the default, 24.1: OpenRAM's sky130_sram_1kbyte_1rw1r_32x256_8,
                     493.38 x 400.22 um for 8192 bits, its LEF in VLSIDA/sky130_sram_macros);
                     '-' without t3_mem bits
  slack ns           worst slack at --clock-ns (setup; recovery of an asynchronous reset)
  fmax MHz           the fastest clock this netlist meets: 1000 / (clock - slack)
  power mW           OpenSTA report_power at --clock-ns with every net but the clock
                     toggling in a cycle with probability --activity (set_power_activity
                     -global, duty 0.5) and the clock in every cycle; no wires
  critical path      the worst path's start and end, a flop named by its register

The figures are pre-layout: no placement, wires or clock tree. ABC buffers
high-fanout nets and sizes gates against a fixed load, standing in for what
a placer would do; the area omits routing. Good for comparing sizes and
seeing how a block scales, not for sign-off.

--sweep draws <out>/synth_sweep_<b>.png (scripts/plot_synth.py). --update-doc
writes the tables, with the command, date and commit, into docs/area_timing.md
between its <!-- synth:all:begin/end --> lines (--block all) or a block's
<!-- synth:sweep:<b>:begin/end --> lines (--sweep; the plot into docs/img/).
"""
import argparse
import csv
import datetime
import glob
import gzip
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import t3block  # noqa: E402
import rebuffer  # noqa: E402  (beside this script)
import plot_synth  # noqa: E402

ROOT = t3block.ROOT
LIB_GZ = os.path.join(ROOT, "..", "shared", "pdk", "sky130hd_tt.lib.gz")
DOC = os.path.join(ROOT, "docs", "area_timing.md")
MEM_MODULE = "t3_mem"
# Cells a flow must not pick, as OpenROAD-flow-scripts' sky130hd platform has
# them (DONT_USE_CELLS in flow/platforms/sky130hd/config.mk): the lpflow cells,
# made for several power domains (ABC otherwise buffers with the keep-alive
# lpflow_clkbufkapwr), and the probe cells.
DONT_USE = re.compile(r'\s*cell \("sky130_fd_sc_hd__(lpflow_\w+|probec?_p_8)"\) \{\s*$')

# The SRAM macro the density comes from: OpenRAM's 1 KiB dual-port (one
# read/write, one read) macro for sky130, SIZE 493.38 BY 400.22 in its LEF
# (github.com/VLSIDA/sky130_sram_macros at commit 0178860; the LEF at commit
# 6489706 says 493.38 BY 403.62, the copy in OpenLane's documentation
# 479.78 BY 397.5: 24.3 and 23.3 um2 a bit).
# A dfxtp_1's clock-to-Q (0.41-0.44 ns at the loads the subsystem's STA
# shows) and setup (0.13-0.14 ns), typical corner: what a flop-to-flop path
# loses outside the logic ABC times.
FLOP_OVERHEAD_PS = 550
SRAM_MACRO = "sky130_sram_1kbyte_1rw1r_32x256_8"
SRAM_DENSITY = 493.38 * 400.22 / 8192  # um2 a bit, periphery included

# From sky130 (taken as the 130 nm node) to a 7 nm node: A. Stillmaker and
# B. Baas, "Scaling equations for the accurate prediction of CMOS device
# performance from 180 nm to 7 nm", Integration, the VLSI Journal 58 (2017)
# 74-81. Area: their 130 -> 7 nm factor, 0.0092. Delay and energy: their
# fitted polynomials at each node's nominal supply, 130 nm at 1.3 V against
# 7 nm high-performance at 0.7 V: delay 3.239 / 31.96 = 0.101, energy a
# switching event 0.0478 / 6.301 = 0.0076 (their coefficients as transcribed
# in github.com/wromaszkan/nodeScale).
NODE = {"name": "7 nm", "area": 0.0092, "delay": 0.101, "energy": 0.0076}


def fail(msg):
    sys.stderr.write("synth: " + msg + "\n")
    sys.exit(2)


def progress(msg):
    sys.stderr.write("synth: " + msg + "\n")
    sys.stderr.flush()


def clog2(v):
    return max(0, math.ceil(math.log2(v))) if v > 1 else 0


def known_blocks():
    """Every block with a parameter list and RTL."""
    return [b for b in t3block.blocks() if os.path.exists(t3block.rtl_path(b))]


def storage_bits(block, params):
    expr = t3block.synth_hints(block).get("storage")
    if not expr:
        return None
    return int(eval(expr, {"__builtins__": {}}, dict(params, clog2=clog2, max=max)))


def label(block, params):
    fmt = t3block.synth_hints(block).get("label")
    return fmt.format(**params) if fmt else block


def liberty(out_dir):
    """The library, unzipped, its DONT_USE cells marked dont_use for ABC."""
    lib = os.path.join(out_dir, "sky130hd_tt_dont_use.lib")
    if not os.path.exists(lib):
        if not os.path.exists(LIB_GZ):
            fail("cell library not found at " + os.path.normpath(LIB_GZ))
        part = "%s.%d" % (lib, os.getpid())  # runs sharing --out may start together
        with gzip.open(LIB_GZ, "rt", encoding="latin-1") as src, \
                open(part, "w", encoding="latin-1") as dst:
            for line in src:
                dst.write(line)
                if DONT_USE.match(line):
                    dst.write("        dont_use : true ;\n")
        os.replace(part, lib)
    return lib


def run(cmd, log, timeout, what):
    """Runs a tool into its log; a progress line each minute it takes."""
    t0 = time.time()
    with open(log, "w") as f:
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT)
        while True:
            try:
                p.wait(timeout=60)
                break
            except subprocess.TimeoutExpired:
                minutes = (time.time() - t0) / 60
                if minutes * 60 > timeout:
                    p.kill()
                    p.wait()
                    fail("%s ran longer than --timeout %d s; see %s" % (cmd[0], timeout, log))
                progress("  %s running, %.0f min" % (what, minutes))
    if p.returncode != 0:
        tail = open(log).read().splitlines()[-15:]
        fail("%s failed (exit %d), see %s:\n  %s" % (cmd[0], p.returncode, log, "\n  ".join(tail)))


def register_name(point, netlist_text):
    """A flop instance (_123_, or u_x._123_ once flattened) named by the register
    net on its Q pin."""
    m = re.fullmatch(r"(.*?_\d+_)(/\w+)?", point)
    if not m:
        return point
    inst = re.search(r"sky130_fd_sc_hd__\w*df\w* \\?%s \((.*?)\);" % re.escape(m.group(1)),
                     netlist_text, re.S)
    q = re.search(r"\.Q\(([^)]*)\)", inst.group(1)) if inst else None
    return q.group(1).strip().lstrip("\\").replace(" ", "") if q else point


def elaborates(block, params):
    """None, or the RTL's own message refusing these parameters."""
    cmd = (["verilator", "--lint-only", "-y", os.path.join(ROOT, "rtl"), "--top-module", block]
           + t3block.rtl_sources(block) + ["-G%s=%d" % kv for kv in sorted(params.items())])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 0:
        return None
    msgs = re.findall(r"%(?:Warning-USERERROR|Error)[^:]*: [^:]*:\d+:\d+: (.*)", r.stdout + r.stderr)
    return "; ".join(msgs) or (r.stdout + r.stderr).strip()


def parse_stat(text):
    """yosys `stat` -> {module: {"cells": {type: n}, "area": um2}}."""
    mods = {}
    for m in re.finditer(r"^=== (.+?) ===\n(.*?)(?=^=== |\Z)", text, re.S | re.M):
        if m.group(1) == "design hierarchy":
            continue
        area = re.search(r"Chip area for module '.*?': ([\d.]+)", m.group(2))
        mods[m.group(1).lstrip("\\")] = {
            "cells": {t: int(n) for t, n in re.findall(r"^\s+(\S+)\s+(\d+)$", m.group(2), re.M)},
            "area": float(area.group(1)) if area else 0.0,
        }
    return mods


def is_flop(cell):
    return re.match(r"sky130_fd_sc_hd__(e|s)?df", cell) is not None


def is_mem(module):
    return module == MEM_MODULE or module.endswith("\\" + MEM_MODULE)


def mem_cells(mods, top):
    """Area, flops and instances of the t3_mem modules the top instantiates."""
    area = flops = instances = 0
    for sub, n in mods[top]["cells"].items():
        if is_mem(sub):
            area += n * mods[sub]["area"]
            flops += n * sum(k for c, k in mods[sub]["cells"].items() if is_flop(c))
            instances += n
    return area, flops, instances


def synthesize(block, params, opts, index):
    full = {p["name"]: p["default"] for p in t3block.params(block)}
    full.update(params)
    suffix = "_".join("%s%d" % (k.lower(), v) for k, v in sorted(params.items()))
    work = os.path.join(opts.out, block + ("_" + suffix if suffix else ""))
    os.makedirs(work, exist_ok=True)
    lib = liberty(opts.out)
    netlist = os.path.join(work, "netlist.v")
    netlist_abc = os.path.join(work, "netlist_abc.v")
    abc_target_ps = int(opts.clock_ns * 1000) - opts.flop_overhead_ps
    constr = os.path.join(work, "abc.constr")
    with open(constr, "w") as f:
        f.write("set_driving_cell sky130_fd_sc_hd__buf_2\nset_load 0.005\n")  # pF
    mems = "%s $paramod*\\%s" % (MEM_MODULE, MEM_MODULE)  # t3_mem as derived with parameters
    ys = os.path.join(work, "synth.ys")
    with open(ys, "w") as f:
        f.write(read_rtl(block, full))
        # Every module is flattened into the block but the storage wrapper,
        # whose cells are then counted apart (stat below).
        f.write("setattr -mod -set keep_hierarchy 1 %s\n" % mems)
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
        # ABC sees the logic between flops with its inputs arriving at 0 and
        # no setup at its outputs: its target is the period less a flop's
        # clock-to-Q and setup (--flop-overhead-ps), or a flop-to-flop path
        # that ABC thinks meets misses in STA by that much and ABC leaves its
        # weak buffers unsized.
        f.write("abc -D %d -constr %s -script %s -liberty %s\n" % (abc_target_ps, constr, script, lib))
        f.write("opt_clean -purge\n")
        f.write("tee -q -o %s stat -top %s -liberty %s\n" % (os.path.join(work, "stat_hier.txt"), block, lib))
        f.write("setattr -mod -unset keep_hierarchy %s\n" % mems)
        f.write("flatten\n")
        # OpenSTA's Verilog reader takes no concatenation on the left of an
        # assign, which yosys writes for nets a flattened hierarchy aliases
        # (the near-bank ALU's lane adders); splitting nets into bits avoids it.
        f.write("splitnets\n")
        f.write("opt_clean -purge\n")
        f.write("tee -q -o %s stat -liberty %s\n" % (os.path.join(work, "stat.txt"), lib))
        f.write("write_verilog -noattr -noexpr %s\n" % netlist_abc)
    t0 = time.time()
    run(["yosys", "-q", "-l", os.path.join(work, "yosys.log"), ys],
        os.path.join(work, "yosys.out"), opts.timeout, "[%s] yosys" % index)
    # ABC buffers a high-fanout net as a chain; a placer would build a tree.
    # scripts/rebuffer.py does that for the nets whose chains run deep
    # (its --help); --no-rebuffer times ABC's netlist as it is.
    rb = {"trees": 0, "removed": 0, "added": 0, "area": 0.0}
    if opts.no_rebuffer:
        shutil.copyfile(netlist_abc, netlist)
    else:
        try:
            text, rb = rebuffer.rebuffer(open(netlist_abc).read(), rebuffer.cell_areas(lib))
        except ValueError as e:
            fail("rebuffer: %s: %s" % (netlist_abc, e))
        open(netlist, "w").write(text)
    t_syn = time.time() - t0

    flat = parse_stat(open(os.path.join(work, "stat.txt")).read()).get(block)
    if not flat or not flat["area"]:
        fail("could not read cell count / area from " + os.path.join(work, "stat.txt"))
    cells = flat["cells"]
    unmapped = sorted(c for c in cells if c.startswith("$"))
    if unmapped:
        fail("cells left unmapped to the library: %s" % unmapped)
    # sky130 latches are the dlx*/dlr* cells (dlygate* are delay buffers).
    latches = sorted(c for c in cells if re.match(r"sky130_fd_sc_hd__dl[xr]", c))
    if latches:
        fail("latches in the netlist: %s" % latches)
    flops = sum(n for c, n in cells.items() if is_flop(c))
    storage_area, mem_bits, mem_instances = mem_cells(
        parse_stat(open(os.path.join(work, "stat_hier.txt")).read()), block)
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
        f.write("create_clock -name clk -period %g [get_ports clk_i]\n" % opts.clock_ns)
        f.write("set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]\n")
        f.write("set_output_delay 0 -clock clk [all_outputs]\n")
        f.write("report_checks -path_delay max -digits 3\n")
        f.write("report_worst_slack -digits 3\n")
        # Activity: the probability that a net toggles in a clock cycle
        # (OpenSTA's -activity); -global sets it on every net but the clock's.
        f.write("set_power_activity -global -activity %g -duty 0.5\n" % opts.activity)
        f.write("report_power -digits 6\n")
        f.write("exit\n")
    sta_log = os.path.join(work, "sta.log")
    run(["sta", "-no_splash", "-exit", tcl], sta_log, opts.timeout, "[%s] sta" % index)
    sta = open(sta_log).read()
    slack = re.search(r"worst slack\s+(-?[\d.]+)", sta)
    # The worst path of each path group (clk; async_default for reset recovery).
    paths = sorted((float(m.group(3)), m.group(1), m.group(2)) for m in re.finditer(
        r"^Startpoint: (\S+).*?^Endpoint: (\S+).*?^\s*(-?[\d.]+)\s+slack \(", sta, re.S | re.M))
    power = re.search(r"^Total\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", sta, re.M)
    if not slack or not power:
        errors = [l for l in sta.splitlines() if l.startswith("Error")][:5]
        fail("could not read the worst slack and the power from %s%s"
             % (sta_log, "".join("\n  " + e for e in errors)))
    ws = float(slack.group(1))
    min_period = opts.clock_ns - ws
    area = flat["area"] + rb["area"]
    watts = [float(power.group(i)) for i in range(1, 5)]
    return {
        "block": block,
        "label": label(block, full),
        "params": full,
        "cells": sum(cells.values()) + rb["added"] - rb["removed"],
        "flops": flops,
        "storage_bits": bits,
        "storage_kib": bits / 8192.0 if bits is not None else None,
        "mem_bits": mem_bits,
        "mem_instances": mem_instances,
        "area_um2": area,
        "logic_um2": area - storage_area,
        "storage_um2": storage_area,
        "sram_density_um2_per_bit": opts.sram_density,
        "with_sram_um2": area - storage_area + mem_bits * opts.sram_density if mem_bits else None,
        "clock_ns": opts.clock_ns,
        "abc_target_ps": abc_target_ps,
        "rebuffer": rb,
        "no_rebuffer": opts.no_rebuffer,
        "worst_slack_ns": ws,
        "min_period_ns": min_period,
        "fmax_mhz": 1000.0 / min_period,
        "activity": opts.activity,
        "power_mw": watts[3] * 1e3,
        "power_internal_mw": watts[0] * 1e3,
        "power_switching_mw": watts[1] * 1e3,
        "power_leakage_mw": watts[2] * 1e3,
        "critical_start": register_name(paths[0][1], text) if paths else "?",
        "critical_end": register_name(paths[0][2], text) if paths else "?",
        "constant_outputs": constant,
        "synth_s": round(t_syn, 1),
        "seconds": round(time.time() - t0, 1),
    }


def num(v, fmt="%d"):
    """A figure with thousands separated, '-' for none."""
    if v is None:
        return "-"
    return "{:,}".format(int(round(v))) if fmt == "%d" else fmt % v


def conditions(rows):
    """The lines that say how the table's figures were made."""
    clock = rows[0]["clock_ns"]
    mem = sum(r["mem_bits"] for r in rows)
    return [
        "sky130_fd_sc_hd (tt, 25 °C, 1.8 V), yosys + OpenSTA, pre-layout. Clock %g ns (%g MHz) "
        "for OpenSTA, ABC's delay target %g ns (the period less a flop's clock-to-Q and setup)%s; "
        "power at that clock, every net but the clock toggling in a cycle "
        "with probability %g (duty 0.5), no wires." % (
            clock, 1000.0 / clock, rows[0]["abc_target_ps"] / 1000.0,
            "" if rows[0]["no_rebuffer"] else
            ", its deep buffer chains rebuilt as trees (scripts/rebuffer.py)",
            rows[0]["activity"]),
        "Storage µm²: the cells inside t3_mem instances (%s); logic µm²: all other cells. "
        "With SRAM: logic + the t3_mem bits as SRAM macros at %.1f µm² a bit (%s)." % (
            "%s bits in t3_mem" % num(mem) if mem else
            "none of these configurations instantiates t3_mem: storage is 0 and every flop counts as logic",
            rows[0]["sram_density_um2_per_bit"], SRAM_MACRO),
    ]


def table(rows):
    """The results as a Markdown table, one row a configuration."""
    hdr = ("block", "config", "cells", "flops", "storage bits", "t3_mem bits", "logic µm²",
           "storage µm²", "with SRAM µm²", "slack ns", "fmax MHz", "power mW", "run s",
           "critical path")
    out = ["| " + " | ".join(hdr) + " |", "|" + "|".join("---" for _ in hdr) + "|"]
    for r in rows:
        out.append("| " + " | ".join([
            r["block"], r["label"], num(r["cells"]), num(r["flops"]), num(r["storage_bits"]),
            num(r["mem_bits"]), num(r["logic_um2"]), num(r["storage_um2"]),
            num(r["with_sram_um2"]), "%.3f" % r["worst_slack_ns"], "%.1f" % r["fmax_mhz"],
            "%.2f" % r["power_mw"], "%.0f" % r["seconds"],
            "`%s` → `%s`" % (r["critical_start"], r["critical_end"])]) + " |")
    return out


def storage_table(rows):
    """Each configuration's state: its bits, the flops and what SRAM would take."""
    out = ["| block | config | storage bits | KiB | flops | t3_mem bits | storage bits as SRAM mm² "
           "| at %s mm² |" % NODE["name"], "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        bits = r["storage_bits"]
        sram = [None, None] if bits is None else [
            bits * r["sram_density_um2_per_bit"] / 1e6 * f for f in (1, NODE["area"])]
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["block"], r["label"], num(bits), num(r["storage_kib"], "%.2f"), num(r["flops"]),
            num(r["mem_bits"]), num(sram[0], "%.3f"), num(sram[1], "%.4f")))
    return out


def node_table(rows):
    """The figures scaled to a modern node (NODE)."""
    n = NODE["name"]
    out = ["| block | config | area mm² | at %s | fmax MHz | at %s | power mW | at %s, same clock |"
           % (n, n, n), "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| %s | %s | %.3f | %.4f | %.0f | %.0f | %.2f | %.3f |" % (
            r["block"], r["label"], r["area_um2"] / 1e6, r["area_um2"] / 1e6 * NODE["area"],
            r["fmax_mhz"], r["fmax_mhz"] / NODE["delay"], r["power_mw"],
            r["power_mw"] * NODE["energy"]))
    return out


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


def configs_of(block, a):
    """The parameter sets to synthesize for a block: its sweep or one point."""
    known = {p["name"]: p for p in t3block.params(block)}
    rtl = t3block.rtl_params(block)
    listed = {n: p["default"] for n, p in known.items()}
    if rtl != listed:
        fail("parameters of rtl/%s.sv %s differ from hw/%s/%s_params.def %s; "
             "scripts/check_params.py --block %s says more" % (block, rtl, block, block, listed, block))
    params = parse_point(block, " ".join(a.param), known)
    if a.sweep is None:
        return [params]
    sweep = a.sweep if isinstance(a.sweep, str) else t3block.synth_hints(block).get("sweep")
    if not sweep:
        if a.block != "all":
            fail("%s has no sweep (a T3_SYNTH(sweep, ...) line in its parameter list); "
                 "give the points: --sweep 'A=1 B=2 | A=3'" % block)
        progress("%s has no T3_SYNTH(sweep) line: its defaults only" % block)
        return [params]
    points = [parse_point(block, pt, known) for pt in sweep.split("|")]
    swept = set(k for pt in points for k in pt)
    if swept & set(params):
        fail("--sweep sets %s itself; drop --param %s" % (", ".join(sorted(swept)),
                                                          ", ".join(sorted(swept & set(params)))))
    return [dict(pt, **params) for pt in points]


def command_line():
    """This run's command as the doc shows it: work-folder options left out."""
    args, skip = [], False
    for arg in sys.argv[1:]:
        if skip:
            skip = False
        elif arg in ("--out", "--timeout"):
            skip = True
        elif not arg.startswith(("--out=", "--timeout=")):
            args.append(shlex.quote(arg))
    return "scripts/synth.py " + " ".join(args)


def provenance(minutes):
    """Date, commit, uncommitted RTL and tool versions of this run."""
    def out(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        return r.stdout.rstrip() if r.returncode == 0 else ""
    commit = out(["git", "rev-parse", "--short", "HEAD"])
    changed = ["%s (%s)" % (l[3:], "new" if l.startswith("??") else "changed")
               for l in out(["git", "status", "--porcelain", "--", "rtl"]).splitlines()]
    rtl = "the RTL of commit %s" % commit if commit else "the RTL (not a git checkout)"
    if changed:
        rtl += ", uncommitted: %s" % ", ".join(changed)
    return "%s, %s; %s, OpenSTA %s; %.0f min on this machine" % (
        datetime.date.today().isoformat(), rtl, out(["yosys", "-V"]).split(" (")[0],
        out(["sta", "-version"]), minutes)


def update_doc(key, body, heading):
    """Puts body between the doc's <!-- synth:KEY:begin/end --> lines, or, the
    first time, at its end under heading."""
    text = open(DOC, encoding="utf-8").read()
    begin, end = "<!-- synth:%s:begin -->" % key, "<!-- synth:%s:end -->" % key
    section = "%s\n%s\n%s" % (begin, body, end)
    if begin in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n%s\n\n%s\n" % (heading, section)
    open(DOC, "w", encoding="utf-8").write(text)


def write_docs(a, rows, plots, minutes):
    head = ["`%s` (%s):" % (command_line(), provenance(minutes))]
    for line in conditions(rows):
        head += ["", line]
    head.append("")
    if a.sweep is None:
        body = head + table(rows) + [""]
        met = [r["block"] for r in rows if r["worst_slack_ns"] >= 0]
        missed = ["%s (%.0f MHz)" % (r["block"], r["fmax_mhz"]) for r in rows if r["worst_slack_ns"] < 0]
        body.append("Meet the %g ns clock: %s. Miss it: %s." % (
            rows[0]["clock_ns"], ", ".join(met) or "none", ", ".join(missed) or "none"))
        body += ["", "Outputs the netlist ties to a constant: %s." % (
            "; ".join("%s %s" % (r["block"], ", ".join(r["constant_outputs"]))
                      for r in rows if r["constant_outputs"]) or "none")]
        body += ["", "Storage: SRAM macros at %.1f µm² a bit (%s); at %s area × %g:" % (
            rows[0]["sram_density_um2_per_bit"], SRAM_MACRO, NODE["name"], NODE["area"]), ""]
        body += storage_table(rows)
        body += ["", "At %s: area × %g, delay × %g, energy a switching event × %g:" % (
            NODE["name"], NODE["area"], NODE["delay"], NODE["energy"]), ""]
        body += node_table(rows)
        update_doc("all", "\n".join(body), "## All blocks")
        return
    img = os.path.join(ROOT, "docs", "img")
    os.makedirs(img, exist_ok=True)
    for block in sorted(set(r["block"] for r in rows)):
        body = head + table([r for r in rows if r["block"] == block])
        if block in plots:
            name = os.path.basename(plots[block])
            shutil.copyfile(plots[block], os.path.join(img, name))
            body += ["", "![%s sweep](img/%s)" % (block, name)]
        update_doc("sweep:%s" % block, "\n".join(body), "### %s" % block)


def read_rtl(block, full):
    """The yosys commands that read the RTL and elaborate the block at the
    parameters `full` (every one set), its top renamed back to the block."""
    lines = []
    # Packages first: a module that imports one needs it read before.
    for src in sorted(glob.glob(os.path.join(ROOT, "rtl", "*.sv")),
                      key=lambda p: (not p.endswith("_pkg.sv"), p)):
        lines.append("read_verilog -sv %s" % src)
    # Every parameter set, defaults too: a configuration is then always
    # elaborated the same way, and ABC, sensitive to the netlist's order,
    # gives it the same figures whichever command names it.
    lines.append("chparam %s %s" % (" ".join("-set %s %d" % kv for kv in sorted(full.items())), block))
    # A top derived with parameters is named $paramod\<block>\...; its name back.
    lines.append("hierarchy -check -top %s\nrename -top %s" % (block, block))
    return "\n".join(lines) + "\n"


def elaborate_only(block, params, opts):
    """yosys reads and elaborates the block at the parameters and turns its
    processes into cells; fails on a latch or a problem `check` finds. No
    mapping, no figures: the quick test of a composition's glue."""
    full = {p["name"]: p["default"] for p in t3block.params(block)}
    full.update(params)
    work = os.path.join(opts.out, block + "_elaborate")
    os.makedirs(work, exist_ok=True)
    ys = os.path.join(work, "elaborate.ys")
    with open(ys, "w") as f:
        f.write(read_rtl(block, full))
        f.write("proc\ncheck -assert\nselect -assert-none t:$dlatch* t:$_DLATCH*\n")
    t0 = time.time()
    run(["yosys", "-q", "-l", os.path.join(work, "yosys.log"), ys], os.path.join(work, "yosys.out"),
        opts.timeout, "yosys")
    print("%s %s: elaborated by yosys, processes without a latch, check clean (%.0f s)"
          % (block, label(block, full), time.time() - t0))


def main():
    blocks = known_blocks()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", help="the block to synthesize, or all (known: %s)" % ", ".join(blocks))
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="override an RTL parameter, e.g. --param SETS=16 (repeatable; one block "
                         "only); with --sweep it applies to every point")
    ap.add_argument("--sweep", nargs="?", const=True, metavar="POINTS",
                    help="synthesize the block's size sweep: its T3_SYNTH(sweep) points, or "
                         "POINTS given as 'A=1 B=2 | A=3' (one block); the Tracker's take about "
                         "20 minutes")
    ap.add_argument("--clock-ns", type=float, default=4.0,
                    help="clock period for ABC's delay target, OpenSTA and the power "
                         "(default 4: the 250 MHz the blocks aim at)")
    ap.add_argument("--flop-overhead-ps", type=int, default=FLOP_OVERHEAD_PS, metavar="PS",
                    help="taken off the period for ABC's delay target: a flop's clock-to-Q "
                         "and setup, which ABC does not see (default %d; 0: the period)"
                         % FLOP_OVERHEAD_PS)
    ap.add_argument("--no-rebuffer", action="store_true",
                    help="time ABC's netlist as it is, without scripts/rebuffer.py's trees")
    ap.add_argument("--activity", type=float, default=0.1,
                    help="probability that a net toggles in a clock cycle, for the power "
                         "(default 0.1; the clock toggles every cycle)")
    ap.add_argument("--sram-density", type=float, default=round(SRAM_DENSITY, 1), metavar="UM2",
                    help="SRAM macro area a bit in um^2 for the 'with SRAM' column (default %.1f: "
                         "%s)" % (SRAM_DENSITY, SRAM_MACRO))
    ap.add_argument("--elaborate", action="store_true",
                    help="only read and elaborate the RTL with yosys and check it (no latch, "
                         "`check` clean): no mapping, no timing, no table")
    ap.add_argument("--dry-run", action="store_true",
                    help="list the configurations and their storage bits, check that the RTL "
                         "takes them, and stop")
    ap.add_argument("--update-doc", action="store_true",
                    help="write the results into docs/area_timing.md (--block all at the "
                         "defaults, or --sweep)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "synth"), help="work folder")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per tool run (default 3600)")
    a = ap.parse_args()

    if not a.block:
        fail("--block is required; known: all, %s" % ", ".join(blocks))
    if a.block != "all" and a.block not in blocks:
        fail("--block = '%s' is not known; allowed: all, %s" % (a.block, ", ".join(blocks)))
    if a.block == "all" and (a.param or isinstance(a.sweep, str)):
        fail("--param and --sweep POINTS name one block's parameters; give --block too")
    if a.update_doc and a.param:
        fail("--update-doc writes the defaults and the sweeps; drop --param")
    if a.update_doc and a.sweep is None and a.block != "all":
        fail("--update-doc without --sweep writes the all-blocks table; use --block all")
    if not (0.5 <= a.clock_ns <= 1000):
        fail("--clock-ns = %g is out of range; allowed: 0.5..1000" % a.clock_ns)
    if not (0 <= a.flop_overhead_ps < a.clock_ns * 500):
        fail("--flop-overhead-ps = %d is out of range; allowed: 0..%d (under half the period)"
             % (a.flop_overhead_ps, int(a.clock_ns * 500) - 1))
    if not (0 <= a.activity <= 1):
        fail("--activity = %g is out of range; allowed: 0..1" % a.activity)
    if not (0 < a.sram_density <= 1000):
        fail("--sram-density = %g is out of range; allowed: above 0, up to 1000" % a.sram_density)
    for tool in ("yosys", "sta", "verilator"):
        if not shutil.which(tool):
            fail("%s not found; run scripts/setup.sh" % tool)
    jobs = [(b, c) for b in (blocks if a.block == "all" else [a.block]) for c in configs_of(b, a)]
    for b, c in jobs:
        why = elaborates(b, c)
        if why:
            fail("rtl/%s.sv refuses %s: %s" % (b, c, why))
    if a.elaborate:
        if a.update_doc:
            fail("--elaborate makes no figures to write; drop --update-doc")
        a.out = os.path.abspath(a.out)
        for b, c in jobs:
            elaborate_only(b, c, a)
        return
    if a.dry_run:
        for b, c in jobs:
            full = {p["name"]: p["default"] for p in t3block.params(b)}
            full.update(c)
            bits = storage_bits(b, full)
            print("%s %s: %s storage bits%s" % (b, label(b, full), num(bits),
                                                "" if bits is None else " (%.2f KiB)" % (bits / 8192.0)))
        return
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)

    rows = []
    t0 = time.time()
    for i, (b, c) in enumerate(jobs):
        index = "%d/%d" % (i + 1, len(jobs))
        progress("[%s] %s %s ..." % (index, b, " ".join("%s=%d" % kv for kv in sorted(c.items()))
                                     or "at its defaults"))
        rows.append(synthesize(b, c, a, index))
        r = rows[-1]
        progress("[%s] %s %s: %s cells, %.0f µm², fmax %.1f MHz, %.2f mW (%.0f s)" % (
            index, b, r["label"], num(r["cells"]), r["area_um2"], r["fmax_mhz"], r["power_mw"],
            r["seconds"]))

    with open(os.path.join(a.out, "synth_results.json"), "w") as f:
        json.dump(rows, f, indent=2)
    with open(os.path.join(a.out, "synth_results.csv"), "w", newline="") as f:
        keys = ["block", "label", "cells", "flops", "storage_bits", "storage_kib", "mem_bits",
                "mem_instances", "area_um2", "logic_um2", "storage_um2", "with_sram_um2",
                "sram_density_um2_per_bit", "clock_ns", "worst_slack_ns", "min_period_ns",
                "fmax_mhz", "activity", "power_mw", "power_internal_mw", "power_switching_mw",
                "power_leakage_mw", "critical_start", "critical_end", "seconds"]
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    plots = plot_synth.plot_all(rows, a.out) if a.sweep is not None else {}
    print("\n".join(conditions(rows)))
    print("\n".join(table(rows)))
    for r in rows:
        if r["constant_outputs"]:
            print("outputs the netlist ties to a constant (%s %s): %s"
                  % (r["block"], r["label"], ", ".join(r["constant_outputs"])))
    print("results: %s/synth_results.{json,csv}" % a.out)
    for block, path in sorted(plots.items()):
        print("plot: %s" % path)
    if a.update_doc:
        write_docs(a, rows, plots, (time.time() - t0) / 60)
        print("written to %s" % DOC)


if __name__ == "__main__":
    main()
