#!/usr/bin/python3
"""Secondary harts: boot an image with -smp N under icount (scripts/qemu-run)
and compare its log with a one-hart run of the same image.

Only hart 0 runs the kernel; every other hart must stay out of the way
(start.S parks it in wfi with interrupts masked). Under -icount all harts
share one virtual clock, so a secondary hart that executes instructions
changes the timing figures of every section; one that really sleeps leaves
the log identical. Checks:

- both runs exit 0, print `Done. sections=18 passed=18 failed=0 invalid=0
  skipped=0 timeout=0` and no
  PANIC;
- from the S00 header to the end (the boot noise before it, e.g.
  OpenSBI's banner, names the hart count), the logs are identical except
  for fields that are absolute instruction or cycle counts since boot
  (ABSOLUTE below): each secondary hart runs a few instructions (reset
  vector, _start, hart_park) before it parks, and those advance the shared
  virtual clock and hart 0's position in it; these fields are masked and
  their offsets printed;
- the manifest's hart_count says 1 and N (the platform's harts, from the
  device tree): the one field that names the hart count after S00;
- any other difference fails the test and is listed line by line.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU_RUN = os.path.join(HERE, "..", "..", "scripts", "qemu-run")
# Every section but S50, whose tasks run on every hart (and which a
# one-hart run skips): the rest run on hart 0 alone.
SINGLE_HART = "S00,S05,S06,S10,S11,S12,S13,S14,S20,S21,S30,S31,S32,S33,S41,S42,S43,S40"

# (line pattern, field names): absolute counts since boot, masked.
ABSOLUTE = [
    (re.compile(r"^  diag=s41-valid "), ("instret_begin", "instret_end")),
    (re.compile(r"^  counter=wire-model "), ("instret", "cycles")),
]


def run(args, smp, log):
    """One quiet qemu-run boot; (status, text, seconds)."""
    cmd = [sys.executable, QEMU_RUN, "--image-dir", args.image_dir, "--log", log,
           "--timeout", str(args.timeout), "--smp", str(smp), "--quiet",
           "--append", "sections=" + SINGLE_HART]
    t0 = time.monotonic()
    status = subprocess.run(cmd, stdin=subprocess.DEVNULL).returncode
    try:
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", "replace").replace("\r\n", "\n")
    except OSError:
        text = ""
    return status, text, time.monotonic() - t0


def body(text):
    """The log from the S00 header on, as lines."""
    i = text.find("=== [S00]")
    return text[i:].split("\n") if i >= 0 else []


def mask(lines):
    """Lines with the ABSOLUTE fields replaced by `<abs>`; and their values."""
    out, values = [], []
    for line in lines:
        for rx, fields in ABSOLUTE:
            if rx.search(line):
                for f in fields:
                    m = re.search(r"\b%s=(\d+)" % f, line)
                    if m:
                        values.append((f, int(m.group(1))))
                    line = re.sub(r"\b%s=\d+" % f, f"{f}=<abs>", line)
        out.append(line)
    return out, values


RESULT_LINES = re.compile(
    r"^(  section=S\d\d status=\w+|  payload-end=|  method=|  status=\w+ rx_mode=|Done\.)")
MANIFEST_END = "=== [S05]"


def results(lines):
    """The lines that carry results: the manifest, every section's status,
    the payload witnesses (bytes and CRC), S30/S31 outcomes, Done; the
    status lines without their elapsed time."""
    out, in_manifest = [], True
    for line in lines:
        if line.startswith(MANIFEST_END):
            in_manifest = False
        if in_manifest or RESULT_LINES.search(line):
            out.append(re.sub(r" elapsed_ms=\S+| elapsed_ms=\S+$", "", line))
    return out


def health(name, status, text, errors):
    """Exit status, Done line, panic."""
    if status != 0:
        errors.append(f"{name}: exit status {status}" +
                      (" (host timeout: guest still running)" if status == 124 else ""))
    done = "Done. sections=18 passed=18 failed=0 invalid=0 skipped=0 timeout=0"
    if not re.search(r"^%s$" % re.escape(done), text, re.M):
        errors.append(f"{name}: no `{done}` line")
    if "PANIC" in text:
        errors.append(f"{name}: log contains PANIC")


def main():
    """Run both, compare, report."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--smp", type=int, required=True, help="harts of the run compared")
    p.add_argument("--log-prefix", required=True, help="logs: PREFIX-smp1.log, PREFIX-smpN.log")
    p.add_argument("--timeout", type=float, default=60, help="host seconds per run")
    p.add_argument("--results-only", action="store_true",
                   help="compare the results (manifest, section statuses, payload witnesses, "
                        "counts of bytes, the Done line), not the timing figures")
    args = p.parse_args()

    errors = []
    runs = {}
    for n in (1, args.smp):
        log = f"{args.log_prefix}-smp{n}.log"
        status, text, secs = run(args, n, log)
        print(f"-smp {n}: exit status {status} in {secs:.1f} s (log: {log})")
        health(f"-smp {n}", status, text, errors)
        runs[n] = text
    for n in (1, args.smp):
        if not re.search(r"^  s42_payload=.* hart_count=%d\r?$" % n, runs[n], re.M):
            errors.append(f"-smp {n}: the manifest does not say hart_count={n}")
        runs[n] = re.sub(r" hart_count=\d+", " hart_count=<harts>", runs[n])
    ref, ref_abs = mask(body(runs[1]))
    got, got_abs = mask(body(runs[args.smp]))
    if args.results_only:
        ref, got = results(ref), results(got)
    if not ref or not got:
        errors.append("a log has no S00 header")
    elif ref != got:
        diff = list(difflib.unified_diff(ref, got, "smp1", f"smp{args.smp}", n=0, lineterm=""))
        changed = sum(1 for l in diff if l.startswith("-") and not l.startswith("---"))
        errors.append(f"{changed} lines after the S00 header differ (absolute counts masked):")
        errors.extend("  " + l[:300] for l in diff[:40])
    if [f for f, _ in ref_abs] == [f for f, _ in got_abs]:
        offsets = sorted({g - r for (_, r), (_, g) in zip(ref_abs, got_abs)})
        print(f"absolute counts ({len(ref_abs)} fields, masked): offsets {offsets} "
              f"with {args.smp} harts")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        what = "results" if args.results_only else "log"
        print(f"ok: -smp {args.smp} {what} identical to -smp 1 from S00 on "
              "(absolute instret/cycle counts aside)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
