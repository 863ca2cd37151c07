"""Tolerant parser: one log file in, one model.Log out, never an exception.

Grammar: see docs/log-format.md. Lines before the first section header are
boot noise (StarryOS [BENCH] startup figures are picked out of it); lines
after "Done." are trailer noise.
"""

import os
import re

from . import lexer, series, starry
from .model import Log, Payload, Record, Section

DONE_RE = re.compile(r"^\s*Done\.(.*)$")
RECORD_START_RE = re.compile(r"^\s+[A-Za-z0-9_][A-Za-z0-9_.\-/]*(?:\[[0-9]+\])?=")
END_MARK = b"payload-end="
NEXT_LINE = -1  # payload_from: the payload starts at the next line


def parse_file(path):
    """Parse the log at path; unreadable files give an empty Log with a warning."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        log = Log(path=path)
        log.warn(0, "cannot read file: %s" % exc.strerror)
        log.label = os.path.basename(path)
        return log
    return parse_bytes(data, path)


def parse_bytes(data, path="<log>"):
    """Parse raw log bytes; returns a Log (see model.Log)."""
    log = Log(path=path)
    try:
        _Parser(log).run(data)
    except Exception as exc:  # a parser bug must not lose the whole report
        log.internal(0, "internal parser error, log partly parsed", exc)
    try:
        starry.classify(log)
    except Exception as exc:
        log.internal(0, "cannot classify log", exc)
    if not log.label:
        log.label = os.path.basename(path)
    return log


class _Parser:
    """Line-by-line state machine filling one Log."""

    def __init__(self, log):
        """Start outside any section, before the Done line."""
        self.log = log
        self.section = None
        self.after_done = False
        self.pending_payload = None  # open payload witness (begin seen, no end yet)
        self.payload_from = None  # offset in data where the open payload's bytes start
        self.data = b""

    def run(self, data):
        """Parse all lines of data."""
        if not data:
            self.log.warn(0, "empty file")
            return
        lines = lexer.split_lines(data)
        self.log.lines = len(lines)
        self.data = data
        for number, (raw, had_eol, start) in enumerate(lines, start=1):
            if not had_eol and raw.strip() and not self.after_done:
                self.log.warn(number, "last line has no line end (log cut?)")
            try:
                self.line(number, raw, start)
            except Exception as exc:
                self.log.internal(number, "line skipped, parser error", exc)
        if self.payload_from is not None:
            self.cut_payload(len(data), True)
        if self.pending_payload is not None:
            self.log.payloads.append(self.pending_payload)
            self.pending_payload = None
        if not self.log.sections:
            self.log.warn(0, "no section header (=== [Sxx] Title ===) found")
        elif self.log.done is None:
            self.log.warn(0, "no Done line: the run did not finish or the log is cut")

    def line(self, number, raw, start):
        """Handle one line (raw bytes without its end, starting at data[start])."""
        if self.payload_from == NEXT_LINE:
            self.payload_from = start
        if self.payload_from is not None and self.payload_line(number, raw, start):
            return
        text = lexer.clean(raw)
        header = lexer.find_header(text)
        if header is not None:
            self.open_section(number, header)
            return
        done = DONE_RE.match(text)
        if done and self.section is not None:
            self.done_line(number, done.group(1))
            return
        if self.section is None or self.after_done:
            self.noise(number, text)
            return
        self.section_line(number, text)

    def open_section(self, number, header):
        """Start a new section from a header match (sid, title, prefix)."""
        sid, title, prefix = header
        if prefix.strip():
            self.log.payload_text_lines += 1
        if sid in self.log.sections:
            self.log.warn(number, "section %s appears again; the later one is used" % sid)
            self.log.order.remove(sid)
        self.section = Section(sid=sid, title=title, line=number)
        self.log.sections[sid] = self.section
        self.log.order.append(sid)
        self.after_done = False

    def done_line(self, number, rest):
        """Record the run's final `Done.` line and its key=value summary."""
        tokens, bad = lexer.tokenize(rest)
        for tok, why in bad:
            self.log.warn(number, "Done line: bad token %r (%s)" % (tok[:40], why))
        self.log.done = {k: v for k, v in tokens if v is not None}
        self.after_done = True

    def noise(self, number, text):
        """Boot or trailer noise: keep StarryOS startup figures, count the rest."""
        self.log.noise_lines += 1
        if not self.after_done:
            starry.boot_line(self.log, number, text)

    def section_line(self, number, text):
        """Parse one line inside a section into a Record."""
        stripped = text.strip()
        if not stripped:
            return
        if stripped.startswith("[") and not lexer.is_kv(stripped.split()[0]):
            self.log.noise_lines += 1  # kernel log line, e.g. "[ 10.76 0:9 ...]"
            return
        payload, body = lexer.strip_payload_prefix(text)
        if payload:
            self.log.payload_text_lines += 1
        tokens, bad = lexer.tokenize(body)
        if not any(v is not None for _, v in tokens):
            if lexer.has_bad_chars(stripped):
                self.log.warn(number, "unreadable line (binary data) skipped")
            else:
                self.log.payload_text_lines += 1
            return
        for tok, why in bad:
            self.log.warn(number, "malformed token %r dropped (%s)" % (tok[:40], why))
        kind, tag = lexer.kind_of(tokens)
        rec = Record(line=number, section=self.section.sid, kind=kind, tag=tag,
                     tokens=tokens)
        for key, value in tokens:
            if value is None:
                rec.words.append(key)
            elif key not in rec.kv:
                rec.kv[key] = value
        self.section.records.append(rec)
        self.special(rec, body)

    def special(self, rec, body):
        """Route records with a meaning beyond the table: manifest, samples, ..."""
        if rec.section == "S00":
            self.manifest(rec, body)
        if rec.kind == "samples":
            series.add_samples(self.log, rec)
        elif rec.kind == "hist":
            series.add_hist(self.log, rec)
        elif rec.kind == "payload-begin":
            if self.pending_payload is not None:
                self.log.payloads.append(self.pending_payload)
            self.pending_payload = Payload(tag=rec.tag or "", line=rec.line, section=rec.section)
            self.payload_from = NEXT_LINE
        elif rec.kind == "payload-end":
            self.payload_end(rec)
        elif rec.kind == "section" and "status" in rec.kv:
            self.log.statuses[rec.tag] = rec

    def manifest(self, rec, body):
        """Add an S00 line to the manifest; `key=text with spaces` keeps its text."""
        tokens = rec.tokens
        if tokens and tokens[0][1] is not None and all(v is None for _, v in tokens[1:]):
            key = tokens[0][0]
            self.log.manifest.setdefault(key, body.strip().partition("=")[2])
            return
        for key, value in tokens:
            if value is not None:
                self.log.manifest.setdefault(key, value)

    def payload_line(self, number, raw, start):
        """Inside an open payload: True when raw is payload bytes (or was handled).

        The payload ends before the first line that is a payload-end, a section
        header or an indented key=value record, or where a payload-end marker
        is glued to the bytes; CR LF inside it is data, cut byte for byte.
        """
        marker = raw.find(END_MARK)
        if marker > 0 and raw[:marker].strip():  # end marker glued to the payload
            self.cut_payload(start + marker, False)
            self.section_line(number, lexer.clean(raw[marker:]))
            return True
        text = lexer.clean(raw)
        if marker < 0 and not lexer.find_header(text) and not RECORD_START_RE.match(text):
            return True
        self.cut_payload(start, True)
        return False

    def cut_payload(self, end, strip_eol):
        """Give the open payload data[payload_from:end], less one line end if strip_eol.

        Nothing at all before the end means the payload line is missing (data
        stays None); otherwise exactly one `\\n` or `\\r\\n` is the format's.
        """
        region = self.data[self.payload_from:end]
        self.payload_from = None
        if self.pending_payload is None or (strip_eol and not region):
            return
        if strip_eol and region.endswith(b"\n"):
            region = region[:-2] if region.endswith(b"\r\n") else region[:-1]
        self.pending_payload.data = region

    def payload_end(self, rec):
        """Close the pending payload witness with its expected length and CRC."""
        pending = self.pending_payload
        if pending is None or pending.tag != (rec.tag or ""):
            if pending is not None:
                self.log.payloads.append(pending)
            pending = Payload(tag=rec.tag or "", line=rec.line, section=rec.section)
            self.log.warn(rec.line, "payload-end=%s without payload-begin" % rec.tag)
        pending.ended = True
        size, crc = rec.get("bytes", ""), rec.get("crc32", "")
        pending.expected_bytes = series.uint(size)
        try:
            pending.expected_crc = int(crc, 16) if crc.lower().startswith("0x") else None
        except ValueError:
            pending.expected_crc = None
        self.log.payloads.append(pending)
        self.pending_payload = None
