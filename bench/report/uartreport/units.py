"""The unit of a report figure, from the label of its row (report --json).

unit(label) is the one place that says what a table row's numbers are in:
the first rule whose pattern the label holds wins. A row of the appendix's
raw records (`S40 counter=irq tx_irqs`) is named after its key, and gets a
unit only where the key's ending names one (`_ns`, `_bytes`, ...); counts,
identifiers and keys that name none get None. Called by json_out.py.
"""

import re

# (pattern searched in the label, unit); the first that matches wins
RULES = (
    (r"%", "%"),     # line rate %, CPU use %, loss %; the headline's `(% of the line, ...)`
    (r"character times", "character times"),
    (r"P99/P50|overlap efficiency|printed median|(?:^|[ _])(?:ratio|\w+_over_\w+)$", "ratio"),
    (r"instructions/byte|instructions per (?:received )?byte", "instructions/byte"),
    (r"cycles/byte", "cycles/byte"),
    (r"irqs per byte", "irqs/byte"),
    (r"bytes/s", "bytes/s"),
    (r"write\+drain instructions", "instructions"),
    (r"received of sent|lost \(overrun\)|dropped \(RX ring full\)", "bytes"),
    (r"(?:^|[ _(])ms(?:$|[ )])", "ms"),
    (r"(?:^|[ _(])us(?:$|[ )])", "us"),
    (r"(?:^|[ _(])ns(?:$|[ )])", "ns"),
    (r"^S\d\d$", "ms"),     # the section status table: the section's elapsed_ms
    (r" rounds$", "rounds"),
    (r" iters$", "iterations"),
    (r"(?:^|[ _])(?:instret|instructions)$", "instructions"),
    (r"(?:^|[ _])cycles$", "cycles"),
    (r"(?:^|[ _])bytes$", "bytes"),
    (r"(?:^|[ _])irqs$", "irqs"),
)
COMPILED = tuple((re.compile(pattern), unit) for pattern, unit in RULES)


def unit(label):
    """The unit of the figures of the row labelled label (its marks left
    out), or None when the label names none; called by json_out.py."""
    return next((u for pattern, u in COMPILED if pattern.search(label)), None)
