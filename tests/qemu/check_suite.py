#!/usr/bin/env python3
"""Boot an image that runs the whole benchmark suite and check its log:

- every section of the suite is present and ends `status=PASS` (or
  SKIPPED where allowed), no TIMEOUT, no panic, `Done. ... failed=0`,
  exit status 0;
- the fields each section must print are there;
- every payload witness matches the bytes captured on the wire (length
  and CRC-32), and every percentile recomputed from the raw samples agrees
  with the printed one (the report tool's parser and recompute do both);
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
    "S13": [["fragments", "fragment_size", "total_size", "line_rate_pct"]],
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
    if not re.search(r"^Done\. sections=16 passed=16 failed=0\r?$", text, re.M):
        errors.append("no `Done. sections=16 passed=16 failed=0` line")


def integrity_checks(an, errors):
    """Payload CRCs and recomputed percentiles."""
    verdicts = [v for v in an.payloads]
    if not verdicts:
        errors.append("no payload witness found")
    for tag, verdict, detail in verdicts:
        if verdict != "match":
            errors.append(f"payload {tag}: {verdict} ({detail})")
    for flag in an.flags:
        errors.append(f"recompute: {flag}")


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
    integrity_checks(an, errors)
    if log.manifest.get("wire_model", "off") != "off":
        wire_checks(log, errors)
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"ok: {len(log.sections)} sections PASS, {len(an.payloads)} payload CRCs match, "
              f"percentiles agree with raw samples")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
