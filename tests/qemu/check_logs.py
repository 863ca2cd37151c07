#!/usr/bin/python3
"""`report --check` over every log the other QEMU tests wrote.

Runs after them (CTest fixture uartbench-logs): every *.log below the
given folders (CMake's own logs aside) is one of

- a benchmark run (it has a Done line): it must pass the checker
  (bench/report/uartreport/check.py), whatever its sections' statuses;
  a write fault, a stall, a stuck line or an RX flood make sections
  FAIL, TIMEOUT or INVALID, never an inconsistent log;
- a self-test (selftest=... lines, no section), a panic report or a run
  refused for a bad boot argument (`bad boot argument ...` or `unknown boot
  argument ...`, no section):
  not a benchmark run, skipped and said so;
- anything else (no Done line: a run cut short): a failure.

Prints one line per log and a count per kind; exit status 1 when a run
fails the checker or a log is of no kind.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "report"))
from uartreport import check, parse  # noqa: E402

SELFTEST_RE = re.compile(rb"^selftest=([\w-]+)", re.M)
PANIC_RE = re.compile(rb"^PANIC: ([^\r\n]*)", re.M)
REFUSED_RE = re.compile(rb"^((?:bad|unknown) boot argument [^\r\n]*)", re.M)


def logs(dirs):
    """Every *.log below dirs, sorted, CMake's own (CMakeFiles) left out."""
    out = []
    for top in dirs:
        for root, subdirs, files in os.walk(top):
            subdirs[:] = [d for d in subdirs if d != "CMakeFiles"]
            out += [os.path.join(root, f) for f in files if f.endswith(".log")]
    return sorted(out)


def family(path, dirs):
    """The test family a log belongs to: its name up to the first `.`,
    `-qemu` or `-<digit>` (suite-qemu-virt-async -> suite), or its folder."""
    rel = min((os.path.relpath(path, d) for d in dirs), key=len)
    if os.sep in rel:
        return rel.split(os.sep)[0]
    return re.split(r"\.|-qemu|-\d", rel)[0]


def kind(path, raw, log):
    """(kind, text): run, self-test, panic or cut, and what the line says."""
    if log.done is not None:
        result = check.check_log(log)
        for f in result.findings:
            print("%s: %s %s: %s" % (path, f.section, f.key, f.what))
        return ("run" if result.ok() else "run FAIL"), check.verdict(result)
    panic = PANIC_RE.search(raw)
    if panic:
        return "panic", "skipped, a panic report, not a benchmark run: " + panic.group(1).decode(
            "ascii", "replace")
    refused = REFUSED_RE.search(raw)
    if refused and not log.sections:
        return "refused", "skipped, refused at boot, not a benchmark run: " + refused.group(
            1).decode("ascii", "replace")
    tests = sorted({m.decode() for m in SELFTEST_RE.findall(raw)})
    if tests and not log.sections:
        return "self-test", "skipped, a self-test, not a benchmark run (selftest=%s, no " \
            "sections)" % ",".join(tests)
    return "cut", "FAIL: no Done line, no self-test, no panic: a benchmark run cut short"


def main():
    """Check every log, print one line each and the counts."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dirs", nargs="+", help="folders the QEMU tests write their logs in")
    args = p.parse_args()
    counts, runs = {}, {}
    for path in logs(args.dirs):
        with open(path, "rb") as f:
            raw = f.read()
        what, text = kind(path, raw, parse.parse_bytes(raw, path))
        counts[what] = counts.get(what, 0) + 1
        if what.startswith("run"):
            fam = runs.setdefault(family(path, args.dirs), [0, 0])
            fam[what != "run"] += 1
        print("%s: %s" % (path, text))
    print("runs checked, by test: " + ", ".join(
        "%s %d%s" % (k, ok + bad, " (%d FAIL)" % bad if bad else "")
        for k, (ok, bad) in sorted(runs.items())))
    print("%d logs: %s" % (sum(counts.values()), ", ".join(
        "%d %s" % (n, k) for k, n in sorted(counts.items())) or "none"))
    if not counts.get("run"):
        print("FAIL: no benchmark run found")
        return 1
    return 1 if counts.get("run FAIL") or counts.get("cut") else 0


if __name__ == "__main__":
    sys.exit(main())
