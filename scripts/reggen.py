#!/usr/bin/python3
"""Registers of a block description (hw/<block>/<block>.yaml, read by
scripts/blockgen.py): checks its `busy`, `interrupts` and `registers` and
renders, from the templates in scripts/reggen/,

  rtl/<block>_reg_pkg.sv        reg2hw / hw2reg structs
  rtl/<block>_reg_top.sv        the register block with its AMBA APB slave port
  hw/<block>/<block>_regs.{h,cpp}  the C++ tables and structs for the models
                                (the access rules: hw/common/regs.{h,cpp})
  firmware/include/t3/<block>_regs.h  the C header: offsets, fields, resets
  docs/registers/<block>.md     the register map

A library of scripts/blockgen.py, which writes and checks the files.
"""
import os
import re
import sys

import jinja2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATES = os.path.join(ROOT, "scripts", "reggen")
ACCESS = ("rw", "ro", "w1c", "w1p")
WINDOW = 0x1000  # bytes per block (hw/common/regs.h kRegWindowBytes)
NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class DescError(Exception):
    pass


def fail(where, msg):
    raise DescError("%s: %s" % (where, msg))


def camel(block):
    """NearBankAlu from near_bank_alu: the C++ name of a block's types."""
    return "".join(w.capitalize() for w in block.split("_"))


def environment():
    """The Jinja environment of every template in scripts/reggen/."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["hex"] = lambda v, n=8: "0x%0*X" % (n, v)
    env.filters["bitwise_or"] = lambda a, b: a | b
    return env


def parse_bits(where, bits):
    m = re.match(r"^\s*(\d+)\s*(?::\s*(\d+)\s*)?$", str(bits))
    if not m:
        fail(where, "bits = %r: write 'msb:lsb' or one bit number" % (bits,))
    msb = int(m.group(1))
    lsb = int(m.group(2)) if m.group(2) is not None else msb
    if not 0 <= lsb <= msb <= 31:
        fail(where, "bits = %r: allowed 31 >= msb >= lsb >= 0" % (bits,))
    return msb, lsb


def load_desc(block, d, where):
    """The register part of a block description d (read from where; its
    block, desc and registers are there: scripts/blockgen.py checked)."""
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
                camel=camel(block))


def outputs(block):
    return {
        "reg_pkg.sv.j2": "rtl/%s_reg_pkg.sv" % block,
        "reg_top.sv.j2": "rtl/%s_reg_top.sv" % block,
        "regs.h.j2": "hw/%s/%s_regs.h" % (block, block),
        "regs.cpp.j2": "hw/%s/%s_regs.cpp" % (block, block),
        "fw_regs.h.j2": "firmware/include/t3/%s_regs.h" % block,
        "regs.md.j2": "docs/registers/%s.md" % block,
    }


def render_desc(desc):
    """{path: text} of the register files of a load_desc() result."""
    env = environment()
    return {out: env.get_template(tpl).render(**desc) for tpl, out in outputs(desc["block"]).items()}


def main():
    sys.exit("reggen: the registers are part of a block's description now: "
             "run scripts/blockgen.py (--check to compare only)")


if __name__ == "__main__":
    main()
