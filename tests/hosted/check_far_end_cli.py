#!/usr/bin/python3
"""scripts/far-end on a pty's slave side, the test playing the board on
the master side. Cases (--case, repeatable; default all):
  serve     the board prints a line, asks for a 300-byte stream (seed 7,
            lead 20 ms), prints a payload with its witness and ends the
            suite: the far end captures the output without the request,
            sends the pattern whole at the line's pace (no byte before its
            time), writes the ground truth (sent, CRC-32), finds the
            payload as its witness says and exits 0 at `Done. sections=`
  corrupt   a payload that is not what its witness says: exit 1, naming it
  stop      a stream stopped by the board part-way: sent < asked, end
            stopped, the bytes sent all the pattern's
  silent    a board that never prints: exit 1 after --first, naming it
  busy      a port another program holds (flock): exit 2, "busy"
  missing   a port that does not exist: exit 2 naming it
  baud      a baud that is not a line's: exit 2 naming the valid ones"""
import argparse
import fcntl
import json
import os
import select
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
FAR_END = os.path.join(ROOT, "scripts", "far-end")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from far_end_line import pattern  # noqa: E402

BAUD = 115200


def start(tmp, port, *extra, ready=True):
    """scripts/far-end on port, its log and truth in tmp; with ready,
    returns once it says it serves the port (raw, so that nothing the
    board writes is echoed or translated by the pty's line discipline
    before)."""
    proc = subprocess.Popen([FAR_END, "--port", port, "--baud", str(BAUD), "--log",
                             os.path.join(tmp, "cap.log"), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not ready:
        return proc
    first = proc.stderr.readline() if select.select([proc.stderr], [], [], 30)[0] else ""
    if not first.startswith("far-end: serving "):
        proc.kill()
        out, err = proc.communicate()
        raise SystemExit(f"FAIL: far-end did not say it serves {port}: {first + err!r}")
    return proc


def collect(master, seconds, until=None, times=None):
    """What the far end sends on the master side for up to seconds
    (until(data) true ends it early); times gets each read's time and the
    bytes read by then."""
    data, end = bytearray(), time.monotonic() + seconds
    while time.monotonic() < end and not (until and until(data)):
        if select.select([master], [], [], 0.05)[0]:
            try:
                data += os.read(master, 65536)
            except OSError:
                break
            if times is not None:
                times.append((time.monotonic(), len(data)))
    return bytes(data)


def case_serve(tmp, fails):
    """A stream asked, served whole, paced, its truth written."""
    master, slave = os.openpty()
    proc = start(tmp, os.ttyname(slave))
    t0 = time.monotonic()
    os.write(master, b"  hello from the board\r\n\x02far-end stream bytes=300 seed=7 "
                     b"lead_ms=20\x03  more log\r\n")
    times = []
    got = collect(master, 5, lambda d: len(d) >= 300, times)
    os.write(master, witnessed(b"x\n" * 40) + b"Done. sections=2 passed=2\r\n")
    out, err = proc.communicate(timeout=10)
    os.close(master)
    os.close(slave)
    if proc.returncode != 0:
        fails.append(f"serve: exit {proc.returncode}: {err[-300:]}")
    if "payloads: 1 of 1 as their witnesses say" not in err:
        fails.append(f"serve: the payload's check is not on stderr: {err[-300:]}")
    if got != pattern(7, 0, 300):
        fails.append(f"serve: {len(got)} bytes sent, not the pattern's 300 of seed 7")
    early = [(t - t0, n) for t, n in times if t - t0 < 0.020 + n * 10 / BAUD]
    if early or not times:
        fails.append(f"serve: bytes before their time on the line (request at 0, lead 20 ms, "
                     f"{10 / BAUD * 1e6:.1f} us a byte): (s, bytes by then) {early[:5]}")
    with open(os.path.join(tmp, "cap.log"), "rb") as fh:
        cap = fh.read()
    want = (b"  hello from the board\r\n  more log\r\n" + witnessed(b"x\n" * 40) +
            b"Done. sections=2 passed=2\r\n")
    if cap != want:
        fails.append(f"serve: capture {cap!r}, expected {want!r}")
    with open(os.path.join(tmp, "cap.far-end.json")) as fh:
        rows = [json.loads(line) for line in fh]
    want_row = {"stream": 1, "seed": 7, "bytes": 300, "sent": 300, "end": "sent",
                "crc32": "0x%08x" % zlib.crc32(pattern(7, 0, 300))}
    if len(rows) != 1 or any(rows[0].get(k) != v for k, v in want_row.items()):
        fails.append(f"serve: truth {rows}, expected {want_row}")


def witnessed(payload, crc=None):
    """A payload between its witness lines, as a section prints it."""
    crc = zlib.crc32(payload) if crc is None else crc
    return (b"  payload-begin=t\r\n" + payload + b"\r\n  payload-end=t bytes=%d crc32=0x%08x\r\n"
            % (len(payload), crc))


def case_corrupt(tmp, fails):
    """A payload whose bytes are not its witness's."""
    master, slave = os.openpty()
    proc = start(tmp, os.ttyname(slave))
    os.write(master, witnessed(b"abc", zlib.crc32(b"abd")) + b"Done. sections=1\r\n")
    _, err = proc.communicate(timeout=10)
    os.close(master)
    os.close(slave)
    if proc.returncode != 1 or "payloads: 0 of 1" not in err or "payload t MISMATCH" not in err:
        fails.append(f"corrupt: exit {proc.returncode}, stderr {err[-300:]!r}; expected 1, "
                     "the payload named")


def case_stop(tmp, fails):
    """A stream the board stops part-way."""
    master, slave = os.openpty()
    proc = start(tmp, os.ttyname(slave))
    os.write(master, b"\x02far-end stream bytes=100000 seed=3 lead_ms=0\x03")
    got = collect(master, 0.3)
    os.write(master, b"\x02far-end stop\x03Done. sections=1\r\n")
    got += collect(master, 0.3)
    proc.communicate(timeout=10)
    os.close(master)
    os.close(slave)
    with open(os.path.join(tmp, "cap.far-end.json")) as fh:
        row = json.loads(fh.readline())
    if not 0 < row["sent"] < 100000 or row["end"] != "stopped" or row["sent"] != len(got) or \
            got != pattern(3, 0, len(got)):
        fails.append(f"stop: truth {row}, {len(got)} bytes seen: expected a stopped stream, "
                     "its bytes the pattern's")


def case_silent(tmp, fails):
    """A board that never prints."""
    master, slave = os.openpty()
    proc = start(tmp, os.ttyname(slave), "--first", "1")
    _, err = proc.communicate(timeout=10)
    os.close(master)
    os.close(slave)
    if proc.returncode != 1 or "nothing from the board in 1 s" not in err:
        fails.append(f"silent: exit {proc.returncode}, {err.strip()[-200:]!r}")


def case_busy(tmp, fails):
    """A port another program holds."""
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = os.open(path, os.O_RDWR | os.O_NOCTTY)
    fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    proc = start(tmp, path, ready=False)
    _, err = proc.communicate(timeout=10)
    for fd in (holder, master, slave):
        os.close(fd)
    if proc.returncode != 2 or "busy" not in err:
        fails.append(f"busy: exit {proc.returncode}, {err.strip()[-200:]!r}")


def case_missing(tmp, fails):
    """A port that is not there."""
    proc = start(tmp, "/dev/nonexistent-uart", ready=False)
    _, err = proc.communicate(timeout=10)
    if proc.returncode != 2 or "cannot open /dev/nonexistent-uart" not in err:
        fails.append(f"missing: exit {proc.returncode}, {err.strip()[-200:]!r}")


def case_baud(tmp, fails):
    """A baud no line has."""
    proc = subprocess.run([FAR_END, "--port", "/dev/null", "--baud", "12345"],
                          capture_output=True, text=True, timeout=10)
    if proc.returncode != 2 or "--baud 12345: valid values" not in proc.stderr or \
            "115200" not in proc.stderr:
        fails.append(f"baud: exit {proc.returncode}, {proc.stderr.strip()[-200:]!r}")


CASES = {"serve": case_serve, "corrupt": case_corrupt, "stop": case_stop, "silent": case_silent, "busy": case_busy,
         "missing": case_missing, "baud": case_baud}


def main():
    """Run the cases asked for; status 1 when any fails."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", action="append", choices=sorted(CASES))
    args = p.parse_args()
    fails = []
    for name in args.case or list(CASES):
        with tempfile.TemporaryDirectory() as tmp:
            n = len(fails)
            CASES[name](tmp, fails)
            print(f"{name}: {'ok' if len(fails) == n else 'FAIL'}")
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
