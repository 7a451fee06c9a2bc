#!/usr/bin/python3
"""Registers from one description: reads hw/<block>/<block>_regs.yaml and
writes, from the templates in scripts/reggen/,

  rtl/<block>_reg_pkg.sv        reg2hw / hw2reg structs
  rtl/<block>_reg_top.sv        the register block with its AMBA APB slave port
  hw/<block>/<block>_regs.{h,cpp}  the C++ tables and structs for the models
                                (the access rules: hw/common/regs.{h,cpp})
  firmware/include/t3/<block>_regs.h  the C header: offsets, fields, resets
  docs/registers/<block>.md     the register map

The generated files are committed. --check writes nothing and fails, naming
the file, when a committed file differs from what the description gives
(stale, or edited by hand); ctest runs it (reggen_check).

usage: scripts/reggen.py [--block B ...] [--check] [--out DIR] [--desc FILE]
"""
import argparse
import difflib
import os
import re
import sys

import jinja2
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATES = os.path.join(ROOT, "scripts", "reggen")
ACCESS = ("rw", "ro", "w1c", "w1p")
WINDOW = 0x1000  # bytes per block (hw/common/regs.h kRegWindowBytes)
NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class DescError(Exception):
    pass


def fail(where, msg):
    raise DescError("%s: %s" % (where, msg))


def parse_bits(where, bits):
    m = re.match(r"^\s*(\d+)\s*(?::\s*(\d+)\s*)?$", str(bits))
    if not m:
        fail(where, "bits = %r: write 'msb:lsb' or one bit number" % (bits,))
    msb = int(m.group(1))
    lsb = int(m.group(2)) if m.group(2) is not None else msb
    if not 0 <= lsb <= msb <= 31:
        fail(where, "bits = %r: allowed 31 >= msb >= lsb >= 0" % (bits,))
    return msb, lsb


def load(block, path=None):
    path = path or os.path.join(ROOT, "hw", block, block + "_regs.yaml")
    if not os.path.exists(path):
        fail(path, "no register description")
    d = yaml.safe_load(open(path, encoding="utf-8"))
    where = os.path.relpath(path, ROOT)
    for key in ("block", "desc", "registers"):
        if key not in d:
            fail(where, "missing '%s'" % key)
    if d["block"] != block:
        fail(where, "block = %r, expected %r" % (d["block"], block))
    regs = list(d["registers"])
    # Interrupts: the three standard registers, first in the map.
    intrs = d.get("interrupts", []) or []
    if intrs:
        if len(intrs) > 32:
            fail(where, "%d interrupts; allowed: up to 32" % len(intrs))
        def intr_fields(access, what):
            return [{"name": i["name"], "bits": str(n), "access": access, "reset": 0,
                     "desc": what % i["name"] + (": " + i["desc"] if what.startswith("Pending") else "")}
                    for n, i in enumerate(intrs)]
        regs = [
            {"name": "intr_state", "desc": "Pending interrupts: set by their events, cleared by writing 1.",
             "fields": intr_fields("w1c", "Pending: %s")},
            {"name": "intr_enable", "desc": "Interrupts that drive intr_o.",
             "fields": intr_fields("rw", "Enables %s.")},
            {"name": "intr_test", "desc": "Writing 1 sets the interrupt's pending bit (for testing the handler).",
             "fields": intr_fields("w1p", "Sets %s pending.")},
        ] + regs
    seen, offset, out = set(), 0, []
    for r in regs:
        rw = "%s: register %s" % (where, r.get("name", "?"))
        for key in ("name", "desc", "fields"):
            if key not in r:
                fail(rw, "missing '%s'" % key)
        if not NAME.match(r["name"]):
            fail(rw, "name: lower case, digits and '_' only")
        if r["name"] in seen:
            fail(rw, "name used twice")
        seen.add(r["name"])
        if "offset" in r:
            offset = int(r["offset"])
        if offset % 4 or offset >= WINDOW:
            fail(rw, "offset 0x%x: allowed a multiple of 4 below 0x%x" % (offset, WINDOW))
        if any(x["offset"] == offset for x in out):
            fail(rw, "offset 0x%x used twice" % offset)
        fields, used = [], 0
        for f in r["fields"]:
            fw = "%s field %s" % (rw, f.get("name", "?"))
            for key in ("name", "bits", "access", "desc"):
                if key not in f:
                    fail(fw, "missing '%s'" % key)
            if not NAME.match(f["name"]):
                fail(fw, "name: lower case, digits and '_' only")
            if f["access"] not in ACCESS:
                fail(fw, "access = %r; allowed: %s" % (f["access"], ", ".join(ACCESS)))
            msb, lsb = parse_bits(fw, f["bits"])
            width = msb - lsb + 1
            mask = ((1 << width) - 1) << lsb
            if used & mask:
                fail(fw, "bits %d:%d overlap another field" % (msb, lsb))
            used |= mask
            reset = int(f.get("reset", 0))
            if f["access"] in ("ro", "w1p") and reset:
                fail(fw, "reset = %d: a %s field has no stored value" % (reset, f["access"].upper()))
            if not 0 <= reset < (1 << width):
                fail(fw, "reset = %d does not fit %d bits" % (reset, width))
            fields.append(dict(name=f["name"], msb=msb, lsb=lsb, width=width, mask=mask, ones=(1 << width) - 1,
                               access=f["access"], reset=reset, desc=" ".join(str(f["desc"]).split())))
        locked = bool(r.get("busy_locked", False))
        writable = any(f["access"] != "ro" for f in fields)
        if locked and not writable:
            fail(rw, "busy_locked, but no field is writable")
        out.append(dict(name=r["name"], index=len(out), offset=offset, desc=" ".join(str(r["desc"]).split()),
                        fields=fields, busy_locked=locked, writable=writable,
                        reset=sum(f["reset"] << f["lsb"] for f in fields),
                        masks={a: sum(f["mask"] for f in fields if f["access"] == a) for a in ACCESS}))
        offset += 4
    return dict(block=block, desc=" ".join(str(d["desc"]).split()),
                busy=" ".join(str(d.get("busy", "never")).split()), registers=out,
                has_busy="busy" in d, interrupts=intrs, source=where,
                camel="".join(w.capitalize() for w in block.split("_")))


def outputs(block):
    return {
        "reg_pkg.sv.j2": "rtl/%s_reg_pkg.sv" % block,
        "reg_top.sv.j2": "rtl/%s_reg_top.sv" % block,
        "regs.h.j2": "hw/%s/%s_regs.h" % (block, block),
        "regs.cpp.j2": "hw/%s/%s_regs.cpp" % (block, block),
        "fw_regs.h.j2": "firmware/include/t3/%s_regs.h" % block,
        "regs.md.j2": "docs/registers/%s.md" % block,
    }


def blocks():
    return sorted(b for b in os.listdir(os.path.join(ROOT, "hw"))
                  if os.path.exists(os.path.join(ROOT, "hw", b, b + "_regs.yaml")))


def render(block, path=None):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["hex"] = lambda v, n=8: "0x%0*X" % (n, v)
    env.filters["bitwise_or"] = lambda a, b: a | b
    desc = load(block, path)
    return {out: env.get_template(tpl).render(**desc) for tpl, out in outputs(block).items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", action="append", help="a block (default: every hw/<b>/<b>_regs.yaml)")
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    ap.add_argument("--out", default=ROOT, help="where to write (default: the source tree)")
    ap.add_argument("--desc", help="read this description instead of hw/<B>/<B>_regs.yaml (one --block; "
                                   "for trying a description out, with --out)")
    a = ap.parse_args()
    if a.desc:
        if not a.block or len(a.block) != 1:
            sys.exit("reggen: --desc needs exactly one --block")
        if os.path.abspath(a.out) == ROOT and not a.check:
            sys.exit("reggen: --desc writes only with --out DIR (not into the source tree)")
    known = blocks()
    todo = a.block or known
    stale = []
    for b in todo:
        if b not in known and not a.desc:
            sys.exit("reggen: no hw/%s/%s_regs.yaml; blocks with registers: %s" % (b, b, ", ".join(known)))
        try:
            files = render(b, a.desc)
        except DescError as e:
            sys.exit("reggen: %s" % e)
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
                print("reggen: wrote " + rel)
    if stale:
        sys.exit("reggen: stale or hand-edited (run scripts/reggen.py and commit): " + ", ".join(stale))
    if a.check:
        print("reggen: %d blocks, every generated file matches its description" % len(todo))


if __name__ == "__main__":
    main()
