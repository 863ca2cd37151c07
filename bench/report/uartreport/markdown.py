"""Markdown tables of rows (tables.Row): ratios inside the cells, equal rows
collapsed, identifier-like rows without ratios.

render() is called by report.py, headline.py and appendix.py; collapse() by
report.py and appendix.py; ratio_text() by headline.py.
"""

import re

# The last words of a row label that name an identifier, a setting or a count
# of errors rather than a measurement: their cells get no ratio (errno 11 is
# not 0.5 x errno 22).
IDENTIFIER = re.compile(
    r"(?:^|[\s_=(])(errno|fd|rc|status|result|reason|version|available|source|figures|"
    r"errors|timeouts|overruns?|dropped|lost|mismatched|framing|parity|breaks|spurious_irqs|"
    r"busy_detect|flushed|foreign_rx_bytes|n|round|rounds|valid_rounds|iters|size|"
    r"slack ns|per size|operating point|mode|backend|method|op)"
    r"(?:\s*\([^)]*\))?(?:\s+[^\w\s]+)?$")


def identifier(label):
    """True when a row (by its label) holds identifiers or error counts, not
    figures to divide; called by render() and headline.py."""
    return bool(IDENTIFIER.search(label.strip()))


def esc(text):
    """Escape a cell for a Markdown table; called by render() and the appendix."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def ratio_text(cell, base):
    """` (0.007x)`: cell / base, or "" when either is missing, not comparable
    (Cell.comparable) or base is 0; called by render() and headline.py."""
    if cell is base or cell.value is None or base is None or base.value in (None, 0) \
            or not (cell.comparable and base.comparable):
        return ""
    ratio = cell.value / base.value
    return " (%sx)" % ("%.0f" % ratio if abs(ratio) >= 1000 else "%.3g" % ratio)


def render(rows, labels, baseline=None, first="Metric", heads=None):
    """Render rows as a Markdown table, the ratio to column baseline (an index
    or None) inside each cell of the rows that are not identifier(); called by
    report.py, headline.py and appendix.py. heads: column headers (default labels)."""
    head = [first] + [heads[i] if heads else label for i, label in enumerate(labels)]
    if baseline is not None:
        head[baseline + 1] += " (baseline)" if not heads else "<br>(baseline)"
    out = ["| " + " | ".join(esc(h) for h in head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        base = row.cells[baseline] if baseline is not None and getattr(row, "ratio", True) \
            and not identifier(row.label) else None
        cells = [esc(row.label)] + [esc(cell.text + (ratio_text(cell, base) if cell.text else ""))
                                    for cell in row.cells]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def equal_everywhere(row):
    """True when every log has the same non-empty text in row; called by collapse()."""
    texts = {cell.text for cell in row.cells}
    return len(row.cells) > 1 and len(texts) == 1 and "" not in texts


def collapse(rows):
    """(rows that differ, one line naming the rows equal in every log, or "");
    called by report.py and appendix.py."""
    same = [r for r in rows if equal_everywhere(r)]
    if not same:
        return rows, ""
    line = "Equal in every log: " + "; ".join("%s **%s**" % (r.label, r.cells[0].text)
                                               for r in same) + "."
    return [r for r in rows if not equal_everywhere(r)], line


def single(rows):
    """(rows with two or more filled cells, rows with one); with one log every
    row is kept; called by appendix.py."""
    if rows and len(rows[0].cells) < 2:
        return rows, []
    many = [r for r in rows if sum(1 for c in r.cells if c.text) > 1]
    return many, [r for r in rows if sum(1 for c in r.cells if c.text) == 1]
