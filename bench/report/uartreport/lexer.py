"""Line-level lexing: line splitting, escape stripping, tokens.

Used by parse.py. Nothing here raises on bad input: bad tokens come back in a
separate list so the caller can warn about them.
"""

import re

ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]?")
HEADER_RE = re.compile(r"=== \[S(\d\d)\] ?(.*?) ?===")
KEY_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-/]*(?:\[[0-9]+\])?$")
BAD_CHAR_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ufffd]")
TOKEN_RE = re.compile(r"\S+")


def split_lines(data):
    """Split raw bytes into (bytes_without_eol, had_eol, start_offset) triples.

    Accepts \\n and \\r\\n endings (any number of \\r before the \\n);
    start_offset is where the line begins in data (payload witnesses are cut
    from data byte for byte, see parse.py).
    """
    out, start = [], 0
    parts = data.split(b"\n")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if last and part == b"":
            break
        out.append((part.rstrip(b"\r"), not last, start))
        start += len(part) + 1
    return out


def clean(raw):
    """Decode one raw line (UTF-8, bad bytes replaced) and strip ANSI escapes."""
    text = raw.decode("utf-8", errors="replace")
    return ANSI_RE.sub("", text).replace("\t", " ")


def has_bad_chars(text):
    """True when text holds control characters or undecodable bytes."""
    return BAD_CHAR_RE.search(text) is not None


def find_header(text):
    """Return (sid, title, prefix) for a section header in text, or None."""
    m = HEADER_RE.search(text)
    if not m:
        return None
    return ("S" + m.group(1), m.group(2).strip(), text[:m.start()])


def is_kv(token):
    """True when token is key=value with a well-formed key."""
    key, sep, _ = token.partition("=")
    return bool(sep) and KEY_RE.match(key) is not None


def strip_payload_prefix(text):
    """Split payload bytes glued in front of a record.

    Returns (payload_text, record_text). A record line starts with its
    indentation, then at most one bare word, then key=value tokens. Text
    before the last run of two spaces ahead of the first key=value token is
    payload; if more than one bare word is still left before that token,
    everything before the token is payload.
    """
    first = _first_kv(text)
    if first is None:
        return ("", text)
    payload, rest = "", text
    cut = text.rfind("  ", 0, first)
    if cut > 0 and text[:cut].strip():
        payload, rest = text[:cut], text[cut:]
    first = _first_kv(rest)
    words = rest[:first].split()
    if len(words) > 1 or any("=" in w or has_bad_chars(w) for w in words):
        payload, rest = payload + rest[:first], rest[first:]
    return (payload, rest)


def _first_kv(text):
    """Return the offset of the first well-formed key=value token, or None."""
    for m in TOKEN_RE.finditer(text):
        if is_kv(m.group()):
            return m.start()
    return None


def tokenize(text):
    """Split a record line into (tokens, bad).

    tokens: list of (key, value) for key=value and (word, None) for bare words;
    bad: list of (token, reason) for tokens that were dropped.
    """
    tokens, bad = [], []
    for tok in text.split():
        if has_bad_chars(tok):
            bad.append((tok, "unreadable characters"))
            continue
        if "=" in tok:
            key, _, value = tok.partition("=")
            if not key:
                bad.append((tok, "empty key"))
            elif not KEY_RE.match(key):
                bad.append((tok, "malformed key"))
            else:
                tokens.append((key, value))
        elif tok.count("[") != tok.count("]") or tok.count("(") != tok.count(")"):
            bad.append((tok, "unbalanced brackets"))
        else:
            tokens.append((tok, None))
    return tokens, bad


GROUPING_KINDS = ("diag", "counter", "policy", "method", "proxy", "section",
                  "samples", "hist", "s43-phase", "s41-size")


def kind_of(tokens):
    """Return (kind, tag) of a record from its first token.

    A bare first word is the kind (its tag is the value of tag=, if any); a
    first key=value token gives kind=key, tag=value. A line that holds
    policy= anywhere is a policy record.
    """
    if not tokens:
        return ("", None)
    kv = {k: v for k, v in tokens if v is not None}
    key, value = tokens[0]
    if value is None:
        kind, tag = key, kv.get("tag")
    else:
        kind, tag = key, value
    if kind != "policy" and "policy" in kv:
        kind, tag = "policy", kv["policy"]
    return (kind, tag)
