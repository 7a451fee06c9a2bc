#!/usr/bin/env python3
"""Holds a block's RTL to its parameter list (hw/<block>/<block>_params.def):
the RTL declares the same parameters with the same defaults, elaborates at
the defaults, and refuses, at elaboration and naming the parameter, a value
just outside each range (min - 1, max + 1, and for power-of-two parameters
one that is not a power of two)."""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import t3block  # noqa: E402


def lint(block, overrides):
    cmd = (["verilator", "--lint-only", "-Wall", "-y", os.path.join(t3block.ROOT, "rtl"),
            "--top-module", block] + t3block.rtl_sources(block) +
           ["-G%s=%d" % kv for kv in overrides.items()])
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--block", required=True)
    a = ap.parse_args()
    plist = t3block.params(a.block)
    problems = []
    rtl = t3block.rtl_params(a.block)
    listed = {p["name"]: p["default"] for p in plist}
    if list(rtl) != list(listed):
        problems.append("parameters: rtl/%s.sv declares %s, the list has %s"
                        % (a.block, ", ".join(rtl), ", ".join(listed)))
    for name, v in listed.items():
        if name in rtl and rtl[name] != v:
            problems.append("%s: default %d in the RTL, %d in the list" % (name, rtl[name], v))
    rc, text = lint(a.block, {})
    if rc != 0:
        problems.append("the RTL does not elaborate at its defaults:\n" + text)
    checked = 0
    for p in plist:
        bad = []
        if p["lo"] > 0:
            bad.append(p["lo"] - 1)
        bad.append(p["hi"] + 1)
        if p["rule"] == "pow2":
            bad.append(next(v for v in range(max(p["lo"], 2) + 1, p["hi"]) if v & (v - 1)))
        for v in bad:
            rc, text = lint(a.block, {p["name"]: v})
            checked += 1
            if rc == 0 or ("%s = %d is out of range" % (p["name"], v)) not in text:
                problems.append("%s = %d (allowed: %s) is not refused by the RTL with a message "
                                "naming it%s" % (p["name"], v, t3block.range_text(p),
                                                 "" if rc else " (it elaborated)"))
    if problems:
        print("%s: the RTL and hw/%s/%s_params.def disagree:\n  %s"
              % (a.block, a.block, a.block, "\n  ".join(problems)))
        sys.exit(1)
    print("%s: %d parameters agree; %d out-of-range values refused at elaboration"
          % (a.block, len(plist), checked))


if __name__ == "__main__":
    main()
