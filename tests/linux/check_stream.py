#!/usr/bin/python3
"""S32 of uartbench-hosted on the emulator's line, reading a stream QEMU's
far end starts by itself (qemu-run --far-end-stream and the boot argument
far_end_stream= with the same BYTES@START:SEED): the program knows nothing
of the far end but the stream's size, start and seed.

- a stream that starts after /init is up (START 1 s): S32 PASS, its loss
  from the pattern (lost_source=pattern, pattern=in-order, first_offset=0)
  equal to what the far end's ground truth says (received = delivered,
  lost = sent - delivered) and the CRC of what it read the far end's of
  what it delivered; S33 (seed 33, not this stream) SKIPPED
  stream-mismatch; the manifest names the stream (peer=autonomous
  far_end_stream=...) and the RX trigger the boot argument rx_trigger=1
  set in the 8250's sysfs (wire_rx_trigger=1 rx_trigger_source=sysfs);
  `report --check` clean; the process's instructions counted;
- a stream that starts before the section reads (START 400 ms, while
  /init starts): the bytes before the section's window are foreign to it,
  S32 INVALID reason=foreign-rx with less than the stream read, the
  8250's own trigger in the manifest (8 bytes: a 16550A's), and
  `report --check` clean all the same; counted CPU-wide (counters=cpuwide:
  the process's counter busy), S32's instructions not-available and the
  CPU's instructions per byte printed.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from qemu_boot import arg_parser, boot, report  # noqa: E402
from qemu_line import far_end_log, far_end_streams  # noqa: E402
from uartreport import check, parse  # noqa: E402

QUICK_S32 = 6553        # S32_BYTES / 10 (bench/params.h), seed 32


def s32_rx(log):
    """{key: value} of S32's `diag=s32-rx` record, {} when there is none."""
    recs = log.records("S32", kind="diag", tag="s32-rx")
    return recs[0].kv if recs else {}


def s32_cpu(log):
    """{key: value} of S32's `diag=s32-cpu` record, {} when there is none."""
    recs = log.records("S32", kind="diag", tag="s32-cpu")
    return recs[0].kv if recs else {}


def status(log, sid):
    """(status, reason) of section sid's status line."""
    st = log.statuses.get(sid)
    return (st.get("status"), st.get("reason")) if st else (None, None)


def run(args, tag, stream, more=()):
    """Boot with the stream (and more boot arguments); (errors, log text,
    parsed log, far end's truth of its one stream)."""
    log = "%s.%s.log" % (args.log, tag)
    far = far_end_log(log)
    if os.path.exists(far):
        os.unlink(far)
    st, text = boot(args.image_dir, log, timeout=args.timeout,
                    append=["sections=S32,S33", "far_end_stream=" + stream] + list(more),
                    extra=["--line", "115200/16", "--far-end-stream", stream])
    errors = [] if st == 0 or st == 1 else ["%s: qemu-run status %d" % (tag, st)]
    try:
        streams = far_end_streams(far)
    except (OSError, ValueError):
        streams = []
    gt = streams[0] if len(streams) == 1 else None
    if gt is None:
        errors.append("%s: no single stream in %s" % (tag, far))
    parsed = parse.parse_file(log)
    errors += ["%s: report --check: %s %s: %s" % (tag, f.section, f.key, f.what)
               for f in check.check_log(parsed).findings]
    return errors, text, parsed, gt


def main():
    p = arg_parser(__doc__, 90)
    args = p.parse_args()
    errors, text, log, gt = run(args, "late", "%d@1s:32" % QUICK_S32, ["rx_trigger=1"])
    if not re.search(r"^\s*wire_rx_trigger=1 rx_trigger_source=sysfs\s*$", text, re.M):
        errors.append("late: rx_trigger=1 is not the manifest's wire_rx_trigger")
    rx = s32_rx(log)
    if status(log, "S32") != ("PASS", None):
        errors.append("late: S32 is %s %s, not PASS" % status(log, "S32"))
    if status(log, "S33") != ("SKIPPED", "stream-mismatch"):
        errors.append("late: S33 is %s %s, not SKIPPED stream-mismatch" % status(log, "S33"))
    if not re.search(r"^\s*peer=autonomous far_end_stream=%d@1000000000ns:32\s*$" % QUICK_S32,
                     text, re.M):
        errors.append("late: the manifest does not name the stream")
    if rx.get("lost_source") != "pattern" or rx.get("pattern") != "in-order" or \
            rx.get("first_offset") != "0":
        errors.append("late: s32-rx %s" % rx)
    if gt is not None:
        want = {"sent": str(gt["sent"]), "received": str(gt["delivered"]),
                "lost": str(gt["sent"] - gt["delivered"]), "crc_rx": gt["crc32"]}
        got = {k: rx.get(k) for k in want}
        if got != want or gt["sent"] != QUICK_S32:
            errors.append("late: s32-rx %s, the far end's truth %s" % (got, want))
    cpu = s32_cpu(log)
    if not re.fullmatch(r"[1-9]\d*", cpu.get("instructions", "")):
        errors.append("late: the process's instructions in s32-cpu: %s" % cpu)
    # (400 ms: the stream still runs when S32 begins; /init's start-up and
    # S00 take about half a second of the machine's time, so a stream from
    # 100 ms is over by then and S32 reads none of it)
    early_errors, early, early_log, _ = run(args, "early", "%d@400ms:32" % QUICK_S32,
                                            ["counters=cpuwide"])
    errors += early_errors
    if not re.search(r"^\s*wire_rx_trigger=8 rx_trigger_source=sysfs\s*$", early, re.M):
        errors.append("early: the 8250's own RX trigger (8 bytes) is not in the manifest")
    got = s32_rx(early_log).get("received")
    if status(early_log, "S32") != ("INVALID", "foreign-rx") or got == str(QUICK_S32):
        errors.append("early: S32 is %s %s with received=%s, not INVALID foreign-rx short of "
                      "the stream" % (status(early_log, "S32") + (got,)))
    cpu = s32_cpu(early_log)
    if cpu.get("instructions") != "not-available" or \
            cpu.get("instructions_per_byte") != "not-available" or \
            not re.fullmatch(r"\d+\.\d\d", cpu.get("cpuwide_instructions_per_byte", "")):
        errors.append("early (counters=cpuwide): s32-cpu wants the process's instructions "
                      "not-available and the CPU's per byte: %s" % cpu)
    return report(text + early, errors, "S32 read the far end's own stream: %s received, "
                  "%s lost, crc %s as the far end's; begun early, INVALID"
                  % (rx.get("received"), rx.get("lost"), rx.get("crc_rx")))


if __name__ == "__main__":
    sys.exit(main())
