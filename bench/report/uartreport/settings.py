"""What each log ran at: board, design, CPU clock, icount shift, line, scale
and the RX side of the line (RX trigger, peer).

Our logs' manifests say it (docs/log-format.md); a StarryOS log's is
derived from what its manifest and lines establish: its target (the D1
board or QEMU), its driver (the boot line or the benchmark's banner), the
line (the D1's UART at the baud its [BENCH] line or uart_line_rate
states; QEMU's UART, which sends at once), and the scale from its
iteration counts. "not stated" only where neither says it. of() gives
every field; header() a column's short header; legend() a line per log
with its full settings. Called by runs.py (comparison marks, Runs table),
headline.py, report.py and tables_rx.py.
"""

from dataclasses import dataclass

from . import series, starry
from .model import num

FIELDS = ("board", "design", "CPU clock", "icount shift", "line", "scale", "rx trigger", "peer")
NOT_STATED = "not stated"
# Our scales' iteration counts (bench/runner.c, printed after bench_scale=):
# TX iterations per size, S41/S42 rounds, S43 groups and samples per group.
SCALES = (("full", {"iters": 100, "rounds": 5, "s43_groups": 5, "s43_samples": 50}),
          ("quick", {"iters": 10, "rounds": 2, "s43_groups": 1, "s43_samples": 10}))
# Boards whose timebase a build can set (TIMEBASE_HZ), and theirs by default.
BOARD_TIMEBASE = {"qemu-virt": 10000000, "qemu-virt-m": 10000000}
COUNT_NAMES = {"iters": "iters %s", "rounds": "rounds %s", "s43_groups": "S43 groups %s",
               "s43_samples": "S43 samples %s"}


@dataclass
class Value:
    """One setting of a log: its full text (legend, notes, Runs table), its
    short form (column header) and the key logs are compared by (None: not
    known, equal to nothing)."""

    text: str
    short: str
    key: str | None


def _said(text, short=None, key=None):
    """A known Value (key: the text unless given); called by the readers below."""
    return Value(text, text if short is None else short, text if key is None else key)


def _unknown(text=NOT_STATED, short=None):
    """A Value nothing equals; called by the readers below."""
    return Value(text, text if short is None else short, None)


def hz_text(hz):
    """A clock in Hz as MHz or GHz, 3 significant digits; called by _cpu() and sweep.py."""
    return "%.3g GHz" % (hz / 1e9) if hz >= 1e9 else "%.3g MHz" % (hz / 1e6)


def _board(log):
    """The board: the manifest's (with its timebase where an image was built
    for another than the board's: TIMEBASE_HZ), or a StarryOS target's (the
    D1 or QEMU)."""
    man = log.manifest
    if man.get("board"):
        if man.get("os") == "linux":
            return _said("%s (Linux %s)" % (man["board"], man.get("kernel_release", "?")),
                         man["board"], man["board"])
        tb = series.uint(man.get("timebase_hz", ""))
        if man["board"] in BOARD_TIMEBASE and tb and tb != BOARD_TIMEBASE[man["board"]]:
            return _said("%s (timebase %s)" % (man["board"], hz_text(tb)),
                         "%s@%s" % (man["board"], hz_text(tb).replace(" ", "")))
        return _said(man["board"])
    target = man.get("target_mode") or log.boot_noise.get("target_mode")
    if log.flavor != "starryos" or not target:
        return _unknown()
    if log.is_d1() or "d1" in target.lower().split("-"):
        return _said("d1 (target_mode=%s)" % target, "d1", "d1")
    if target.lower().startswith("qemu"):
        return _said("qemu (target_mode=%s, machine not stated)" % target, "qemu", "qemu")
    return _unknown()


def _design(log):
    """The driver design: the manifest's backend, else a StarryOS log's
    driver line or benchmark banner."""
    if log.manifest.get("backend"):
        return _said(log.manifest["backend"])
    for name in ("driver", "banner"):
        if name in log.stated:
            word, line = log.stated[name]
            return _said("%s (from `%s`)" % (word.lower(), line), word.lower(), word.lower())
    return _unknown()


def _cpu(log):
    """The CPU clock from cpu_hz (0: the log says it does not know)."""
    man = log.manifest
    if "cpu_hz" not in man:
        return _unknown()
    hz = series.uint(man["cpu_hz"])
    source = man.get("cpu_hz_source")
    if not hz:
        return _unknown("unknown (cpu_hz=%s%s)" % (man["cpu_hz"], ", source " + source
                                                    if source else ""), "unknown")
    return Value(hz_text(hz) + (" (%s)" % source if source else ""), hz_text(hz), str(hz))


def _hardware(log):
    """True on a board (ours on the D1, StarryOS's D1 target); called below."""
    return log.is_d1() or _board(log).key == "d1"


def _shift(log):
    """The icount shift: the manifest's, none on a board or in realtime mode."""
    man = log.manifest
    shift = man.get("icount_shift")
    realtime = man.get("qemu_mode") == "realtime"
    if shift is None and not (realtime or _hardware(log)):
        return _unknown()
    if shift not in (None, "none"):
        return _said(shift)
    why = " (hardware)" if _hardware(log) else " (realtime)" if realtime else ""
    return _said("none" + why)


def _serial(log):
    """A board's line at the baud the log states: ours `baud=` (baud_real
    beside it when it differs), a StarryOS log's `(N bps)` boot line or
    uart_line_rate (KB/s of 1000 bytes, 10 bits a byte)."""
    man = log.manifest
    baud = series.uint(man.get("baud") or "")
    how = ""
    if not baud and "baud" in log.stated:
        baud, how = int(log.stated["baud"][0]), "`%s`" % log.stated["baud"][1]
    rate = (man.get("uart_line_rate") or "").split()
    if not baud and len(rate) == 2 and rate[1] == "KB/s" and num(rate[0]):
        baud, how = round(num(rate[0]) * 10000), "uart_line_rate=%s" % man["uart_line_rate"]
    if not baud:
        return _said("serial, baud " + NOT_STATED, "serial", "serial")
    real = man.get("baud_real") if num(man.get("baud_real")) != baud else None
    if not man.get("baud_real") and log.flavor == "starryos" and _hardware(log):
        real = "%.1f" % starry.D1_BAUD
        how += (", " if how else "") + "the D1's 24 MHz / (16 x 13)"
    extra = [x for x in ("%s real" % real if real else "", how) if x]
    text = "serial %d baud%s" % (baud, " (%s)" % "; ".join(extra) if extra else "")
    return _said(text, "serial %d" % baud, "serial %d" % baud)


def _line(log):
    """The line the UART sends on: the wire model's, the emulator's (device),
    QEMU's instant UART, a board's serial line, a pty."""
    man = log.manifest
    kind, wire = man.get("line"), man.get("wire_model")
    if kind == "device":
        point = man.get("line_point", "?")
        return _said("device %s (bus %s ns)" % (point, man.get("line_bus_ns", "?")),
                     "device " + point)
    if wire and wire != "off":
        clock = man.get("wire_clock")
        text = "model %s%s" % (wire, " (%s clock)" % clock.split()[0] if clock and clock.split()
                               else "")
        return _said(text, "model " + wire)
    board = _board(log).key or ""
    if kind is None and (wire == "off" or log.flavor == "starryos"):
        kind = "serial" if _hardware(log) else "instant" if board.startswith("qemu") else None
    if kind == "instant":
        rates = [r.num("line_rate_pct") for r in log.records("S10", kind="policy")]
        top = max((r for r in rates if r is not None), default=None)
        seen = "; S10 up to %.0f %% of the line" % top if top and top > 100 else ""
        return _said("instant (QEMU's UART sends at once%s)" % seen, "instant", "instant")
    if kind == "serial":
        return _serial(log)
    if kind == "pty":
        return _said("pty (the tty layer takes the bytes at once)", "pty", "pty")
    return _said(kind) if kind else _unknown()


def counts(log):
    """{name of COUNT_NAMES: int} the log states: the manifest's (ours:
    iters=, rounds=, s43_groups=, s43_samples=; StarryOS: its _iters, "a/b"
    when they disagree), else the lines' (S41 rounds, S42 sample_rounds, S43
    groups= samples=)."""
    man = log.manifest
    got = {k: series.uint(man.get(k) or "") for k in COUNT_NAMES}
    iters = sorted({series.uint(v) or 0 for k, v in man.items() if k.endswith("_iters")})
    if not got["iters"] and iters:
        got["iters"] = iters[0] if len(iters) == 1 else "/".join(map(str, iters))
    rounds = [series.uint(r.get("round") or "") or 0
              for r in log.records("S41", kind="diag", tag="s41-valid")]
    sample = [series.uint(r.get("sample_rounds") or "") for r in log.records("S42", kind="overlap")]
    got["rounds"] = got["rounds"] or (max(rounds) if rounds else None) or next(
        (s for s in sample if s), None)
    phase = log.records("S43", kind="s43-phase", tag="idle")
    if phase:
        got["s43_groups"] = got["s43_groups"] or series.uint(phase[0].get("groups") or "")
        got["s43_samples"] = got["s43_samples"] or series.uint(phase[0].get("samples") or "")
    return {k: v for k, v in got.items() if v}


def scale_of(got):
    """The name of our scale (SCALES) whose counts every count in got matches, or None."""
    return next((name for name, want in SCALES
                 if got and all(want[k] == v for k, v in got.items())), None)


def _scale(log):
    """The bench scale: bench_scale=, else the one the iteration counts match."""
    name = log.manifest.get("bench_scale")
    if name:
        said = ", ".join(COUNT_NAMES[k] % log.manifest[k] for k in COUNT_NAMES
                         if k in log.manifest)
        return _said("%s%s" % (name, " (%s)" % said if said else ""), name, name)
    got = counts(log)
    said = ", ".join(COUNT_NAMES[k] % v for k, v in got.items())
    if not got:
        return _unknown()
    name = scale_of(got)
    if name:
        return _said("%s (%s: our %s scale's counts)" % (name, said, name), name, name)
    return _said("own (%s)" % said, "own scale")


def _rx(log, key):
    """wire_rx_trigger or peer: the manifest's; none on a line without a far
    end (no wire model, not the emulator's line) in our logs."""
    man = log.manifest
    if man.get(key):
        return _said(man[key])
    if log.flavor != "starryos" and man.get("wire_model") == "off" and man.get("line") != "device":
        return _said("none")
    return _unknown()


def of(log):
    """{field of FIELDS: Value} of one log."""
    return {"board": _board(log), "design": _design(log), "CPU clock": _cpu(log),
            "icount shift": _shift(log), "line": _line(log), "scale": _scale(log),
            "rx trigger": _rx(log, "wire_rx_trigger"), "peer": _rx(log, "peer")}


def header(label, log):
    """A column header: the label, then board, design, CPU clock and line in
    short form (the legend has the rest); called by report.py and headline.py."""
    got = of(log)
    return "%s<br>%s" % (label, short(got))


def short(got):
    """board, design, CPU clock and line of of()'s got, in short form; called
    by header() and headline_text (via report.py)."""
    return "%s, %s, CPU %s, %s" % (got["board"].short, got["design"].short,
                                   got["CPU clock"].short, got["line"].short)


def legend_line(label, log):
    """`label`: every setting of the log in full; called by legend()."""
    got, man = of(log), log.manifest
    parts = ["%s %s" % (f, got[f].text) for f in FIELDS[:6]]
    if "wire_rx_trigger" in man or "peer" in man:
        parts.append("rx trigger %s, peer %s" % (got["rx trigger"].text, got["peer"].text))
    return "`%s`: %s." % (label, "; ".join(parts))


def legend(ans, labels):
    """The legend under a table: a line per log with its settings; called by
    headline.py and report.py."""
    return ["Settings of each column (the headers give board, design, CPU clock and line):",
            ""] + ["- " + legend_line(lb, an.log) for an, lb in zip(ans, labels)] + [""]
