#!/usr/bin/python3
"""Section S50 (the driver under callers on several harts) at -smp N
under icount: boot the image twice with scripts/qemu-run and
`sections=S50` (plus `s50_yield_seed=SEED`, the stress variant: seeded
extra yields), require exit 0, `diag=s50-harts harts=N`, the section's
status (PASS; SKIPPED with reason one-hart at -smp 1) and every
`diag=s50-*` check line PASS, the two logs identical from the section
header on except for how the work fell between harts (VARYING: per-hart
counts, lock waits, the readers' split), and `bench/report/report
--check` to accept the log. Every verdict, total and check line must
match: a difference there is a race. The split may differ because QEMU's
round-robin vCPU loop (accel/tcg/tcg-accel-ops-rr.c) ends a vCPU's slice
on a cpu_exit from another host thread (the main loop's timers, the RCU
thread's force notifier) at a host-timed point; with one vCPU that moves
nothing, with several it moves the interleaving."""
import os
import re
import subprocess
import sys

from qemu_boot import arg_parser, boot

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
REPORT = os.path.join(ROOT, "bench", "report", "report")
HEADER = "=== [S50] "
VARYING = re.compile(r"^(  diag=s50-hart |  diag=s50-locks |  diag=s50-inbox |"
                     r"  diag=s50-rx-window |  section=S50 )")
SPLIT = re.compile(r" (reader[01]_chunks)=\d+")


def comparable(body):
    """body with the numbers of the VARYING lines masked."""
    return "\n".join(re.sub(r"=\d[\d.]*", "=#", line) if VARYING.match(line)
                     else SPLIT.sub(r" \1=#", line) for line in body.split("\n"))


def s50_boot(args, log):
    """One boot; (status, the log from the S50 header on)."""
    append = ["sections=S50"] + ([f"s50_yield_seed={args.seed}"] if args.seed else [])
    status, text = boot(args.image_dir, log, append + args.append, args.timeout, smp=args.smp)
    i = text.find(HEADER)
    return status, text[i:] if i >= 0 else ""


def check_body(k, body, args):
    """The checks of one run's S50 part; a list of errors."""
    errors = []
    if f"  diag=s50-harts harts={args.smp} platform_harts={args.smp}\n" not in body:
        errors.append(f"run {k}: no `diag=s50-harts harts={args.smp}`")
    if args.smp == 1:
        if not re.search(r"^  section=S50 status=SKIPPED reason=one-hart ", body, re.M):
            errors.append(f"run {k}: S50 not SKIPPED (one-hart) at -smp 1")
        return errors
    if not re.search(r"^  section=S50 status=PASS ", body, re.M):
        errors.append(f"run {k}: no `section=S50 status=PASS`")
    for phase in ("writers", "thre", "drain", "rx", "ier", "quiesce"):
        if not re.search(rf"^  diag=s50-{phase} status=(PASS|SKIPPED) ", body, re.M):
            errors.append(f"run {k}: s50-{phase} not PASS")
    if not re.search(rf"^  diag=s50-quiesce status=PASS harts={args.smp} not_quiet=0 shared=0$",
                     body, re.M):
        errors.append(f"run {k}: the driver is still shared after S50 (its locks stay on)")
    for m in re.finditer(r"^  diag=s50-\S+ (?:phase=\S+ )?status=(\S+)", body, re.M):
        if m.group(1) not in ("PASS", "SKIPPED"):
            errors.append(f"run {k}: {m.group(0).strip()}")
    if args.seed and not re.search(rf"^  diag=s50-stress yield_seed={args.seed}$", body, re.M):
        errors.append(f"run {k}: the seed was not applied")
    if args.seed and not re.search(r" yields=[1-9]", body):
        errors.append(f"run {k}: no extra yields were made")
    return errors


def main():
    """Two boots, the checks, the verdict."""
    p = arg_parser(__doc__, 120, "prefix: PREFIX-1.log, PREFIX-2.log", append=True)
    p.add_argument("--smp", type=int, required=True)
    p.add_argument("--seed", type=int, default=0, help="s50_yield_seed (0: none)")
    args = p.parse_args()
    errors, bodies = [], []
    for k in (1, 2):
        log = f"{args.log}-{k}.log"
        status, body = s50_boot(args, log)
        print(body, end="")
        if status != 0:
            errors.append(f"run {k}: exit status {status}")
        errors += check_body(k, body, args)
        bodies.append(body)
        if k == 1 and status == 0:
            rc = subprocess.run([sys.executable, REPORT, "--check", log],
                                stdin=subprocess.DEVNULL).returncode
            if rc != 0:
                errors.append(f"run {k}: report --check failed ({rc})")
    if comparable(bodies[0]) != comparable(bodies[1]):
        errors.append("the two runs' logs differ")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"ok: S50 at -smp {args.smp} seed {args.seed}, two runs identical but for "
              f"the per-hart split (byte-identical: {bodies[0] == bodies[1]})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
