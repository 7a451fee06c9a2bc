#!/usr/bin/env python3
"""Simulation speed of a block: runs build/testbench/<block>_bench (every form
of the block on the same recorded random traffic, each in its own process),
prints its table and the two figures the project aims at:

  - the C++ cycle model, net of the traffic generator: 20 M cycles/s;
  - the kernel-free lock-step co-simulation against the one through the
    SystemC kernel: 3x.

With --update-doc the table goes into docs/blocks/<block>.md between its
<!-- speed:begin --> and <!-- speed:end --> lines, with this command and the
machine it ran on. Run it on a quiet machine: the figures are wall-clock.

It also counts the model's instructions a cycle under callgrind (valgrind,
scripts/setup.sh installs it: --toggle-collect on the core form's step, so the
traffic generator is not counted). Wall-clock figures move with the host (the
same binaries ran half as fast on one VM host as on another, docs/architecture.md);
the count does not, so a change to a model compares by it across days.
"""
import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import t3block  # noqa: E402

ROOT = t3block.ROOT
MODEL_AIM = 20.0  # M cycles/s
LOCKSTEP_AIM = 3.0


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def instructions_per_cycle(exe, cycles, env):
    """The core form's instructions a cycle under callgrind, over `cycles` cycles
    (main() has checked that valgrind is there)."""
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(d, "cg.out"),
                            "--toggle-collect=*CoreForm*step*",
                            exe, "--form", "core", "--cycles", str(cycles), "--runs", "1"],
                           capture_output=True, text=True, env=env)
    m = re.search(r"Collected\s*:\s*(\d+)", r.stderr)
    if r.returncode != 0 or not m:
        sys.exit("bench: callgrind on %s --form core failed:\n%s" % (exe, r.stderr[-2000:]))
    n = int(m.group(1))
    if n == 0:
        sys.exit("bench: callgrind counted no instruction in CoreForm::step: was the benchmark's form renamed?")
    return n / cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", required=True, help="known: %s" % ", ".join(t3block.blocks()))
    ap.add_argument("--cycles", type=int, default=1000000, help="cycles per form (default 1000000)")
    ap.add_argument("--runs", type=int, default=3,
                    help="runs per form, the fastest counts (default 3: wall-clock noise only adds)")
    ap.add_argument("--instr-cycles", type=int, default=100000,
                    help="cycles of the model under callgrind for its instructions a cycle "
                         "(default 100000; 0: no count)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the build folder (default build/)")
    ap.add_argument("--update-doc", action="store_true", help="write the result into the block's doc page")
    a = ap.parse_args()
    if a.block not in t3block.blocks():
        sys.exit("bench: no block '%s'; known: %s" % (a.block, ", ".join(t3block.blocks())))
    if a.cycles <= 0:
        sys.exit("bench: --cycles must be positive")
    if a.runs <= 0:
        sys.exit("bench: --runs must be positive")
    if a.instr_cycles < 0:
        sys.exit("bench: --instr-cycles must be 0 (no count) or positive")
    if a.instr_cycles and shutil.which("valgrind") is None:
        sys.exit("bench: valgrind not found (scripts/setup.sh installs it); --instr-cycles 0 skips the count")
    # The benchmarks are not in the default build (scripts/build.sh): each
    # is built here, when asked for (nothing to do when it is current).
    if not os.path.exists(os.path.join(a.build, "CMakeCache.txt")):
        sys.exit("bench: %s is not a configured build folder (scripts/build.sh makes build/)" % a.build)
    target = a.block + "_bench"
    r = subprocess.run(["cmake", "--build", a.build, "-j2", "--target", target], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("bench: building %s failed:\n%s%s" % (target, r.stdout[-4000:], r.stderr[-4000:]))
    exe = os.path.join(a.build, "testbench", target)
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    r = subprocess.run([exe, "--cycles", str(a.cycles), "--runs", str(a.runs)],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("bench: %s failed:\n%s%s" % (exe, r.stdout, r.stderr))
    lines = [l for l in r.stdout.splitlines() if l.startswith("|")]
    head = [l for l in r.stdout.splitlines() if l and not l.startswith("|")]
    secs = {}
    for l in lines[2:]:
        cells = [c.strip() for c in l.strip("|").split("|")]
        secs[cells[0]] = float(cells[2])
    for need in ("core", "cosim_systemc", "cosim_direct"):
        if need not in secs:
            sys.exit("bench: no '%s' row in the output of %s" % (need, exe))
    model = a.cycles / secs["core"] / 1e6 if secs["core"] > 0 else float("inf")
    ratio = secs["cosim_systemc"] / secs["cosim_direct"] if secs["cosim_direct"] > 0 else float("inf")
    verdict = ("C++ model %.1f M cycles/s net of the traffic (aim %.0f M: %s); kernel-free "
               "lock-step %.1fx the SystemC one (aim %.0fx: %s)" % (
                   model, MODEL_AIM, "met" if model >= MODEL_AIM else "NOT met",
                   ratio, LOCKSTEP_AIM, "met" if ratio >= LOCKSTEP_AIM else "NOT met"))
    if a.instr_cycles:
        ipc = instructions_per_cycle(exe, a.instr_cycles, env)
        verdict += ("; the model runs %.0f instructions a cycle (callgrind, %d cycles: "
                    "the figure to compare across hosts)" % (ipc, a.instr_cycles))
    print("\n".join(head + lines))
    print(verdict)
    if a.update_doc:
        doc = os.path.join(ROOT, "docs", "blocks", a.block + ".md")
        text = open(doc, encoding="utf-8").read()
        # The command as run: the figures must come from the command beside them.
        opts = "".join(" --%s %d" % (k.replace("_", "-"), getattr(a, k)) for k in ("cycles", "runs", "instr_cycles")
                       if getattr(a, k) != ap.get_default(k))
        body = ("`scripts/bench.py --block %s%s --update-doc` (%s, %s, %d cores, Release build; "
                "%s): %s.\n\n%s\n\n%s" % (
                    a.block, opts, datetime.date.today().isoformat(), cpu_name(), os.cpu_count() or 0,
                    "each form in its own process on the same recorded traffic",
                    verdict, "\n".join(head), "\n".join(lines)))
        new, n = re.subn(r"<!-- speed:begin -->.*?<!-- speed:end -->",
                         lambda _: "<!-- speed:begin -->\n%s\n<!-- speed:end -->" % body, text, flags=re.S)
        if n != 1:
            sys.exit("bench: %s has no <!-- speed:begin --> ... <!-- speed:end --> section" % doc)
        open(doc, "w", encoding="utf-8").write(new)
        print("bench: written to " + doc)


if __name__ == "__main__":
    main()
