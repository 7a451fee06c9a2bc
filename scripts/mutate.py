#!/usr/bin/env python3
"""Mutation check of a block's verification: plants each bug listed in
testbench/<block>/<block>_mutants.txt into the C++ model alone, the RTL
alone, and both together (the same bug in both, which only the scoreboard
can see), rebuilds, runs the block's tests, and prints which were caught.

A mutant escapes when every test still passes. With --quick only the same
bug in both runs first, and the one-sided variants only if it escapes: when
the bug in both is caught, the run with it in one model alone is identical to
that run up to the first cycle the buggy side's outputs differ from correct
behaviour, where the every-cycle compare fails, so the one-sided variants
are caught too. That holds only when a co-simulation caught the pair; when
unit tests alone did, the one-sided variants run as well. Each escape is either shown
to be equivalent (say so in the mutant's description: "equivalent: ...") or
met by a new test. Not part of the default test run: it rebuilds per mutant
(about a minute or two each). It works on a copy of the source tree (the
files git knows, as they are in the working tree), so the tree itself is
never touched, even if the run is interrupted.

The mutants file:

    mutant NAME: what the bug does
      model hw/<block>/<block>.cpp
        - exact text of one line as it is now (must occur exactly once)
        + its replacement
      rtl rtl/<block>.sv
        - ...
        + ...

A side may hold several -/+ pairs (all applied); a mutant may have one side.
"""
import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import t3block  # noqa: E402

ROOT = t3block.ROOT
SRC = ROOT  # the copy the mutants go into (main() sets it)


def copy_tree(dst):
    """The files git knows (tracked, and untracked but not ignored), as they are now."""
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                           cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    keep = {f.decode() for f in files if f}
    # A file an earlier tree had and this one has not (moved, deleted) must go
    # too: the build globs source folders and would compile it. The copy's
    # build folders are the only other files there.
    if os.path.isdir(dst):
        for top, dirs, names in os.walk(dst):
            rel_top = os.path.relpath(top, dst)
            if rel_top.split(os.sep)[0].startswith("build"):
                dirs[:] = []
                continue
            for n in names:
                rel = os.path.normpath(os.path.join(rel_top, n))
                if rel not in keep:
                    os.remove(os.path.join(top, n))
    for f in files:
        if not f:
            continue
        src = os.path.join(ROOT, f.decode())
        if not os.path.isfile(src):
            continue
        out = os.path.join(dst, f.decode())
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if not os.path.exists(out) or open(out, "rb").read() != open(src, "rb").read():
            # A fresh time stamp: a copy left with a mutant by an interrupted
            # run has objects newer than the original's own time stamp.
            shutil.copyfile(src, out)
            shutil.copymode(src, out)


def parse(path):
    mutants, cur, side = [], None, None
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^mutant\s+(\w+):\s*(.*)$", line)
        if m:
            cur = {"name": m.group(1), "what": m.group(2), "sides": {}}
            mutants.append(cur)
            side = None
            continue
        m = re.match(r"^\s+(model|rtl)\s+(\S+)\s*$", line)
        if m and cur:
            side = {"file": m.group(2), "edits": []}
            cur["sides"][m.group(1)] = side
            continue
        m = re.match(r"^\s+([-+]) (.*)$", line)
        if m and side is not None:
            if m.group(1) == "-":
                side["edits"].append([m.group(2).strip(), None])
            elif side["edits"] and side["edits"][-1][1] is None:
                side["edits"][-1][1] = m.group(2).strip()
            else:
                sys.exit("%s:%d: '+' without its '-'" % (path, n))
            continue
        sys.exit("%s:%d: cannot read: %s" % (path, n, line))
    for mu in mutants:
        for s in mu["sides"].values():
            if not s["edits"] or any(e[1] is None for e in s["edits"]):
                sys.exit("%s: mutant %s: every '-' line needs its '+' line" % (path, mu["name"]))
    return mutants


def apply(side):
    """Applies the edits to the file; returns its original text."""
    path = os.path.join(SRC, side["file"])
    text = open(path, encoding="utf-8").read()
    orig = text
    for find, repl in side["edits"]:
        # Match the line's text with its own indentation.
        hits = [m for m in re.finditer(r"^([ \t]*)" + re.escape(find) + r"[ \t]*$", text, re.M)]
        if len(hits) != 1:
            raise ValueError("%s: '%s' found %d times (must be once)" % (side["file"], find, len(hits)))
        m = hits[0]
        text = text[:m.start()] + m.group(1) + repl + text[m.end():]
    open(path, "w", encoding="utf-8").write(text)
    return orig


def sh(cmd, log, timeout):
    with open(log, "a") as f:
        f.write("\n$ %s\n" % " ".join(cmd))
        f.flush()
        try:
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=SRC,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            f.write("timed out after %d s\n" % timeout)
            return -1


def block_targets(block, build):
    """The executables the block's tests run: its co-simulation, unit test and
    demo binaries (building only these keeps a model mutant under a minute)."""
    out = subprocess.run(["cmake", "--build", build, "--target", "help"], cwd=SRC,
                         capture_output=True, text=True, check=True).stdout
    names = re.findall(r"^\.\.\. (\S+)", out, re.M)
    return [n for n in names if n.startswith(block + "_") and
            (n.endswith("_test") or "_cosim_test_" in n or n.endswith("_demo"))]


def run_tests(block, build, log, timeout, jobs):
    """The tests that failed ([] when all pass), or None when the build failed."""
    targets = block_targets(block, build)
    if not targets:
        return None
    build_cmd = ["cmake", "--build", build, "-j%d" % jobs, "--target"] + targets
    if sh(build_cmd, log, 3600) != 0:
        # Verilator names its files after the design's shape, which a mutant
        # can change; CMake learns the new list at the next configure
        # (scripts/build.sh does the same).
        if sh(["cmake", "-S", SRC, "-B", build], log, 600) != 0 or sh(build_cmd, log, 3600) != 0:
            # Objects of the old file list can still be linked: from clean.
            if (sh(["cmake", "--build", build, "--target", "clean"], log, 600) != 0 or
                    sh(["cmake", "-S", SRC, "-B", build], log, 600) != 0 or
                    sh(build_cmd, log, 3600) != 0):
                return None
    # Every test of the block (unit tests, lint, pin and parameter checks,
    # demos) with the co-simulations on the kernel-free engine only (the
    # SystemC engine runs the same checks) and without synthesis; a failing
    # test's output in the log (a random co-simulation's seed, to rerun it).
    out = os.path.join(build, "mutant_ctest.txt")
    with open(out, "w") as f:
        subprocess.run(["ctest", "--test-dir", build, "-R", "^%s_" % block,
                        "-E", "^%s_(cosim_[A-Za-z0-9]+|synth.*)$" % block,
                        "-j%d" % jobs, "--timeout", str(timeout), "--output-on-failure"],
                       stdout=f, stderr=subprocess.STDOUT, cwd=SRC)
    text = open(out).read()
    with open(log, "a") as f:
        f.write(text)
    m = re.search(r"(\d+) tests failed out of (\d+)", text)
    if not m:
        return None
    # ctest lists them under "The following tests FAILED:".
    return re.findall(r"^\s*\d+ - (\S+) \(", text, re.M) if int(m.group(1)) else []


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", required=True,
                    help="known: %s; with --check, also 'all'" % ", ".join(t3block.blocks()))
    ap.add_argument("--check", action="store_true",
                    help="only check that every mutant applies to the tree as it is (each '-' "
                         "line found exactly once); no build (ctest mutants_apply)")
    ap.add_argument("--mutant", action="append", default=[], help="only these (repeatable)")
    ap.add_argument("--work", default="/tmp/t3-mutants",
                    help="where the copy of the tree and its build go (default /tmp/t3-mutants)")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per test (default 900)")
    ap.add_argument("--quick", action="store_true",
                    help="run the model-alone and RTL-alone variants only when the same bug "
                         "in both escapes (see the module doc for why that is enough)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="parallel build and test jobs (default 2)")
    ap.add_argument("--update-doc", action="store_true",
                    help="write the table into docs/blocks/<block>.md between its "
                         "<!-- mutants:begin --> and <!-- mutants:end --> lines")
    a = ap.parse_args()
    if a.check:
        sys.exit(check(t3block.blocks() if a.block == "all" else [a.block]))
    path = os.path.join(ROOT, "testbench", a.block, a.block + "_mutants.txt")
    if not os.path.exists(path):
        sys.exit("mutate: no mutants for %s (%s)" % (a.block, path))
    mutants = parse(path)
    if a.mutant:
        unknown = set(a.mutant) - {m["name"] for m in mutants}
        if unknown:
            sys.exit("mutate: no mutant %s in %s" % (", ".join(sorted(unknown)), path))
        mutants = [m for m in mutants if m["name"] in a.mutant]
    global SRC
    SRC = os.path.join(a.work, "src")
    # The copy sits beside a link to ../shared, as the tree does.
    os.makedirs(SRC, exist_ok=True)
    shared = os.path.join(a.work, "shared")
    if not os.path.exists(shared):
        os.symlink(os.path.normpath(os.path.join(ROOT, "..", "shared")), shared)
    copy_tree(SRC)
    a.build = os.path.join(a.work, "build")
    os.makedirs(a.build, exist_ok=True)
    log = os.path.join(a.work, "mutate_%s.log" % a.block)
    open(log, "w").close()
    sys.stderr.write("mutate: tree copied to %s; log %s\n" % (SRC, log))
    # The tests it runs use the kernel-free engine only: no SystemC Verilation.
    # T3_BLOCKGEN_KEEP: a configure leaves the generated files alone (a
    # mutant in a block's generated glue or RTL top would be written back to
    # the description's text, and escape unseen).
    if sh(["cmake", "-S", SRC, "-B", a.build, "-DCMAKE_BUILD_TYPE=Release",
           "-DT3_RTL_SYSTEMC=OFF", "-DT3_BLOCKGEN_KEEP=ON"], log, 600) != 0:
        sys.exit("mutate: cmake failed, see " + log)
    sys.stderr.write("mutate: baseline (no mutant) ...\n")
    base = run_tests(a.block, a.build, log, a.timeout, a.jobs)
    if base != []:
        # A work folder left by an interrupted run can hold objects of a
        # mutant's sources: once more from clean before calling it a failure.
        sys.stderr.write("mutate: baseline failed; once more from a clean build ...\n")
        sh(["cmake", "--build", a.build, "--target", "clean"], log, 600)
        base = run_tests(a.block, a.build, log, a.timeout, a.jobs)
    if base != []:
        sys.exit("mutate: the block's tests fail without a mutant (%s); see %s" % (base, log))

    rows = []
    t0 = time.time()
    for mu in mutants:
        variants = [k for k in ("model", "rtl") if k in mu["sides"]]
        if len(variants) == 2:
            # The same bug in both first: --quick stops there when it is caught.
            variants.insert(0, "both")
        res = {}
        both_cosim_caught = False
        for v in variants:
            if a.quick and v != "both" and both_cosim_caught:
                res[v] = "not run (--quick)"
                continue
            sides = [mu["sides"][k] for k in (("model", "rtl") if v == "both" else (v,))]
            saved = []
            try:
                for s in sides:
                    saved.append((s, apply(s)))
                sys.stderr.write("mutate: %s (%s) ...\n" % (mu["name"], v))
                failed = run_tests(a.block, a.build, log, a.timeout, a.jobs)
                res[v] = ("does not build" if failed is None else
                          "caught (%d tests)" % len(failed) if failed else "ESCAPED")
                # What the tests ran must be the mutant: nothing in the
                # build may have rewritten a planted file.
                for s, orig in saved:
                    if open(os.path.join(SRC, s["file"]), encoding="utf-8").read() == orig:
                        res[v] = "reverted by the build"
                if v == "both" and failed:
                    both_cosim_caught = any("_cosim_" in t for t in failed)
            except ValueError as e:
                res[v] = "not applied: %s" % e
            finally:
                for s, orig in saved:
                    open(os.path.join(SRC, s["file"]), "w", encoding="utf-8").write(orig)
        rows.append((mu, res))
    table = {mu["name"]: "| `%s` | %s | %s | %s | %s |" % (
        mu["name"], mu["what"], res.get("model", "-"), res.get("rtl", "-"), res.get("both", "-"))
        for mu, res in rows}
    head = ["| mutant | the bug | model alone | RTL alone | same bug in both |", "|---|---|---|---|---|"]
    minutes = (time.time() - t0) / 60
    print("\n".join(head + list(table.values())))
    print(summarize(list(table.values()), a.quick, minutes))
    broken = [mu["name"] for mu, res in rows if "does not build" in res.values()]
    reverted = [mu["name"] for mu, res in rows if "reverted by the build" in res.values()]
    if a.update_doc:
        write_doc(a, path, table, head, minutes)
    if reverted:
        sys.exit("mutate: the build rewrote the planted file of %s (see %s): the table does not "
                 "hold for them" % (", ".join(reverted), log))
    if broken:
        sys.exit("mutate: does not build with %s (the log: %s): a mutant must leave the RTL "
                 "lint-clean, e.g. '&& 1'b0' rather than a dropped signal"
                 % (", ".join(broken), log))


def write_doc(a, path, table, head, minutes):
    """The table between the block page's mutants markers."""
    doc = os.path.join(ROOT, "docs", "blocks", a.block + ".md")
    text = open(doc, encoding="utf-8").read()
    old = re.search(r"<!-- mutants:begin -->(.*?)<!-- mutants:end -->", text, flags=re.S)
    if not old:
        sys.exit("mutate: %s has no <!-- mutants:begin --> ... <!-- mutants:end --> section" % doc)
    note = ""
    if a.mutant:
        # Only some mutants ran: their rows replace those of the last run.
        kept = {m.group(1): m.group(0) for m in re.finditer(r"^\| `(\w+)` \|.*$", old.group(1), re.M)}
        kept.update(table)
        table = {mu["name"]: kept[mu["name"]] for mu in parse(path) if mu["name"] in kept}
        note = " (%s re-run %s with --mutant)" % (", ".join(sorted(a.mutant)),
                                                   datetime.date.today().isoformat())
    block = ("<!-- mutants:begin -->\n`scripts/mutate.py --block %s%s --update-doc`: %s%s.\n\n%s\n"
             "<!-- mutants:end -->" % (a.block, " --quick" if a.quick else "",
                                      summarize(list(table.values()), a.quick,
                                                None if a.mutant else minutes), note,
                                      "\n".join(head + list(table.values()))))
    open(doc, "w", encoding="utf-8").write(text[:old.start()] + block + text[old.end():])
    print("mutate: table written to " + doc)


def check(blocks):
    """0 when every mutant of every block's list applies to the tree as it is."""
    bad = 0
    for block in blocks:
        path = os.path.join(ROOT, "testbench", block, block + "_mutants.txt")
        if not os.path.exists(path):
            print("%s: no mutants (%s)" % (block, os.path.relpath(path, ROOT)))
            bad += 1
            continue
        mutants = parse(path)
        for mu in mutants:
            for side in mu["sides"].values():
                text = open(os.path.join(ROOT, side["file"]), encoding="utf-8").read()
                for find, _ in side["edits"]:
                    n = len(re.findall(r"^[ \t]*" + re.escape(find) + r"[ \t]*$", text, re.M))
                    if n != 1:
                        print("%s: mutant %s: '%s' found %d times in %s (must be once)" % (
                            block, mu["name"], find, n, side["file"]))
                        bad += 1
        print("%s: %d mutants%s" % (block, len(mutants), "" if bad else ", every one applies"))
    return 1 if bad else 0


def summarize(rows, quick, minutes):
    """'N mutants, V variants run, E escaped (...)' from the table rows."""
    cells = [c.strip() for r in rows for c in r.strip("|").split("|")[-3:]]
    ran = sum(1 for c in cells if c != "-" and not c.startswith("not run"))
    escaped = sum(1 for c in cells if c == "ESCAPED")
    # A mutant that does not build tests nothing: the count says so, and the
    # run fails (main), so that the list gets fixed rather than published.
    broken = sum(1 for c in cells if c == "does not build")
    took = "" if minutes is None else ", %.0f min" % minutes
    return "%d mutants, %d variants run, %d escaped%s (%s%s%s)" % (
        len(rows), ran, escaped, ", %d did not build" % broken if broken else "",
        datetime.date.today().isoformat(), ", --quick" if quick else "", took)

if __name__ == "__main__":
    main()
