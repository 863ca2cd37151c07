#!/usr/bin/env python3
"""Boot an image with selftest=writers (two tasks write tagged chunks at
once, two tasks tcdrain over and over) and check the wire, as captured:

- between `selftest=writers begin` and `selftest=writers end` the wire
  holds whole chunks only (`<` writer seq `:` filler `>`, 64 bytes: they
  interleave at write() boundaries and nowhere else);
- each writer's chunks are all there, once, in order, each with the
  filler the host works out itself (the guest's filler());
- the guest's summary: both writers and both drainers returned, every
  drain succeeded and each drainer completed at least one, no write
  failed, the TX counters add up; status PASS, exit status 0.
"""
import re
import sys

from qemu_boot import arg_parser, boot, report

CHUNK = 64
SET = "abcdefghijklmnopqrstuvwxyz0123456789"
CHUNK_RE = re.compile(r"<([A-Z])(\d{5}):([a-z0-9]+)>")


def filler(w, seq, i):
    """Filler byte i of writer w's chunk seq (bench/selftest_writers.c)."""
    return SET[(seq * 7 + i * 3 + w * 11) % len(SET)]


def check_wire(body, writers, chunks, errors):
    """The chunk stream between the begin and end lines."""
    pos, seen = 0, {w: [] for w in range(writers)}
    for m in CHUNK_RE.finditer(body):
        if m.start() != pos or m.end() - m.start() != CHUNK:
            errors.append(f"bytes {body[pos:m.start() + 8]!r} at offset {pos} are not a whole "
                          "chunk")
            return
        pos = m.end()
        w, seq, fill = ord(m[1]) - ord("A"), int(m[2]), m[3]
        want = "".join(filler(w, seq, i) for i in range(8, CHUNK - 1))
        if w not in seen or fill != want:
            errors.append(f"chunk {m[0][:12]}... has the wrong writer or filler")
            return
        seen[w].append(seq)
    if body[pos:].strip():
        errors.append(f"{len(body) - pos} bytes after the last chunk: {body[pos:pos + 40]!r}")
    for w, seqs in seen.items():
        if seqs != list(range(chunks)):
            errors.append(f"writer {chr(ord('A') + w)}: {len(seqs)} chunks, not 0..{chunks - 1} "
                          f"in order (first out of place: "
                          f"{next((s for i, s in enumerate(seqs) if s != i), None)})")


def main():
    """Run, check, report."""
    p = arg_parser(__doc__, 120)
    args = p.parse_args()
    status, text = boot(args.image_dir, args.log, ["selftest=writers"], args.timeout)
    errors = [] if status == 0 else [f"exit status {status}"]
    begin = re.search(r"^selftest=writers begin writers=(\d+) chunk=(\d+) chunks=(\d+)\n", text,
                      re.M)
    end = re.search(r"\nselftest=writers end (.*)\n", text)
    if not begin or not end or int(begin[2]) != CHUNK:
        errors.append("no begin/end lines (or another chunk size)")
        return report(text, errors, "")
    writers, chunks = int(begin[1]), int(begin[3])
    check_wire(text[begin.end():end.start()], writers, chunks, errors)
    summary = dict(re.findall(r"(\w+)=(\S+)", end[1]))
    drains = [int(x) for x in summary.get("drains", "0,0").split(",")]
    if (summary.get("writers_done"), summary.get("drainers_done")) != (str(writers),) * 2:
        errors.append(f"not every writer and drainer returned: {end[1]}")
    if min(drains) < 1 or summary.get("drain_errors") != "0,0" or \
            summary.get("write_errors") != "0" or summary.get("sums") != "1":
        errors.append(f"drains, errors or counter sums wrong: {end[1]}")
    if "selftest=writers status=PASS" not in text:
        errors.append("no `selftest=writers status=PASS`")
    return report(text, errors, f"{writers} writers x {chunks} chunks whole and in order, "
                                f"drains {drains}")


if __name__ == "__main__":
    sys.exit(main())
