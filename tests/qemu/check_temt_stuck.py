#!/usr/bin/python3
"""Boot an image with the line fault fault=temt-stuck (the wire model
never lets LSR.TEMT rise) and a selection of sections, and check that the
driver gives up within its bound and the run goes on:

- every drain of the TX sections S20/S21 fails with EIO (the POSIX face
  of the backend's -ETIMEDOUT; numbers from picolibc's errno.h), and
  each of those sections ends `status=FAIL` (a `reason=` token allowed),
  the others PASS; the exit status, the Done line's failed= and the FAIL
  lines agree;
- each write+drain sample lies within the backend's drain bound (async:
  at least the line time plus its UART_DRAIN_TEMT_TRIES character-time
  retries, at most its deadline of 10 ms + 2 characters per pending byte,
  FIFO byte and shifter, plus the retries; console: the full 10 ms + 2
  characters per FIFO byte and shifter it spins, plus the bytes' own line
  time), and each section's elapsed time within the sum of its drains'
  bounds and the line time of its own output;
- async: S40's counters say every drain the run made timed out
  (drain_timeouts = drain_calls = the drains the host counts in the log:
  one before each section, one per payload, one per drain sample).
The copier's tcdrain has no bound of its own (StarryOS's has none): it
re-checks every character time and never returns while TEMT is low. So
with --backend copier:
- every drain the runner makes before a section is killed at the
  runner's own deadline (bench/runner.c: three times the queued bytes'
  line time plus 1 s), `drain_errors=1 last_errno=ETIMEDOUT`, after at
  least 1 s and at most that deadline for the bytes printed since the
  last one;
- S20 and S21 hang in their first drain, the one after the first
  `payload-begin=` marker: nothing after the marker (no payload, sample,
  drain line) but `section=Sxx timeout_ms=N`, N the runner's deadline
  for the section (3 x the line time of its quick-scale wire bytes plus
  5 s), `status=TIMEOUT reason=deadline`, elapsed N ms to N + 2 ms; the
  other sections PASS; the exit status and the Done line's failed= and
  timeout= count the two;
- S40: drain_calls = the drains begun (one per section, one per TX
  section), drain_timeouts=0 (none gave up), drain_timer_waits between
  the hung time less the bytes' line time over a character time plus
  2000 instructions, and the hung time over a character time (a re-check
  per character time while a drain hangs); ring_empty=1 copier_active=0
  staged_bytes=0 and user_acc = hw_send_bytes (every byte reached THR:
  only TEMT is missing), transmitter_empty=0.
With --no-model: the image has no wire model; the boot argument must stop
the run before any section with a message that says why (status 100).
"""
import re
import sys

from qemu_boot import arg_parser, boot, picolibc_errno, report

MARGIN_NS = 10_000_000          # both backends' drain margin (async.c, console.c)
TEMT_TRIES = 4                  # async.c UART_DRAIN_TEMT_TRIES
SLACK_NS = 200_000              # instructions around a drain, poll granularity
RUNNER_DRAIN_SLACK_MS = 1000    # bench/runner.c DRAIN_SLACK_MS: its bound on its own drain
RUNNER_SLACK_MS = 5000          # bench/runner.c DEADLINE_SLACK_MS: a section's deadline
WIRE_BYTES = {"S20": 100, "S21": 24200}   # bench/runner.c's table (full scale)
RECHECK_INSNS = 2000            # most instructions one re-check of a hung drain takes
MANIFEST = ("char_ns", "fifo_depth", "line_baud_milli", "cpu_hz")   # S00's figures used
# `reason=` and other tokens may come anywhere after the status
STATUS_RE = r"^  section=(S\d\d) status=(\w+)\b[^\n]*? elapsed_ms=(\d+)\.(\d{3})"


def drain_bounds(backend, size, char, fifo):
    """(low, high) ns of one write of size bytes + a drain that times out."""
    if backend == "async":
        return ((size + TEMT_TRIES - 1) * char,
                MARGIN_NS + 2 * char * (size + fifo + 1) + (TEMT_TRIES + 1) * char + SLACK_NS)
    spin = MARGIN_NS + 2 * char * (fifo + 1)
    return spin, spin + size * char + SLACK_NS


def section_texts(text):
    """Section id -> its lines, header to status line."""
    parts = re.split(r"^=== \[(S\d\d)\] .*$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def check_tx_section(sid, body, backend, char, fifo, eio, errors):
    """S20/S21: every drain failed with EIO, samples and elapsed in bounds."""
    loops = re.findall(r"^  payload-begin=(s2[01]-\S+)$", body, re.M)
    drains = [(int(c), int(e), int(n)) for c, e, n in re.findall(
        r"^  diag=\S+ drain_calls=(\d+) drain_errors=(\d+) last_drain_errno=(\d+)$", body, re.M)]
    if not loops or len(drains) != len(loops):
        errors.append(f"{sid}: {len(loops)} payloads, {len(drains)} drain lines")
    for calls, fails, err in drains:
        if not calls or fails != calls or err != eio:
            errors.append(f"{sid}: drain_calls={calls} drain_errors={fails} "
                          f"last_drain_errno={err}, expected all failed with EIO ({eio})")
    total_high = drain_bounds(backend, 0, char, fifo)[1]   # the payload marker's drain
    for tag in loops:
        size = int(re.search(r"(\d+)$", tag)[1]) if tag[-1].isdigit() else 1
        low, high = drain_bounds(backend, size, char, fifo)
        values = [int(v) for line in re.findall(
            rf"^  samples tag={re.escape(tag)} unit=ns first=\d+ values=(\S+)$", body, re.M)
            for v in line.split(",")]
        if not values:
            errors.append(f"{sid}: no samples for {tag}")
        bad = [v for v in values if not low <= v <= high]
        if bad:
            errors.append(f"{sid} {tag}: samples {bad[:3]} ns outside [{low}, {high}]")
        total_high += sum(values) + drain_bounds(backend, 0, char, fifo)[1]
    m = re.search(STATUS_RE, body, re.M)
    if m:
        elapsed = int(m[3]) * 1_000_000 + int(m[4]) * 1000
        limit = total_high + len(body.encode()) * char
        if elapsed > limit:
            errors.append(f"{sid}: elapsed {elapsed} ns > {limit} ns (drain bounds + output)")
    return sum(c for c, _, _ in drains) + len(loops)


def line_ns(nbytes, baud_milli):
    """bench_line_ns (bench/util.c): 10 bits per byte at the line's baud."""
    return nbytes * 10_000_000_000_000 // baud_milli


def check_copier_pre_drains(text, errors):
    """Copier: every runner drain before a section killed at the runner's
    deadline (its tcdrain never returns); their hung time in ns (low,
    high: the ms are printed whole)."""
    etimedout = picolibc_errno()["ETIMEDOUT"]
    char_baud = int(re.search(r"\bline_baud_milli=(\d+)", text)[1])
    start = re.search(r"^fault_inject=", text, re.M)
    start = start.start() if start else 0
    hung = [0, 0]
    for m in re.finditer(r"^  diag=(S\d\d) pre_section_stdout_drain_ms=(\d+) drain_errors=(\d+) "
                         r"last_errno=(\d+)$", text, re.M):
        ms, queued = int(m[2]), len(text[start:m.start()].encode())
        high = RUNNER_DRAIN_SLACK_MS + (3 * line_ns(queued, char_baud)) // 1_000_000 + 1
        if (m[3], int(m[4])) != ("1", etimedout) or not RUNNER_DRAIN_SLACK_MS <= ms <= high:
            errors.append(f"{m[0].strip()}: expected drain_errors=1 last_errno={etimedout} "
                          f"(ETIMEDOUT, the runner's bound) after {RUNNER_DRAIN_SLACK_MS}.."
                          f"{high} ms")
        hung[0] += ms * 1_000_000
        hung[1] += (ms + 1) * 1_000_000
        start = m.end()
    return hung


def check_copier_hung_section(sid, body, text, errors):
    """Copier: S20/S21 hang in the drain after their first payload
    marker until the runner's deadline; the drain's hung time in ns."""
    baud = int(re.search(r"\bline_baud_milli=(\d+)", text)[1])
    quick = re.search(r"^  bench_scale=quick ", text, re.M) is not None
    wire = WIRE_BYTES[sid] // 10 + 1 if quick else WIRE_BYTES[sid]
    deadline_ms = (3 * line_ns(wire, baud) + RUNNER_SLACK_MS * 1_000_000) // 1_000_000
    m = re.match(r"\n  diag=\S+ pre_section_stdout_drain_ms=[^\n]*\n  payload-begin=(\S+)\n\n"
                 rf"  section={sid} timeout_ms=(\d+)\n" + STATUS_RE[1:], body)
    if not m:
        errors.append(f"{sid}: expected its first payload marker, then nothing but the "
                      f"timeout line and status (the marker's drain never returned): "
                      f"{body[:300]!r}")
        return 0, 0
    elapsed = int(m[5]) * 1_000_000 + int(m[6]) * 1000
    if int(m[2]) != deadline_ms or m[4] != "TIMEOUT" or \
            not deadline_ms * 1_000_000 <= elapsed < (deadline_ms + 2) * 1_000_000:
        errors.append(f"{sid}: timeout_ms={m[2]} status={m[4]} elapsed={elapsed} ns, expected "
                      f"the runner's deadline {deadline_ms} ms, TIMEOUT, elapsed within 2 ms of it")
    if not re.search(rf"^  section={sid} status=TIMEOUT reason=deadline ", body, re.M):
        errors.append(f"{sid}: no `status=TIMEOUT reason=deadline`")
    return elapsed - 1_000_000, elapsed


def check_copier_run(text, status, tx, errors):
    """The whole run with the fault on, copier: the runner's watchdogs
    end what the copier's drain never does."""
    char = int(re.search(r"\bchar_ns=(\d+)", text)[1])
    cpu_hz = int(re.search(r"\bcpu_hz=(\d+)", text)[1])
    statuses = {m[1]: m[2] for m in re.finditer(STATUS_RE, text, re.M)}
    if {s for s, st in statuses.items() if st != "PASS"} != set(tx) or \
            any(statuses[s] != "TIMEOUT" for s in tx):
        errors.append(f"statuses {statuses}: expected TIMEOUT for {tx} only")
    done = re.search(r"^Done\. sections=(\d+) passed=(\d+) failed=(\d+) invalid=(\d+) "
                     r"skipped=(\d+) timeout=(\d+)$", text, re.M)
    want = (len(statuses), len(statuses) - len(tx), len(tx), 0, 0, len(tx))
    if not done or tuple(int(x) for x in done.groups()) != want or status != len(tx):
        errors.append(f"exit status {status}, Done line {done and done.group(0)}: expected "
                      f"status {len(tx)} and sections/passed/failed/invalid/skipped/timeout "
                      f"= {want}")
    low, high = check_copier_pre_drains(text, errors)
    bodies = section_texts(text)
    for sid in tx:
        lo, hi = check_copier_hung_section(sid, bodies.get(sid, ""), text, errors)
        low, high = low + lo, high + hi
    m = re.search(r"^  counter=drain drain_calls=(\d+) drain_timer_waits=(\d+) "
                  r"drain_timeouts=(\d+) ", text, re.M)
    sent = re.search(r"^  counter=hw-send hw_send_calls=\d+ hw_send_bytes=(\d+) ", text, re.M)
    acc = re.search(r"^  counter=user-push user_calls=\d+ user_req=\d+ user_acc=(\d+) ", text, re.M)
    if not m or not sent or not acc:
        errors.append("S40: no drain, hw-send or user-push counters")
        return
    waits, busy = int(m[2]), int(sent[1]) * char
    w_lo = (low - busy) // (char + RECHECK_INSNS * 1_000_000_000 // cpu_hz)
    if (int(m[1]), int(m[3])) != (len(statuses) + len(tx), 0) or not w_lo <= waits <= high // char:
        errors.append(f"S40 {m.group(0).strip()}: expected drain_calls={len(statuses) + len(tx)} "
                      f"(a drain per section and per TX section) drain_timeouts=0 and "
                      f"drain_timer_waits in {w_lo}..{high // char} (one per character time "
                      f"a drain hung)")
    if sent[1] != acc[1] or not re.search(r"^  counter=drain-state ring_empty=1 copier_active=0 "
                                          r"staged_bytes=0 transmitter_empty=0 ", text, re.M):
        errors.append(f"S40: user_acc={acc[1]} hw_send_bytes={sent[1]}, expected equal, and "
                      "ring_empty=1 copier_active=0 staged_bytes=0 transmitter_empty=0")


def check_fault_run(text, status, backend, tx, errors):
    """The whole run with the fault on (async, console)."""
    eio = picolibc_errno()["EIO"]
    char = int(re.search(r"\bchar_ns=(\d+)", text)[1])
    fifo = int(re.search(r"\bfifo_depth=(\d+)", text)[1])
    if not re.search(r"^fault_inject=temt-stuck line=modelled$", text, re.M):
        errors.append("no `fault_inject=temt-stuck line=modelled` line")
    statuses = {m[1]: m[2] for m in re.finditer(STATUS_RE, text, re.M)}
    failed = [s for s, st in statuses.items() if st != "PASS"]
    if sorted(failed) != sorted(tx) or any(statuses[s] != "FAIL" for s in failed):
        errors.append(f"statuses {statuses}: expected FAIL for {tx} only")
    done = re.search(r"^Done\. sections=(\d+) passed=(\d+) failed=(\d+)", text, re.M)
    if not done or int(done[1]) != len(statuses) or int(done[3]) != len(failed) \
            or status != len(failed):
        errors.append(f"exit status {status}, Done line {done and done.group(0)}, "
                      f"{len(failed)} failed sections")
    bodies = section_texts(text)
    drains = len(statuses)            # the runner drains stdout before each section
    for sid in tx:
        drains += check_tx_section(sid, bodies.get(sid, ""), backend, char, fifo, eio, errors)
    pre = re.findall(r"^  diag=S\d\d pre_section_stdout_drain_ms=\d+ drain_errors=(\d) "
                     r"last_errno=(\d+)$", text, re.M)
    if pre != [("1", str(eio))] * len(statuses):
        errors.append(f"pre-section drains {pre}: expected each failed with EIO")
    if backend == "async":
        m = re.search(r"^  counter=drain drain_calls=(\d+) drain_timer_waits=\d+ "
                      r"drain_timeouts=(\d+) ", text, re.M)
        if not m or (int(m[1]), int(m[2])) != (drains, drains):
            errors.append(f"S40 {m and m.group(0)}: expected drain_calls = drain_timeouts = "
                          f"{drains} (every drain of the run)")


def main():
    """Boot with the fault, check, report."""
    p = arg_parser(__doc__, 90)
    p.add_argument("--backend", choices=["async", "console", "copier"], required=True)
    p.add_argument("--sections", default="S00,S20,S21,S40")
    p.add_argument("--no-model", action="store_true", help="image without the wire model")
    args = p.parse_args()
    status, text = boot(args.image_dir, args.log,
                        ["fault=temt-stuck", f"sections={args.sections}"], args.timeout)
    errors = []
    if args.no_model:
        if status != 100 or not re.search(r"^PANIC: boot argument fault=temt-stuck: .*"
                                          r"WIRE_BAUD=0", text, re.M):
            errors.append(f"exit status {status}: expected 100 and a panic naming WIRE_BAUD=0")
        if "=== [S" in text:
            errors.append("a section ran before the bad boot argument stopped the run")
    else:
        tx = [s for s in args.sections.split(",") if s in ("S20", "S21")]
        if not all(re.search(rf"\b{k}=\d+", text) for k in MANIFEST):
            errors.append(f"exit status {status}: no manifest ({', '.join(MANIFEST)}), the run "
                          "stopped or hung before S00 printed it")
        elif args.backend == "copier":
            check_copier_run(text, status, tx, errors)
        else:
            check_fault_run(text, status, args.backend, tx, errors)
    return report(text, errors, f"fault=temt-stuck on {args.backend}: "
                                + ("refused without the model" if args.no_model else
                                   "every drain hung until the runner's deadlines, the run "
                                   "went on" if args.backend == "copier" else
                                   "every drain timed out within its bound, the run went on"))


if __name__ == "__main__":
    sys.exit(main())
