"""Data model of a parsed benchmark log.

The parser fills these objects; recompute.py, tables.py and plots.py only read
them. Every value is kept as the string printed in the log; numbers are
converted where they are used (see num()).
"""

from dataclasses import dataclass, field
import math

# CPU-work keys renamed to carry their unit (instructions): old name -> names.
ALIASES = {
    "instret_delta": ("instret_delta", "instructions_delta"),
    "wire_model_instret": ("wire_model_instret", "wire_model_instructions"),
    "idle_instret": ("idle_instret", "idle_instructions"),
    "instret_per_switch": ("instret_per_switch", "instructions_per_switch"),
}


def num(text):
    """Return text as a float, or None when it is absent or not a finite number."""
    if text is None:
        return None
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    if math.isnan(value) or math.isinf(value):
        return None
    return value


@dataclass
class Record:
    """One line of key=value tokens and bare words inside a section."""

    line: int
    section: str
    kind: str
    tag: str | None
    kv: dict = field(default_factory=dict)
    words: list = field(default_factory=list)
    tokens: list = field(default_factory=list)

    def get(self, key, default=None):
        """Return the printed string of key, or default."""
        return self.kv.get(key, default)

    def num(self, key):
        """Return the value of key as a float, or None."""
        return num(self.kv.get(key))

    def name(self, key):
        """The name key is printed under in this record (itself or a new name, ALIASES)."""
        return next((n for n in ALIASES.get(key, (key,)) if n in self.kv), key)

    def value(self, key):
        """num() of key under whichever name (ALIASES) the record prints it."""
        return self.num(self.name(key))

    def selector(self):
        """`kind=tag` (or the bare kind): what picks this record out of its
        section; called by the tables to say where a figure comes from (Cell.src)."""
        return "%s=%s" % (self.kind, self.tag) if self.tag is not None else self.kind

    def is_latency(self):
        """True for a latency summary (n plus p50 in ms or ns)."""
        return "n" in self.kv and ("p50_ms" in self.kv or "p50_ns" in self.kv)


@dataclass
class Section:
    """One `=== [Sxx] Title ===` block and the records under it."""

    sid: str
    title: str
    line: int
    records: list = field(default_factory=list)

    def find(self, kind=None, tag=None, **match):
        """Return the records of this section matching kind, tag and key values."""
        out = []
        for rec in self.records:
            if kind is not None and rec.kind != kind:
                continue
            if tag is not None and rec.tag != tag:
                continue
            if any(rec.kv.get(k) != v for k, v in match.items()):
                continue
            out.append(rec)
        return out


@dataclass
class Series:
    """Raw samples of one tag, concatenated from `samples` lines by `first`."""

    tag: str
    unit: str
    chunks: list = field(default_factory=list)  # (first, [values], line)
    values: list = field(default_factory=list)
    gaps: list = field(default_factory=list)  # text of each gap or overlap


@dataclass
class Hist:
    """A sparse histogram line (`hist tag=...`)."""

    tag: str
    line: int
    bucket_ns: float | None
    nbuckets: int | None
    overflow: int
    counts: dict = field(default_factory=dict)  # bucket index -> count
    section: str = ""

    def total(self):
        """Number of samples counted, overflow included."""
        return sum(self.counts.values()) + self.overflow


@dataclass
class Payload:
    """A payload witness: begin line, raw payload bytes, end line."""

    tag: str
    line: int
    section: str = ""  # section the payload-begin line is in
    data: bytes | None = None
    expected_bytes: int | None = None
    expected_crc: int | None = None
    ended: bool = False

    def verdict(self):
        """Return ('match'|'mismatch'|'not checkable', explanation)."""
        if not self.ended:
            return ("not checkable", "no payload-end line (log cut?)")
        if self.data is None:
            return ("not checkable", "payload line missing")
        if self.expected_crc is None or self.expected_bytes is None:
            return ("not checkable", "payload-end has no valid bytes= / crc32=")
        import zlib
        crc = zlib.crc32(self.data) & 0xFFFFFFFF
        got = len(self.data)
        if got == self.expected_bytes and crc == self.expected_crc:
            return ("match", "%d bytes, crc32=0x%08x" % (got, crc))
        return ("mismatch", "expected %d bytes crc32=0x%08x, got %d bytes crc32=0x%08x"
                % (self.expected_bytes, self.expected_crc, got, crc))


@dataclass
class Log:
    """Everything the parser found in one log file."""

    path: str
    label: str = ""
    flavor: str = "unknown"  # "ours", "starryos" or "unknown"
    manifest: dict = field(default_factory=dict)
    boot: dict = field(default_factory=dict)  # StarryOS [BENCH] startup figures
    boot_noise: dict = field(default_factory=dict)  # other key=value seen in boot lines
    stated: dict = field(default_factory=dict)  # settings boot lines state in words (starry.py)
    sections: dict = field(default_factory=dict)  # sid -> Section (last wins)
    order: list = field(default_factory=list)  # sids in order of appearance
    samples: dict = field(default_factory=dict)  # tag -> Series
    hists: dict = field(default_factory=dict)  # tag -> Hist
    payloads: list = field(default_factory=list)
    merged: list = field(default_factory=list)  # (path, [sid]) of later boots (merge.py)
    statuses: dict = field(default_factory=dict)  # sid -> Record (section=... status=...)
    done: dict | None = None  # key=value of the Done line, {} for a bare "Done."
    warnings: list = field(default_factory=list)  # (line, message)
    internal_errors: list = field(default_factory=list)  # repr of exceptions caught by a catch-all
    lines: int = 0
    noise_lines: int = 0
    payload_text_lines: int = 0

    def warn(self, line, message):
        """Record a warning; line is 1-based or 0 for the whole file."""
        self.warnings.append((line, message))

    def internal(self, line, message, exc):
        """A catch-all of parse.py or recompute.py caught exc: warn and keep it.

        A bug of the tool, not of the log: tests assert that none happened.
        """
        self.internal_errors.append(repr(exc))
        self.warn(line, "%s: %r" % (message, exc))

    def section(self, sid):
        """Return Section sid or None."""
        return self.sections.get(sid)

    def records(self, sid, kind=None, tag=None, **match):
        """Return matching records of section sid ([] when the section is absent)."""
        sec = self.sections.get(sid)
        return sec.find(kind, tag, **match) if sec else []

    def usable(self):
        """True when the log holds at least one record, manifest value or boot figure."""
        if self.manifest or self.boot:
            return True
        return any(sec.records for sec in self.sections.values())

    def line_point(self):
        """The timed line's "BAUD/FIFO" in a log of ours: the wire model's
        (wire_model=) or the emulator's (line=device line_point=); None on
        QEMU's instant UART, a board's line, or in a foreign log."""
        man = self.manifest
        if man.get("line") == "device":
            return man.get("line_point")
        wire = man.get("wire_model")
        return wire if wire not in (None, "off") else None

    def is_d1(self):
        """True when the log comes from the Allwinner D1 board."""
        board = self.manifest.get("board", "")
        target = self.manifest.get("target_mode", "")
        return board == "d1" or "d1" in target.lower().split("-") or "lichee" in target.lower()
