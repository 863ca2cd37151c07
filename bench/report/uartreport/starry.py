"""Log flavour (ours or StarryOS), labels, baud, StarryOS boot figures and
the settings its boot lines state in words (settings.py reads them).

Called by parse.py after a file is read (classify) and for every line before
the first section header (boot_line).
"""

import re

from . import lexer

BENCH_RE = re.compile(r"\[BENCH\]\s*(.*)$")
FIGURE_RE = re.compile(r"^([A-Za-z][A-Za-z /-]*?):\s*(-?[0-9][0-9.]*)\s*([A-Za-z/]*)")
PAREN_RE = re.compile(r"\((\d+) bytes in ([0-9.]+) ms\)")
LATENCY_RE = re.compile(r"RX latency \(n=(\d+)\):(.*)$")
PAIR_RE = re.compile(r"([A-Za-z0-9]+)=(-?[0-9][0-9.]*)(ns|us|ms)?")
# Settings a StarryOS log states in words before its first section:
# (name, regex, group): the driver ("[kernel] Async UART driver initialized"),
# the benchmark's banner ("UART Async Benchmark", "Console Benchmark") and
# the line's baud ("[BENCH] Hardware line rate: 11.52 KB/s (115200 bps)").
STATED = (("driver", re.compile(r"\b([A-Za-z]+) UART driver initiali[sz]ed\b"), 1),
          ("banner", re.compile(r"^\s*(?:UART )?([A-Za-z]+) Benchmark\s*$"), 1),
          ("baud", re.compile(r"^\[BENCH\] Hardware line rate:.*\((\d+) bps\)"), 1))

QEMU_BAUD = 115200.0
D1_BAUD = 24000000.0 / (16 * 13)  # UART clock 24 MHz, divisor 13: 115384.6


def _slug(text):
    """Lower-case text with runs of non-alphanumerics turned into '_'."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def boot_line(log, number, text):
    """Pick StarryOS startup figures, settings stated in words (log.stated:
    name -> (value, the line)) and key=value tokens out of a boot line."""
    for name, regex, group in STATED:
        said = regex.search(text)
        if said:
            log.stated.setdefault(name, (said.group(group), text.strip()))
    m = BENCH_RE.search(text)
    if m:
        _bench_figure(log, m.group(1).strip())
        return
    for tok in text.split():
        if lexer.is_kv(tok) and not lexer.has_bad_chars(tok):
            key, _, value = tok.partition("=")
            log.boot_noise.setdefault(key, value)


def _bench_figure(log, body):
    """Store one `[BENCH] Label: number unit (...)` figure in log.boot."""
    lat = LATENCY_RE.search(body)
    if lat:
        log.boot["rx_latency_n"] = lat.group(1)
        for name, value, unit in PAIR_RE.findall(lat.group(2)):
            log.boot["rx_latency_%s_%s" % (name.lower(), unit or "ns")] = value
        return
    fig = FIGURE_RE.match(body)
    if not fig:
        return
    label, value, unit = fig.groups()
    key = _slug(label)
    unit_key = {"KB/s": "kb_s", "bytes": "bytes", "IRQ/s": "irq_s", "KB": "kb"}.get(unit)
    if unit_key:
        key += "_" + unit_key
    log.boot.setdefault(key, value)
    paren = PAREN_RE.search(body)
    if paren:
        base = _slug(label)
        log.boot.setdefault(base + "_bytes", paren.group(1))
        log.boot.setdefault(base + "_ms", paren.group(2))


def classify(log):
    """Set log.flavor and log.label from the manifest and boot lines."""
    man = log.manifest
    if "board" in man:
        log.flavor = "ours"
    elif ("target_mode" in man or log.boot or man.get("version", "").startswith("q")
          or "uart_line_rate" in man):
        log.flavor = "starryos"
    else:
        log.flavor = "unknown"
    log.label = default_label(log)


def default_label(log):
    """Label from the manifest: board/backend/wire-model (a Linux run:
    board/backend/line-<pty|serial>), or starryos-<target>."""
    man = log.manifest
    if log.flavor == "ours":
        parts = [man.get("board", "?"), man.get("backend", "?")]
        if man.get("os") == "linux":
            parts.append("line-" + man.get("line", "?"))
        elif man.get("line") == "device":
            parts.append("line-" + man.get("line_point", "?"))
        elif man.get("wire_model"):
            parts.append("wire-" + man["wire_model"])
        return "/".join(parts)
    if log.flavor == "starryos":
        target = man.get("target_mode") or log.boot_noise.get("target_mode") or "unknown"
        label = "starryos-" + target
        backend = man.get("backend", "")
        if backend and backend not in target:
            label += "-" + backend
        return label
    return ""


def baud(log):
    """Return (baud_real, explanation) used for line rate and character times."""
    man = log.manifest
    line = _positive(man.get("line_baud_milli"))
    if line:
        return (line / 1000.0, "manifest line_baud_milli=%s (the line the sections used)"
                % man["line_baud_milli"])
    for key in ("baud_real", "baud"):
        value = _positive(man.get(key))
        if value:
            return (value, "manifest %s=%s" % (key, man[key]))
    if log.flavor == "starryos" or "target_mode" in man:
        if log.is_d1() or "d1" in log.boot_noise.get("target_mode", ""):
            return (D1_BAUD, "D1 target: 24 MHz / (16 x 13) = 115384.6 baud")
        return (QEMU_BAUD, "QEMU target: 115200 baud")
    return (QEMU_BAUD, "no baud in the log: 115200 assumed")


def _positive(text):
    """Return text as a positive float, else None."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if value > 0 else None
