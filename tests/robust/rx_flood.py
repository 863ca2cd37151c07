#!/usr/bin/python3
"""Hostile RX input on QEMU: flood the guest's UART with random bytes and
line breaks while the benchmark suite runs, then check that the suite
still completes, that no transmitted payload was corrupted, and that the
driver's RX counters (S40) account exactly for what was sent in their
window. docs/robustness-qemu.md explains the design and the figures.

The UART is a TCP socket chardev on 127.0.0.1: this script opens a
listening socket on a free port and hands it to QEMU (`fd=`, no port
race); `server=on,wait=on` holds the guest until the injector connects;
`telnet=on` makes QEMU turn a telnet BREAK (IAC BRK) into a line break.
QEMU also copies every byte the guest transmits to the chardev's
`logfile=`, which is the log checked here (the socket copy only drives
the phases). The injector duplicates QEMU's end of the connection
(pidfd_getfd): FIONREAD on it gives QEMU's receive queue, and holding it
keeps the connection from being reset when QEMU exits with injected
bytes unread (a reset discards output this end has not read yet).

One select loop, paced at 1 ms, reads the guest's output (for the
markers below) and sends, non-blocking, whenever fewer than --inflight
injected bytes are queued ahead of QEMU's serial model (our send queue,
SIOCOUTQ, + QEMU's receive queue; /proc/net/tcp if the duplicate cannot
be had). QEMU takes a byte only when its
RX FIFO has room, so this is the highest rate it accepts; a deeper queue
would only blur the accounting. Phases, driven by the guest's output:

  flood   boot .. the header of --quiet-at (S42): random bytes (0xFF
          sent as IAC IAC); S05..S41 run under RX load;
  quiet   .. the last counter reset of S43
          (`payload-begin=s43-loaded-<groups>`): nothing sent, the queue
          drains (S42 and S43's idle groups give it a margin of a few
          hundred ms of host time, so no flood byte can reach the guest
          after that reset, even under icount where the guest outruns
          this reader);
  burst   then exactly --burst random bytes (no 0xFF) with --breaks
          telnet BREAKs spread among them, all of which S40's counters
          (RX counters count since boot: S40's figures minus the
          `*_at_reset` figures S43's last loaded group printed) must count:
          rx_bytes + rx_dropped = burst + breaks (a break delivers one
          NUL byte), rx_breaks = breaks, rx_overruns = 0 (on the emulator's
          line, where an overrun in real time is the host's latency, the
          bytes counted plus the overruns at most what was sent).

Exit status 0 when every check holds. Every section's status line
carries the foreign RX traffic of its window; a section with foreign
bytes in its window must report `status=INVALID reason=foreign-rx` (PASS
when none came), and none may FAIL or time out: the TX sections run to
completion, and their drains meet their deadlines, while input pours in.
"""
import argparse
import json
import os
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from qemu_line import add_line_options, finish_line_options  # noqa: E402
from uartreport import parse, recompute  # noqa: E402
from payload_witness import parser_flag_ok, raw_witnesses  # noqa: E402

from rx_flood_checks import accounting, flood_reached_tx, structural_checks  # noqa: E402
from rx_flood_qemu import boot_and_flood  # noqa: E402


def main():
    """Parse options, boot, flood, check, report."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--log", required=True, help="guest output (QEMU chardev logfile)")
    p.add_argument("--timeout", type=float, default=120, help="host seconds before QEMU is killed")
    p.add_argument("--mode", choices=["icount", "realtime"], default="realtime",
                   help="realtime (default): guest time = host time, so the flood keeps its "
                        "host rate through idle time; icount: -icount shift=N,sleep=off")
    p.add_argument("--budget", type=int, default=64 << 20, help="most flood bytes")
    p.add_argument("--flood-seconds", type=float, default=600, help="stop flooding after this")
    p.add_argument("--quiet-at", default="s42", choices=["s30", "s41", "s42"],
                   help="marker (section header) at which the flood stops")
    p.add_argument("--inflight", type=int, default=512,
                   help="most injected bytes queued ahead of QEMU")
    p.add_argument("--burst", type=int, default=512, help="bytes sent in the counted window")
    p.add_argument("--breaks", type=int, default=8, help="BREAKs sent in the counted window")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: from time)")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--wrap", default="", help="debugging: command to run QEMU under")
    p.add_argument("--socket-log", type=argparse.FileType("wb"),
                   help="debugging: save the guest output read from the socket")
    add_line_options(p)
    args = p.parse_args()
    args.log = os.path.abspath(args.log)
    if args.seed is None:
        args.seed = int(time.time())

    with open(os.path.join(args.image_dir, "qemu.json")) as f:
        desc = json.load(f)
    finish_line_options(p, args, desc)
    desc["shift"] = int(desc.get("icount_shift", 0))
    t0 = time.monotonic()
    status, inj = boot_and_flood(args, desc)
    try:
        with open(args.log, "rb") as f:
            raw = f.read()
    except OSError:
        raw = b""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(f"injector CPU: {ru.ru_utime + ru.ru_stime:.1f} s")
    print(f"{desc['board']}/{desc['backend']} ({args.mode}, seed {args.seed}): exit status "
          f"{status} after {time.monotonic() - t0:.1f} s, {len(raw)} B logged"
          f"{', connection reset at exit' if inj.reset else ''} (log: {args.log})")
    errors = []
    if status == 124:
        errors.append(f"TIMEOUT: guest still running after {args.timeout:g} s, killed")
    text = raw.decode("utf-8", "replace").replace("\r\n", "\n")
    log = parse.parse_bytes(raw, args.log)
    an = recompute.analyze(log)
    lines = structural_checks(args, status, text, errors)
    flood_reached_tx(lines, "backend=async" in text, errors)
    witnesses = raw_witnesses(raw)      # byte for byte: S13's payload holds CR LF
    if not witnesses:
        errors.append("no payload witness found")
    for tag, verdict, detail in witnesses:
        if verdict != "match":
            errors.append(f"TX payload {tag}: {verdict} ({detail})")
    for flag in an.flags:
        if not parser_flag_ok(flag, raw):
            errors.append(f"recompute: {flag}")
    print(f"TX payloads: {sum(v == 'match' for _, v, _ in witnesses)} of "
          f"{len(witnesses)} witnesses match their CRC")
    accounting(args, inj, log, text, errors)
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print("ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
