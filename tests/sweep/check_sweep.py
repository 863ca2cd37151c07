#!/usr/bin/python3
"""scripts/sweep on tiny matrices of the test build's quick images.

  check_sweep.py --images DIR --out DIR errors    bad arguments: exit 2
                                                  naming the valid values,
                                                  nothing written
  check_sweep.py --images DIR --out DIR parallel  two points run at once
  check_sweep.py --images DIR --out DIR resume    a complete point is not
                                                  run again, a killed one is
                                                  (and the one skipped for
                                                  its budget), and a complete
                                                  one once its image is
                                                  rebuilt
  check_sweep.py --images DIR --out DIR quick     --quick, then its frontier
  check_sweep.py --images DIR --out DIR device    six points on the
                                                  emulator's line (the
                                                  images without the wire
                                                  model), then its frontier
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SWEEP = os.path.join(ROOT, "scripts/sweep")
# console at icount shift 0 (1 GHz): it polls, so the lower the baud the
# longer it runs: 3 Mbaud about 3 s of host time, 460800 6 s, 230400 12 s.
FAST = ["--line", "model", "--backends", "console", "--fifos", "16", "--triggers", "1",
        "--cpus", "0"]
SLOW_KILLED, SLOW_SKIPPED, DONE = (
    "qemu-virt-console_b%d_f16_s0_stream" % b for b in (460800, 230400, 3000000))


def sweep(args, out, images, extra):
    """Run scripts/sweep; its status and output."""
    cmd = [sys.executable, SWEEP, "--images", images, "--out", out, "--no-report"] + extra
    res = subprocess.run(cmd + args, capture_output=True, text=True, check=False)
    return res.returncode, res.stdout + res.stderr


def fail(what, out):
    """Stop with what went wrong and the sweep's output."""
    sys.exit("FAIL: %s\n--- sweep output ---\n%s" % (what, out))


def outcome(out, name):
    """A point's recorded outcome."""
    with open(os.path.join(out, "logs", name + ".json"), encoding="utf-8") as fh:
        return json.load(fh)


def check_errors(out, images):
    """Each bad argument: exit 2, the valid values named, nothing written."""
    cases = [
        (["--bauds", "100"], r"--bauds 100: valid values: 9600\.\.12000000"),
        (["--bauds", "fast"], r"--bauds fast: valid values"),
        (["--fifos", "8"], r"--fifos 8: valid values: 1, 16, 32, 64, 128"),
        (["--cpus", "2GHz"], r"--cpus 2GHz: valid values: icount shifts 0\.\.10 or 1GHz, "
                             r"500MHz"),
        (["--backends", "async,polled"], r"--backends polled: valid values: async, console, "
                                         r"copier"),
        (["--peers", "burst:64"], r"--peers burst:64: valid values: off, stream, burst:N:T"),
        (["--sections", "S1"], r"--sections S1: a comma-separated list"),
        (["--wire-clock", "fast"], r"--wire-clock: invalid choice: 'fast' \(choose from 'raw', "
                                   r"'free'\)"),
        (["--jobs", "0"], r"--jobs and --timeout must be at least 1"),
        (["--images", "/nonexistent"], r"--images /nonexistent: no such folder"),
        (["--triggers", "3"], r"--triggers 3: valid values: 1, 4, 8, 14"),
        (["--line", "wire"], r"--line: invalid choice: 'wire' \(choose from 'model', 'device'\)"),
        (["--line", "device", "--wire-clock", "free"],
         r"--wire-clock is the wire model's: not with --line device"),
    ]
    for args, want in cases:
        status, text = sweep(args, out, images, [])
        if status != 2 or not re.search(want, text):
            fail("%s: want exit 2 and /%s/, got exit %d" % (" ".join(args), want, status), text)
        if os.path.exists(out):
            fail("%s: the refusal wrote %s" % (" ".join(args), out), text)
    res = subprocess.run([sys.executable, SWEEP, "--line", "model", "--quick", "--list",
                          "--wire-clock", "free"],
                         capture_output=True, text=True, check=False)
    names = res.stdout.split()
    if res.returncode != 0 or len(names) != 6 or not all(n.endswith("_free") for n in names):
        fail("--quick --list --wire-clock free: want 6 points named *_free", res.stdout)
    res = subprocess.run([sys.executable, SWEEP, "--list", "--line", "model", "--backends",
                          "async", "--bauds",
                          "115200", "--cpus", "3", "--fifos", "1,16", "--triggers", "1,8"],
                         capture_output=True, text=True, check=False)
    want = ["qemu-virt-async_b115200_f1_s3_stream", "qemu-virt-async_b115200_f16_s3_stream",
            "qemu-virt-async_b115200_f16_s3_stream_t8"]
    if res.stdout.split() != want:
        fail("--fifos 1,16 --triggers 1,8: want %s (no trigger above the FIFO)" % want,
             res.stdout)
    print("ok: %d bad arguments refused with exit 2 before any work; --wire-clock free names "
          "its points *_free, trigger 8 *_t8, none above the FIFO's depth" % len(cases))


def check_parallel(out, images):
    """Two points at -j2 overlap in time (GNU parallel's joblog)."""
    status, text = sweep(["--line", "model", "--backends", "async,console", "--bauds", "3000000",
                          "--fifos", "16", "--triggers", "1", "--cpus", "3", "-j", "2"],
                         out, images, [])
    if status != 0:
        fail("want exit 0, got %d" % status, text)
    with open(os.path.join(out, "joblog"), encoding="utf-8") as fh:
        jobs = [line.split("\t") for line in fh.read().splitlines()[1:]]
    if len(jobs) != 2 or any(j[6] != "0" for j in jobs):
        fail("want two jobs of exit 0 in the joblog, got %r" % jobs, text)
    (s1, r1), (s2, r2) = sorted((float(j[2]), float(j[3])) for j in jobs)
    if s2 >= s1 + r1:
        fail("the second point started %.2f s after the first, which took %.2f s: not at once"
             % (s2 - s1, r1), text)
    for name in ("qemu-virt-async_b3000000_f16_s3_stream",
                 "qemu-virt-console_b3000000_f16_s3_stream"):
        if outcome(out, name)["status"] != "complete":
            fail("%s not complete" % name, text)
    print("ok: two points ran at once (started %.2f s apart, the first took %.2f s)"
          % (s2 - s1, r1))


def private_images(out, images):
    """A copy of the console image (qemu.json naming its own kernel.elf), so
    that its kernel can be touched: the folder that holds it."""
    src, dst = os.path.join(images, "qemu-virt-console"), os.path.join(out + "-images",
                                                                       "qemu-virt-console")
    shutil.rmtree(os.path.dirname(dst), ignore_errors=True)
    os.makedirs(dst)
    shutil.copy2(os.path.join(src, "kernel.elf"), dst)
    with open(os.path.join(src, "qemu.json"), encoding="utf-8") as fh:
        desc = json.load(fh)
    desc["kernel"] = os.path.join(dst, "kernel.elf")
    with open(os.path.join(dst, "qemu.json"), "w", encoding="utf-8") as fh:
        json.dump(desc, fh)
    return os.path.dirname(dst)


def check_resume(out, images):
    """A complete point is kept; a killed point and the one skipped for its
    budget are run on resume; a complete point runs again once its image
    is newer than its log."""
    images = private_images(out, images)
    status, text = sweep(FAST + ["--bauds", "3000000", "--timeout", "120"], out, images, [])
    if status != 0 or outcome(out, DONE)["status"] != "complete":
        fail("the first sweep: want exit 0 and %s complete" % DONE, text)
    done_log = os.path.join(out, "logs", DONE + ".log")
    stamp = os.path.getmtime(done_log)
    status, text = sweep(FAST + ["--bauds", "3000000,460800,230400", "--timeout", "2", "-j", "1"],
                         out, images, [])
    if status != 1:
        fail("a sweep with a timed-out point: want exit 1, got %d" % status, text)
    if "%s: complete already, not run again" % DONE not in text:
        fail("%s was not reported as complete already" % DONE, text)
    if outcome(out, SLOW_KILLED)["status"] != "timeout":
        fail("%s: want status timeout" % SLOW_KILLED, text)
    skipped = outcome(out, SLOW_SKIPPED)
    if skipped["status"] != "skipped" or SLOW_KILLED not in skipped.get("reason", ""):
        fail("%s: want skipped for %s's budget, got %r" % (SLOW_SKIPPED, SLOW_KILLED, skipped),
             text)
    status, text = sweep(FAST + ["--bauds", "3000000,460800,230400", "--timeout", "120"],
                         out, images, [])
    if status != 0:
        fail("the resumed sweep: want exit 0, got %d" % status, text)
    if DONE in text:
        fail("the resumed sweep ran or listed %s, which was complete" % DONE, text)
    if os.path.getmtime(done_log) != stamp:
        fail("%s's log was written again" % DONE, text)
    for name in (SLOW_KILLED, SLOW_SKIPPED):
        if outcome(out, name)["status"] != "complete" or name not in text:
            fail("%s was not run to completion on resume" % name, text)
    # The complete point (the fastest) once its image is newer than its log.
    kernel = os.path.join(images, "qemu-virt-console", "kernel.elf")
    later = os.path.getmtime(done_log) + 1
    os.utime(kernel, (later, later))
    status, text = sweep(FAST + ["--bauds", "3000000", "--timeout", "120"], out, images, [])
    if status != 0 or not re.search(r"%s: complete \(exit 0\)" % DONE, text):
        fail("%s was not run again after its image was rebuilt" % DONE, text)
    print("ok: complete point kept (log untouched), killed and budget-skipped points rerun, "
          "a complete point rerun once its image is newer")


def check_quick(out, images):
    """--quick end to end: its six points complete, then the frontier:
    sweep.md with a row per backend at FIFO 16, and its four plots."""
    status, text = sweep(["--line", "model", "--quick"], out, images, [])
    if "sweep: 6 points in " not in text or "6 complete" not in text:
        fail("--quick: want 6 complete points", text)
    res = subprocess.run([sys.executable, os.path.join(ROOT, "bench/report/report"), "--sweep",
                          out], capture_output=True, text=True, check=False)
    if res.returncode != 0:
        fail("report --sweep: exit %d" % res.returncode, res.stdout + res.stderr)
    with open(os.path.join(out, "sweep.md"), encoding="utf-8") as fh:
        md = fh.read()
    for backend in ("async", "console", "copier"):
        if not re.search(r"^\| %s \| 16 \| [^|]+ \|$" % backend, md, re.M):
            fail("sweep.md has no frontier row for %s at FIFO 16" % backend, md)
    pngs = re.findall(r"\]\((sweep_[a-z_]+\.png)\)", md)
    if len(pngs) != 4 or not all(os.path.getsize(os.path.join(out, p)) > 0 for p in pngs):
        fail("sweep.md does not link four written plots: %r" % pngs, md)
    print("ok: --quick ran 6 points (exit %d), sweep.md has the 3 frontier rows and 4 plots"
          % status)


def check_device(out, images):
    """--line device end to end: every backend at 460800 and 3 Mbaud, FIFO
    16, trigger 1, 125 MHz (the spinning designs spin for the line time:
    at 115200 they take four times the host time), six points on the
    emulator's line (*_dev, the -nowire images, manifest line=device at the
    point's baud and FIFO), the frontier headed `line device (bus 80 ns)`,
    async keeping up at 460800 where the spinning designs lose RX while
    they send, and no point model-bound (no model in these images)."""
    status, text = sweep(["--line", "device", "--bauds", "460800,3000000", "--fifos", "16",
                          "--triggers", "1", "--cpus", "3"], out, images, [])
    if "sweep: 6 points in " not in text or "6 complete" not in text:
        fail("--line device: want 6 complete points", text)
    for name in os.listdir(os.path.join(out, "logs")):
        if name.endswith(".log"):
            with open(os.path.join(out, "logs", name), "rb") as fh:
                log = fh.read()
            m = re.match(r"qemu-virt-\w+_b(\d+)_f(\d+)_s3_stream_dev\.log$", name)
            if not m or not re.search(rb"line=device line_point=%s/%s " % (
                    m.group(1).encode(), m.group(2).encode()), log):
                fail("%s: not a device-line point at its baud and FIFO" % name, text)
    res = subprocess.run([sys.executable, os.path.join(ROOT, "bench/report/report"), "--sweep",
                          out], capture_output=True, text=True, check=False)
    with open(os.path.join(out, "sweep.md"), encoding="utf-8") as fh:
        md = fh.read()
    if res.returncode != 0 or "## Frontier: qemu-virt, quick scale, peer stream, rx trigger 1, " \
            "line device (bus 80 ns)" not in md:
        fail("report --sweep: exit %d, or no device-line frontier" % res.returncode, md)
    rows = dict(re.findall(r"^\| (async|console|copier) \| 16 \| ([^|]+) \|$", md, re.M))
    if not rows.get("async", "").startswith("460800 (3M: ") or \
            not all(rows.get(b, "").startswith("none (460800: RX") for b in ("console", "copier")):
        fail("frontier rows %r: want async up to 460800, console and copier none, RX lost"
             % rows, md)
    if "model-bound" in md.split("## Points", 1)[1]:
        fail("a device-line point is marked model-bound", md)
    print("ok: --line device ran 6 points on the emulator's line (exit %d); frontier %r"
          % (status, rows))


def main():
    """Run one check in a fresh output folder."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--images", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("check", choices=("errors", "parallel", "resume", "quick", "device"))
    a = p.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    {"errors": check_errors, "parallel": check_parallel, "resume": check_resume,
     "quick": check_quick, "device": check_device}[a.check](
        a.out, a.images)
    return 0


if __name__ == "__main__":
    sys.exit(main())
