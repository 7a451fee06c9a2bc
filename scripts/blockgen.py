#!/usr/bin/python3
"""A block from one description: reads hw/<block>/<block>.yaml (parameters,
derived values, synthesis hints, pins, co-simulated configurations, build
links, registers and interrupts) and writes what the C++, the RTL, CMake and
the scripts read:

  hw/<block>/<block>_params.def  the parameter list (hw/common/params.h)
  hw/<block>/<block>_pins.h      the pin list and the block's traits (hw/common/pins.h)
  and, for a block with registers, what scripts/reggen.py makes of them:
  rtl/<block>_reg_{pkg,top}.sv, hw/<block>/<block>_regs.{h,cpp},
  firmware/include/t3/<block>_regs.h, docs/registers/<block>.md

The generated files are committed. --check writes nothing and fails, naming
the file, when a committed file differs from what the description gives
(stale, or edited by hand); ctest runs it (blockgen_check). --cmake FILE
also writes the build's view of every block: configuring the build runs
that (the build finds blocks by their folders, hw/<block>/<block>.yaml).

usage: scripts/blockgen.py [--block B ...] [--check] [--out DIR] [--desc FILE] [--cmake FILE]
"""
import argparse
import difflib
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reggen  # noqa: E402

ROOT = reggen.ROOT
NAME = reggen.NAME
DescError = reggen.DescError
fail = reggen.fail
PARAM = re.compile(r"^[A-Z][A-Z0-9_]*$")
PIN = re.compile(r"^[a-z][a-z0-9_]*_(i|ni|o)$")
FIELD = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")
BUILD_KEYS = ("uses", "cosim_libs", "test_libs", "demo_libs", "bench_libs", "unit_libs")
TOP_KEYS = ("block", "desc", "params", "derived", "synth", "pins", "configs", "build",
            "busy", "interrupts", "registers")
MAX_PARAM = 1 << 32


def camel(block):
    return "".join(w.capitalize() for w in block.split("_"))


def width_tokens(where, expr, names):
    """A width: an integer, or + - * / and parentheses over integers and the
    names of parameters and derived values."""
    toks = re.findall(r"\s*([A-Z][A-Z0-9_]*|\d+|[-+*/()])", str(expr))
    if "".join(toks) != re.sub(r"\s+", "", str(expr)):
        fail(where, "width = %r: write an integer or an expression of %s with + - * / ( )"
             % (expr, ", ".join(sorted(names))))
    for t in toks:
        if PARAM.match(t) and t not in names:
            fail(where, "width = %r: %s is not a parameter or derived value; known: %s"
                 % (expr, t, ", ".join(sorted(names))))
    return toks


def load(block, path=None):
    path = path or os.path.join(ROOT, "hw", block, block + ".yaml")
    if not os.path.exists(path):
        fail(path, "no block description")
    where = os.path.relpath(path, ROOT)
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
        if not (lo <= df <= hi and (rule == "any" or df & (df - 1) == 0)):
            fail(pw, "default = %d is outside its own range (%d..%d, %s)" % (df, lo, hi, rule))
        if '"' in str(p["desc"]) or "\\" in str(p["desc"]):
            fail(pw, "desc: no '\"' or '\\\\' (a C string of the generated list)")
        params.append(dict(name=p["name"], field=p["field"], default=df, lo=lo, hi=hi, rule=rule,
                           desc=" ".join(str(p["desc"]).split())))
    if not params:
        fail(where, "params: at least one")
    pnames = {p["name"]: p for p in params}

    derived = []
    for x in d.get("derived", []) or []:
        xw = "%s: derived %s" % (where, x.get("name", "?"))
        if "name" not in x or not PARAM.match(x["name"]) or x["name"] in pnames:
            fail(xw, "name: upper case, not a parameter's")
        derived.append(dict(name=x["name"], desc=str(x.get("desc", ""))))
    # What a width's names are in C++: a parameter's field, a derived
    # value's method.
    cpp_names = {n: "p." + q["field"] for n, q in pnames.items()}
    cpp_names.update({x["name"]: "p.%s()" % x["name"].lower() for x in derived})

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
        toks = width_tokens(pw, p["width"], cpp_names)
        cpp = "".join(" %s " % t if t in "+-*/" else cpp_names.get(t, t) for t in toks)
        pins.append(dict(apb=False, name=p["pin"], dir="out" if p["pin"].endswith("_o") else "in",
                         cpp=re.sub(r"\s+", " ", cpp).strip(), field=p["field"]))
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
            if not (isinstance(v, int) and q["lo"] <= v <= q["hi"] and (q["rule"] == "any" or v & (v - 1) == 0)):
                fail(cw, "%s = %r is out of range; allowed: %d..%d%s"
                     % (k, v, q["lo"], q["hi"], " (powers of two)" if q["rule"] == "pow2" else ""))
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
    return dict(block=block, camel=camel(block), desc=" ".join(str(d["desc"]).split()), source=where,
                params=params, derived=derived, synth=synth, pins=pins, configs=configs,
                build=build, regs=regs)


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


def outputs(b):
    files = {"hw/%s/%s_params.def" % (b["block"], b["block"]): params_def(b),
             "hw/%s/%s_pins.h" % (b["block"], b["block"]): pins_h(b)}
    if b["regs"]:
        files.update(reggen.render_desc(b["regs"]))
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
    a = ap.parse_args()
    known = blocks()
    if a.cmake and (a.block or a.desc or a.check):
        sys.exit("blockgen: --cmake goes alone (it generates every block)")
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
            descs[name] = load(name, a.desc)
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
