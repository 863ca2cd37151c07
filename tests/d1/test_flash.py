#!/usr/bin/python3
"""Tests of scripts/d1-flash against a fake xfel and a pseudo-terminal.

The fake xfel (tests/d1/fake-xfel) records its arguments and imitates an
outcome. The serial port is the slave side of a pty passed with --port; a
feeder thread writes a canned kernel log into the master side once the
fake has recorded `exec`, as a board would start printing after xfel exec.
One case per run (--case NAME), or every case with --case all. The case
far-end plays a board that asks the far end for a stream (--far-end).
"""
import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake-xfel")
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
sys.dont_write_bytecode = True
from far_end_line import pattern  # noqa: E402
from image_bootargs import MAGIC, ROOM  # noqa: E402

MANIFEST = """=== [S00] Benchmark Manifest ===
  diag=S00 pre_section_stdout_drain_ms=0 drain_errors=0 last_errno=0
  version=test
  board=d1
  backend=async
  privilege=M
  isa=rv64imac
  timebase_hz=24000000 timer=clint-mtimecmp-32bit-halves
  uart_base=0x02500000 uart_irq=18 uart_reg_shift=2 uart_io_width=4 uart_dw_apb=1
  fifo_depth=16
  baud=115200 uart_clock_hz=24000000 divisor=13 baud_real=115384.615
  wire_model=off
  qemu_mode=none
  section=S00 status=PASS elapsed_ms=0.061

"""
PANIC = """=== [S05] Ring Buffer and Driver Internals at Boot ===

PANIC: exception: load access fault (cause=5)
  epc=0x0000000040001234 tval=0x0000000000000000 status=0x0000000a00001800 priv=M
  task=S05
"""


def crlf(text):
    """The kernel ends lines with CR LF."""
    return text.replace("\n", "\r\n").encode()


FEEDS = {
    "ok": crlf(MANIFEST + "Done. sections=16 passed=16 failed=0\n"),
    "failed-2": crlf(MANIFEST + "Done. sections=16 passed=14 failed=2\n"),
    "timeout": crlf(MANIFEST),
    "panic": crlf(MANIFEST + PANIC),
    "bad-done": crlf(MANIFEST + "Done.\n"),
    "refused": crlf("uartbench\nbad boot argument sections=S99; valid forms: Sxx[,Syy...], "
                    "Sxx one of S00,S05\n"),
}

FEL_ADVICE = ["no D1 in FEL mode was found", "FEL button", "1f3a:efe8", "lsusb", "OTG"]
# case: (fake mode, feed, expected status, extra options, strings stderr must hold,
#        expected recorded xfel commands: "all" = the four steps, or a count)
CASES = {
    "ok": ("ok", "ok", 0, [], ["Done. sections=16 passed=16 failed=0"], "all"),
    "xfel-on-path": ("ok", "ok", 0, [], ["Done. sections=16"], "all"),
    "old-xfel": ("old-format", "ok", 0, [], ["soc=0x00185900"], "all"),
    "failed-2": ("ok", "failed-2", 2, [], ["failed=2"], "all"),
    "timeout": ("ok", "timeout", 124, ["--timeout", "2"], ["TIMEOUT", "no `Done.` line"],
                "all"),
    "silent": ("ok", None, 124, ["--timeout", "1"],
               ["TIMEOUT", "nothing at all arrived", "wiring", "3.3 V"], "all"),
    "panic": ("ok", "panic", 100, [], ["panicked"], "all"),
    "bad-done": ("ok", "bad-done", 76, [], ["without failed="], "all"),
    "refused": ("ok", "refused", 101, [],
                ["refused a boot argument", "bad boot argument sections=S99; valid forms: "],
                "all"),
    "no-xfel": (None, None, 127, [],
                ["not a Debian package", "github.com/xboot/xfel", "libusb-1.0-0-dev",
                 "make", "sudo make install"], 0),
    "bad-xfel-env": (None, None, 127, [], ["(from XFEL)", "github.com/xboot/xfel"], 0),
    "no-device": ("no-device", None, 69, [], FEL_ADVICE, 1),
    "wrong-chip": ("wrong-chip", None, 65, [], ["0x00166700", "0x00185900"], 1),
    "ddr-fails": ("ddr-fails", None, 70, [], ["ddr d1` failed", "Failed to initial ddr controller"], 2),
    "exec-fails": ("exec-fails", None, 69, [], ["exec 0x40000000` failed"] + FEL_ADVICE, 4),
    "no-kernel": ("ok", None, 66, [],
                  ["kernel.bin does not exist",
                   "cmake --preset d1-async && cmake --build build/d1-async"], 0),
    "no-port": ("ok", None, 74, ["--port", "/dev/ttyNOSUCH9"],
                ["/dev/ttyNOSUCH9 does not exist", "--port"], 0),
    "not-a-tty": ("ok", None, 74, ["--port", "/dev/null"],
                  ["/dev/null is not a serial port", "--port"], 0),
    "bad-append": ("ok", None, 64, ["--append", "sections S00"],
                   ["--append sections S00: give KEY=VALUE"], 0),
    "no-bootargs-place": ("ok", None, 64, ["--append", "sections=S00"],
                          ["no place for boot arguments", "rebuild"], 0),
}


def feeder(record, master, data, stop):
    """Write data into the pty master once the fake has recorded `exec`."""
    while not stop.is_set():
        if os.path.exists(record) and "\nexec " in "\n" + open(record).read():
            break
        time.sleep(0.02)
    for i in range(0, len(data), 37):        # odd chunks: lines arrive in pieces
        if stop.is_set():
            return
        os.write(master, data[i:i + 37])
        time.sleep(0.002)


def run_case(name, args):
    """Run one case; return a list of failure messages."""
    mode, feed, want_status, extra, want_err, want_rec = CASES[name]
    work = os.path.join(args.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    record, log = os.path.join(work, "xfel-calls.txt"), os.path.join(work, "d1.log")
    build = args.build_dir
    if name == "no-kernel":
        build = os.path.join(work, "empty-build")
        os.makedirs(build)
    if name == "no-bootargs-place":         # an image from before boot arguments
        build = os.path.join(work, "old-build")
        os.makedirs(build)
        with open(os.path.join(build, "kernel.bin"), "wb") as fh:
            fh.write(bytes(4096))
    master, slave = os.openpty()
    port = os.ttyname(slave)
    env = dict(os.environ, FAKE_XFEL_RECORD=record, FAKE_XFEL_MODE=mode or "ok",
               FAKE_XFEL_PORT=port, XFEL=FAKE)
    if name == "no-xfel":
        del env["XFEL"]
        env["PATH"] = os.path.join(work, "empty-path")
        os.makedirs(env["PATH"])
    if name == "xfel-on-path":              # the default: `xfel` found on PATH
        del env["XFEL"]
        bindir = os.path.join(work, "bin")
        os.makedirs(bindir)
        os.symlink(FAKE, os.path.join(bindir, "xfel"))
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    if name == "bad-xfel-env":
        env["XFEL"] = os.path.join(work, "no-such-xfel")
    cmd = [sys.executable, args.script, "--build-dir", build, "--port", port,
           "--log", log, "--timeout", "20"] + extra
    stop = threading.Event()
    t = threading.Thread(target=feeder, args=(record, master, FEEDS.get(feed, b""), stop),
                         daemon=True)
    t.start()
    start = time.monotonic()
    p = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=50, check=False)
    took = time.monotonic() - start
    stop.set()
    t.join(5)
    os.close(master)
    os.close(slave)
    err = p.stderr.decode(errors="replace")
    print(f"--- {name}: exit {p.returncode} in {took:.1f} s; stderr:\n{err}")
    bad = []
    if p.returncode != want_status:
        bad.append(f"exit status {p.returncode}, expected {want_status}")
    for s in want_err:
        if s not in err:
            bad.append(f"stderr lacks {s!r}")
    calls = open(record).read().splitlines() if os.path.exists(record) else []
    steps = [c for c in calls if not c.startswith("#")]
    kernel = os.path.join(os.path.abspath(build), "kernel.bin")
    expected = ["version", "ddr d1", f"write 0x40000000 {kernel}", "exec 0x40000000"]
    if want_rec == "all":
        if steps != expected:
            bad.append(f"xfel calls {steps}, expected {expected}")
        if "# port-open=yes" not in calls:
            bad.append("the serial port was not open when `xfel exec` ran")
    elif steps != expected[:want_rec]:
        bad.append(f"xfel calls {steps}, expected {expected[:want_rec]}")
    if feed is not None:
        saved = open(log, "rb").read() if os.path.exists(log) else b""
        if saved != FEEDS[feed]:
            bad.append(f"saved log ({len(saved)} B) differs from what was sent "
                       f"({len(FEEDS[feed])} B)")
        if FEEDS[feed] not in p.stdout:
            bad.append("the log was not echoed on stdout")
    if name == "panic" and took > 10:
        bad.append(f"a panic took {took:.1f} s to end the capture")
    return bad


def board(record, master, out, stop):
    """The board of the far-end case: after `exec`, its manifest and a
    request for 200 bytes of seed 32; what comes back into out["got"]
    until 200 bytes or 5 s; then the suite's end."""
    while not stop.is_set() and not (os.path.exists(record) and
                                     "\nexec " in "\n" + open(record).read()):
        time.sleep(0.02)
    os.write(master, crlf(MANIFEST) + b"\x02far-end stream bytes=200 seed=32 lead_ms=10\x03")
    end, got = time.monotonic() + 5, b""
    while len(got) < 200 and time.monotonic() < end and not stop.is_set():
        if select.select([master], [], [], 0.05)[0]:
            got += os.read(master, 4096)
    out["got"] = got
    os.write(master, crlf("Done. sections=3 passed=3 failed=0\n"))


def far_end(args):
    """--far-end and --append: the arguments in a copy of kernel.bin beside
    the log, xfel writing that copy, the stream asked sent on the port as
    the pattern, the log without the request, the truth beside it."""
    work = os.path.join(args.work, "far-end")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    record, log = os.path.join(work, "xfel-calls.txt"), os.path.join(work, "d1.log")
    master, slave = os.openpty()
    port = os.ttyname(slave)
    env = dict(os.environ, FAKE_XFEL_RECORD=record, FAKE_XFEL_PORT=port, XFEL=FAKE)
    out, stop = {}, threading.Event()
    t = threading.Thread(target=board, args=(record, master, out, stop), daemon=True)
    t.start()
    p = subprocess.run([sys.executable, args.script, "--build-dir", args.build_dir, "--port",
                        port, "--log", log, "--timeout", "20", "--far-end", "--append",
                        "sections=S00,S32", "--quiet"], env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=50, check=False)
    stop.set()
    t.join(5)
    os.close(master)
    os.close(slave)
    print(f"--- far-end: exit {p.returncode}; stderr:\n{p.stderr.decode(errors='replace')}")
    bad = [] if p.returncode == 0 else [f"exit status {p.returncode}"]
    if out.get("got") != pattern(32, 0, 200):
        bad.append(f"the board got {len(out.get('got') or b'')} bytes, not the 200 of "
                   "seed 32's pattern")
    want_log = crlf(MANIFEST + "Done. sections=3 passed=3 failed=0\n")
    saved = open(log, "rb").read() if os.path.exists(log) else b""
    if saved != want_log:
        bad.append(f"the log ({len(saved)} B) is not what the board printed less its request")
    truth = os.path.join(work, "d1.far-end.json")
    rows = [json.loads(x) for x in open(truth)] if os.path.exists(truth) else []
    if [(r["seed"], r["bytes"], r["sent"], r["end"]) for r in rows] != [(32, 200, 200, "sent")]:
        bad.append(f"the far end's truth {rows}")
    image = os.path.join(work, "d1.kernel.bin")
    steps = [c for c in open(record).read().splitlines() if not c.startswith("#")]
    if f"write 0x40000000 {image}" not in steps:
        bad.append(f"xfel calls {steps}: not the copy with the boot arguments")
    kernel = open(os.path.join(args.build_dir, "kernel.bin"), "rb").read()
    copy = open(image, "rb").read() if os.path.exists(image) else b""
    at = kernel.find(MAGIC)
    text = MAGIC + b"sections=S00,S32 far_end=external"
    if at < 0 or copy != kernel[:at] + text.ljust(ROOM, b"\0") + kernel[at + ROOM:]:
        bad.append(f"{image} is not kernel.bin with {text!r} at the magic")
    return bad


def dry_run(args):
    """--dry-run prints the plan (default log BUILD/d1.log) and runs nothing."""
    record = os.path.join(args.work, "dry-run-calls.txt")
    if os.path.exists(record):
        os.unlink(record)
    env = dict(os.environ, FAKE_XFEL_RECORD=record, XFEL=FAKE)
    p = subprocess.run([sys.executable, args.script, "--build-dir", args.build_dir,
                        "--dry-run"], env=env, capture_output=True, text=True, check=False)
    print(f"--- dry-run: exit {p.returncode}\n{p.stdout}{p.stderr}")
    build = os.path.abspath(args.build_dir)
    want = [f"{FAKE} version", f"{FAKE} ddr d1",
            f"{FAKE} write 0x40000000 {build}/kernel.bin", f"{FAKE} exec 0x40000000",
            f"log to {build}/d1.log", "/dev/ttyUSB0 at 115200 8N1"]
    bad = [f"output lacks {w!r}" for w in want if w not in p.stdout]
    if p.returncode != 0:
        bad.append(f"exit status {p.returncode}")
    if os.path.exists(record):
        bad.append("--dry-run ran xfel")
    return bad


def main():
    """Run the selected cases, print every failure, exit 1 if any."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--script", required=True, help="path of scripts/d1-flash")
    p.add_argument("--build-dir", required=True, help="d1 image build directory")
    p.add_argument("--work", required=True, help="scratch directory")
    p.add_argument("--case", default="all",
                   choices=["all", "dry-run", "far-end"] + list(CASES))
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    names = ["dry-run", "far-end"] + list(CASES) if args.case == "all" else [args.case]
    failed = 0
    for name in names:
        bad = dry_run(args) if name == "dry-run" else far_end(args) if name == "far-end" \
            else run_case(name, args)
        for b in bad:
            print(f"FAIL {name}: {b}")
        print(f"{'FAIL' if bad else 'PASS'} {name}\n")
        failed += bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
