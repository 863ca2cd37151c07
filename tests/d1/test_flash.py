#!/usr/bin/env python3
"""Tests of scripts/d1-flash against a fake xfel and a pseudo-terminal.

The fake xfel (tests/d1/fake-xfel) records its arguments and imitates an
outcome. The serial port is the slave side of a pty passed with --port; a
feeder thread writes a canned kernel log into the master side once the
fake has recorded `exec`, as a board would start printing after xfel exec.
One case per run (--case NAME), or every case with --case all.
"""
import argparse
import os
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake-xfel")

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
    p.add_argument("--case", default="all", choices=["all", "dry-run"] + list(CASES))
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    names = ["dry-run"] + list(CASES) if args.case == "all" else [args.case]
    failed = 0
    for name in names:
        bad = dry_run(args) if name == "dry-run" else run_case(name, args)
        for b in bad:
            print(f"FAIL {name}: {b}")
        print(f"{'FAIL' if bad else 'PASS'} {name}\n")
        failed += bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
