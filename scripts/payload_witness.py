"""Payload witnesses checked byte for byte against a serial capture.

A witness is `  payload-begin=<tag>` CR LF, the payload bytes exactly as
they went out, then CR LF `  payload-end=<tag> bytes=<n> crc32=0x<hex>`
(docs/log-format.md). The payload may itself hold CR LF pairs (S13 sends
'\\n' with ONLCR on): the payload is everything between the begin line's
CR LF and the last CR LF before the end marker, cut from the raw bytes, so
no line splitting can change it. The report parser of this tree takes
only the line after payload-begin as the payload, so it flags a CR LF
payload as a mismatch; parser_flag_ok() names those flags."""
import re
import zlib

WITNESS_RE = re.compile(rb"  payload-begin=(\S+)\r\n(.*?)\r\n  payload-end=(\S+) bytes=(\d+) "
                        rb"crc32=0x([0-9a-f]{8})", re.S)


def raw_witnesses(raw):
    """[(tag, 'match' | 'mismatch', detail)] for every witness in raw."""
    out = []
    for m in WITNESS_RE.finditer(raw):
        tag, payload, end_tag = m.group(1).decode(), m.group(2), m.group(3).decode()
        n, crc = int(m.group(4)), int(m.group(5), 16)
        if b"payload-begin=" in payload:        # this witness has no end (section killed)
            out.append((tag, "not checkable", "no payload-end before the next witness"))
            continue
        got = zlib.crc32(payload) & 0xFFFFFFFF
        ok = end_tag == tag and len(payload) == n and got == crc
        detail = (f"end tag {end_tag}, {len(payload)} bytes crc32=0x{got:08x}, witness says "
                  f"{n} bytes crc32=0x{crc:08x}")
        out.append((tag, "match" if ok else "mismatch", detail))
    return out


def crlf_tags(raw):
    """Tags of the witnesses whose payload holds a line break."""
    return {m.group(1).decode() for m in WITNESS_RE.finditer(raw) if b"\n" in m.group(2)}


def parser_flag_ok(flag, raw):
    """Whether flag is the report parser's payload mismatch of a witness
    whose payload holds CR LF (checked byte for byte by raw_witnesses)."""
    m = re.match(r"payload (\S+): CRC/length mismatch", flag)
    return bool(m) and m.group(1) in crlf_tags(raw)
