#!/usr/bin/python3
"""Run one image under -icount several times (--runs, default 2) and
require byte-identical serial logs: on the project's QEMU no host-timed
event decides when the guest sees an interrupt (docs/qemu-line.md), so
any difference is a bug (a host-time dependency, an uninitialised value,
a race) and fails at once; there is no allowance for a run that differs.
With --load N, N processes keep the host's cores loaded through the runs
(busy()); with --parallel N, N boots run at once, each loading the
others. With --from REGEX only the log from the first line matching REGEX
on is compared (the Linux peer: from its /init's first line)."""
import os
import re
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_boot import arg_parser  # noqa: E402


def show_difference(x, y):
    """Print where two logs first differ."""
    a, b = x.splitlines(), y.splitlines()
    first = next((i for i, (p, q) in enumerate(zip(a, b)) if p != q), min(len(a), len(b)))
    print(f"difference from line {first + 1}:")
    print(f"  run 1: {a[first][:200] if first < len(a) else '<end>'}")
    print(f"  run 2: {b[first][:200] if first < len(b) else '<end>'}")


def busy():
    """Host load until killed: a shell starting /bin/true over and over, so
    both cores stay busy and QEMU's threads are preempted at random points
    (a loop that only spins does not show a host-timing dependency that
    this load shows within a few runs). At the lowest priority (nice 19):
    it takes the CPU time the boots leave and preempts them whenever it
    wakes, without slowing them to half speed."""
    return subprocess.Popen(["nice", "-n", "19", "sh", "-c", "while :; do /bin/true; done"],
                            stdin=subprocess.DEVNULL, start_new_session=True)


def main():
    """--runs boots, each log equal to the first."""
    p = arg_parser(__doc__, 300, "prefix of the log files (-1.log, -2.log, ...)")
    p.add_argument("--from", dest="start", metavar="REGEX",
                   help="compare from the first line matching REGEX on")
    p.add_argument("--append", action="append", default=[], help="boot argument, each run")
    p.add_argument("--runs", type=int, default=2, help="boots to compare (at least 2)")
    p.add_argument("--load", type=int, default=0, metavar="N",
                   help="busy processes loading the host while the boots run")
    p.add_argument("--parallel", type=int, default=1, metavar="N",
                   help="boots at a time (more load, less waiting)")
    p.add_argument("--smp", type=int, default=1, help="harts")
    args = p.parse_args()
    load = [busy() for _ in range(args.load)]
    try:
        return compare_runs(args)
    finally:
        for proc in load:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def boot(args, i):
    """Run i's boot (log PREFIX-i.log); its exit status."""
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "qemu-run"),
                           "--image-dir", args.image_dir, "--log", f"{args.log}-{i}.log",
                           "--quiet", "--smp", str(args.smp), "--timeout", str(args.timeout)] +
                          [x for a in args.append for x in ("--append", a)],
                          stdin=subprocess.DEVNULL).returncode


def compare_runs(args):
    """The boots and the comparison; the exit status."""
    runs = range(1, max(args.runs, 2) + 1)
    with ThreadPoolExecutor(max(args.parallel, 1)) as pool:
        statuses = list(pool.map(lambda i: boot(args, i), runs))
    first = None
    for i, rc in zip(runs, statuses):
        path = f"{args.log}-{i}.log"
        if rc != 0:
            print(f"FAIL: run {i} exit status {rc}")
            return 1
        with open(path, "rb") as f:
            log = f.read()
        if args.start:
            m = re.search(args.start.encode(), log, re.M)
            if m is None:
                print(f"FAIL: run {i}: no line matches {args.start!r}")
                return 1
            log = log[m.start():]
        if first is None:
            first = log
        elif log != first:
            print(f"FAIL: run {i} differs from run 1 ({args.log}-1.log, {path})")
            show_difference(first.decode("utf-8", "replace"), log.decode("utf-8", "replace"))
            return 1
    where = f" from {args.start!r} on" if args.start else ""
    load = f" with {args.load} busy processes" if args.load else ""
    load += f", {args.parallel} at a time" if args.parallel > 1 else ""
    print(f"ok: {max(args.runs, 2)} runs{load}, {len(first)} identical bytes{where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
