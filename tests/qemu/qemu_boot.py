"""What the QEMU checks share: booting an image through scripts/qemu-run
and reading its serial log, and the host's own copies of facts the guest
computes, so that a check never takes the guest's word for them: the
payload pattern (include/pattern.h) and picolibc's errno numbers."""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU_RUN = os.path.join(HERE, "..", "..", "scripts", "qemu-run")
PICOLIBC_ERRNO_H = "/usr/lib/picolibc/riscv64-unknown-elf/include/sys/errno.h"
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import far_end_line  # noqa: E402  (the host's pattern, as the far end sends it)


def arg_parser(doc, timeout, log_help=None, append=False):
    """The checkers' command line: --image-dir, --log, --timeout (host
    seconds per boot, the given default), with append --append (more boot
    arguments of the boot); the caller adds its own."""
    p = argparse.ArgumentParser(description=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", required=True, help="the image's build directory")
    p.add_argument("--log", required=True, help=log_help or "serial log to write")
    p.add_argument("--timeout", type=float, default=timeout, help="host seconds per boot")
    if append:
        p.add_argument("--append", action="append", default=[], metavar="KEY=VALUE",
                       help="one more boot argument (repeatable), e.g. wire=921600/16")
    return p


def boot(image_dir, log, append=(), timeout=60, mode="icount", shift=None, smp=None,
         extra=()):
    """Boot with qemu-run (quiet, host timeout); return (exit status, log text).
    The environment variable UARTBENCH_LINE, when set, is qemu-run's --line
    (a test's line: e.g. instant, QEMU's UART that sends at once); extra:
    more qemu-run options (e.g. --bus-ns 0)."""
    cmd = [sys.executable, QEMU_RUN, "--image-dir", image_dir, "--log", log,
           "--mode", mode, "--timeout", str(timeout), "--quiet"]
    if os.environ.get("UARTBENCH_LINE"):
        cmd += ["--line", os.environ["UARTBENCH_LINE"]]
    if shift is not None:
        cmd += ["--icount-shift", str(shift)]
    if smp is not None:
        cmd += ["--smp", str(smp)]
    for a in append:
        cmd += ["--append", a]
    cmd += list(extra)
    status = subprocess.run(cmd, stdin=subprocess.DEVNULL).returncode
    try:
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        text = ""
    return status, text.replace("\r\n", "\n")


def match_lines(text, expect=(), reject=()):
    """Failures of a log's line assertions: every expect regex must match
    some line, no reject regex any line (check_log.py, check_suite.py)."""
    lines = text.split("\n")
    errors = [f"no line matches {rx!r}" for rx in expect
              if not any(re.search(rx, l) for l in lines)]
    for rx in reject:
        hits = [l for l in lines if re.search(rx, l)]
        if hits:
            errors.append(f"line matches rejected {rx!r}: {hits[0]!r}")
    return errors


def pattern(n, seed, off=0):
    """The bytes pattern_fill(buf, n, seed, off) writes (include/pattern.h)."""
    return far_end_line.pattern(seed, off, n)


def picolibc_errno(path=PICOLIBC_ERRNO_H):
    """errno names to numbers, from the picolibc header the image is built with."""
    with open(path) as f:
        return {m[1]: int(m[2]) for m in
                re.finditer(r"^#define\s+(E[A-Z0-9]+)\s+(\d+)\b", f.read(), re.M)}


def report(text, errors, ok):
    """Print the log and the failures, or the ok line; the exit status."""
    if errors:
        print(text)
        for e in errors:
            print(f"FAIL: {e}")
        return 1
    print(f"ok: {ok}")
    return 0
