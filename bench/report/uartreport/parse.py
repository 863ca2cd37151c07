"""Tolerant parser: one log file in, one model.Log out, never an exception.

Grammar: see docs/log-format.md. Lines before the first section header are
boot noise (StarryOS [BENCH] startup figures are picked out of it); lines
after "Done." are trailer noise.
"""

import math
import os
import re

from . import lexer
from .model import Hist, Log, Payload, Record, Section, Series
from . import starry

DONE_RE = re.compile(r"^\s*Done\.(.*)$")
VALUES_RE = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")
MAX_SAMPLES_PER_LINE = 32
MAX_UINT_DIGITS = 18  # counts, indices, sizes: anything longer is damage


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
        log.warn(0, "internal parser error, log partly parsed: %r" % (exc,))
    try:
        starry.classify(log)
    except Exception as exc:
        log.warn(0, "cannot classify log: %r" % (exc,))
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
        self.await_data = False  # the next line is the payload data line

    def run(self, data):
        """Parse all lines of data."""
        if not data:
            self.log.warn(0, "empty file")
            return
        lines = lexer.split_lines(data)
        self.log.lines = len(lines)
        for number, (raw, had_eol) in enumerate(lines, start=1):
            if not had_eol and raw.strip() and not self.after_done:
                self.log.warn(number, "last line has no line end (log cut?)")
            try:
                self.line(number, raw)
            except Exception as exc:
                self.log.warn(number, "line skipped, parser error: %r" % (exc,))
        if self.pending_payload is not None:
            self.log.payloads.append(self.pending_payload)
            self.pending_payload = None
        if not self.log.sections:
            self.log.warn(0, "no section header (=== [Sxx] Title ===) found")
        elif self.log.done is None:
            self.log.warn(0, "no Done line: the run did not finish or the log is cut")

    def line(self, number, raw):
        """Handle one line (raw bytes without its end)."""
        if self.await_data:
            self.await_data = False
            if self.payload_data(number, raw):
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
            self.samples(rec)
        elif rec.kind == "hist":
            self.hist(rec)
        elif rec.kind == "payload-begin":
            if self.pending_payload is not None:
                self.log.payloads.append(self.pending_payload)
            self.pending_payload = Payload(tag=rec.tag or "", line=rec.line)
            self.await_data = True
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

    def samples(self, rec):
        """Append one `samples` line to its Series."""
        tag, unit, first = rec.get("tag"), rec.get("unit", ""), rec.get("first")
        values_text = rec.get("values")
        if not tag or first is None or values_text is None or _uint(first) is None:
            self.log.warn(rec.line, "samples line without tag=, first= or values= ignored")
            return
        items = [v for v in values_text.split(",") if v != ""]
        if not all(VALUES_RE.match(v) for v in items):
            self.log.warn(rec.line, "samples tag=%s: non-numeric value, line ignored" % tag)
            return
        if not all(math.isfinite(float(v)) for v in items):  # e.g. 400 digits
            self.log.warn(rec.line, "samples tag=%s: value out of range, line ignored" % tag)
            return
        if len(items) > MAX_SAMPLES_PER_LINE:
            self.log.warn(rec.line, "samples tag=%s: %d values on one line (limit %d)"
                          % (tag, len(items), MAX_SAMPLES_PER_LINE))
        values = [float(v) if "." in v else int(v) for v in items]
        series = self.log.samples.get(tag)
        if series is None:
            series = self.log.samples[tag] = Series(tag=tag, unit=unit)
        elif unit != series.unit:
            self.log.warn(rec.line, "samples tag=%s: unit %s differs from %s, line ignored"
                          % (tag, unit, series.unit))
            return
        series.chunks.append((_uint(first), values, rec.line))
        _rebuild(series)

    def hist(self, rec):
        """Store one `hist` line."""
        tag = rec.get("tag")
        if not tag:
            self.log.warn(rec.line, "hist line without tag= ignored")
            return
        counts = {}
        for item in (rec.get("counts") or "").split(","):
            idx, sep, cnt = item.partition(":")
            if not item:
                continue
            if not sep or _uint(idx) is None or _uint(cnt) is None:
                self.log.warn(rec.line, "hist tag=%s: bad bucket %r ignored" % (tag, item[:20]))
                continue
            counts[_uint(idx)] = counts.get(_uint(idx), 0) + _uint(cnt)
        overflow = rec.get("overflow", "0")
        nb = rec.get("nbuckets", "")
        self.log.hists[tag] = Hist(tag=tag, line=rec.line, bucket_ns=rec.num("bucket_ns"),
                                   nbuckets=_uint(nb),
                                   overflow=_uint(overflow) or 0,
                                   counts=counts)

    def payload_data(self, number, raw):
        """Take the line after payload-begin as payload bytes; False if it is not."""
        pending = self.pending_payload
        text = lexer.clean(raw)
        if lexer.find_header(text) or re.match(r"^\s*payload-end=", text):
            return False  # payload line missing or cut
        marker = raw.find(b"payload-end=")
        if marker > 0:  # end line glued to the payload: split it off
            pending.data = raw[:marker]
            self.section_line(number, lexer.clean(raw[marker:]))
            return True
        pending.data = raw
        return True

    def payload_end(self, rec):
        """Close the pending payload witness with its expected length and CRC."""
        pending = self.pending_payload
        if pending is None or pending.tag != (rec.tag or ""):
            if pending is not None:
                self.log.payloads.append(pending)
            pending = Payload(tag=rec.tag or "", line=rec.line)
            self.log.warn(rec.line, "payload-end=%s without payload-begin" % rec.tag)
        pending.ended = True
        size, crc = rec.get("bytes", ""), rec.get("crc32", "")
        pending.expected_bytes = _uint(size)
        try:
            pending.expected_crc = int(crc, 16) if crc.lower().startswith("0x") else None
        except ValueError:
            pending.expected_crc = None
        self.log.payloads.append(pending)
        self.pending_payload = None


def _uint(text):
    """text as an int when it is 1 to MAX_UINT_DIGITS ASCII digits, else None.

    str.isdigit() alone also accepts digits int() rejects ("\u00b2") and
    lengths int() refuses to convert (over 4300 digits).
    """
    if text and len(text) <= MAX_UINT_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def _rebuild(series):
    """Concatenate a Series' chunks in order of `first`, noting gaps and overlaps."""
    series.values, series.gaps = [], []
    for first, values, line in sorted(series.chunks, key=lambda c: (c[0], c[2])):
        have = len(series.values)
        if first > have:
            series.gaps.append("indices %d..%d missing before line %d" % (have, first - 1, line))
        elif first < have:
            series.gaps.append("line %d repeats indices from %d" % (line, first))
            series.values = series.values[:first]
        series.values.extend(values)
