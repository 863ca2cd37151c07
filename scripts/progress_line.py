"""One line per section of a run's log as it grows (scripts/qemu-run
--progress): the section, its status, its time and its key figure, while
the raw log goes to its file complete. The key figures are the records a
reader checks first (docs/log-format.md): the last value of the key in
the section, e.g. S10's line rate at its largest write."""
import re

# section -> [(label, record prefix, key, unit)], the last record that has it.
KEY_FIGURES = {
    "S00": [("", "board=", "board", ""), ("", "backend=", "backend", ""),
            ("line", "line=", "line", ""), ("", "line=", "line_point", "")],
    "S05": [("ring over memcpy", "diag=s05-ring", "ring_over_memcpy", "")],
    "S06": [("context switch", "diag=s06-ctx-switch", "instret_per_switch", " insns"),
            ("wake to run", "diag=s06-wake-to-run", "p50_instret", " insns")],
    "S10": [("line rate", "policy=drain-each", "line_rate_pct", " %")],
    "S11": [("enqueue time at the largest size", "policy=no-drain", "enqueue_ms", " ms")],
    "S12": [("line rate", "policy=batch-drain", "line_rate_pct", " %")],
    "S13": [("line rate", "policy=writev", "line_rate_pct", " %")],
    "S14": [("line rate", "policy=drain-each", "line_rate_pct", " %")],
    "S20": [("1 B write + drain P50", "diag=s20-single-byte ", "p50_ns", " ns"),
            ("", "diag=s20-single-byte-insns", "p50_instructions", " insns")],
    "S21": [("largest write's P50", "diag=s21-fifo-size-", "p50_ms", " ms")],
    "S31": [("received", "status=", "received", " B")],
    "S32": [("received", "diag=s32-rx", "received", ""), ("of", "diag=s32-rx", "sent", ""),
            ("CPU", "diag=s32-cpu", "cpu_pct", " %")],
    "S33": [("received", "diag=s33-rx", "received", ""), ("of", "diag=s33-rx", "sent", "")],
    "S40": [("max chunk", "counter=", "hw_send_max_chunk", " B")],
    "S41": [("instructions per byte", "diag=s41-summary", "median_instructions_per_byte", ""),
            ("CPU", "diag=s41-summary", "median_cpu_util_pct", " %")],
    "S42": [("overlap efficiency", "diag=s42-summary", "median_overlap_efficiency", "")],
    "S43": [("idle overshoot P50", "s43-idle-group-summary", "p50_ns", " ns")],
}
SECTION_RE = re.compile(r"^\s*section=(S\d\d) status=(\S+)(?: reason=(\S+))?.*?"
                        r"elapsed_ms=([0-9.]+)")
HEADER_RE = re.compile(r"^=== \[(S\d\d)\] (.*?) ===")


class Progress:
    """Reads a log line by line; line() returns what to print, or None."""

    def __init__(self):
        self.sid, self.title, self.found = None, "", {}

    def figure(self):
        """The current section's key figures, as text."""
        out = []
        for label, prefix, key, unit in KEY_FIGURES.get(self.sid, []):
            v = self.found.get((prefix, key))
            if v is not None and label == "of" and out:
                out[-1] += f" of {v}{unit}"
            elif v is not None:
                out.append(f"{label} {v}{unit}".strip())
        return ", ".join(out)

    def line(self, text):
        """One log line in; a progress line out (a section's end, a panic,
        the run's end), or None."""
        text = text.rstrip("\r\n")
        m = HEADER_RE.match(text)
        if m:
            self.sid, self.title, self.found = m.group(1), m.group(2), {}
            return None
        m = SECTION_RE.match(text)
        if m:
            sid, status, reason, ms = m.groups()
            self.sid = sid
            what = reason if reason else self.figure()
            return f"{sid} {status:<8} {float(ms) / 1000:7.1f} s  {what}".rstrip()
        if text.startswith(("PANIC", "Done. ", "bad boot argument")):
            return text
        stripped = text.strip()
        for prefix, key in [(p, k) for _, p, k, _ in KEY_FIGURES.get(self.sid, [])]:
            if stripped.startswith(prefix):
                m = re.search(r"(?:^|\s)%s=(\S+)" % re.escape(key), stripped)
                if m:
                    self.found[(prefix, key)] = m.group(1)
        return None
