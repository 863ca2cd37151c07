#!/usr/bin/python3
"""Boot the Linux peer with uartbench-hosted as /init and check the
serial log, which holds the kernel's boot lines, then the benchmark's log
with its payloads inline (one UART: the console is the port under test).

- qemu-run's status 0 (the machine powered off), no kernel panic;
- every portable section PASS, the others SKIPPED with their reason:
  S05, S06 kernel-only; S32, S33 no-wire-model (no modelled far end); S31
  runs through the 8250's loopback (TIOCM_LOOP);
- the manifest: os=linux, kernel release 6.1.x, tty=/dev/ttyS0,
  line=instant (QEMU's 16550 sends at once), qemu_mode=icount and the
  icount shift the run was booted with, the counters perf events that
  count exactly (instret_exact=1) and whose read syscall's own work is
  measured (read_cost > 0) and left out of every delta, S20/S21 counting
  the instructions of each write + drain, no witness_bytes (the
  witnesses are inline, as a kernel image's); the CPU-wide counters
  closed EBUSY (QEMU's SBI PMU has one counter per event and the
  process's keep it, counter_priority=process);
- with --line POINT (the emulator's line, qemu-run --line): the manifest
  says line=device and the point and bus time read from the device tree
  (line_point=POINT line_bus_ns=80 line_source=device-tree) and its far
  end off for this program (peer=off: S32 and S33 SKIPPED peer-off), the line's
  time shows in the figures (S20's 1-byte write + tcdrain takes at least
  a character time; S10's drain-each line rates at most 100 %: report
  --check now holds them to the line's physics);
- with --cpuwide (boot arguments counters=cpuwide sections=S41): the
  CPU's counters instead, and S41's CPU-wide figures (check_cpuwide);
- the log's lines end CR LF, as a kernel's console writes them; S13's
  payload in the log holds CR LF (ONLCR exercised on the wire);
- S43 twice idle: at the default timer slack (50 us: the idle and loaded
  phases' `timer_slack_ns=50000`) and after PR_SET_TIMERSLACK 1
  (`s43-phase=idle-slack1 ... timer_slack_ns=1`), whose overshoot is at
  least 80 % of the slack's difference lower (P50 against P50: the
  sampler's thread took the slack);
- `report --check` on the serial log is clean, exactly as on a kernel
  image's log (payload CRCs against the bytes between the markers, S41's
  instructions as the counter's delta, ...).
Prints the S20, S41 and S43 figures of the run."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
sys.path.insert(0, os.path.join(ROOT, "tests", "hosted"))
from uartreport import check, parse  # noqa: E402
from qemu_boot import arg_parser  # noqa: E402
import suite_status  # noqa: E402

SKIPPED = suite_status.SKIPPED


def boot(args):
    """Boot through qemu-run; (status, raw log)."""
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "qemu-run"), "--image-dir",
           args.image_dir, "--log", args.log, "--timeout", str(args.timeout), "--quiet",
           "--icount-shift", str(args.shift)] + (["--line", args.line] if args.line else [])
    for a in args.append:
        cmd += ["--append", a]
    status = subprocess.run(cmd, stdin=subprocess.DEVNULL).returncode
    with open(args.log, "rb") as f:
        return status, f.read()


def check_manifest(log, shift, line, errors):
    """Where and how the run was taken (line: the emulator's point, or None)."""
    man = log.manifest
    want = {"os": "linux", "tty": "/dev/ttyS0", "line": "instant", "line_timing": "none",
            "board": "hosted-riscv64", "backend": "linux-tty", "wire_model": "off",
            "qemu_mode": "icount", "icount_shift": str(shift), "instret_exact": "1",
            "cycles_unit": "cpu-cycles", "cpu_hz": str(10 ** 9 >> shift),
            "tx_latency_counts": "ns,instructions"}
    if line:
        want.update({"line": "device", "line_timing": "device", "line_point": line,
                     "line_bus_ns": "80", "line_source": "device-tree", "peer": "off"})
    for key, value in want.items():
        if man.get(key) != value:
            errors.append(f"manifest {key}={man.get(key)}, expected {value}")
    if not re.match(r"^6\.1\.\d+$", man.get("kernel_release", "")):
        errors.append(f"manifest kernel_release={man.get('kernel_release')}, not Linux 6.1")
    for name in ("instructions", "cycles"):
        if not man.get("counter_" + name, "").startswith("perf-hw-"):
            errors.append(f"manifest counter_{name}={man.get('counter_' + name)}: the SBI PMU "
                          "gave no perf event")
        rec = [r for r in log.sections["S00"].records if r.kind == "counter_" + name]
        cost, left = (rec[0].num(k) if rec else None for k in ("read_cost", "null_delta"))
        if not cost or left is None or left > cost / 10:
            errors.append(f"manifest counter_{name}: read_cost={cost} null_delta={left}: the "
                          "read syscall's own work is not left out of the deltas")
    if "witness_bytes" in man:
        errors.append(f"manifest witness_bytes={man['witness_bytes']}: the witnesses are inline")
    # QEMU 7.2's SBI PMU has one counter per event: the pinned CPU-wide
    # events would starve the process's, which keep it (counter_priority).
    for name in ("instructions", "cycles"):
        got = record_text(log, "counter_cpuwide_" + name)
        if man.get("counter_priority") != "process" or \
                got != f"counter_cpuwide_{name}=not-available reason=EBUSY":
            errors.append(f"manifest {got} counter_priority={man.get('counter_priority')}: "
                          "expected the process's counters kept, the CPU's EBUSY")


def record_text(log, kind):
    """The S00 line of kind, its tokens joined (None when absent)."""
    rec = [r for r in log.sections["S00"].records if r.kind == kind]
    return " ".join(f"{k}={v}" for k, v in rec[0].tokens) if rec else None


def check_cpuwide(log, shift, errors):
    """counters=cpuwide: the pinned CPU's events opened on CPU 0 in every
    mode, read through the CSRs (they agree with the events over a
    sleep), the process's EBUSY; each S41 round prints the CPU-wide
    figures: under -icount the cycles are the window's at the CPU clock
    (2^shift ns each), at least the round's duration (the CPU's window
    holds S41's clock reads) by less than 5 %, and no fewer than the
    instructions (one per cycle at most)."""
    man = log.manifest
    for name in ("instructions", "cycles"):
        want = (f"counter_cpuwide_{name}=perf-hw-{'instructions' if name == 'instructions' else 'cpu-cycles'} "
                "scope=all cpu=0 source=csr csr=agrees ")
        got = record_text(log, "counter_cpuwide_" + name) or ""
        if not got.startswith(want):
            errors.append(f"manifest {got!r}, expected it to start {want!r}")
        # (the instructions' fallback, /proc/instret, is Linux's: none)
        tail = " proc_instret=ENOENT" if name == "instructions" else ""
        if record_text(log, "counter_" + name) != f"counter_{name}=not-available reason=EBUSY{tail}":
            errors.append(f"manifest {record_text(log, 'counter_' + name)}: expected EBUSY{tail}")
    if man.get("counter_priority") != "cpuwide" or man.get("instret_exact") != "1":
        errors.append(f"manifest counter_priority={man.get('counter_priority')} instret_exact="
                      f"{man.get('instret_exact')}: expected cpuwide, 1 (the unit from the CPU's)")
    rounds = log.records("S41", kind="diag", tag="s41-valid")
    if len(rounds) != 6:
        errors.append(f"S41: {len(rounds)} rounds, expected 3 sizes x 2")
    for r in rounds:
        ins, cyc, dur = (r.num(k) for k in ("cpuwide_instret_delta", "cpuwide_cycles_delta",
                                            "duration_ms"))
        where = f"S41 size={r.get('size')} round={r.get('round')}"
        if None in (ins, cyc, dur) or r.get("cpuwide_idle") != "included":
            errors.append(f"{where}: CPU-wide figures missing: {ins} {cyc} {dur}")
            continue
        if cyc < ins:
            errors.append(f"{where}: cpuwide_cycles_delta {cyc} is fewer than "
                          f"cpuwide_instret_delta {ins}")
        if not (dur * 1e6 - 1000) / 2 ** shift <= cyc <= dur * 1e6 * 1.05 / 2 ** shift:
            errors.append(f"{where}: cpuwide_cycles_delta {cyc} cycles, duration {dur} ms: "
                          f"not the window's cycles at 2^{shift} ns each")
        if r.get("instructions_per_byte") != "not-available":
            errors.append(f"{where}: instructions_per_byte={r.get('instructions_per_byte')}")


def check_line(log, errors):
    """On the emulator's line: the line's time in the figures."""
    for r in log.records("S20", kind="diag", tag="s20-single-byte"):
        if "p50_chars" in r.kv and not r.num("p50_chars") >= 1:
            errors.append(f"S20 1 B write + tcdrain P50 {r.get('p50_chars')} character times: "
                          "less than the character's own time on the line")
    rates = [r.num("line_rate_pct") for r in log.records("S10") if r.get("policy") == "drain-each"]
    if len(rates) != 3 or not all(0 < x <= 100 for x in rates):
        errors.append(f"S10 drain-each line rates {rates}: expected three, each at most 100 %")


def check_slack(log, errors):
    """S43's phases and their timer slack; the slack of 1 ns shows."""
    phases = {r.tag: r for r in log.records("S43", kind="s43-phase")}
    want = {"idle": "50000", "loaded": "50000", "idle-slack1": "1"}
    for phase, slack in want.items():
        got = phases[phase].get("timer_slack_ns") if phase in phases else None
        if got != slack:
            errors.append(f"S43 s43-phase={phase} timer_slack_ns={got}, expected {slack}")
    p50 = {}
    for phase in ("idle", "idle-slack1"):
        agg = log.records("S43", kind="diag", tag=f"s43-{phase}-aggregate")
        p50[phase] = agg[0].num("p50_ns") if agg else None
    if None in p50.values() or p50["idle"] - p50["idle-slack1"] < 0.8 * (50000 - 1):
        errors.append(f"S43 P50 idle {p50['idle']} ns, at a slack of 1 ns {p50['idle-slack1']} "
                      "ns: less than 80 % of the 50 us slack apart")


def figures(log):
    """The S20, S41 and S43 figures, for the test's output."""
    out = []
    for r in log.records("S20", kind="diag", tag="s20-single-byte"):
        if "p50_ns" in r.kv:
            out.append(f"S20 1 B write+tcdrain: p50 {r.get('p50_ns')} ns p99 {r.get('p99_ns')} ns")
    for r in log.records("S20", kind="diag", tag="s20-single-byte-insns"):
        out.append(f"S20 1 B write+tcdrain: p50 {r.get('p50_instructions')} instructions")
    for r in log.records("S41", kind="diag", tag="s41-summary"):
        out.append(f"S41 {r.get('size')} B: instructions/byte "
                   f"{r.get('median_instructions_per_byte')}, CPU {r.get('median_cpu_util_pct')} %")
    for r in log.records("S41", kind="diag", tag="s41-valid"):
        if r.num("cpuwide_instret_delta") is not None:
            out.append(f"S41 {r.get('size')} B round {r.get('round')}: CPU-wide instructions/byte "
                       f"{r.get('cpuwide_instructions_per_byte')} (idle included), duration "
                       f"{r.get('duration_ms')} ms")
    for sid in log.order:
        for r in log.sections[sid].records:
            if sid == "S43" and r.kind == "diag" and r.tag and r.tag.endswith("-aggregate"):
                out.append(f"S43 {r.tag}: p50 {r.get('p50_ns')} ns p99 {r.get('p99_ns')} ns")
    return out


def main():
    """Boot, check, report."""
    p = arg_parser(__doc__, 120)
    p.add_argument("--shift", type=int, default=1, help="icount shift to boot with")
    p.add_argument("--append", action="append", default=[], help="boot argument")
    p.add_argument("--line", metavar="POINT",
                   help="qemu-run's --line: the emulator's line (e.g. 115200/16)")
    p.add_argument("--cpuwide", action="store_true",
                   help="boot with counters=cpuwide sections=S41: check the CPU-wide counters")
    args = p.parse_args()
    if args.cpuwide:
        args.append += ["counters=cpuwide", "sections=S41"]
    status, raw = boot(args)
    log = parse.parse_bytes(raw, args.log)
    errors = []
    if status != 0:
        errors.append(f"qemu-run exit status {status}")
    if b"Kernel panic" in raw or b"PANIC" in raw:
        errors.append("the log holds a panic")
    if log.done is None:
        errors.append("no Done line")
    if args.cpuwide and "S00" in log.sections:
        check_cpuwide(log, args.shift, errors)
    elif not args.cpuwide:
        # (on the emulator's line the far end is there, but not for a
        # program that cannot reach its control page: peer=off)
        skipped = dict(SKIPPED, S32="peer-off", S33="peer-off") if args.line else SKIPPED
        suite_status.check_statuses(log, skipped, errors)
        if "S00" in log.sections:
            check_manifest(log, args.shift, args.line, errors)
        if args.line:
            check_line(log, errors)
        check_slack(log, errors)
    if b"=== [S00] Benchmark Manifest ===\r\n" not in raw or \
            not re.search(rb"\r\nDone\. [^\r\n]*\r\n", raw):
        errors.append("the log's lines do not end CR LF (S00's header, the Done line)")
    if not args.cpuwide and \
            not any(p.tag == "s13-writev" and p.data and b"\r\n" in p.data for p in log.payloads):
        errors.append("S13's payload in the log holds no CR LF: ONLCR was not exercised")
    result = check.check_log(log)
    errors += [f"check: {f.section} {f.key}: {f.what}" for f in result.findings]
    cli = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "report", "report"),
                          "--check", args.log], capture_output=True, text=True)
    if cli.returncode != 0:
        errors.append(f"report --check exit status {cli.returncode}: {cli.stdout[-400:]}")
    for line in figures(log):
        print(line)
    for e in errors:
        print(f"FAIL: {e}")
    print(f"{args.log}: {len(log.payloads)} witnesses; {check.verdict(result)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
