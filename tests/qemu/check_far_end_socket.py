#!/usr/bin/python3
"""Our image on QEMU's line with its UART on a TCP socket (scripts/qemu-run
--mode realtime --uart-socket 0) and scripts/far-end connected to it
(--port socket://HOST:PORT), the sections told that the far end is
outside (far_end=external): S32 and S33 ask scripts/far-end for their
streams on the line itself, and it sends them paced by the host. Checks:

- both programs exit 0, S32 and S33 PASS, the manifest says peer=external;
- each stream against the far end's ground truth (its --truth file):
  the section's sent is the far end's, received + lost = sent, and with
  nothing lost the CRCs agree (tests/hosted/check_far_end.py's rules);
- the far end's capture is every byte the guest sent (QEMU's log of the
  UART) with the requests taken out, S33's TX payload whole in it;
- `report --check` on the capture is clean;
- qemu-run refuses --uart-socket under icount and a port in use;
- with --silent: a far end that never answers (a board's wire not
  connected) fails S32 with reason rx-none-arrived.

With --line instant the UART keeps no line time (the manifest says
line=instant, as a board's says line=serial): the far end's pacing alone
makes the line.

Realtime: the losses are the host's (printed, not failures)."""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
sys.path.insert(0, os.path.join(ROOT, "tests", "hosted"))
sys.path.insert(0, HERE)
from uartreport import parse  # noqa: E402
from check_far_end import check_external, verdict  # noqa: E402

QEMU_RUN = os.path.join(ROOT, "scripts", "qemu-run")
FAR_END = os.path.join(ROOT, "scripts", "far-end")
FRAME_RE = re.compile(rb"\x02far-end [^\x02\x03]*\x03")


class Truth:
    """The far end's ground truth file, as FarEnd.streams has it."""

    def __init__(self, path):
        self.streams = []
        with open(path) as fh:
            for line in fh:
                if line.strip():
                    row = json.loads(line)
                    row["crc"] = int(row["crc32"], 16)
                    self.streams.append(row)


def socket_url(proc, timeout):
    """The URL qemu-run names on stderr once it listens, or None."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stderr.readline()
        if not line:
            return None
        m = re.search(r"socket://[0-9.]+:[0-9]+", line)
        if m:
            return m.group(0)
    return None


def start_qemu(args, sections, log, more=()):
    """qemu-run of the image with far_end=external on a socket; (the
    process, the socket's URL or None)."""
    qemu = subprocess.Popen(
        [sys.executable, QEMU_RUN, "--image-dir", args.image_dir, "--mode", "realtime",
         "--uart-socket", "0", "--append", "far_end=external", "--append",
         "sections=" + sections, "--quiet", "--log", log, "--timeout", str(args.timeout)]
        + list(more),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return qemu, socket_url(qemu, 30)


def serve(args):
    """qemu-run and scripts/far-end on one socket; (qemu-run status,
    far-end status, far-end stderr)."""
    qemu, url = start_qemu(args, "S32,S33", args.log + ".qemu",
                           ["--line", args.line] if args.line else [])
    if not url:
        qemu.kill()
        return qemu.wait(), None, "qemu-run named no socket"
    far = subprocess.run(["/usr/bin/python3", FAR_END, "--port", url, "--baud", str(args.baud),
                          "--log", args.log, "--truth", args.log + ".far-end.json",
                          "--timeout", str(args.timeout)],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=args.timeout + 30)
    try:
        qemu.communicate(timeout=args.timeout + 30)
    except subprocess.TimeoutExpired:
        qemu.kill()
        qemu.communicate()
    return qemu.returncode, far.returncode, far.stderr


def silent(args):
    """S32 with a program on the socket that reads and never answers: a
    list of what was wrong."""
    qemu, url = start_qemu(args, "S32", args.log + ".silent")
    if not url:
        qemu.kill()
        return ["silent: qemu-run named no socket"]
    host, port = url[len("socket://"):].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=args.timeout) as conn:
        while conn.recv(65536):
            pass
    qemu.communicate(timeout=args.timeout + 30)
    with open(args.log + ".silent", "rb") as fh:
        log = fh.read().decode(errors="replace")
    if qemu.returncode != 1 or not re.search(r"section=S32 status=FAIL .*reason=rx-none-arrived",
                                             log):
        return [f"silent far end: status {qemu.returncode}, S32 "
                f"{re.findall(r'section=S32 .*', log)}; expected 1 and FAIL rx-none-arrived"]
    return []


def refusals(args):
    """qemu-run's refusals of --uart-socket: a list of what was wrong."""
    errors = []
    cases = [(["--uart-socket", "0"], "needs --mode realtime")]
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    cases.append((["--mode", "realtime", "--uart-socket", str(busy.getsockname()[1])],
                  "cannot listen there"))
    cases.append((["--mode", "realtime", "--uart-socket", "host:port"], "give [HOST:]PORT"))
    for extra, want in cases:
        r = subprocess.run([sys.executable, QEMU_RUN, "--image-dir", args.image_dir, "--dry-run"]
                           + extra, capture_output=True, text=True, timeout=30)
        if r.returncode != 2 or want not in r.stderr:
            errors.append(f"qemu-run {' '.join(extra)}: status {r.returncode}, "
                          f"stderr {r.stderr.strip()[-200:]!r}, expected 2 and {want!r}")
    busy.close()
    return errors


def main():
    """Run, check, report."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", required=True, help="an image without the wire model")
    p.add_argument("--log", required=True, help="the far end's capture")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--line", help="qemu-run --line (instant: no line timing, as a board's "
                   "image without the emulator's line: line=instant in the manifest)")
    p.add_argument("--silent", action="store_true",
                   help="also a far end that never answers (S32 fails rx-none-arrived)")
    args = p.parse_args()
    errors = refusals(args) + (silent(args) if args.silent else [])
    qstatus, fstatus, ferr = serve(args)
    if qstatus != 0 or fstatus != 0:
        errors.append(f"qemu-run status {qstatus}, far-end status {fstatus}: {ferr[-400:]}")
    try:
        with open(args.log, "rb") as fh:
            capture = fh.read()
        with open(args.log + ".qemu", "rb") as fh:
            sent = fh.read()
        far = Truth(args.log + ".far-end.json")
    except (OSError, ValueError) as e:
        print(f"FAIL: {e}")
        return 1
    if not FRAME_RE.sub(b"", sent).startswith(capture) or b"Done. sections=" not in capture:
        errors.append(f"the capture ({len(capture)} bytes) is not what the guest sent "
                      f"({len(sent)} bytes) less its requests, through the suite's end")
    log = parse.parse_bytes(capture, args.log)
    want_line = "instant" if args.line == "instant" else "device"
    if log.manifest.get("line") != want_line:
        errors.append(f"manifest line={log.manifest.get('line')}, expected {want_line}")
    result = check_external(log, far, capture, errors)
    for sid in ("S32", "S33"):
        for r in log.records(sid, kind="diag", tag=sid.lower() + "-rx"):
            print(f"{sid}: sent {r.get('sent')} received {r.get('received')} "
                  f"lost {r.get('lost')}")
    return verdict(args.log, result, errors)

if __name__ == "__main__":
    sys.exit(main())
