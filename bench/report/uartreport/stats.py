"""Small statistics helpers shared by recompute.py and plots.py."""

import math


def nearest_rank(sorted_values, p):
    """Nearest-rank percentile: the value at rank ceil(p*n/100) (1-based).

    sorted_values must be sorted ascending; p is a number in (0, 100].
    Returns None for an empty list.
    """
    n = len(sorted_values)
    if n == 0:
        return None
    rank = math.ceil(round(p * n / 100.0, 9))
    rank = min(max(rank, 1), n)
    return sorted_values[rank - 1]


def median(values):
    """Median (mean of the two middle values for an even count), None if empty."""
    vals = sorted(values)
    n = len(vals)
    if n == 0:
        return None
    mid = n // 2
    if n % 2:
        return vals[mid]
    return (vals[mid - 1] + vals[mid]) / 2.0


def summary(values):
    """Return dict n, min, avg, p50, p95, p99, max of values (None if empty)."""
    vals = sorted(values)
    if not vals:
        return None
    return {
        "n": len(vals),
        "min": vals[0],
        "avg": sum(vals) / len(vals),
        "p50": nearest_rank(vals, 50),
        "p95": nearest_rank(vals, 95),
        "p99": nearest_rank(vals, 99),
        "max": vals[-1],
    }


def print_tolerance(text):
    """One unit in the last printed digit of text ("0.190" -> 0.001, "12" -> 1).

    A printed figure agrees with a recomputed one when they differ by at most
    this much: it covers both rounding and truncation when printing.
    """
    text = text.strip().lstrip("+-")
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    try:
        exp = int(exponent) if exponent else 0
    except ValueError:
        exp = 0
    try:
        return 10.0 ** (exp - decimals)
    except OverflowError:  # an exponent beyond the float range: no usable tolerance
        return math.inf


def agrees(printed_text, value, slack=0.0):
    """True when value matches the printed text within print_tolerance (+ slack).

    slack: what the inputs of value may be off by (their own printed digits).
    """
    try:
        printed = float(printed_text)
    except (TypeError, ValueError):
        return False
    tol = print_tolerance(printed_text)
    if not (math.isfinite(printed) and math.isfinite(tol)):
        return False  # "1e999", "0e999": nothing to compare with
    return abs(printed - value) <= (tol + slack) * (1 + 1e-9) + 1e-12 * abs(value)
