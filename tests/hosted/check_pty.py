#!/usr/bin/python3
"""uartbench-hosted on a pty: the whole suite at quick scale, checked.

The test holds the master side of a pty pair and reads everything the
benchmark writes on the slave (pty_run.FarEnd). Checks:

- exit status 0; the tty left raw 8N1 at the baud asked for;
- every portable section PASS, the others SKIPPED with their reason:
  S05, S06 kernel-only; S31 no-loopback (a pty has no modem lines);
  S32, S33 no-wire-model;
- the manifest: os=linux, the kernel release, tty= and device= (the pty
  measured), baud=, line=pty,
  board=hosted-<machine>, backend=linux-tty, witness_bytes=far-end, each
  CPU counter (the process's and the pinned CPU's) a perf event or
  not-available with its errno's name;
- the far end's capture holds the log's payload witnesses, whole and in
  order, checked byte for byte (scripts/payload_witness.py), with the byte
  counts and CRCs the log's markers print, and nothing else;
- no StarryOS TX counters (Linux answers UART_TXDBG_* with ENOTTY): S11's
  resets ioctl_rc=-1, no s11-txdbg, s41-txdbg or txdbg_available lines;
- S43's idle groups a second time after PR_SET_TIMERSLACK 1: the phase
  lines print the slack (idle and loaded: the process's, above 1;
  idle-slack1: 1);
- `report --check` on the log is clean.
With --init it runs as a system's /init does (`--init`: the options from
the environment, tty= baud= quick=1), and the far end's capture is the
log itself, its payloads inline as a kernel's (no witness_bytes=far-end,
nothing on stdout): that capture is the log checked.
Prints the S20 and S41 figures of the run."""
import os
import platform
import re
import subprocess
import sys
import termios

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from uartreport import check, parse  # noqa: E402
import suite_status  # noqa: E402
import payload_witness as witness  # noqa: E402
from pty_run import FarEnd, arg_parser, finish, run  # noqa: E402

SKIPPED = dict(suite_status.SKIPPED, S31="no-loopback")  # a pty has no TIOCM_LOOP
COUNTER_RE = re.compile(r"^(perf-hw-\S+|not-available)$")


def check_manifest(log, tty, baud, errors, inline=False):
    """The keys that say where and how the run was taken (inline: the
    witnesses are in the log, no witness_bytes key)."""
    man = log.manifest
    want = {"os": "linux", "kernel_release": platform.release(), "tty": tty, "device": tty,
            "baud": str(baud),
            "line": "pty", "board": "hosted-" + platform.machine(), "backend": "linux-tty",
            "witness_bytes": None if inline else "far-end", "wire_model": "off"}
    for key, value in want.items():
        if man.get(key) != value:
            errors.append(f"manifest {key}={man.get(key)}, expected {value}")
    for name in ("instructions", "cycles", "cpuwide_instructions", "cpuwide_cycles"):
        text = man.get("counter_" + name, "")
        if not COUNTER_RE.match(text):
            errors.append(f"manifest counter_{name}={text}: neither a perf event nor "
                          "not-available")
    lines = [r for r in log.sections["S00"].records if r.kind.startswith("counter_")]
    for rec in lines:
        if rec.tag == "not-available" and not re.match(r"^E[A-Z0-9]+$", rec.get("reason", "")):
            errors.append(f"{rec.kind}=not-available without an errno name: "
                          f"reason={rec.get('reason')}")


def check_no_txdbg(log, errors):
    """Linux answers StarryOS's TX telemetry ioctls with ENOTTY: its counter
    resets fail as before, and no StarryOS counters are printed."""
    resets = {r.get("ioctl_rc") for r in log.records("S11", kind="diag", tag="s11-txdbg-reset")}
    if resets != {"-1"}:
        errors.append(f"S11 s11-txdbg-reset ioctl_rc {resets}, expected -1 (ENOTTY)")
    printed = log.records("S11", kind="diag", tag="s11-txdbg") + \
        log.records("S41", kind="diag", tag="s41-txdbg") + log.records("S40", kind="txdbg_available")
    if printed:
        errors.append(f"StarryOS's counters printed on Linux: {printed[0].kind}={printed[0].tag}")


def check_slack(log, errors):
    """S43's phases with their timer slack: the default, then 1 ns."""
    got = {r.tag: r.get("timer_slack_ns") for r in log.records("S43", kind="s43-phase")}
    default = log.manifest.get("timer_slack_ns")
    want = {"idle": default, "loaded": default, "idle-slack1": "1"}
    if got != want or default in (None, "1"):
        errors.append(f"S43 phases and timer slack {got}, expected {want} (manifest "
                      f"timer_slack_ns={default})")


def check_far_end(log, raw, errors):
    """The capture against the log's witnesses: every one whole, in order,
    with the log's counts and CRCs; nothing else on the line."""
    found = witness.raw_witnesses(raw)
    for tag, verdict, detail in found:
        if verdict != "match":
            errors.append(f"far end: witness {tag}: {verdict}: {detail}")
    ends = re.findall(rb"  payload-end=(\S+) bytes=(\d+) crc32=0x([0-9a-f]{8})", raw)
    far = [(t.decode(), int(n), int(c, 16)) for t, n, c in ends]
    ours = [(p.tag, p.expected_bytes, p.expected_crc) for p in log.payloads]
    if far != ours:
        errors.append(f"far end: witnesses {far[:3]}... ({len(far)}) differ from the log's "
                      f"{ours[:3]}... ({len(ours)})")
    rest = re.sub(witness.WITNESS_RE.pattern + rb"\r\n", b"", raw, flags=re.S)
    if rest:
        errors.append(f"far end: {len(rest)} bytes outside the witnesses: {rest[:80]!r}")
    s13 = re.search(rb"  payload-begin=s13-writev\r\n(.*?)\r\n  payload-end", raw, re.S)
    if not s13 or b"\r\n" not in s13.group(1):
        errors.append("far end: S13's payload holds no CR LF: ONLCR was not exercised")


def check_raw(fd, baud, errors):
    """The tty as the run left it: raw, 8N1, the baud asked for."""
    iflag, oflag, cflag, lflag, ispeed, ospeed, _ = termios.tcgetattr(fd)
    speed = getattr(termios, "B%d" % baud)
    if oflag & termios.OPOST or lflag & (termios.ICANON | termios.ECHO | termios.ISIG):
        errors.append(f"tty not raw: oflag=0x{oflag:x} lflag=0x{lflag:x}")
    if cflag & (termios.CSIZE | termios.PARENB | termios.CSTOPB) != termios.CS8:
        errors.append(f"tty not 8N1: cflag=0x{cflag:x}")
    if (ispeed, ospeed) != (speed, speed):
        errors.append(f"tty speed {ispeed}/{ospeed}, not B{baud}")
    if iflag & (termios.ICRNL | termios.IXON):
        errors.append(f"tty input not raw: iflag=0x{iflag:x}")


def figures(log):
    """The S20 and S41 figures of the run, for the test's output."""
    out = []
    for r in log.records("S20", kind="diag", tag="s20-single-byte"):
        if "p50_ns" in r.kv:
            out.append("S20 1 B write+tcdrain: p50 %s ns p99 %s ns max %s ns (%s char times at "
                       "p50)" % (r.get("p50_ns"), r.get("p99_ns"), r.get("max_ns"),
                                 r.get("p50_chars")))
    for r in log.records("S41", kind="diag", tag="s41-summary"):
        out.append("S41 %s B: instructions/byte %s, cycles/byte %s, CPU %s %%"
                   % (r.get("size"), r.get("median_instructions_per_byte"),
                      r.get("median_cycles_per_byte"), r.get("median_cpu_util_pct")))
    return out


def main():
    """Run, check, report."""
    p = arg_parser(__doc__, 50)
    p.add_argument("--init", action="store_true",
                   help="run as /init: options from the environment, the log on the tty")
    args = p.parse_args()
    far = FarEnd()
    try:
        if args.init:
            env = dict(os.environ, tty=far.path, baud=str(args.baud), quick="1")
            status, out, err, took = run(args.binary, ["--init"], None, args.timeout, env=env)
        else:
            status, out, err, took = run(args.binary, ["--tty", far.path, "--baud",
                                                       str(args.baud), "--quick"], args.log,
                                         args.timeout)
        errors = []
        check_raw(far.slave, args.baud, errors)
    finally:
        raw = far.stop()
    with open(args.log + (".far-end" if not args.init else ""), "wb") as fh:
        fh.write(raw)
    if status != 0:
        errors.append(f"exit status {status}: {err.strip()[-400:]}")
    if args.init and out:
        errors.append(f"--init wrote {len(out)} bytes to stdout: the log belongs on the tty")
    log = parse.parse_bytes(raw if args.init else out, args.log)
    suite_status.check_statuses(log, SKIPPED, errors)
    check_slack(log, errors)
    check_no_txdbg(log, errors)
    if "S00" in log.sections:
        check_manifest(log, far.path, args.baud, errors, inline=args.init)
    if not args.init:
        check_far_end(log, raw, errors)
    elif not any(p.tag == "s13-writev" and p.data and b"\r\n" in p.data for p in log.payloads):
        errors.append("S13's payload holds no CR LF: ONLCR was not exercised")
    result = check.check_log(log)
    errors += [f"check: {f.section} {f.key}: {f.what}" for f in result.findings]
    cli = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "bench", "report", "report"),
                          "--check", args.log], capture_output=True, text=True)
    if cli.returncode != 0:
        errors.append(f"report --check exit status {cli.returncode}: {cli.stdout[-400:]}")
    return finish(figures(log), errors, f"{args.log}: {took:.1f} s, {len(raw)} bytes at the "
                  f"far end, {len(log.payloads)} witnesses; {check.verdict(result)}")


if __name__ == "__main__":
    sys.exit(main())
