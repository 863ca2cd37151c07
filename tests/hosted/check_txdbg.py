#!/usr/bin/python3
"""uartbench-hosted where the kernel answers StarryOS's TX telemetry
ioctls (UART_TXDBG_RESET, UART_TXDBG_SNAPSHOT): no Linux tty does, so
txdbg_fake.so (LD_PRELOAD) answers them inside the process as StarryOS's
kernel does on any fd, with counters the test knows: snapshot n after a
reset holds n times BASE's counts (hw_send_max_chunk and the four states
as BASE). The whole suite at quick scale on a pty. Checks:

- exit status 0, every section as on any pty, `report --check` clean
  with its TX counter check applied to the counters;
- the counter resets are StarryOS's: S11's s11-txdbg-reset, S41's rounds
  and S43's loaded groups say ioctl_rc=0 / reset_rc=0;
- StarryOS's counters under its names: S11's phase=enqueue and
  phase=final-drain lines are snapshots 1 and 2 after their reset, each
  S41 size's diag=s41-txdbg snapshot 1 after its last round's reset, S40
  says txdbg_available=1 and its five counter groups are snapshot 1
  after S43's last reset."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
from uartreport import check, parse  # noqa: E402
import suite_status  # noqa: E402
from pty_run import FarEnd, arg_parser, finish, run  # noqa: E402

NAMES = ("user_calls", "user_req", "user_acc", "ring_pop_calls", "ring_pop_bytes",
         "hw_send_calls", "hw_send_bytes", "hw_send_zero", "hw_send_max_chunk",
         "no_progress_budget", "slow_poll_exh", "yield_exh", "ring_empty", "copier_active",
         "staged_bytes", "transmitter_empty")
BASE = (3, 4096, 4096, 2, 4096, 257, 4096, 1, 16, 5, 6, 7, 1, 0, 0, 1)   # txdbg_fake.c's
SKIPPED = dict(suite_status.SKIPPED, S31="no-loopback")


def snapshot(n):
    """{name: printed value} of the fake's n-th snapshot after a reset."""
    return {k: str(b * n if i < 12 and k != "hw_send_max_chunk" else b)
            for i, (k, b) in enumerate(zip(NAMES, BASE))}


def fields(rec):
    """{name: printed value} of the sixteen in rec."""
    return {k: rec.get(k) for k in NAMES}


def check_counters(log, errors):
    """The resets and the snapshots where each section prints them."""
    for rec in log.records("S11", kind="diag", tag="s11-txdbg-reset"):
        if rec.get("ioctl_rc") != "0":
            errors.append(f"S11 size={rec.get('size')}: reset ioctl_rc={rec.get('ioctl_rc')}")
    for phase, n in (("enqueue", 1), ("final-drain", 2)):
        recs = log.records("S11", kind="diag", tag="s11-txdbg", phase=phase)
        if len(recs) != 3 or any(fields(r) != snapshot(n) for r in recs):
            errors.append(f"S11 phase={phase}: {[fields(r) for r in recs][:1]}, expected "
                          f"three of {snapshot(n)}")
    for sid, tag in (("S41", "s41-valid"), ("S43", "s43-loaded-group")):
        bad = [r.get("reset_rc") for r in log.records(sid, kind="diag", tag=tag)
               if r.get("reset_rc") != "0"]
        if bad or not log.records(sid, kind="diag", tag=tag):
            errors.append(f"{sid} {tag}: reset_rc {bad or 'missing'}, expected 0")
    recs = log.records("S41", kind="diag", tag="s41-txdbg")
    if len(recs) != 3 or any(fields(r) != snapshot(1) for r in recs):
        errors.append(f"S41 s41-txdbg: {[fields(r) for r in recs][:1]} ({len(recs)} lines), "
                      f"expected one per size of {snapshot(1)}")
    avail = log.records("S40", kind="txdbg_available")
    if not avail or avail[0].tag != "1" or avail[0].get("ioctl_rc") != "0":
        errors.append("S40: no txdbg_available=1 ioctl_rc=0 line")
    got = {}
    for rec in log.records("S40", kind="counter"):
        if rec.tag != "wire-model":
            got.update({k: v for k, v in rec.kv.items() if k in NAMES})
    if got != snapshot(1):
        errors.append(f"S40 counter groups {got}, expected {snapshot(1)}")


def main():
    """Run with the fake, check, report."""
    p = arg_parser(__doc__, 60)
    p.add_argument("--fake", required=True, help="txdbg_fake.so")
    args = p.parse_args()
    far = FarEnd()
    # the fake comes before the sanitizers' runtime in the process's libraries
    env = dict(os.environ, LD_PRELOAD=args.fake, ASAN_OPTIONS="verify_asan_link_order=0")
    try:
        status, out, err, took = run(args.binary, ["--tty", far.path, "--baud", str(args.baud),
                                                   "--quick"], args.log, args.timeout, env=env)
    finally:
        far.stop()
    errors = [] if status == 0 else [f"exit status {status}: {err.strip()[-400:]}"]
    log = parse.parse_bytes(out, args.log)
    suite_status.check_statuses(log, SKIPPED, errors)
    check_counters(log, errors)
    result = check.check_log(log)
    errors += [f"check: {f.section} {f.key}: {f.what}" for f in result.findings]
    if result.outcome.get("counters", ("n/a",))[0] == "n/a":
        errors.append("check: the TX counter check did not apply to StarryOS's counters")
    return finish([], errors, f"{args.log}: {took:.1f} s; {check.verdict(result)}")


if __name__ == "__main__":
    sys.exit(main())
