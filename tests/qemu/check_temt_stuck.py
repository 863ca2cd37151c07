#!/usr/bin/env python3
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
With --no-model: the image has no wire model; the boot argument must stop
the run before any section with a message that says why (status 100).
"""
import re
import sys

from qemu_boot import arg_parser, boot, picolibc_errno, report

MARGIN_NS = 10_000_000          # both backends' drain margin (async.c, console.c)
TEMT_TRIES = 4                  # async.c UART_DRAIN_TEMT_TRIES
SLACK_NS = 200_000              # instructions around a drain, poll granularity
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


def check_fault_run(text, status, backend, tx, errors):
    """The whole run with the fault on."""
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
    p.add_argument("--backend", choices=["async", "console"], required=True)
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
        check_fault_run(text, status, args.backend, tx, errors)
    return report(text, errors, f"fault=temt-stuck on {args.backend}: "
                                + ("refused without the model" if args.no_model else
                                   "every drain timed out within its bound, the run went on"))


if __name__ == "__main__":
    sys.exit(main())
