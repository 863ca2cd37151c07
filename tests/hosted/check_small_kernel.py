#!/usr/bin/python3
"""uartbench-hosted on Linux restricted to what a small POSIX kernel
(StarryOS) gives, the whole suite at quick scale on a pty:

- a seccomp filter (sys_deny, built beside the tests) makes the system
  calls the kernel lacks fail with ENOSYS: perf_event_open always, and
  per variant clone and clone3 (no threads) or clock_nanosleep;
- in a private mount namespace (unshare -m, as root) /proc is a directory
  of the test's own, bind-mounted, holding `instret`, StarryOS's
  /proc/instret, and `self`, a link into a procfs mounted aside (the
  sanitizers read the process's own environment and maps there; the
  benchmark reads neither): no /proc/stat. `instret` is a FIFO the test
  serves. Read k gets the count
  v(k) = BASE + k * READ_COST + the sum of step(i), i < k: every read
  costs READ_COST, and from read CAL_READS on each step adds a known
  amount step(k) = STEP0 + k of its own, so every window read with two
  reads back to back has one count the test can name.

Checks: exit status 0 and `report --check` clean; the manifest names the
pty (device=), the count's source (counter_instructions=proc-instret
perf=ENOSYS) and the read's measured cost: read_cost and
instret_read_overhead exactly READ_COST, null_delta 0; no /proc/stat
(system_cpu_source=none); every S41 round's instret_delta is one served
step(k), the two reads' delta less one READ_COST (without the
subtraction it would be READ_COST more; from another source, no step),
and instructions_per_byte is it over the bytes; each section PASS or
SKIPPED with its reason: as on any pty (S05, S06, S50 kernel-only; S31
no-loopback; S32, S33 no-wire-model), and by variant:

- threads (--deny clone,clone3): tasks=inline reason=clone-ENOSYS, S42
  SKIPPED no-threads, S43 PASS with its idle groups measured and its
  loaded phase's line `status=SKIPPED reason=no-threads` and no groups;
- nosleep (--deny clock_nanosleep): timer=ppoll, S43 SKIPPED
  no-clock-nanosleep, S42 PASS.
Prints the figures the stand-in gave S41."""
import fcntl
import os
import shutil
import sys
import tempfile
import termios
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
from uartreport import check, parse  # noqa: E402
import suite_status  # noqa: E402
from pty_run import FarEnd, arg_parser, finish, run  # noqa: E402

BASE = 5_000_000_000       # the hart's count at the first read
READ_COST = 10_000_000     # what one read of /proc/instret adds
CAL_READS = 19             # the binary's first reads, its read-cost calibration: no work
STEP0 = 1000               # step(k) = STEP0 + k from read CAL_READS on
SKIP_NOT_ROOT = 77
VARIANTS = {
    "threads": ("perf_event_open,clone,clone3",
                dict(suite_status.SKIPPED, S31="no-loopback", S42="no-threads")),
    "nosleep": ("perf_event_open,clock_nanosleep",
                dict(suite_status.SKIPPED, S31="no-loopback", S43="no-clock-nanosleep")),
}


def step(k):
    """What read k + 1 adds to read k's count beyond READ_COST."""
    return 0 if k < CAL_READS else STEP0 + k


class InstretFifo:
    """The /proc/instret stand-in: a FIFO in the test's /proc directory
    that always holds one count, a line: a reader that opens it and reads
    once (as the benchmark does, and StarryOS's) takes that line whole,
    and a thread then puts the next count in; served[k] is the count read
    k got. The test holds the FIFO open (O_RDWR: a reader's open never
    waits, a write never finds no reader), so a count put in is never
    lost, whoever reads it."""

    def __init__(self, path):
        """Make the FIFO and start serving it."""
        self.path = path
        os.mkfifo(path)
        self.fd = os.open(path, os.O_RDWR)
        self.served = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        """The next count whenever the FIFO is empty (FIONREAD 0)."""
        value, left = BASE, bytearray(4)
        while not self._stop.is_set():
            fcntl.ioctl(self.fd, termios.FIONREAD, left)
            if int.from_bytes(left, sys.byteorder):
                time.sleep(0.00005)
                continue
            os.write(self.fd, b"%d\n" % value)
            self.served.append(value)
            value += READ_COST + step(len(self.served) - 1)

    def stop(self):
        """End the server, close the FIFO."""
        self._stop.set()
        self._thread.join(5)
        os.close(self.fd)


def check_counts(log, served, errors):
    """The manifest's source and read cost, and S41's windows against the
    served counts."""
    man = log.manifest
    rec = [r for r in log.sections["S00"].records if r.kind == "counter_instructions"]
    line = rec[0] if rec else None
    want = {"tag": "proc-instret", "scope": "hart", "path": "/proc/instret", "perf": "ENOSYS",
            "read_cost": str(READ_COST), "null_delta": "0"}
    got = {k: (line.tag if k == "tag" else line.get(k)) if line else None for k in want}
    if got != want:
        errors.append(f"counter_instructions {got}, expected {want}")
    for key, value in (("instret_read_overhead", str(READ_COST)), ("instret_source",
                       "/proc/instret"), ("system_cpu_source", "none")):
        if man.get(key) != value:
            errors.append(f"manifest {key}={man.get(key)}, expected {value}")
    steps = {served[k + 1] - served[k] - READ_COST: k for k in range(len(served) - 1)}
    rounds = log.records("S41", kind="diag", tag="s41-valid")
    if not rounds:
        errors.append("S41: no s41-valid round")
    for r in rounds:
        name = f"S41 size={r.get('size')} round={r.get('round')}"
        delta, done = r.get("instret_delta"), int(r.get("completed", "0"))
        k = steps.get(int(delta)) if delta and delta.isdigit() else None
        if k is None or k < CAL_READS:
            errors.append(f"{name}: instret_delta={delta} is no step the stand-in served "
                          f"between two reads, less one read ({READ_COST})")
            continue
        if r.get("rdinstret_delta") != delta:
            errors.append(f"{name}: rdinstret_delta={r.get('rdinstret_delta')}, not {delta}")
        ipb = int(delta) * 100 // done if done else 0
        if r.get("instructions_per_byte") != "%d.%02d" % (ipb // 100, ipb % 100):
            errors.append(f"{name}: instructions_per_byte={r.get('instructions_per_byte')}, "
                          f"{delta} / {done}")
    method = log.records("S41", kind="s41-method")
    if not method or method[0].get("instret") != "proc-instret-of-the-hart":
        errors.append("S41: s41-method instret= is not proc-instret-of-the-hart")
    return rounds


def check_variant(log, variant, errors):
    """What the missing calls cost: the manifest's tasks/timer lines, S42 and S43."""
    man = log.manifest
    if variant == "threads":
        want = {"tasks": "inline", "timer": "clock_nanosleep"}
        phases = {r.tag: r for r in log.records("S43", kind="s43-phase")}
        loaded = phases.get("loaded")
        if not loaded or (loaded.get("status"), loaded.get("reason")) != ("SKIPPED",
                                                                           "no-threads"):
            errors.append("S43: the loaded phase's line does not say status=SKIPPED "
                          "reason=no-threads")
        if log.records("S43", kind="diag", tag="s43-loaded-group"):
            errors.append("S43: loaded groups printed although the phase was skipped")
        idle = log.records("S43", kind="diag", tag="s43-idle-group")
        if not idle or any(r.get("status") != "PASS" for r in idle):
            errors.append("S43: the idle groups were not measured (PASS) without threads")
        tasks = [r for r in log.sections["S00"].records if r.kind == "tasks"]
        if not tasks or tasks[0].get("reason") != "clone-ENOSYS":
            errors.append("manifest: tasks= does not give the reason clone-ENOSYS")
    else:
        want = {"tasks": "threads", "timer": "ppoll"}
    for key, value in want.items():
        if man.get(key) != value:
            errors.append(f"manifest {key}={man.get(key)}, expected {value}")


def main():
    """Set up the stand-in and the namespace, run, check, report."""
    p = arg_parser(__doc__, 90)
    p.add_argument("--sys-deny", required=True, help="the seccomp helper (sys_deny)")
    p.add_argument("--variant", choices=sorted(VARIANTS), required=True)
    args = p.parse_args()
    if os.geteuid() != 0:
        print("SKIP: needs root (a private mount namespace to bind /proc)")
        return SKIP_NOT_ROOT
    deny, skipped = VARIANTS[args.variant]
    top = tempfile.mkdtemp(prefix="small-kernel.")
    proc, real = os.path.join(top, "proc"), os.path.join(top, "procfs")
    os.mkdir(proc)
    os.mkdir(real)
    os.symlink(os.path.join(real, "self"), os.path.join(proc, "self"))
    fifo = InstretFifo(os.path.join(proc, "instret"))
    far = FarEnd()
    shell = 'mount -t proc proc "$1" && mount --bind "$0" /proc && shift && exec "$@"'
    cmd = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", shell, proc,
           real, args.sys_deny, deny, "--", args.binary, "--tty", far.path, "--baud",
           str(args.baud), "--quick"]
    # LeakSanitizer lists the process's threads in /proc/<pid>/task: not here
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    try:
        status, out, err, took = run(cmd[0], cmd[1:], args.log, args.timeout, env=env)
    finally:
        far.stop()
        fifo.stop()
        shutil.rmtree(top)
    errors = []
    if status != 0:
        errors.append(f"exit status {status}: {err.strip()[-400:]}")
    log = parse.parse_bytes(out, args.log)
    suite_status.check_statuses(log, skipped, errors)
    if log.manifest.get("device") != far.path:
        errors.append(f"manifest device={log.manifest.get('device')}, not the pty {far.path}")
    rounds = check_counts(log, fifo.served, errors) if "S00" in log.sections else []
    check_variant(log, args.variant, errors)
    result = check.check_log(log)
    errors += [f"check: {f.section} {f.key}: {f.what}" for f in result.findings]
    lines = [f"S41 size={r.get('size')} round={r.get('round')}: instret_delta="
             f"{r.get('instret_delta')} instructions_per_byte={r.get('instructions_per_byte')}"
             for r in rounds]
    lines.append(f"/proc/instret stand-in: {len(fifo.served)} reads served; manifest "
                 f"read_cost={log.manifest.get('instret_read_overhead')}")
    return finish(lines, errors, f"{args.log}: variant {args.variant} (ENOSYS: {deny}), "
                  f"{took:.1f} s; {check.verdict(result)}")


if __name__ == "__main__":
    sys.exit(main())
