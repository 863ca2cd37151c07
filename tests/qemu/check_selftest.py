#!/usr/bin/python3
"""Boot an image with a UART or POSIX self-test (selftest=<name>) and check
its results against the host's own expectations, never against values the
guest printed for comparison:

- loopback: 64 KiB of the payload pattern (seed 5) through MCR.LOOP; both
  CRC-32s equal zlib's CRC of the pattern the host generates itself, no
  byte mismatched, dropped or overrun;
- posix: every error case prints the errno that the host's table (case
  name -> errno name, numbers from picolibc's sys/errno.h) expects, no
  case is missing or unknown, and `posix failures=0`;
- rx-overrun: 48 pattern bytes (seed 6) looped back while nothing services
  RX: QEMU's 16550 keeps 16 (its RX FIFO, UART_FIFO_LENGTH in
  hw/char/serial.c) and sets LSR.OE for the rest; the 16 read back are the
  first 16 sent (CRC-32 of the host's pattern), rx_dropped=0 (the RX ring
  had room for all 16: the 32 others were lost in the UART, which is an
  overrun, not a drop); the async driver counts one overrun or more (see
  check_rx_overrun), the copier exactly one with the wire model and
  exactly 32 without it, the console has no counters. The copier's count
  is exact because of how it sends: its write only fills the ring (the TX
  copier task sends, and it cannot run while the test masks interrupts)
  and the polled flush sends them all, polling THRE before each byte. With
  the wire model that poll is a modelled read that never reaches QEMU's
  LSR, so only the last overflow's OE is left, for the RX copier task's
  first status read; without it every poll reaches LSR and counts the OE
  the byte before it set (a THRE poll must count what its read clears), one
  per byte the RX FIFO had no room for. The task then moves the 16 bytes
  into the RX ring in one read.
The copier (StarryOS's design: TX and RX copier tasks) has the counters
and answers the POSIX cases as async does; its loopback round trip is
async's too (16 bytes out, 16 back before the next: the RX FIFO never
holds more than it can).
"""
import json
import os
import re
import sys
import zlib

from qemu_boot import arg_parser, boot, pattern, picolibc_errno, report

LOOPBACK_BYTES, LOOPBACK_SEED = 64 * 1024, 5
OVERRUN_BYTES, OVERRUN_SEED, QEMU_RX_FIFO = 48, 6, 16
MODEL = False           # the image has the wire model (its qemu.json: line "model")
# selftest=posix: case -> the errno POSIX asks for (-1 and errno set).
POSIX_CASES = {
    "write-bad-fd": "EBADF", "read-bad-fd": "EBADF", "close-bad-fd": "EBADF",
    "write-null-buffer": "EFAULT", "read-null-buffer": "EFAULT",
    "writev-null-iov": "EFAULT", "open-unknown-path": "ENOENT",
    "open-bad-flags": "EINVAL", "fcntl-bad-cmd": "EINVAL", "ioctl-unknown": "ENOTTY",
    "ioctl-fionbio-null": "EFAULT", "clock-gettime-null": "EFAULT",
    "read-empty-nonblocking": "EAGAIN", "use-after-close": "EBADF",
}
POSIX_CONSOLE_CASES = {"ioctl-counters-console": "ENOTTY"}   # no counters there
NO_COUNTERS = {"console"}       # designs without the TX/RX counters (ENGINE_COUNTERS)
BACKENDS = ["async", "console", "copier"]


def result(text, name, errors):
    """The fields of the `selftest=<name> backend=...` result line (numbers
    as ints), or None."""
    m = re.search(rf"^selftest={name} (backend=.*)$", text, re.M)
    if not m:
        errors.append(f"no selftest={name} result line")
        return None
    return {k: int(v, 0) if re.fullmatch(r"0x[0-9a-f]+|\d+", v) else v
            for k, v in re.findall(r"(\w+)=(\S+)", m[1])}


def compare(got, want, errors):
    """Every field of want, as the guest printed it."""
    for key, value in want.items():
        if got.get(key) != value:
            errors.append(f"{key}={got.get(key)}, expected {value}")


def check_loopback(text, backend, errors):
    """The 64 KiB round trip."""
    got = result(text, "loopback", errors)
    crc = zlib.crc32(pattern(LOOPBACK_BYTES, LOOPBACK_SEED))
    if got:
        compare(got, {"backend": backend, "bytes": LOOPBACK_BYTES, "crc_tx": crc, "crc_rx": crc,
                      "mismatched": 0, "rx_dropped": 0, "rx_overruns": 0}, errors)


def check_posix(text, backend, errors):
    """The error table, case by case."""
    num = picolibc_errno()
    cases = dict(POSIX_CASES, **(POSIX_CONSOLE_CASES if backend in NO_COUNTERS else {}))
    seen = {m[1]: m for m in re.finditer(
        r"^posix case=(\S+) rc=(-?\d+) errno=(\d+) want=(\d+) (ok|FAIL)$", text, re.M)}
    for case, name in cases.items():
        m = seen.pop(case, None)
        if not m:
            errors.append(f"case {case}: no result line")
        elif (int(m[2]), int(m[3]), int(m[4])) != (-1, num[name], num[name]):
            errors.append(f"case {case}: rc={m[2]} errno={m[3]} want={m[4]}, "
                          f"expected rc=-1 errno={name} ({num[name]})")
    for case in seen:
        errors.append(f"case {case}: not in the host's table")
    m = re.search(r"^posix case=clock-nanosleep-bad-nsec rc=(-?\d+) ", text, re.M)
    if not m or int(m[1]) != num["EINVAL"]:
        errors.append(f"clock_nanosleep with tv_nsec 2e9 returned {m and m[1]}, not EINVAL")
    m = re.search(r"^posix case=timer-bad-args arm_rc=(-?\d+) cancel=(\d+) past_rc=(-?\d+) ",
                  text, re.M)
    if not m or (int(m[1]), m[2], int(m[3])) != (-num["EINVAL"], "0", -num["ETIMEDOUT"]):
        errors.append(f"timer-bad-args: {m and m.group(0)}, expected arm_rc=-EINVAL "
                      "cancel=0 past_rc=-ETIMEDOUT")
    if not re.search(r"^posix failures=0$", text, re.M):
        errors.append("no `posix failures=0`")


def check_rx_overrun(text, backend, errors):
    """The deliberate overrun. QEMU loops each FIFO load back at once; the
    RX FIFO keeps the first 16 bytes, and every later load overflows it
    and sets LSR.OE, which the next status read clears: the async engine's
    next load (its TX-room read counts the errors it clears) or the
    interrupt. Up to one overrun per overflowing load: with the wire model
    the engine's status reads are modelled and never reach QEMU's LSR, so
    only the interrupt sees one. The console's polled output reads LSR
    without counting, so it sees none. The copier counts exactly one: its
    write makes no status read (unlike async's kick, which loads the FIFO
    and reads LSR), so the only counting read is its RX copier's first
    (see the module's docstring)."""
    got = result(text, "rx-overrun", errors)
    sent = pattern(OVERRUN_BYTES, OVERRUN_SEED)
    loads = -(-(OVERRUN_BYTES - QEMU_RX_FIFO) // QEMU_RX_FIFO)   # TX FIFO as deep as RX
    if got:
        compare(got, {"backend": backend, "sent": OVERRUN_BYTES, "received": QEMU_RX_FIFO,
                      "crc_tx": zlib.crc32(sent), "crc_rx": zlib.crc32(sent[:QEMU_RX_FIFO]),
                      "mismatched": 0, "rx_dropped": 0}, errors)
        n = got.get("rx_overruns", -1)
        lost = OVERRUN_BYTES - QEMU_RX_FIFO
        copier = (1, 1) if MODEL else (lost, lost)
        lo, hi = {"async": (1, loads), "copier": copier}.get(backend, (0, 0))
        if not lo <= n <= hi:
            errors.append(f"rx_overruns={n}, expected {lo}..{hi}")


CHECKS = {"loopback": check_loopback, "posix": check_posix, "rx-overrun": check_rx_overrun}


def main():
    """Boot with the self-test, check, report."""
    p = arg_parser(__doc__, 60, append=True)
    p.add_argument("--selftest", required=True, choices=sorted(CHECKS))
    p.add_argument("--backend", required=True, choices=BACKENDS)
    args = p.parse_args()
    global MODEL
    with open(os.path.join(args.image_dir, "qemu.json")) as f:
        MODEL = json.load(f).get("line") == "model"
    status, text = boot(args.image_dir, args.log, [f"selftest={args.selftest}"] + args.append,
                        args.timeout)
    errors = [] if status == 0 else [f"exit status {status}, expected 0"]
    CHECKS[args.selftest](text, args.backend, errors)
    if not re.search(rf"^selftest={args.selftest} status=PASS$", text, re.M):
        errors.append(f"no `selftest={args.selftest} status=PASS`")
    return report(text, errors, f"selftest={args.selftest} on {args.backend}: every figure "
                                "equals the host's expectation")


if __name__ == "__main__":
    sys.exit(main())
