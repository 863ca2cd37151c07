"""What counted a Linux run's CPU figures (the `counter-sources` check of
check.check_log()): each manifest line counter_<name>= of
uartbench-hosted (bench/hosted/manifest.c) in one of its forms:

- `perf-hw-instructions` / `perf-hw-cpu-cycles scope=<user+kernel|user|all>
  read_cost=N null_delta=N` (the pinned CPU's, counter_cpuwide_<name>=,
  with `cpu=N source=<csr|read-syscall> csr=<agrees|frozen|disagrees|sigill|none>`);
- `proc-instret scope=hart path=/proc/instret perf=<errno name> read_cost=N
  null_delta=N` (instructions only: a small kernel's own count, StarryOS's,
  where Linux's perf event was refused), beside the manifest's
  `instret_read_overhead=N`, the same read cost under StarryOS's name;
- `not-available reason=<errno name>` (and for instructions
  `proc_instret=<errno name>`: why /proc/instret did not count either).

Anything else is a finding: the figures S41 prints from that counter
would have no known source.
"""

import re

from . import series

ERRNO_RE = re.compile(r"^E[A-Z0-9]+$")
# counter_<name>= of the manifest: the events that may count it.
EVENTS = {"instructions": ("perf-hw-instructions", "proc-instret"),
          "cycles": ("perf-hw-cpu-cycles",),
          "cpuwide_instructions": ("perf-hw-instructions",),
          "cpuwide_cycles": ("perf-hw-cpu-cycles",)}
PERF_SCOPES = ("user+kernel", "user", "all")
CPUWIDE = {"source": ("csr", "read-syscall"),
           "csr": ("agrees", "frozen", "disagrees", "sigill", "none")}
PROC = {"scope": ("hart",), "path": ("/proc/instret",)}
NOT_AVAILABLE = "not-available"


def _lines(log):
    """The S00 records counter_<name>= of EVENTS' names."""
    if "S00" not in log.sections:
        return []
    return [r for r in log.sections["S00"].records
            if r.kind.startswith("counter_") and r.kind[len("counter_"):] in EVENTS]


def counter_sources(ctx):
    """Every counter line in a form of its counter, and instret_read_overhead
    where, and only where, /proc/instret counted."""
    log = ctx.log
    if not ctx.ours:
        ctx.na("the %s suite prints its own instret_source= lines" % log.flavor)
        return
    lines = _lines(log)
    overhead = log.manifest.get("instret_read_overhead")
    if not lines and overhead is None:
        ctx.na("no counter_* lines in the manifest (a kernel's counters are its CSRs)")
        return
    proc = None
    for rec in lines:
        if rec.tag == NOT_AVAILABLE:
            _refused(ctx, rec)
        elif rec.tag not in EVENTS[rec.kind[len("counter_"):]]:
            ctx.fail("S00", rec.kind, "%r is not one of %s" % (
                rec.tag, "|".join(EVENTS[rec.kind[len("counter_"):]] + (NOT_AVAILABLE,))))
        else:
            _counting(ctx, rec)
            if rec.tag == "proc-instret":
                proc = rec
    if proc is None and overhead is not None:
        ctx.fail("S00", "instret_read_overhead", "%s, but no counter line says /proc/instret "
                 "counted" % overhead)
    elif proc is not None and overhead != proc.get("read_cost"):
        ctx.fail("S00", "instret_read_overhead", "%s, but counter_instructions=proc-instret "
                 "read_cost=%s (one read of /proc/instret)" % (overhead, proc.get("read_cost")))


def _refused(ctx, rec):
    """`not-available reason=<errno name> [proc_instret=<errno name>]`."""
    for key in ("reason", "proc_instret"):
        text = rec.get(key)
        if (text is None and key == "reason") or (text is not None and not ERRNO_RE.match(text)):
            ctx.fail("S00", "%s.%s" % (rec.kind, key), "%r is not an errno name (ENOENT, "
                     "ENOSYS, ...)" % text)
    if "proc_instret" in rec.kv and rec.kind != "counter_instructions":
        ctx.fail("S00", rec.kind + ".proc_instret", "only the instruction count has a "
                 "/proc/instret to fall back to")


def _counting(ctx, rec):
    """A counting counter's keys: read_cost and null_delta whole numbers, and
    the keys of its kind (perf, the pinned CPU's, /proc/instret)."""
    for key in ("read_cost", "null_delta"):
        if series.uint(rec.get(key, "")) is None:
            ctx.fail("S00", "%s.%s" % (rec.kind, key), "%r is not a whole number" % rec.get(key))
    if rec.tag == "proc-instret":
        allowed = PROC
        if not ERRNO_RE.match(rec.get("perf", "")):
            ctx.fail("S00", rec.kind + ".perf", "%r is not an errno name: why the perf event "
                     "was refused" % rec.get("perf"))
    elif rec.kind.startswith("counter_cpuwide_"):
        allowed = dict(CPUWIDE, scope=PERF_SCOPES)
        if series.uint(rec.get("cpu", "")) is None:
            ctx.fail("S00", rec.kind + ".cpu", "%r is not a CPU number" % rec.get("cpu"))
    else:
        allowed = {"scope": PERF_SCOPES}
    for key, values in allowed.items():
        if rec.get(key) not in values:
            ctx.fail("S00", "%s.%s" % (rec.kind, key), "%r is not one of %s"
                     % (rec.get(key), "|".join(values)))
