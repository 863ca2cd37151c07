"""report.md read back, for test_json.py: every table's cells by table title,
row label and column, with the rows the report moved under a table
(`Equal in every log: ...`, `Only `label` prints: ...`); the figure a cell
prints and whether a printed number agrees with a value."""

import re

MARKS = "◇!†‡§≁"  # the report's legend
NUMBER = r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?"
NUMBER_RE = re.compile("^%s$" % NUMBER)
# the first number of a cell that is not part of a word or of key=value
FIGURE_RE = re.compile(r"(?<![=\w.-])(%s)(?![\w.])" % NUMBER)
ITEM_RE = re.compile(r"(?:^|; )(.+?) \*\*(.*?)\*\*")
RATIO_RE = r" \(\S+x\)"


def _cells(line):
    """The cells of one Markdown table line, `\\|` unescaped."""
    inner = line.strip()[1:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def split_marks(text):
    """(text without its trailing marks, set of marks): the report appends
    each mark (or a run of them) as a word of its own."""
    words, got = text.split(" "), set()
    while len(words) > 1 and words[-1] and set(words[-1]) <= set(MARKS):
        got |= set(words.pop())
    return " ".join(words), got


def read(text):
    """{title: {"head": header cells or None, "cells": {(row, column): text},
    "marked": {row: True when its label carries ◇}}}; row without its marks;
    column: the 0-based log column, the log's label on an `Only ... prints`
    row, None on an `Equal in every log` row (every column)."""
    tables, title, lines = {}, None, text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(("## ", "### ")):
            title = line.split(" ", 1)[1]
            continue
        if title is None:
            continue
        table = tables.setdefault(title, {"head": None, "cells": {}, "marked": {}})
        if line.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            table["head"] = _cells(line)
        elif line.startswith("| ") and table["head"] is not None:
            cells = _cells(line)
            row, marks = split_marks(cells[0])
            table["marked"][row] = "◇" in marks
            for col, cell in enumerate(cells[1:]):
                table["cells"][(row, col)] = cell
        elif line.startswith(("Equal in every log: ", "Only `")):
            col = line.split("`")[1] if line.startswith("Only `") else None
            body = line.split(": ", 1)[1].rstrip(".")
            for m in ITEM_RE.finditer(body):
                row, marks = split_marks(m.group(1))
                table["marked"][row] = "◇" in marks
                table["cells"][(row, col)] = m.group(2)
    return {t: v for t, v in tables.items() if v["cells"]}


def cell(table, row, col, label):
    """The text report.md shows in row for column col (its log's label), or None."""
    for key in ((row, col), (row, label), (row, None)):
        if key in table["cells"]:
            return table["cells"][key]
    return None


def numeric(text):
    """True when a cell's text begins with a number (a figure)."""
    return bool(NUMBER_RE.match(text.split(" ")[0]))


def figure(text):
    """The first number a cell prints as a figure (not in key=value), or None."""
    m = FIGURE_RE.search(text)
    return m.group(1) if m else None


def agrees(printed, value):
    """True when value rounds to printed: within half a unit of its last digit."""
    mant, _, exp = printed.lower().partition("e")
    places = len(mant.split(".")[1]) if "." in mant else 0
    tol = 0.5 * 10 ** (int(exp or 0) - places)
    return abs(float(printed) - value) <= tol * (1 + 1e-9) + 1e-12 * abs(value)


def without_ratio(md, text):
    """md (a cell of report.md) without the ratio the report adds after text,
    or None when md is neither text nor text and a ratio."""
    if md == text or re.fullmatch(re.escape(text) + RATIO_RE, md):
        return text
    return None
