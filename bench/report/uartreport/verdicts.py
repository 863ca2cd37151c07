"""The headline's verdicts: one sentence per log, computed from the headline's
figures (headline.marked()'s rows), naming the figures it rests on.

parts(rows, i) gives the claims of column i, each with the figures it cites
(line rate and CPU, overlap, timers, RX loss; the parts without figures
said as such); sentence(rows, i) joins them. markdown_lines() are the list
headline.section() puts under the headline's notes, text_lines() the lines
headline_text.page() puts under the table of headline.txt. A cell marked
not comparable (runs.NO_LINE) or from an INVALID section (runs.INVALID)
makes no claim. The thresholds are below (docs/report.md, "Verdicts").
"""

import re
import textwrap
from dataclasses import dataclass, field

from . import runs
from .tables import fmt

# S10: the smaller line rate of the two write sizes, % of the line's rate.
LINE_RATE_PCT = 95.0       # at least this: "line rate"; below: "below line rate"
NO_LINE_TIME_PCT = 101.0   # above this the line kept no time (QEMU's UART sends at once)
LOW_CPU_PCT = 10.0         # S41 CPU % while sending: at most this is low CPU
RX_LOST_PCT = 0.0          # S32/S33 RX loss %: more than this is RX lost
LATE_TIMER_US = 1000.0     # S43 overshoot P99 (us): more than this is a late timer
OVERLAP_MIN = 0.9          # S42 overlap efficiency: at least this is overlap

# Why a figure makes no claim: its cell's mark, said in a claim's words.
NOT_COMPARABLE = "not comparable"
MARKED = {NOT_COMPARABLE: "not comparable (%s)" % runs.NO_LINE,
          "INVALID": "from an INVALID section (%s)" % runs.INVALID}

# The headline rows each part reads, by the start of their label (headline.rows).
RATE, CPU, OVERLAP = ("S10 line rate",), ("S41 CPU",), ("S42 overlap",)
IDLE, LOADED = ("S43 timer overshoot P99, idle",), ("S43 timer overshoot P99, while",)
RX_IDLE, RX_LOADED = ("S32 RX loss",), ("S33 RX loss",)


@dataclass
class Part:
    """One claim of a verdict: its words ("" when the log has no figure for
    it), what it lacks (nouns of the "no ... figures" clause) and the figures
    it cites."""

    claim: str = ""
    lacks: list = field(default_factory=list)
    cites: list = field(default_factory=list)


@dataclass
class Figure:
    """One headline cell of a column: section id, value (None: no claim), the
    write size of its row, and why it makes no claim ("" when it does)."""

    sid: str
    value: float | None
    size: str = ""
    why: str = ""


def _figures(rows, i, prefixes):
    """The Figures of column i in the rows whose label starts with one of
    prefixes, those with no cell text left out; called by the parts below."""
    out = []
    for row in rows:
        if not row.label.startswith(prefixes):
            continue
        cell = row.cells[i]
        if not cell.text:
            continue
        size = re.search(r"(\d+) B writes", row.label)
        fig = Figure(row.label.split(" ")[0], cell.value, size.group(1) if size else "")
        if runs.NO_LINE in cell.text:
            fig.why = NOT_COMPARABLE
        elif runs.INVALID in cell.text:
            fig.why = "INVALID"
        elif cell.value is None:
            fig.why = cell.text.split(" ")[0]
        if fig.why:
            fig.value = None
        out.append(fig)
    return out


def _marked(noun, figs):
    """noun said not comparable or INVALID when one of figs is marked so, else
    ""; called by the parts, which found no figure to claim from."""
    why = next((f.why for f in figs if f.why in MARKED), "")
    return "%s %s" % (noun, MARKED[why]) if why else ""


def _unused(figs):
    """Cites of the figures that make no claim, e.g. "S33 skipped"; called by the parts."""
    return ["%s%s %s" % (f.sid, " %s B" % f.size if f.size else "", f.why)
            for f in figs if f.value is None]


def _pct(value):
    """A percentage as the headline shows it; called by the parts."""
    return fmt(value) + " %"


def _rate_words(rate, low):
    """The words of an S10 line rate and the word that joins the CPU figure to
    them (low: the CPU is low); called by rate_cpu()."""
    if rate > NO_LINE_TIME_PCT:
        return "above line rate (%s, no line time)" % _pct(rate), "with"
    if rate >= LINE_RATE_PCT:
        return "line rate", "with" if low else "but"
    return "below line rate (%s)" % _pct(rate), "with" if low else "even at"


def rate_cpu(rows, i):
    """The line rate (S10, the smaller of its write sizes) and CPU (S41) part;
    called by parts()."""
    rates, cpus = _figures(rows, i, RATE), _figures(rows, i, CPU)
    used = [f for f in rates if f.value is not None]
    cpu = next((f for f in cpus if f.value is not None), None)
    low = cpu is not None and cpu.value <= LOW_CPU_PCT
    said, cites = [], []
    if used:
        rate = min(used, key=lambda f: f.value)
        words, joint = _rate_words(rate.value, low)
        said.append(words + (" %s %s CPU" % (joint, _pct(cpu.value)) if cpu else ""))
        cites.append("S10 %s at %s B" % (_pct(rate.value), rate.size))
    else:
        said.append(_marked("line rate", rates))
        if cpu:
            said.append("%s CPU while it sends (%s)" % ("low" if low else "high",
                                                         _pct(cpu.value)))
    if cpu:
        cites.append("S41 %s CPU at %s B" % (_pct(cpu.value), cpu.size))
    else:
        said.append(_marked("CPU", cpus))
    lacks = [noun for noun, figs, got in (("line-rate", rates, used), ("CPU", cpus, cpu))
             if not got and not _marked(noun, figs)]
    return Part(", ".join(x for x in said if x), lacks, cites + _unused(rates) + _unused(cpus))


def overlap(rows, i):
    """The S42 overlap part; called by parts()."""
    figs = _figures(rows, i, OVERLAP)
    got = next((f for f in figs if f.value is not None), None)
    if got is None:
        said = _marked("overlap", figs)
        return Part(said, [] if said else ["overlap"], _unused(figs))
    claim = ("sending overlaps computation" if got.value >= OVERLAP_MIN else
             "sending takes CPU from computation (overlap %s)" % fmt(got.value))
    return Part(claim, cites=["S42 %s" % fmt(got.value)])


def _phases(rows, i, pairs, what, lack):
    """(used, unused, none): column i's figures of each (phase, row prefix)
    of pairs that have a value, with their phase; the cites of the others;
    and the Part to say when none has one (what: the marked figures' name,
    lack: the figure said missing), else None; called by timers() and rx()."""
    phases = [(ph, f) for ph, pre in pairs for f in _figures(rows, i, pre)]
    used = [(ph, f) for ph, f in phases if f.value is not None]
    unused = _unused([f for _, f in phases])
    if used:
        return used, unused, None
    said = _marked(what, [f for _, f in phases])
    return used, unused, Part(said, [] if said else [lack], unused)


def timers(rows, i):
    """The S43 timer part (overshoot P99 idle and while sending); called by parts()."""
    used, unused, none = _phases(rows, i, (("idle", IDLE), ("sending", LOADED)), "timers",
                                 "timer")
    if none is not None:
        return none
    cites = ["S43 P99 %s us %s" % (fmt(f.value), ph) for ph, f in used] + unused
    late = [(ph, f) for ph, f in used if f.value > LATE_TIMER_US]
    if not late:
        which = "" if len(used) == 2 else (" idle" if used[0][0] == "idle" else
                                           " while it sends")
        return Part("timers on time" + which, cites=cites)
    when = "even idle" if late[0][0] == "idle" else "while it sends"
    return Part("timers late %s (P99 %s us)" % (when, fmt(late[0][1].value)), cites=cites)


def rx(rows, i):
    """The RX part (S32 loss with nothing to send, S33 while sending); called by parts()."""
    used, unused, none = _phases(rows, i, (("with nothing to send", RX_IDLE),
                                           ("while it sends", RX_LOADED)), "RX loss", "RX")
    if none is not None:
        return none
    cites = ["%s %s lost" % (f.sid, _pct(f.value)) for _, f in used] + unused
    if len(used) == 2 and all(f.value <= RX_LOST_PCT for _, f in used):
        return Part("no RX lost", cites=cites)
    said = ["no RX lost %s" % ctx if f.value <= RX_LOST_PCT else
            "%s of RX lost %s" % (_pct(f.value), ctx) for ctx, f in used]
    return Part(", ".join(said), cites=cites)


def parts(rows, i):
    """The Parts of column i's verdict, in the sentence's order; called by
    sentence() and the tests."""
    return [func(rows, i) for func in (rate_cpu, overlap, timers, rx)]


def _lacking(nouns):
    """The "no line-rate, CPU or RX figures" clause; called by sentence()."""
    if not nouns:
        return ""
    head = ", ".join(nouns[:-1]) + " or " + nouns[-1] if len(nouns) > 1 else nouns[0]
    return "no %s figures" % head


def sentence(rows, i):
    """Column i's verdict without its label: the claims, the figures the log
    lacks, then the figures cited in brackets; called by markdown_lines(),
    text_lines() and the tests."""
    got = parts(rows, i)
    said = [p.claim for p in got if p.claim] + [_lacking([n for p in got for n in p.lacks])]
    cites = [c for p in got for c in p.cites]
    text = ", ".join(s for s in said if s) or "no headline figures"
    return text + (" (%s)" % ", ".join(cites) if cites else "") + "."


def _check(rows, labels):
    """Raise ValueError unless every row has a cell per label; called by
    markdown_lines() and text_lines()."""
    for row in rows:
        if len(row.cells) != len(labels):
            raise ValueError("verdicts: %d labels, but the headline row %r has %d cells"
                             % (len(labels), row.label, len(row.cells)))


LEAD = "Verdicts (from the figures above; the thresholds: docs/report.md, \"Verdicts\"):"


def markdown_lines(rows, labels):
    """The verdicts as a Markdown list under LEAD, a blank line after;
    called by headline.section()."""
    _check(rows, labels)
    return [LEAD, ""] + ["- `%s`: %s" % (lb, sentence(rows, i))
                         for i, lb in enumerate(labels)] + [""]


def text_lines(rows, labels, width):
    """The verdicts for headline.txt, each wrapped to width columns (the
    column's number, its label, the sentence); called by headline_text.page()."""
    _check(rows, labels)
    out = []
    for i, lb in enumerate(labels):
        out += textwrap.wrap("[%d] %s: %s" % (i + 1, lb, sentence(rows, i)), width,
                             subsequent_indent="    ", break_long_words=True,
                             break_on_hyphens=False)
    return out
