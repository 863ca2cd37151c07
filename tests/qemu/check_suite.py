#!/usr/bin/python3
"""Boot an image that runs the whole benchmark suite and check its log.

The log must pass `report --check` (bench/report/uartreport/check.py: every
section, status line, record, payload witness, raw sample, per-record
figure, TX counter and physical bound; see `bench/report/report --help`).
What is specific to this QEMU run stays here:

- exit status 0, no panic, every section of the suite `status=PASS`;
- the line assertions given (--expect, --reject: e.g. the manifest);
- S05 and S31 (RX through the UART's internal loopback): SKIPPED with
  reason no-loopback for a UART without one (--no-loopback: the SiFive
  UART), else PASS;
- S13's payload on the wire holds CR LF (ONLCR exercised) and S13 counts
  wire bytes; on the async and copier backends S05's and S31's loopback
  RX is charged to the RX CPU account (the copier's RX copier task too);
- on a timed line (the wire model's, or the emulator's: line=device),
  the line's physics that the checker does not hold every log to (see
  wire_checks): drain-each at 1024 B comes within 0.5 % of the line
  (--min-line-rate), and the async backend's enqueue returns long before
  the line has sent the bytes;
- S32 and S33 (RX from the far end, the model's or the emulator's):
  SKIPPED for want of a far end on QEMU's instant UART (reason
  no-wire-model) or on a line without one (--no-far-end: the SiFive
  UART's; reason peer-off), else run; at the default operating point (115200/16,
  trigger 1, a continuous stream) S32 loses no byte on any backend
  (--rx-loss-ok at operating points where losing bytes is a design's
  finding, not a fault).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
from uartreport import check, check_expect, parse  # noqa: E402
from qemu_boot import arg_parser, match_lines  # noqa: E402


def run(args):
    """Boot the image through qemu-run; return (status, raw log bytes)."""
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "qemu-run"), "--image-dir",
           args.image_dir, "--log", args.log, "--timeout", str(args.timeout), "--quiet"]
    for a in args.append:
        cmd += ["--append", a]
    if args.line:
        cmd += ["--line", args.line]
    status = subprocess.run(cmd, stdin=subprocess.DEVNULL).returncode
    with open(args.log, "rb") as f:
        return status, f.read()


RX_PEER_SECTIONS = ("S32", "S33")


LOOPBACK_SECTIONS = ("S05", "S31")


def run_checks(status, raw, log, errors, loopback=True, far_end=True):
    """Exit status, panic, every suite section PASS (the run's own verdict;
    on QEMU's instant UART, S32 and S33 SKIPPED: there is no far end, nor on
    a line without one (far_end False: reason peer-off); with one hart, S50
    SKIPPED; without loopback, S05 and S31 SKIPPED)."""
    if status != 0:
        errors.append(f"exit status {status}")
    if b"PANIC" in raw:
        errors.append("log contains PANIC")
    no_peer = log.line_point() is None
    for sid in check_expect.selected(log):
        st = log.statuses.get(sid)
        want = "SKIPPED" if (no_peer or not far_end) and sid in RX_PEER_SECTIONS else "PASS"
        if not far_end and not no_peer and sid in RX_PEER_SECTIONS and st and \
                st.get("reason") != "peer-off":
            errors.append(f"{sid}: reason {st.get('reason')}, expected peer-off")
        if sid == "S50" and log.manifest.get("hart_count", "1") == "1":
            want = "SKIPPED"                 # one hart: nothing to run on the others
        if not loopback and sid in LOOPBACK_SECTIONS:
            want = "SKIPPED"
            if st and st.get("reason") != "no-loopback":
                errors.append(f"{sid}: reason {st.get('reason')}, expected no-loopback")
        if st is None or st.get("status") != want:
            errors.append(f"{sid}: status {st.get('status') if st else None}, expected {want}")
    if no_peer:
        for sid in RX_PEER_SECTIONS:
            if sid in log.sections and not rec(log, sid, tag=f"{sid.lower()}-skip",
                                                reason="no-wire-model"):
                errors.append(f"{sid}: no diag={sid.lower()}-skip reason=no-wire-model")


def rx_checks(log, errors):
    """S32 at the build's operating point: every byte the far end sent was
    read, none lost."""
    for r in rec(log, "S32", tag="s32-rx"):
        sent, got, lost = r.num("sent"), r.num("received"), r.num("lost")
        if not sent or got != sent or lost != 0:
            errors.append(f"S32: sent={sent} received={got} lost={lost}: bytes lost at "
                          "115200/16, where every design keeps up")


def s13_checks(log, errors):
    """S13 sends '\n' through ONLCR: its payload on the wire holds CR LF,
    and it counts wire bytes (each '\n' is "\r\n")."""
    if not any(p.tag == "s13-writev" and p.data and b"\r\n" in p.data for p in log.payloads):
        errors.append("S13's payload on the wire holds no CR LF: ONLCR was not exercised")
    for r in rec(log, "S13", policy="writev-drain-each"):
        user, wire = r.num("user_bytes"), r.num("wire_bytes_per_write")
        size, iters, nbytes = r.num("total_size"), r.num("iters"), r.num("bytes")
        if not wire > size or user != size * iters or nbytes != wire * iters:
            errors.append(f"S13: user_bytes={user} bytes={nbytes} wire_bytes_per_write={wire} "
                          f"total_size={size} iters={iters}: wire bytes not counted")


def own_rx_checks(log, errors):
    """S05's and S31's loopback RX (where they PASS: the UART has loopback)
    is charged to the RX CPU account: each RX interrupt whole (trap entry
    and exit, PLIC, handler: well over 100 instructions), not only the
    handler's switched parts."""
    if log.manifest.get("backend") not in ("async", "copier"):
        return
    for sid, tag in (("S05", "s05-rx-window"), ("S31", "s31-rx-window")):
        if log.statuses.get(sid, {}).get("status") != "PASS":
            continue                         # SKIPPED (no loopback): no RX of its own
        for r in rec(log, sid):
            if r.tag != tag:
                continue
            irqs, insns = r.num("own_rx_irqs"), r.num("own_rx_instructions")
            if not irqs or insns < 100 * irqs:
                errors.append(f"{sid}: own_rx_irqs={irqs} own_rx_instructions={insns}: the RX "
                              "account does not hold the RX interrupts")


def rec(log, sid, **match):
    """Records of section sid whose fields equal match."""
    return log.sections[sid].find(**match) if sid in log.sections else []


def wire_checks(log, errors, min_rate):
    """Physics of a timed line beyond the checker's bounds."""
    for r in rec(log, "S10", policy="drain-each", size="1024"):
        pct = r.num("line_rate_pct")
        if pct is None or pct < min_rate:
            errors.append(f"S10 1024 B drain-each line rate {pct} % below {min_rate} %")
    if log.manifest.get("backend") == "async":
        for r in rec(log, "S11", policy="no-drain", size="64"):
            line = r.num("line_time_ms")
            if r.num("enqueue_ms") > line / 10:
                errors.append(f"S11 async enqueue {r.get('enqueue_ms')} ms not << line {line}")


def main():
    """Run, check, report."""
    p = arg_parser(__doc__, 300)
    p.add_argument("--append", action="append", default=[],
                   help="boot argument (e.g. wire=921600/16: another operating point)")
    p.add_argument("--line", help="qemu-run's --line (the emulator's line, e.g. 921600/16)")
    p.add_argument("--min-line-rate", type=float, default=99.5,
                   help="S10 1024 B drain-each line rate the modelled line must reach, %%")
    p.add_argument("--rx-loss-ok", action="store_true",
                   help="S32 may lose bytes (an operating point beyond some design's reach)")
    p.add_argument("--no-far-end", action="store_true",
                   help="the line has no far end: S32 and S33 SKIPPED (peer-off)")
    p.add_argument("--no-loopback", action="store_true",
                   help="the UART has no internal loopback: S05 and S31 SKIPPED (no-loopback)")
    p.add_argument("--expect", action="append", default=[],
                   help="regex a line must match (e.g. the manifest's board and backend)")
    p.add_argument("--reject", action="append", default=[], help="regex no line may match")
    args = p.parse_args()
    status, raw = run(args)
    log = parse.parse_bytes(raw, args.log)
    errors = []
    run_checks(status, raw, log, errors, loopback=not args.no_loopback,
               far_end=not args.no_far_end)
    errors += match_lines(raw.decode("utf-8", "replace").replace("\r\n", "\n"),
                          args.expect, args.reject)
    result = check.check_log(log)
    errors += [f"check: {f.section} {f.key}: {f.what}" for f in result.findings]
    s13_checks(log, errors)
    own_rx_checks(log, errors)
    if log.line_point() is not None:
        wire_checks(log, errors, args.min_line_rate)
        if not args.rx_loss_ok and not args.no_far_end:
            rx_checks(log, errors)
    for e in errors:
        print(f"FAIL: {e}")
    print(f"{args.log}: {check.verdict(result)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
