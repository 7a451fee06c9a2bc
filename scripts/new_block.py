#!/usr/bin/python3
"""Stamps a new block's skeleton: its description, core model and RTL, the
scoreboard, stimulus, co-simulation test, benchmark, unit test and doc page
(the hand-written files of docs/adding_a_block.md, from the templates in
scripts/new_block/), then generates what the description gives
(scripts/blockgen.py). The skeleton is a one-entry register stage on a
valid/ready stream with a transfer counter: it builds and passes its own
co-simulation at once, and is there to be replaced by the block.

usage: scripts/new_block.py NAME [--out DIR]

NAME: lower case, digits and '_', a name no block has. --out: a source tree
other than this one (a copy, for trying the skeleton out: tests/new_block_test.sh).
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reggen  # noqa: E402

ROOT = reggen.ROOT
TEMPLATES = os.path.join(ROOT, "scripts", "new_block")
# template file -> where it goes ({n}: the block's name).
FILES = {
    "block.yaml": "hw/{n}/{n}.yaml",
    "block_core.h": "hw/{n}/{n}_core.h",
    "block_core.cpp": "hw/{n}/{n}_core.cpp",
    "block_core.sv": "rtl/{n}_core.sv",
    "block_scoreboard.h": "testbench/{n}/{n}_scoreboard.h",
    "block_scoreboard.cpp": "testbench/{n}/{n}_scoreboard.cpp",
    "block_stimulus.h": "testbench/{n}/{n}_stimulus.h",
    "block_cosim_test.cpp": "testbench/{n}/{n}_cosim_test.cpp",
    "block_bench.cpp": "testbench/{n}/{n}_bench.cpp",
    "block_unit_test.cpp": "tests/{n}_unit_test.cpp",
    "block.md": "docs/blocks/{n}.md",
}
RESERVED = {"common", "t3", "reg", "apb", "mem", "t3_mem", "fp_add"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name", help="the block's name: lower case, digits and '_'")
    ap.add_argument("--out", default=ROOT, help="the source tree to stamp it into (default: this one)")
    a = ap.parse_args()
    n, out = a.name, os.path.abspath(a.out)
    if not re.match(r"^[a-z][a-z0-9_]{1,30}$", n) or n.endswith("_") or "__" in n:
        sys.exit("new_block: NAME = %r: 2..31 characters, lower case, digits and single '_', "
                 "starting with a letter" % n)
    if n in RESERVED:
        sys.exit("new_block: NAME = %r is taken by the shared machinery (%s)" % (n, ", ".join(sorted(RESERVED))))
    targets = {t: os.path.join(out, f.format(n=n)) for t, f in FILES.items()}
    there = [os.path.relpath(p, out) for p in targets.values() if os.path.exists(p)]
    if os.path.isdir(os.path.join(out, "hw", n)) or there:
        sys.exit("new_block: %s exists already in %s%s" % (n, out, (": " + ", ".join(there)) if there else ""))
    camel = reggen.camel(n)
    subst = {"@name@": n, "@Camel@": camel, "@NAME@": n.upper()}
    for t, path in targets.items():
        text = open(os.path.join(TEMPLATES, t), encoding="utf-8").read()
        for k, v in subst.items():
            text = text.replace(k, v)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w", encoding="utf-8").write(text)
        print("new_block: wrote " + os.path.relpath(path, out))
    gen = [sys.executable, os.path.join(ROOT, "scripts", "blockgen.py"), "--block", n]
    if out != ROOT:
        gen += ["--desc", targets["block.yaml"], "--out", out]
    r = subprocess.run(gen)
    if r.returncode:
        sys.exit("new_block: scripts/blockgen.py failed on the stamped description")
    print("""new_block: {n} stamped. Next:
  cmake -S . -B build && cmake --build build -j2 && (cd build && ctest -R '^{n}_')
then replace the one-entry stage with the block: hw/{n}/{n}.yaml (parameters, pins,
registers, how the core meets them), hw/{n}/{n}_core.{{h,cpp}}, rtl/{n}_core.sv,
testbench/{n}/ and tests/{n}_unit_test.cpp, docs/blocks/{n}.md (docs/adding_a_block.md).
Commit the generated files with them (ctest blockgen_check compares).""".format(n=n))


if __name__ == "__main__":
    main()
