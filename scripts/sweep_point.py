"""One point of scripts/sweep: GNU parallel's job (run_point) and what the
runner asks of a point's outcome (outcome, complete, current); the
budget rule (budget_skip). docs/sweep.md."""
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
REFUSED = 101                           # the kernel's status for a bad boot argument
TIMED_OUT = 124                         # scripts/qemu-run's host timeout
NOT_RUN = 3                             # a point skipped for its budget (rerun on resume)


def outcome(out, name):
    """A point's recorded outcome (its .json), or None."""
    try:
        with open(os.path.join(out, "logs", name + ".json"), encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def complete(log):
    """True when log holds a finished run (the kernel's Done line); a log
    older than its image is run again (run_point)."""
    try:
        with open(log, "rb") as fh:
            return re.search(rb"^Done\.", fh.read(), re.M) is not None
    except OSError:
        return False


def budget_skip(out, row, rows, timeout):
    """The point that ran out of a budget of timeout s or more and makes
    row's point one that cannot finish either (same backend, FIFO, peer,
    line and RX trigger; baud >= and CPU clock <= row's), or None."""
    _, image, baud, fifo, shift, peer = row[:6]
    for other in rows:
        o = outcome(out, other[0])
        if (o and o["status"] == "timeout" and o.get("timeout_s", 0) >= timeout
                and other != row and other[1] == image and other[7:] == row[7:]
                and other[3] == fifo and other[5] == peer and int(other[2]) >= int(baud)
                and int(other[4]) >= int(shift)):
            return other[0]
    return None


def current(out, images, row, sections):
    """True when row's point need not run again: its log is complete, of
    these sections, and newer than its image's kernel (run_point, main)."""
    log = os.path.join(out, "logs", row[0] + ".log")
    kernel = os.path.join(images, row[1], "kernel.elf")
    return (complete(log) and (outcome(out, row[0]) or {}).get("sections") == sections
            and os.path.exists(kernel) and os.path.getmtime(log) >= os.path.getmtime(kernel))


def line_args(row):
    """qemu-run's arguments of row's line: the wire model's boot arguments
    (wire=BAUD/FIFO/TRIG peer= wire_clock=), or the device line's
    (--line BAUD/FIFO/TRIG --far-end PEER)."""
    point = "%s/%s/%s" % (row[2], row[3], row[8])
    if row[7] == "device":
        return ["--line", point, "--far-end", row[5]]
    return ["--append", "wire=" + point, "--append", "peer=" + row[5],
            "--append", "wire_clock=" + row[6]]


def run_point(out, images, timeout, sections, start, name):
    """GNU parallel's job: boot one point unless its log is complete; its
    outcome beside the log; a progress line. Exit 0 when the log is
    complete, NOT_RUN when skipped for its budget, else 1 (rerun on resume)."""
    with open(os.path.join(out, "points.tsv"), encoding="utf-8") as fh:
        rows = [line.rstrip("\n").split("\t") for line in fh if line.strip()]
    row = next(r for r in rows if r[0] == name)
    timeout = int(timeout)
    log = os.path.join(out, "logs", name + ".log")
    t0 = time.monotonic()
    if current(out, images, row, sections):
        what, code = "complete already, not run again", 0
    else:
        culprit = budget_skip(out, row, rows, timeout)
        if culprit:
            rec = {"status": "skipped", "reason": "budget: %s did not finish in its %d s"
                   % (culprit, timeout)}
        else:
            cmd = [PYTHON, os.path.join(ROOT, "scripts/qemu-run"), "--image-dir",
                   os.path.join(images, row[1]), "--icount-shift", row[4], "--timeout",
                   str(timeout), "--quiet", "--log", log] + line_args(row) + [
                   "--append", "sections=" + sections]
            res = subprocess.run(cmd, capture_output=True, text=True, check=False)
            rec = {"exit": res.returncode, "host_s": round(time.monotonic() - t0, 2)}
            if res.returncode == TIMED_OUT:
                rec["status"] = "timeout"
            elif complete(log):
                rec["status"] = "complete"
            elif res.returncode == REFUSED:
                rec["status"] = "refused"
            else:
                rec["status"] = "error"
            if rec["status"] in ("refused", "error"):
                lines = res.stderr.strip().splitlines() or ["exit %d" % res.returncode]
                rec["reason"] = lines[-1]
        rec.update(point=name, sections=sections, timeout_s=timeout, backend=row[1],
                   baud=int(row[2]), fifo=int(row[3]), shift=int(row[4]), peer=row[5],
                   wire_clock=row[6], line=row[7], rx_trigger=int(row[8]))
        with open(os.path.join(out, "logs", name + ".json"), "w", encoding="utf-8") as fh:
            json.dump(rec, fh, sort_keys=True)
        what = rec["status"] + (" (exit %d)" % rec["exit"] if "exit" in rec else "") + \
            (": " + rec["reason"] if "reason" in rec else "")
        code = 0 if rec["status"] == "complete" else NOT_RUN if rec["status"] == "skipped" else 1
    elapsed = time.time() - float(start)
    fresh = [r for r in rows if os.path.exists(os.path.join(out, "logs", r[0] + ".json"))
             and os.path.getmtime(os.path.join(out, "logs", r[0] + ".json")) >= float(start)]
    done = len(fresh) + sum(1 for r in rows if r not in fresh and
                            current(out, images, r, sections))
    fresh = len(fresh)
    eta = " ETA %.0f s" % (elapsed / fresh * (len(rows) - done)) if fresh and done < len(rows) \
        else ""
    print("sweep: [%d/%d] %s: %s, %.1f s (elapsed %.0f s%s)" % (
        done, len(rows), name, what, time.monotonic() - t0, elapsed, eta), flush=True)
    return code
