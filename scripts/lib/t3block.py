"""What the scripts know of a block: its parameter list (hw/<block>/<block>_params.def)
and its RTL (rtl/<block>.sv). The .def is the one list; see hw/common/params.h."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARAM_LINE = re.compile(
    r'^T3_PARAM\(([A-Z][A-Z0-9_]*), *([a-z][a-z0-9_]*), *(\d+), *(\d+), *(\d+), *(any|pow2), *"(.*)"\)\s*$')


def blocks():
    """Every block: a folder hw/<block> with its description (<block>.yaml,
    as scripts/blockgen.py finds them; a folder without one, such as
    hw/common, is not a block)."""
    hw = os.path.join(ROOT, "hw")
    return sorted(b for b in os.listdir(hw)
                  if os.path.exists(os.path.join(hw, b, b + ".yaml"))
                  and os.path.exists(os.path.join(hw, b, b + "_params.def")))


def params(block):
    """[{name, field, default, lo, hi, rule, doc}] in the order of the list."""
    path = os.path.join(ROOT, "hw", block, block + "_params.def")
    if not os.path.exists(path):
        raise SystemExit("no block '%s' (no %s); known: %s" % (block, path, ", ".join(blocks())))
    out = []
    for line in open(path, encoding="utf-8"):
        if not line.startswith("T3_PARAM("):
            continue
        m = PARAM_LINE.match(line)
        if not m:
            raise SystemExit("%s: cannot read the line\n  %s" % (path, line.rstrip()))
        out.append(dict(name=m.group(1), field=m.group(2), default=int(m.group(3)),
                        lo=int(m.group(4)), hi=int(m.group(5)), rule=m.group(6), doc=m.group(7)))
    return out


SYNTH_LINE = re.compile(r'^T3_SYNTH\((label|storage|sweep), *"(.*)"\)\s*$')


def synth_hints(block):
    """{label, storage, sweep} from the T3_SYNTH lines of the list (each optional)."""
    path = os.path.join(ROOT, "hw", block, block + "_params.def")
    hints = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("T3_SYNTH("):
            m = SYNTH_LINE.match(line)
            if not m:
                raise SystemExit("%s: cannot read the line\n  %s" % (path, line.rstrip()))
            hints[m.group(1)] = m.group(2)
    return hints


def in_range(p, v):
    return p["lo"] <= v <= p["hi"] and (p["rule"] == "any" or v & (v - 1) == 0)


def range_text(p):
    if p["rule"] == "pow2":
        return "a power of two from %d to %d" % (p["lo"], p["hi"])
    return "%d..%d" % (p["lo"], p["hi"])


def rtl_path(block):
    return os.path.join(ROOT, "rtl", block + ".sv")


def rtl_sources(block):
    """What a tool is given for the block: every package of rtl/ first (SystemVerilog
    wants a package declared before its use; the register blocks' are generated), then
    rtl/<block>.sv; the modules it instantiates are found in rtl/ (-y)."""
    pkgs = sorted(os.path.join(ROOT, "rtl", f) for f in os.listdir(os.path.join(ROOT, "rtl"))
                  if f.endswith("_pkg.sv"))
    return pkgs + [rtl_path(block)]


def module_header(block):
    """The text of `module <block> #(...) (...);`."""
    text = open(rtl_path(block), encoding="utf-8").read()
    text = re.sub(r"//[^\n]*", "", text)
    m = re.search(r"\bmodule\s+%s\b(.*?\)\s*;)" % re.escape(block), text, re.S)
    if not m:
        raise SystemExit("%s: no module %s" % (rtl_path(block), block))
    return m.group(1)


def rtl_params(block):
    """{NAME: default} of the module's `parameter`s (localparams excluded)."""
    head = module_header(block)
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r"\bparameter\s+(?:int\s+unsigned\s+|int\s+)?(\w+)\s*=\s*(\d+)\b", head)}


def rtl_ports(block):
    """{name: 'in'|'out'} of the module's ports."""
    head = module_header(block)
    ports = {}
    for m in re.finditer(r"\b(input|output|inout)\s+(?:wire\s+|logic\s+|var\s+)*(?:signed\s+)?"
                         r"(?:\[[^\]]*\]\s*)*(\w+)", head):
        ports[m.group(2)] = {"input": "in", "output": "out"}.get(m.group(1), "inout")
    return ports
