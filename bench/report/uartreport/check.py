"""`report --check LOG...`: can the figures of each log be trusted?

check_log() runs every check of CHECKS on one parsed log. A check either
applies (and passes or fails with findings) or is not applicable, with the
reason (a StarryOS log has no payload witnesses; a log without cpu_hz= has
no CPU clock to check). Findings print one per line as
`<log>: <section> <key>: <what is wrong>`, notes as `<log>: note: ...`, and
each log ends with one verdict line. Called by cli.main() for --check.
"""

from dataclasses import dataclass, field
import sys

from . import (check_bounds, check_counters, check_figures, check_rx, check_sources,
               check_structure, check_values, parse, recompute)

# (name, function(ctx)): order of the verdict line.
CHECKS = (
    ("structure", check_structure.structure),
    ("done-counts-v2", check_structure.done_v2),
    ("quiet-line", check_structure.quiet_line),
    ("manifest", check_structure.manifest),
    ("counter-sources", check_sources.counter_sources),
    ("cpu-clock", check_structure.cpu_clock),
    ("records", check_structure.records),
    ("witnesses", check_figures.witnesses),
    ("samples", check_figures.samples),
    ("arithmetic", check_values.arithmetic),
    ("rx-stream", check_rx.rx_stream),
    ("counters", check_counters.counters),
    ("bounds", check_bounds.bounds),
)


@dataclass
class Finding:
    """One inconsistency: section (`-` when none), key, what is wrong."""

    section: str
    key: str
    what: str


@dataclass
class Result:
    """The outcome of every check on one log."""

    path: str
    flavor: str
    findings: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    outcome: dict = field(default_factory=dict)  # check -> (state, why); ok / failed / n/a
    sizes: str = ""

    def ok(self):
        """True when no check found anything."""
        return not self.findings


class Ctx:
    """What a check sees: the log, its Analysis, and where findings go."""

    def __init__(self, log, an, result):
        """Context of one log; `check` names the check being run."""
        self.log, self.an, self.result = log, an, result
        self.ours = log.flavor == "ours"
        self.check = ""
        self.na_why = None

    def fail(self, section, key, what):
        """Report one finding of the current check."""
        self.result.findings.append(Finding(section or "-", key, what))
        self.result.outcome[self.check] = ("failed", "")

    def note(self, text):
        """A remark that is not a failure (known defects, parts not applicable)."""
        self.result.notes.append(text)

    def na(self, why):
        """The current check does not apply to this log (why: the reason)."""
        self.na_why = why

    def status(self, sid):
        """The status of section sid (PASS, FAIL, ...), or None."""
        rec = self.log.statuses.get(sid)
        return rec.get("status") if rec is not None else None

    def flags(self, check):
        """Turn the Analysis' flags of one check (samples, arithmetic) into findings."""
        for flag in self.an.flags:
            if flag.check == check:
                self.fail(flag.section, flag.key, flag.what)


def check_log(log):
    """Run every check on a parsed log; returns its Result."""
    an = recompute.analyze(log)
    result = Result(path=log.path, flavor=log.flavor)
    ctx = Ctx(log, an, result)
    for name, func in CHECKS:
        ctx.check, ctx.na_why = name, None
        try:
            func(ctx)
        except Exception as exc:  # a checker bug is a failure, never a pass
            ctx.fail("-", name, "checker error: %r" % (exc,))
        if name not in result.outcome:
            result.outcome[name] = ("n/a", ctx.na_why) if ctx.na_why else ("ok", "")
    result.sizes = "%s, %d sections, %d witnesses, %d sample sets" % (
        log.flavor, len(log.sections), len(log.payloads), len(log.samples))
    return result


def verdict(result):
    """The one-line verdict of a Result (without the log path)."""
    done = [n for n, (st, _) in result.outcome.items() if st == "ok"]
    failed = [n for n, (st, _) in result.outcome.items() if st == "failed"]
    na = ["%s (%s)" % (n, why) for n, (st, why) in result.outcome.items() if st == "n/a"]
    parts = ["checked: " + (", ".join(done) or "nothing")]
    if na:
        parts.append("not applicable: " + "; ".join(na))
    if failed:
        head = "FAIL (%d finding%s in %s; %s" % (len(result.findings),
                                                 "" if len(result.findings) == 1 else "s",
                                                 ", ".join(failed), result.sizes)
    else:
        head = "ok (%s" % result.sizes
    return "%s; %s)" % (head, "; ".join(parts))


def main(paths, out=sys.stdout):
    """Check each log at paths, print findings, notes and verdicts; exit status."""
    bad = 0
    for path in paths:
        result = check_log(parse.parse_file(path))
        for f in result.findings:
            print("%s: %s %s: %s" % (path, f.section, f.key, f.what), file=out)
        for note in result.notes:
            print("%s: note: %s" % (path, note), file=out)
        print("%s: %s" % (path, verdict(result)), file=out)
        bad += not result.ok()
    return 1 if bad else 0
