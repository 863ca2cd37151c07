"""What recompute.py derives from one log: figures, marks, notes and flags.

The data classes are filled by recompute.py, distrib.py and work.py and read
by tables.py, plots.py, report.py and the checker (check*.py).
"""

from dataclasses import dataclass, field

NOT_RECOMPUTABLE = "‡"
DISAGREE = "!"
P99_IS_MAX = "†"


class Flag(str):
    """A printed figure that disagrees with what the log's raw data give.

    Its text (the str value), `<section> <key>: <what>`, is what the report
    and the CLI print; the checker takes section, key and what apart. Made
    by Analysis.flag().
    """

    def __new__(cls, check, section, key, what):
        """Flag about key (e.g. `s20-single-byte.p99_ms`) of section.

        check: the checker's check it belongs to (samples, arithmetic, witnesses).
        """
        obj = super().__new__(cls, "%s %s: %s" % (section, key, what))
        obj.check, obj.section, obj.key, obj.what = check, section, key, what
        return obj


def s43_phases(log):
    """S43's phases in the log: idle and loaded, then each further one its
    `s43-phase=` lines name (uartbench-hosted: `idle-slack1`, the idle
    groups again at a timer slack of 1 ns)."""
    out = ["idle", "loaded"]
    for rec in log.records("S43", kind="s43-phase"):
        if rec.tag and rec.tag not in out:
            out.append(rec.tag)
    return out


def s43_skipped(log):
    """S43's phases whose `s43-phase=` line says status=SKIPPED (uartbench-hosted's
    loaded phase on a kernel without threads, reason=no-threads): they print
    no groups, witnesses or aggregate."""
    return {rec.tag for rec in log.records("S43", kind="s43-phase")
            if rec.tag and rec.get("status") == "SKIPPED"}


def s43_settings(log):
    """{phase: `timer_slack_ns=N`}: the timer settings each S43 phase's line
    prints (uartbench-hosted's; a kernel's timer has none)."""
    return {rec.tag: "timer_slack_ns=%s" % rec.get("timer_slack_ns")
            for rec in log.records("S43", kind="s43-phase")
            if rec.tag and rec.get("timer_slack_ns") is not None}


def ident(rec, *keys):
    """Short name of a record for flags: `tag(k=v,...)` with the keys present.

    Called wherever a flag or finding names a record, e.g.
    ident(rec, "size", "round") -> `s41-valid(size=64,round=1)`.
    """
    name = rec.tag or rec.kind or "?"
    shown = ["%s=%s" % (k, rec.kv[k]) for k in keys if k in rec.kv]
    return "%s(%s)" % (name, ",".join(shown)) if shown else name


@dataclass
class Lat:
    """A latency summary in ms: printed values, recomputed values, marks."""

    section: str
    tag: str
    n: int | None
    printed: dict = field(default_factory=dict)  # key -> printed text
    printed_unit: str = "ms"
    values: dict = field(default_factory=dict)  # key -> ms (recomputed if raw, else printed)
    source: str = "printed"  # "raw" or "printed"
    samples_ms: list = field(default_factory=list)
    marks: dict = field(default_factory=dict)  # key -> set of mark characters

    def mark(self, key, symbol):
        """Attach a mark (see module constants) to one figure."""
        self.marks.setdefault(key, set()).add(symbol)


@dataclass
class LineRate:
    """One throughput record converted to bytes/s and true line rate."""

    section: str
    policy: str
    size: str
    bytes_per_s: float | None
    pct_true: float | None
    pct_printed: str | None
    method: str


@dataclass
class Analysis:
    """All derived figures of one log."""

    log: object
    baud: float
    baud_note: str
    char_ms: float
    latency: dict = field(default_factory=dict)  # tag -> Lat
    line_rates: list = field(default_factory=list)
    s41: dict = field(default_factory=dict)  # size -> dict
    s41_phases: dict = field(default_factory=dict)  # size -> {phase: [instr/byte per round]}
    s42: dict | None = None
    s43: dict = field(default_factory=dict)  # "idle"/"loaded"/further phases -> Lat
    s43_settings: dict = field(default_factory=dict)  # phase -> "timer_slack_ns=N"
    s43_recomputable: str = ""
    payloads: list = field(default_factory=list)  # (tag, verdict, detail)
    notes: list = field(default_factory=list)
    flags: list = field(default_factory=list)  # Flag

    def flag(self, check, section, key, what):
        """Add a Flag (see Flag); called by recompute.py, distrib.py and work.py."""
        self.flags.append(Flag(check, section, key, what))
