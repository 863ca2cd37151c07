#!/usr/bin/env python3
"""Boot an image that runs the whole benchmark suite and check its log:

- every section of the suite is present and ends `status=PASS` with no
  foreign RX traffic in its window (a quiet line: foreign_rx_bytes=0, and
  on the async backend foreign_rx_irqs=0 and foreign_rx_instructions=0;
  the console's are `na`), no TIMEOUT, no panic, `Done. ... failed=0`,
  exit status 0;
- the fields each section must print are there;
- every payload witness matches the bytes captured on the wire (length
  and CRC-32), cut byte for byte from the capture here (witness.py: S13's
  payload holds CR LF pairs, which the report parser of this tree reads as
  line ends), and every percentile recomputed from the raw samples agrees
  with the printed one (the report tool's recompute);
- with the wire model on: line rates and latencies obey the modelled line
  (see wire_checks).
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
from uartreport import parse, recompute  # noqa: E402

from witness import crlf_tags, parser_flag_ok, raw_witnesses  # noqa: E402

SECTIONS = ["S00", "S05", "S06", "S10", "S11", "S12", "S13", "S14", "S20", "S21",
            "S30", "S31", "S41", "S42", "S43", "S40"]
# Fields each section must print (a record holding all of them must exist).
REQUIRED = {
    "S05": [["op", "kbps", "memcpy_kbps", "ring_over_memcpy"]],
    "S06": [["switches", "instret_per_switch"]],
    "S10": [["policy", "size", "iters", "bytes", "short_writes", "drain_calls", "drain_errors",
             "last_drain_errno", "elapsed_ms", "line_time_ms", "kbps", "line_rate_pct",
             "bytes_per_s"],
            ["n", "avg_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms", "slow_gt10ms",
             "slow_over_line_plus10ms", "max_line_ratio", "p99_p50_ratio", "max_p50_ratio"]],
    "S11": [["enqueue_ms", "final_drain_ms", "enqueue_kbps"]],
    "S12": [["batch", "drains", "line_rate_pct", "bytes_per_s"]],
    "S13": [["fragments", "fragment_size", "total_size", "user_bytes", "wire_bytes_per_write",
             "line_rate_pct"]],
    "S14": [["policy", "line_rate_pct", "bytes_per_s"]],
    "S20": [["n", "p50_ms", "p99_ms", "max_ms"], ["drain_calls", "drain_errors"]],
    "S21": [["n", "p50_ms", "p99_ms", "p99_p50_ratio"]],
    "S30": [["method", "status", "result"]],
    "S31": [["status", "rx_fixed_bytes", "received", "crc_tx", "crc_rx"]],
    "S40": [["telemetry_available", "ioctl_rc"]],
    "S41": [["instret_delta", "instructions_per_byte", "instructions_per_write",
             "cycles_per_byte", "cpu_util_pct"],
            ["median_instructions_per_byte"]],
    "S42": [["write_return_us", "useful_iters", "overlap_efficiency"],
            ["median_overlap_efficiency"]],
    "S43": [["p50_ns", "p95_ns", "p99_ns", "max_ns"]],
}


def run(args):
    """Boot the image through qemu-run; return (status, text)."""
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "qemu-run"), "--image-dir",
           args.image_dir, "--log", args.log, "--timeout", str(args.timeout), "--quiet"]
    status = subprocess.run(cmd, stdin=subprocess.DEVNULL).returncode
    with open(args.log, "rb") as f:
        return status, f.read()


def structural_checks(text, log, errors):
    """Sections, statuses, fields, Done line."""
    for key in ("version", "board", "backend", "privilege", "wire_model", "qemu_mode",
                "bench_scale", "baud_real", "fifo_depth", "timebase_hz", "line_baud_milli"):
        if key not in log.manifest:
            errors.append(f"S00: manifest has no {key}=")
    statuses = dict(re.findall(r"^  section=(S\d\d) status=(\w+)", text, re.M))
    quiet = "0" if log.manifest.get("backend") == "async" else "na"
    for sid, line in re.findall(r"^  section=(S\d\d) (status=.*)$", text, re.M):
        want = (r"status=\w+ (reason=\S+ )?elapsed_ms=\d+\.\d{3} foreign_rx_bytes=0 "
                r"foreign_rx_irqs=%s foreign_rx_instructions=%s$" % (quiet, quiet))
        if not re.match(want, line):
            errors.append(f"{sid}: status line {line!r} is not a quiet line's ({want})")
    for sid in SECTIONS:
        if sid not in log.sections:
            errors.append(f"{sid}: section missing")
            continue
        if statuses.get(sid) not in ("PASS",):
            errors.append(f"{sid}: status {statuses.get(sid)}")
        for fields in REQUIRED.get(sid, []):
            if not any(all(k in r.kv for k in fields) for r in log.sections[sid].records):
                errors.append(f"{sid}: no record with all of {fields}")
    if "PANIC" in text:
        errors.append("log contains PANIC")
    done = "Done. sections=16 passed=16 failed=0 invalid=0 skipped=0 timeout=0"
    if not re.search(r"^%s\r?$" % re.escape(done), text, re.M):
        errors.append(f"no `{done}` line")


def integrity_checks(raw, an, errors):
    """Payload CRCs (byte for byte from the capture) and recomputed
    percentiles."""
    verdicts = raw_witnesses(raw)
    if not verdicts:
        errors.append("no payload witness found")
    for tag, verdict, detail in verdicts:
        if verdict != "match":
            errors.append(f"payload {tag}: {verdict} ({detail})")
    for flag in an.flags:
        if parser_flag_ok(flag, raw):
            continue
        errors.append(f"recompute: {flag}")
    if "s13-writev" not in crlf_tags(raw):
        errors.append("S13's payload on the wire holds no CR LF: ONLCR was not exercised")


def s13_checks(log, errors):
    """S13 counts wire bytes: each '\\n' of the payload is "\\r\\n"."""
    for r in rec(log, "S13", policy="writev-drain-each"):
        user, wire = r.num("user_bytes"), r.num("wire_bytes_per_write")
        size, iters, nbytes = r.num("total_size"), r.num("iters"), r.num("bytes")
        if not wire > size or user != size * iters or nbytes != wire * iters:
            errors.append(f"S13: user_bytes={user} bytes={nbytes} wire_bytes_per_write={wire} "
                          f"total_size={size} iters={iters}: wire bytes not counted")


def own_rx_checks(log, errors):
    """S05's and S31's loopback RX is charged to the RX CPU account: each
    RX interrupt whole (trap entry and exit, PLIC, handler: well over 100
    instructions), not only the handler's switched parts."""
    if log.manifest.get("backend") != "async":
        return
    for sid, tag in (("S05", "s05-rx-window"), ("S31", "s31-rx-window")):
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


def wire_checks(log, errors):
    """Physics of the modelled line (wire model on)."""
    char_ns = float(log.manifest["char_ns"])
    backend = log.manifest["backend"]
    for r in rec(log, "S10", policy="drain-each", size="1024"):
        pct = r.num("line_rate_pct")
        if not 99.5 <= pct <= 100.0:
            errors.append(f"S10 1024 B drain-each line rate {pct} % not in [99.5, 100]")
    for r in rec(log, "S20"):
        if r.tag == "s20-single-byte" and r.num("p50_ns") is not None:
            mn = min(log.samples["s20-single-byte"].values)
            if mn < char_ns:
                errors.append(f"S20 1-byte write+drain {mn} ns < one character {char_ns} ns")
    if backend == "async":
        for r in rec(log, "S11", policy="no-drain", size="64"):
            line = r.num("line_time_ms")
            if r.num("enqueue_ms") > line / 10:
                errors.append(f"S11 async enqueue {r.get('enqueue_ms')} ms not << line {line}")
            if r.num("enqueue_ms") + r.num("final_drain_ms") < line * 0.999:
                errors.append("S11 drain returned before the modelled line time")


def main():
    """Run, check, report."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--timeout", type=float, default=300)
    args = p.parse_args()
    status, raw = run(args)
    text = raw.decode("utf-8", "replace").replace("\r\n", "\n")
    log = parse.parse_bytes(raw, args.log)
    an = recompute.analyze(log)
    errors = [] if status == 0 else [f"exit status {status}"]
    structural_checks(text, log, errors)
    integrity_checks(raw, an, errors)
    s13_checks(log, errors)
    own_rx_checks(log, errors)
    if log.manifest.get("wire_model", "off") != "off":
        wire_checks(log, errors)
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"ok: {len(log.sections)} sections PASS, {len(raw_witnesses(raw))} payload CRCs match, "
              f"percentiles agree with raw samples")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
