"""report --json FILE: the report's figures as JSON, for a pipeline that
tracks a design over time (as `hyperfine --export-json` or `perf stat -j`).

document() builds the object from the tables report.build() collected
(tables.Table): every figure of the headline, of the detail tables and of
the appendix's tables of records, with its table, row, column, value, unit
(units.py), section, source record and key, and marks; each log's settings;
the baseline. write() writes it; why() says why it could not. Called by
cli.py. The schema, and when FORMAT_VERSION changes: docs/report.md.
"""

import json
import math
import os
import re
import tempfile

from . import report, runs, series, units
from .settings import FIELDS, of as settings_of
from .analysis import DISAGREE, NOT_RECOMPUTABLE, P99_IS_MAX

FORMAT = "uartbench-report"
FORMAT_VERSION = 1
# The marks a cell or row carries (the report's legend), in this order in "marks".
MARKS = (runs.DIFFERS, DISAGREE, P99_IS_MAX, NOT_RECOMPUTABLE, runs.INVALID, runs.NO_LINE)
SID_RE = re.compile(r"^(S\d\d)\b")


def split_marks(text):
    """(text without its trailing marks, [marks]): the marks the report
    appends to a cell or a row label, one word of mark characters each;
    called by figures()."""
    words, got = text.split(" "), []
    while len(words) > 1 and words[-1] and set(words[-1]) <= set(MARKS):
        got = list(words.pop()) + got
    return " ".join(words), got


def settings(an, label, role):
    """A log's settings: what it is and the operating point it ran at, as
    the legend states them (settings.of(): read from the manifest, or from a
    foreign log's lines), and the manifest's own keys; role `column` (a
    column of the report) or `rx-point` (a --rx-point log); called by
    document()."""
    man, got = an.log.manifest, settings_of(an.log)
    said = {f.lower().replace(" ", "_"): got[f].text for f in FIELDS}
    return dict({"label": label, "role": role, "file": an.log.path,
                 "merged": [path for path, _ in an.log.merged], "flavor": an.log.flavor,
                 "version": man.get("version"), "backend": man.get("backend"),
                 "os": man.get("os"), "cpu_hz": series.uint(man.get("cpu_hz") or "") or None,
                 "cpu_hz_source": man.get("cpu_hz_source"), "qemu_mode": man.get("qemu_mode"),
                 "wire_model": man.get("wire_model"), "bench_scale": man.get("bench_scale"),
                 "baud": an.baud, "char_ms": an.char_ms,
                 "parse_warnings": len(an.log.warnings), "flags": [str(f) for f in an.flags]},
                **said)


def figures(table, index):
    """The figures of one tables.Table: every cell with text and a finite
    number; index: {id(analysis): its place in the logs list}; called by
    document()."""
    out = []
    for row in table.rows:
        label, row_marks = split_marks(row.label)
        sid = SID_RE.match(label)
        for an, column, cell in zip(table.ans, table.labels, row.cells):
            if not cell.text or cell.value is None or not math.isfinite(cell.value):
                continue
            marks = row_marks + split_marks(cell.text)[1]
            record, key = cell.src or (None, None)
            out.append({"table": table.title, "row": label, "column": column,
                        "log": index[id(an)], "section": sid.group(1) if sid else None,
                        "value": cell.value, "unit": units.unit(label), "text": cell.text,
                        "record": record, "key": key,
                        "marks": [m for m in MARKS if m in marks]})
    return out


def document(shown, ans, labels, baseline=None):
    """The JSON object of a report: shown (tables.Table, as report.build()
    filled it), the report's analyses and labels, its --baseline column
    (None: the report's default); called by cli.py."""
    if baseline is None:
        baseline = report.default_baseline(ans)
    logs = [settings(an, lb, "column") for an, lb in zip(ans, labels)]
    index = {id(an): i for i, an in enumerate(ans)}
    for table in shown:
        for an, label in zip(table.ans, table.labels):
            if id(an) not in index:
                index[id(an)] = len(logs)
                logs.append(settings(an, label, "rx-point"))
    return {"format": FORMAT, "format_version": FORMAT_VERSION,
            "baseline": labels[baseline] if baseline is not None else None,
            "logs": logs,
            "tables": [{"title": t.title, "columns": list(t.labels),
                        "logs": [index[id(an)] for an in t.ans],
                        "baseline": t.labels[t.baseline] if t.baseline is not None else None}
                       for t in shown],
            "figures": [f for t in shown for f in figures(t, index)]}


def write(path, doc):
    """Write doc to path as UTF-8 JSON through a temporary file in the same
    directory, so that a reader never sees half a file and a failed write
    leaves an older file whole; raises OSError; called by cli.py."""
    fd, tmp = tempfile.mkstemp(prefix=".report-json-", dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1, ensure_ascii=False, allow_nan=False)
            fh.write("\n")
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as open() would have made it
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def why(path, exc):
    """Why path could not be written, in words (exc: the OSError write()
    raised); called by cli.py."""
    parent = os.path.dirname(path) or "."
    if os.path.isdir(path):
        return "is a directory"
    if not os.path.exists(parent):
        return "directory %s does not exist" % parent
    if not os.path.isdir(parent):
        return "%s is not a directory" % parent
    if not os.access(parent, os.W_OK | os.X_OK):
        return "directory %s is not writable" % parent
    return exc.strerror or str(exc)
