#!/usr/bin/python3
"""A block from one description: reads hw/<block>/<block>.yaml (parameters,
derived values, synthesis hints, pins, co-simulated configurations, build
links, how the core meets the registers, an address map, registers and
interrupts) and writes what the C++, the RTL, CMake and the scripts read:

  hw/<block>/<block>_params.def  the parameter list and derived values (hw/common/params.h)
  hw/<block>/<block>_pins.h      the pin list and the block's traits (hw/common/pins.h)
  hw/<block>/<block>_sc.{h,cpp}  the SystemC module
  for a block with registers, what scripts/reggen.py makes of them:
  rtl/<block>_reg_{pkg,top}.sv, hw/<block>/<block>_regs.{h,cpp},
  firmware/include/t3/<block>_regs.h, docs/registers/<block>.md
  for a block with a `core` section, its boundary: rtl/<block>.sv (the
  RTL top) and hw/<block>/<block>.h (the C++ glue)
  for a composition with `windows`, its address map: rtl/<block>_map_pkg.sv,
  hw/<block>/<block>_map.h, firmware/include/t3/<block>_map.h

The generated files are committed. --check writes nothing and fails, naming
the file, when a committed file differs from what the description gives
(stale, or edited by hand); ctest runs it (blockgen_check). --cmake FILE
also writes the build's view of every block: configuring the build runs
that (the build finds blocks by their folders, hw/<block>/<block>.yaml);
with --keep (CMake's T3_BLOCKGEN_KEEP) it writes the build's view alone.

usage: scripts/blockgen.py [--block B ...] [--check] [--out DIR] [--desc FILE] [--cmake FILE [--keep]]
"""
import argparse
import difflib
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import blockexpr  # noqa: E402
import reggen  # noqa: E402
import t3block  # noqa: E402

ROOT = reggen.ROOT
NAME = reggen.NAME
DescError = reggen.DescError
fail = reggen.fail
PARAM = re.compile(r"^[A-Z][A-Z0-9_]*$")
PIN = re.compile(r"^[a-z][a-z0-9_]*_(i|ni|o)$")
FIELD = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")
BUILD_KEYS = ("uses", "cosim_libs", "test_libs", "demo_libs", "bench_libs", "unit_libs")
TOP_KEYS = ("block", "desc", "params", "derived", "synth", "pins", "configs", "build",
            "core", "hw2reg", "windows", "busy", "interrupts", "registers")
CORE_FIELD = re.compile(r"^[a-z][a-z0-9_]*(\[\d+\])?(\.[a-z][a-z0-9_]*(\[\d+\])?)*$")
SOURCE = re.compile(r"^([a-z][a-z0-9_]*_o)(?:\[(\d+):(\d+)\])?$")
MAX_PARAM = 1 << 32


camel = reggen.camel


def expr(where, key, text, names):
    """An expression of the description (scripts/blockexpr.py), or a named error."""
    try:
        return blockexpr.parse(text, names)
    except blockexpr.ExprError as e:
        fail(where, "%s = %s" % (key, e))


def sv_width(tree):
    """A width in SystemVerilog as an operand (of `-1` or of a cast `W'(x)`)."""
    e = blockexpr.sv(tree)
    return e if re.match(r"^[A-Z0-9_]+$", e) else "(%s)" % e


def sv_range(tree):
    """The packed range of a width in SystemVerilog ('' for one bit)."""
    if blockexpr.is_const(tree):
        w = blockexpr.value(tree, {})
        return "" if w == 1 else "[%d:0]" % (w - 1)
    return "[%s-1:0]" % sv_width(tree)


def input_exprs(tree, src, cpp_names, cxx_type):
    """A register-driven core input in SystemVerilog and C++: the fields
    concatenated (the first the most significant), cut to the port's width."""
    total = sum(f["width"] for f in src)
    if len(src) == 1:
        sv, cpp = "reg2hw." + src[0]["member"], "r." + src[0]["member"]
    else:
        sv = "{%s}" % ", ".join("reg2hw." + f["member"] for f in src)
        terms, shift = [], total
        for f in src:
            shift -= f["width"]
            terms.append("uint64_t(r.%s) << %d" % (f["member"], shift) if shift else "r." + f["member"])
        cpp = " | ".join(terms)
    const = blockexpr.is_const(tree)
    w = blockexpr.value(tree, {}) if const else None
    if not (const and w == total):
        sv = "%s'(%s)" % (sv_width(tree), sv)
        if w == 1:
            cpp = "%s & 1u" % ("(%s)" % cpp if " " in cpp else cpp)
        else:
            cpp = "%s & low_mask(%s)" % ("(%s)" % cpp if " " in cpp else cpp, str(w) if const else blockexpr.cpp(tree, cpp_names.get))
    if w == 1:
        cpp = "(%s) != 0" % cpp if " " in cpp else "%s != 0" % cpp
    if cxx_type:
        cpp = "%s(%s)" % (cxx_type, cpp)
    return dict(width=tree, sv=sv, cpp=cpp)


def load_core(where, d, pins, regs, names, cpp_names):
    """The `core` and `hw2reg` sections: how the hand-written core meets the
    generated register block. Every register field the core can read drives
    a core input; every value the registers show has a source."""
    core = d["core"] or {}
    for k in core:
        if k not in ("inputs", "outputs", "include"):
            fail("%s: core" % where, "unknown key '%s'; allowed: inputs, outputs, include" % k)
    if not regs:
        fail("%s: core" % where, "a block with a core section has registers")
    # reg2hw members: what the core may read (the interrupt registers are the
    # register block's own: it drives intr_o).
    r2h, h2r = {}, {}
    for r in regs["registers"]:
        for f in r["fields"]:
            key = "%s.%s" % (r["name"], f["name"])
            if f["access"] != "ro" and not r["name"].startswith("intr_"):
                r2h[key] = dict(member="%s_%s" % (r["name"], f["name"]), width=f["width"])
            if f["access"] in ("ro", "w1c"):
                k2 = key + (".set" if f["access"] == "w1c" else "")
                h2r[k2] = dict(member="%s_%s%s" % (r["name"], f["name"], "_set" if f["access"] == "w1c" else ""),
                               width=f["width"])
    if regs["has_busy"]:
        h2r["busy"] = dict(member="busy", width=1)
    outs = {p["name"]: dict(field=p["field"], wire=p["name"], width=p["width"])
            for p in pins if not p["apb"] and p["dir"] == "out"}
    seen = set(p["name"] for p in pins if not p["apb"])
    inputs, outputs, used = [], [], set()
    for n, c in enumerate(core.get("inputs", []) or []):
        cw = "%s: core input %s" % (where, c.get("port", n + 1))
        for k in c:
            if k not in ("port", "width", "field", "from", "cxx"):
                fail(cw, "unknown key '%s'; allowed: port, width, field, from, cxx" % k)
        for k in ("port", "width", "field", "from"):
            if k not in c:
                fail(cw, "missing '%s'" % k)
        if not re.match(r"^[a-z][a-z0-9_]*_i$", str(c["port"])) or c["port"] in seen:
            fail(cw, "port: a new name ending _i (the core's input)")
        seen.add(c["port"])
        if not CORE_FIELD.match(str(c["field"])):
            fail(cw, "field = %r: a member (a.b, a[0]) of the core's C++ inputs" % c["field"])
        tree = expr(cw, "width", c["width"], names)
        parts = c["from"] if isinstance(c["from"], list) else [c["from"]]
        src = []
        for f in parts:
            if f not in r2h:
                fail(cw, "from = %r: not a register field the core can read (register.field, RW, W1C "
                         "or W1P); known: %s" % (f, ", ".join(sorted(r2h))))
            src.append(r2h[f])
            used.add(f)
        inputs.append(dict(port=c["port"], field=c["field"], **input_exprs(tree, src, cpp_names, c.get("cxx"))))
    for n, c in enumerate(core.get("outputs", []) or []):
        cw = "%s: core output %s" % (where, c.get("port", n + 1))
        for k in ("port", "width", "field"):
            if k not in c:
                fail(cw, "missing '%s'" % k)
        if not re.match(r"^[a-z][a-z0-9_]*_o$", str(c["port"])) or c["port"] in seen:
            fail(cw, "port: a new name ending _o (the core's output)")
        seen.add(c["port"])
        if not CORE_FIELD.match(str(c["field"])):
            fail(cw, "field = %r: a member (a.b) of the core's C++ outputs" % c["field"])
        width = expr(cw, "width", c["width"], names)
        o = dict(port=c["port"], field=c["field"], wire=c["port"][:-2], width=width, sv=sv_range(width))
        outputs.append(o)
        outs[c["port"]] = o
    unread = sorted(set(r2h) - used)
    if unread:
        fail("%s: core" % where, "register field(s) %s drive no core input" % ", ".join(unread))

    hw2reg = []
    given = d.get("hw2reg") or {}
    for key, text in given.items():
        hw = "%s: hw2reg %s" % (where, key)
        if key not in h2r:
            fail(hw, "not a value the registers show (register.field of an RO field, "
                     "register.field.set of a W1C one, busy); known: %s" % ", ".join(sorted(h2r)))
        m = SOURCE.match(str(text).strip())
        dst = h2r[key]
        if m:
            if m.group(1) not in outs:
                fail(hw, "%s is not an output of the core (its pins and core.outputs); known: %s"
                     % (m.group(1), ", ".join(sorted(outs))))
            o = outs[m.group(1)]
            lo = int(m.group(3)) if m.group(2) else None
            if m.group(2) and int(m.group(2)) - lo + 1 != dst["width"]:
                fail(hw, "[%s:%s] is %d bits, the field %d" % (m.group(2), m.group(3),
                                                                int(m.group(2)) - lo + 1, dst["width"]))
            one = blockexpr.is_const(o["width"]) and blockexpr.value(o["width"], {}) == 1
            if lo:
                svx = "%d'(%d'(%s) >> %d)" % (dst["width"], int(m.group(2)) + 1, o["wire"], lo)
                cxx = "uint32_t(uint64_t(o.%s) >> %d)" % (o["field"], lo)
            elif one and dst["width"] == 1:
                svx, cxx = o["wire"], "o.%s" % o["field"]
            else:
                svx, cxx = "%d'(%s)" % (dst["width"], o["wire"]), "uint32_t(o.%s)" % o["field"]
        else:
            tree = expr(hw, "source", text, names)
            svx = "%d'(%s)" % (dst["width"], blockexpr.sv(tree))
            cxx = "uint32_t(%s)" % blockexpr.cpp(tree, cpp_names.get)
        hw2reg.append(dict(member=dst["member"], sv=svx, cpp=cxx))
    missing = sorted(set(h2r) - set(given))
    if missing:
        fail("%s: hw2reg" % where, "no source for %s" % ", ".join(missing))
    include = core.get("include")
    if include is not None and not re.match(r"^[a-z0-9_/]+\.h$", str(include)):
        fail("%s: core.include" % where, "a header path under hw/ (block/file.h)")
    return dict(inputs=inputs, outputs=outputs, hw2reg=hw2reg, include=include)


def load_windows(where, d, pins, build):
    """A composition's address map: the register window (4 KiB) of each block
    instance it holds, in its APB space (the `apb: {addr_w: N}` pin). A
    window's name is the instance's; `block` names the block of build.uses
    it is, when the name is not (two instances of one block: a switch's two
    region tables)."""
    aw = [p["addr_w"] for p in pins if p["apb"] and p["addr_w"]]
    if not aw:
        fail(where, "windows: the block has the `apb: {addr_w: N}` pins (the space the windows share)")
    space = 1 << aw[0]
    out, bases = [], set()
    for n, w in enumerate(d["windows"] or []):
        ww = "%s: window %s" % (where, w.get("name", n + 1))
        if not {"name", "base"} <= set(w) <= {"name", "block", "base"}:
            fail(ww, "{name: <an instance>, block: <a block of build.uses, if not the name>, "
                     "base: <a multiple of 0x%x>}" % reggen.WINDOW)
        blk = w.get("block", w["name"])
        if blk not in build.get("uses", []):
            fail(ww, "%s = %s: a block of build.uses (%s)" % ("block" if "block" in w else "name", blk,
                                                               ", ".join(build.get("uses", []))))
        if not isinstance(w["name"], str) or not re.match(r"^[a-z][a-z0-9_]*$", w["name"]):
            fail(ww, "name = %r: lower case, digits and _ (a C and SV identifier)" % (w["name"],))
        b = w["base"]
        if not isinstance(b, int) or b % reggen.WINDOW or not 0 <= b < space:
            fail(ww, "base = %r: a multiple of 0x%x below 0x%x (APB addr_w %d)" % (b, reggen.WINDOW, space, aw[0]))
        if b in bases or w["name"] in [x["name"] for x in out]:
            fail(ww, "name or base used twice")
        bases.add(b)
        out.append(dict(name=w["name"], block=blk, base=b, page=b // reggen.WINDOW))
    if not out:
        fail(where, "windows: at least one")
    return dict(list=out, addr_w=aw[0], pages=space // reggen.WINDOW)


def load(block, path=None, root=ROOT):
    """The description of block (path: another file than hw/<block>/<block>.yaml);
    the generated files name it relative to root, the tree they go to."""
    path = path or os.path.join(ROOT, "hw", block, block + ".yaml")
    if not os.path.exists(path):
        fail(path, "no block description")
    where = os.path.relpath(path, root)
    try:
        d = yaml.safe_load(open(path, encoding="utf-8"))
    except yaml.YAMLError as e:
        fail(where, "not YAML: %s" % e)
    if not isinstance(d, dict):
        fail(where, "a mapping of %s" % ", ".join(TOP_KEYS))
    for k in d:
        if k not in TOP_KEYS:
            fail(where, "unknown key '%s'; allowed: %s" % (k, ", ".join(TOP_KEYS)))
    for k in ("block", "desc", "params", "pins", "configs"):
        if k not in d:
            fail(where, "missing '%s'" % k)
    if d["block"] != block:
        fail(where, "block = %r, expected %r (the folder's name)" % (d["block"], block))

    params, seen = [], set()
    for p in d["params"]:
        pw = "%s: parameter %s" % (where, p.get("name", "?"))
        for k in ("name", "field", "default", "min", "max", "desc"):
            if k not in p:
                fail(pw, "missing '%s'" % k)
        if not PARAM.match(p["name"]):
            fail(pw, "name: upper case, digits and '_' (the RTL's)")
        if not NAME.match(p["field"]):
            fail(pw, "field: lower case, digits and '_' (the C++ member)")
        if p["name"] in seen:
            fail(pw, "name used twice")
        seen.add(p["name"])
        rule = p.get("rule", "any")
        if rule not in ("any", "pow2"):
            fail(pw, "rule = %r; allowed: any, pow2" % rule)
        lo, hi, df = p["min"], p["max"], p["default"]
        if not all(isinstance(v, int) and 0 <= v < MAX_PARAM for v in (lo, hi, df)):
            fail(pw, "default, min and max: integers 0..2^32-1")
        if not lo <= hi:
            fail(pw, "min = %d > max = %d" % (lo, hi))
        if not t3block.in_range(dict(lo=lo, hi=hi, rule=rule), df):
            fail(pw, "default = %d is outside its own range (%d..%d, %s)" % (df, lo, hi, rule))
        if '"' in str(p["desc"]) or "\\" in str(p["desc"]):
            fail(pw, "desc: no '\"' or '\\\\' (a C string of the generated list)")
        params.append(dict(name=p["name"], field=p["field"], default=df, lo=lo, hi=hi, rule=rule,
                           desc=" ".join(str(p["desc"]).split())))
    if not params:
        fail(where, "params: at least one")
    pnames = {p["name"]: p for p in params}

    derived, names = [], set(pnames)
    for x in d.get("derived", []) or []:
        xw = "%s: derived %s" % (where, x.get("name", "?"))
        if "name" not in x or not PARAM.match(x["name"]) or x["name"] in names:
            fail(xw, "name: upper case, not a parameter's or an earlier derived value's")
        if "expr" not in x:
            fail(xw, "missing 'expr' (an expression of the parameters and earlier derived values)")
        tree = expr(xw, "expr", x["expr"], names)
        names.add(x["name"])
        derived.append(dict(name=x["name"], method=x["name"].lower(), desc=" ".join(str(x.get("desc", "")).split()),
                            tree=tree, sv=blockexpr.sv(tree),
                            cpp=blockexpr.cpp(tree, lambda n: "uint64_t{%s}" % (
                                pnames[n]["field"] if n in pnames else n.lower() + "()"))))
    # What a width's names are in C++: a parameter's field, a derived
    # value's method.
    cpp_names = {n: "p." + q["field"] for n, q in pnames.items()}
    cpp_names.update({x["name"]: "p.%s()" % x["method"] for x in derived})

    synth = d.get("synth", {}) or {}
    for k in synth:
        if k not in ("label", "storage", "sweep", "small"):
            fail("%s: synth" % where, "unknown key '%s'; allowed: label, storage, sweep, small" % k)
    if "small" in synth:
        sm = synth["small"]
        if not (isinstance(sm, dict) and isinstance(sm.get("params"), dict) and "label" in sm and
                re.match(r"^[0-9,]+$", str(sm.get("storage", "")))):
            fail("%s: synth.small" % where, "{params: {NAME: value, ...}, label: L, storage: \"1,234\"}")
        for k in sm["params"]:
            if k not in [p["name"] for p in params]:
                fail("%s: synth.small" % where, "%s is not a parameter" % k)

    pins, pin_names = [], set()
    for n, p in enumerate(d["pins"]):
        pw = "%s: pin %d" % (where, n + 1)
        if p == "apb":
            pins.append(dict(apb=True, addr_w=None))
            continue
        if isinstance(p, dict) and "apb" in p:
            aw = (p["apb"] or {}).get("addr_w")
            if not isinstance(aw, int) or not 12 <= aw <= 32:
                fail(pw, "apb: {addr_w: N}, N 12..32 (a 4 KiB window is 12)")
            pins.append(dict(apb=True, addr_w=aw))
            continue
        for k in ("pin", "width", "field"):
            if k not in p:
                fail(pw, "missing '%s' (or write `apb`)" % k)
        pw = "%s: pin %s" % (where, p["pin"])
        if not PIN.match(p["pin"]):
            fail(pw, "name: lower case, ending _i or _ni (input) or _o (output)")
        if p["pin"] in pin_names:
            fail(pw, "name used twice")
        pin_names.add(p["pin"])
        if not FIELD.match(str(p["field"])):
            fail(pw, "field = %r: a member (or a.b) of the Inputs/Outputs struct" % p["field"])
        tree = expr(pw, "width", p["width"], names)
        pins.append(dict(apb=False, name=p["pin"], dir="out" if p["pin"].endswith("_o") else "in",
                         cpp=blockexpr.cpp(tree, cpp_names.get), sv=sv_range(tree), field=p["field"],
                         width=tree))
    if not any(p["apb"] for p in pins) and d.get("registers"):
        fail(where, "pins: a block with registers has the `apb` pins")

    configs, cnames = [], set()
    for c in d["configs"]:
        cw = "%s: config %s" % (where, c.get("name", "?"))
        if "name" not in c or not NAME.match(str(c["name"])):
            fail(cw, "name: lower case, digits and '_'")
        if c["name"] in cnames:
            fail(cw, "name used twice")
        cnames.add(c["name"])
        over = c.get("params", {}) or {}
        for k, v in over.items():
            if k not in pnames:
                fail(cw, "%s is not a parameter; known: %s" % (k, ", ".join(pnames)))
            q = pnames[k]
            if not (isinstance(v, int) and t3block.in_range(q, v)):
                fail(cw, "%s = %r is out of range; allowed: %s" % (k, v, t3block.range_text(q)))
        configs.append(dict(name=c["name"], params=over))
    if not configs:
        fail(where, "configs: at least one")

    build = d.get("build", {}) or {}
    for k, v in build.items():
        if k not in BUILD_KEYS:
            fail("%s: build" % where, "unknown key '%s'; allowed: %s" % (k, ", ".join(BUILD_KEYS)))
        if not isinstance(v, list):
            fail("%s: build.%s" % (where, k), "a list")

    regs = None
    if d.get("registers"):
        try:
            regs = reggen.load_desc(block, d, where)
        except reggen.DescError as e:
            raise DescError(str(e))
    core = None
    if "core" in d:
        if not any(p["apb"] and p["addr_w"] is None for p in pins):
            fail(where, "pins: a block with a core section has the `apb` pins (a 4 KiB window)")
        core = load_core(where, d, pins, regs, names, cpp_names)
    elif "hw2reg" in d:
        fail(where, "hw2reg without a core section")
    windows = load_windows(where, d, pins, build) if "windows" in d else None
    return dict(block=block, camel=camel(block), desc=" ".join(str(d["desc"]).split()), source=where,
                params=params, derived=derived, synth=synth, pins=pins, configs=configs,
                build=build, regs=regs, core=core, windows=windows)


def params_def(b):
    out = ["// Generated by scripts/blockgen.py from %s: edit that, not this." % b["source"],
           "// The %s's parameters (hw/common/params.h):" % b["block"],
           "// T3_PARAM(RTL name, C++ field, default, min, max, rule, meaning)."]
    w = max(len(p["name"]) for p in b["params"]) + 1
    wf = max(len(p["field"]) for p in b["params"]) + 1
    for p in b["params"]:
        out.append('T3_PARAM(%-*s %-*s %d, %d, %d, %s, "%s")'
                   % (w, p["name"] + ",", wf, p["field"] + ",", p["default"], p["lo"], p["hi"], p["rule"],
                      p["desc"]))
    if b["derived"]:
        out.append("")
        out.append("// T3_DERIVED(RTL name, C++ method, value, meaning): values computed from the")
        out.append("// parameters (a <Camel>Params method, a localparam of the RTL top).")
        for x in b["derived"]:
            out.append('T3_DERIVED(%s, %s, %s, "%s")' % (x["name"], x["method"], x["cpp"], x["desc"]))
    if b["synth"]:
        out.append("")
        for k in ("label", "storage", "sweep"):
            if k in b["synth"]:
                out.append('T3_SYNTH(%-8s "%s")' % (k + ",", b["synth"][k]))
    return "\n".join(out) + "\n"


def pins_h(b):
    B = b["block"].upper()
    rows = []
    wn = max([len(p["name"]) for p in b["pins"] if not p["apb"]]) + 1
    ww = max([len(p["cpp"]) for p in b["pins"] if not p["apb"]]) + 1
    for p in b["pins"]:
        if p["apb"]:
            rows.append("T3_APB_PINS(X)" if p["addr_w"] is None else "T3_APB_PINS_W(X, %d)" % p["addr_w"])
        else:
            rows.append("X(%-4s %-*s %-*s %s)" % (p["dir"] + ",", wn, p["name"] + ",", ww, p["cpp"] + ",",
                                                  p["field"]))
    width = max(len(r) for r in rows) + 1
    body = " \\\n".join("  %-*s" % (width, r) for r in rows).rstrip() + "\n"
    return """// Generated by scripts/blockgen.py from {src}: edit that, not this.
// The {block}'s pins (hw/common/pins.h): RTL name, direction, width at
// parameters p, and the {camel}Inputs/{camel}Outputs field that carries it.
// rtl/{block}.sv declares the same ports; the pin check (ctest
// {block}_pins_*) compares this list with the Verilated model and the RTL.
#pragma once

#include "common/apb.h"
#include "common/pins.h"
#include "{block}/{block}.h"

#define T3_{B}_PINS(X) \\
{body}
namespace t3 {{

T3_BLOCK({camel}, "{block}", T3_{B}_PINS)

}}  // namespace t3
""".format(src=b["source"], block=b["block"], camel=b["camel"], B=B, body=body)


def range_check(p):
    """SystemVerilog true when parameter p is out of its range ('' if it cannot be)."""
    n, terms = p["name"], []
    if p["lo"] > 0:
        terms.append("%s < %d" % (n, p["lo"]))
    if p["hi"] < MAX_PARAM - 1:
        terms.append("%s > %d" % (n, p["hi"]))
    if p["rule"] == "pow2":
        terms.append("(%s & (%s - 1)) != 0" % (n, n))
    return " || ".join(terms)


def render(tpl, **kw):
    return reggen.environment().get_template(tpl).render(**kw)


def wrap(items, width):
    """items joined by ', ' into lines of at most width characters."""
    lines, line = [], []
    for x in items:
        if line and len(", ".join(line + [x])) > width:
            lines.append(", ".join(line))
            line = []
        line.append(x)
    return lines + [", ".join(line)]


def boundary(b):
    """rtl/<b>.sv, hw/<b>/<b>.h: the block's top around its core, from the
    `core` and `hw2reg` sections."""
    core = b["core"]
    params = [dict(p, range=t3block.range_text(p), check=range_check(p)) for p in b["params"]]
    derived = b["derived"]
    pw = max(len(x["name"]) for x in b["params"] + derived + [dict(name="REG_AW")])
    lines = wrap([".%s(%s)" % (p["name"], p["name"]) for p in b["params"]], 90)
    param_map = [x + "," for x in lines[:-1]] + lines[-1:]
    # Ports: the clock, then the pins in the description's order, the
    # register port under its comment, a blank line after it.
    apb = [("in", "", "psel_i"), ("in", "", "penable_i"), ("in", "", "pwrite_i"),
           ("in", "[REG_AW-1:0]", "paddr_i"), ("in", "[31:0]", "pwdata_i"), ("in", "[3:0]", "pstrb_i"),
           ("out", "[31:0]", "prdata_o"), ("out", "", "pready_o"), ("out", "", "pslverr_o"),
           ("out", "", "intr_o")]
    plist = [("in", "", "clk_i")] + [("in" if p["apb"] else p["dir"], "" if p["apb"] else p["sv"],
                                      None if p["apb"] else p["name"]) for p in b["pins"]]
    rw = max(len(r) for _, r, _ in plist + apb)

    def decl(d, r, n):
        return "%s logic %-*s %s," % ("input " if d == "in" else "output", rw, r, n)
    ports = []
    for d, r, n in plist:
        if n is not None:
            ports.append(decl(d, r, n))
            continue
        ports += ["// Registers (docs/registers/%s.md)." % b["block"]] + [decl(*x) for x in apb] + [""]
    while ports[-1] == "":
        ports.pop()
    ports[-1] = ports[-1][:-1]
    cw = max(len(x["port"]) for x in core["inputs"] + core["outputs"])
    conns = wrap([".clk_i"] + [".%s" % p["name"] for p in b["pins"] if not p["apb"]], 88)
    conns += [".%-*s (%s)" % (cw, i["port"], i["sv"]) for i in core["inputs"]]
    conns += [".%-*s (%s)" % (cw, o["port"], o["wire"]) for o in core["outputs"]]
    dw = max(len(str(p["default"])) for p in params) + 1
    kw = dict(b, params=params, derived=derived, pw=pw, dw=dw, param_map=param_map, conns=conns, ports=ports,
              hw=max(len(h["member"]) for h in core["hw2reg"]))
    blk = b["block"]
    return {"rtl/%s.sv" % blk: render("block.sv.j2", **kw),
            "hw/%s/%s.h" % (blk, blk): render("block.h.j2", **kw)}


def outputs(b):
    blk = b["block"]
    files = {"hw/%s/%s_params.def" % (blk, blk): params_def(b),
             "hw/%s/%s_pins.h" % (blk, blk): pins_h(b),
             "hw/%s/%s_sc.h" % (blk, blk): render("block_sc.h.j2", **b),
             "hw/%s/%s_sc.cpp" % (blk, blk): render("block_sc.cpp.j2", **b)}
    if b["regs"]:
        files.update(reggen.render_desc(b["regs"]))
    if b["core"]:
        files.update(boundary(b))
    if b["windows"]:
        kw = dict(b, win=b["windows"], B=blk.upper(), page_w=b["windows"]["addr_w"] - 12)
        files.update({"rtl/%s_map_pkg.sv" % blk: render("map_pkg.sv.j2", **kw),
                      "hw/%s/%s_map.h" % (blk, blk): render("map.h.j2", **kw),
                      "firmware/include/t3/%s_map.h" % blk: render("fw_map.h.j2", **kw)})
    return files


def blocks():
    hw = os.path.join(ROOT, "hw")
    return sorted(x for x in os.listdir(hw) if os.path.exists(os.path.join(hw, x, x + ".yaml")))


def cmake_text(descs):
    """The build's view: T3_BLOCKS in an order where a composition follows
    the blocks it uses, and per block its configurations and links."""
    order, placed = [], set()

    def place(name, stack=()):
        if name in placed:
            return
        if name in stack:
            raise DescError("hw/%s/%s.yaml: build.uses makes a cycle: %s"
                            % (name, name, " -> ".join(stack + (name,))))
        for u in descs[name]["build"].get("uses", []):
            if u not in descs:
                raise DescError("hw/%s/%s.yaml: build.uses names '%s', not a block; known: %s"
                                % (name, name, u, ", ".join(sorted(descs))))
            place(u, stack + (name,))
        placed.add(name)
        order.append(name)

    for name in sorted(descs):
        place(name)
    out = ["# Generated by scripts/blockgen.py --cmake at configure time from hw/*/*.yaml.",
           "set(T3_BLOCKS %s)" % " ".join(order)]
    for name in order:
        b = descs[name]
        cfgs = []
        for c in b["configs"]:
            cfgs.append('"%s"' % " ".join([c["name"]] + ["%s=%d" % kv for kv in c["params"].items()]))
        out.append("set(T3_%s_CONFIGS %s)" % (name, " ".join(cfgs)))
        for k in BUILD_KEYS:
            v = b["build"].get(k, [])
            if k == "uses":
                v = ["t3_" + u for u in v]
            out.append("set(T3_%s_%s %s)" % (name, k.upper(), " ".join(v)))
        # A composition (register windows of its blocks, no registers of its
        # own): its small synthesis is a long test (tests/CMakeLists.txt).
        out.append("set(T3_%s_COMPOSITION %d)" % (name, int(bool(b.get("windows")))))
        small = b["synth"].get("small")
        if small:
            out.append("set(T3_%s_SYNTH_SMALL %s)" % (
                name, " ".join("--param %s=%d" % kv for kv in small["params"].items())))
            out.append('set(T3_%s_SYNTH_SMALL_LABEL "%s")' % (name, small["label"]))
            out.append('set(T3_%s_SYNTH_SMALL_STORAGE "%s")' % (name, small["storage"]))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", action="append", help="a block (default: every hw/<b>/<b>.yaml)")
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    ap.add_argument("--out", default=ROOT, help="where to write (default: the source tree)")
    ap.add_argument("--desc", help="read this description instead of hw/<B>/<B>.yaml (one --block; "
                                   "for trying a description out, with --out)")
    ap.add_argument("--cmake", help="also write the build's view of every block to this file "
                                    "(configuring does: every block, generated and described to CMake)")
    ap.add_argument("--keep", action="store_true",
                    help="with --cmake: describe the blocks, leave their generated files as they are "
                         "(scripts/mutate.py plants bugs in generated files too)")
    a = ap.parse_args()
    known = blocks()
    if a.cmake and (a.block or a.desc or a.check):
        sys.exit("blockgen: --cmake goes alone (it generates every block)")
    if a.keep and not a.cmake:
        sys.exit("blockgen: --keep goes with --cmake")
    if a.desc:
        if not a.block or len(a.block) != 1:
            sys.exit("blockgen: --desc needs exactly one --block")
        if os.path.abspath(a.out) == ROOT and not a.check:
            sys.exit("blockgen: --desc writes only with --out DIR (not into the source tree)")
    todo = a.block or known
    stale, descs = [], {}
    for name in todo:
        if name not in known and not a.desc:
            sys.exit("blockgen: no hw/%s/%s.yaml; blocks: %s" % (name, name, ", ".join(known)))
        try:
            # A description inside the tree written to is named as that
            # tree's own (scripts/new_block.py --out stamps into another).
            inside = a.desc and not os.path.relpath(os.path.abspath(a.desc), os.path.abspath(a.out)).startswith("..")
            descs[name] = load(name, a.desc, os.path.abspath(a.out) if inside else ROOT)
            files = outputs(descs[name])
        except DescError as e:
            sys.exit("blockgen: %s" % e)
        for rel, text in files.items():
            path = os.path.join(a.out, rel)
            if a.check:
                have = open(path, encoding="utf-8").read() if os.path.exists(path) else None
                if have != text:
                    stale.append(rel)
                    diff = difflib.unified_diff((have or "").splitlines(True), text.splitlines(True),
                                                "committed/" + rel, "generated/" + rel, n=1)
                    sys.stderr.write("".join(list(diff)[:40]))
                continue
            if a.keep:
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
                open(path, "w", encoding="utf-8").write(text)
                print("blockgen: wrote " + rel)
    if a.cmake:
        try:
            text = cmake_text(descs)
        except DescError as e:
            sys.exit("blockgen: %s" % e)
        if not os.path.exists(a.cmake) or open(a.cmake, encoding="utf-8").read() != text:
            os.makedirs(os.path.dirname(os.path.abspath(a.cmake)), exist_ok=True)
            open(a.cmake, "w", encoding="utf-8").write(text)
    if stale:
        sys.exit("blockgen: stale or hand-edited (run scripts/blockgen.py and commit): " + ", ".join(stale))
    if a.check:
        print("blockgen: %d blocks, every generated file matches its description" % len(todo))


if __name__ == "__main__":
    main()
