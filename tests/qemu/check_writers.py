#!/usr/bin/python3
"""Boot an image with selftest=writers (two tasks write tagged chunks at
once, two tasks tcdrain over and over) and check the wire, as captured:

- between `selftest=writers begin` and `selftest=writers end` the wire
  holds the writers' bytes and nothing else, each writer's exactly once
  and in order: all its chunks (`<` writer seq `:` filler `>`, 64 bytes,
  the filler the host works out itself, the guest's filler()), seq 0 up.
  The wire is demultiplexed byte by byte: each byte must be the next one
  some writer has to send (the next byte of its open chunk, or the `<`
  of its next one); where two writers could take a byte, both readings
  are followed until the bytes after it tell them apart (the fillers
  differ per writer). A lost, duplicated, reordered or corrupted byte
  leaves no reading;
- a chunk interrupted by another writer's bytes (a split) needs a short
  write before it: the splits of the reading with the fewest are at most
  the guest's short_writes. The designs whose blocking write takes every
  byte before it returns (async, console) must report short_writes=0, and
  then the wire holds whole chunks back to back (no split): chunks
  interleave at write() boundaries only. The copier takes only its ring's
  contiguous free run (StarryOS's RingBufTx::push) and never resets its
  ring, so its ring wraps where the bytes it has taken (user_acc) reach a
  multiple of 64 KiB: every wrap that falls inside a chunk (the byte
  before it is not a `>`) is a short write, so short_writes is at least
  their number;
- the guest's summary: both writers and both drainers returned, every
  drain succeeded and each drainer completed at least one, no write
  failed or took nothing, the TX counters add up; status PASS, exit
  status 0.
"""
import re
import sys

from qemu_boot import arg_parser, boot, report

CHUNK = 64
SET = "abcdefghijklmnopqrstuvwxyz0123456789"
# designs whose blocking write may return short (the caller loops)
SHORT_WRITES = {"async": False, "console": False, "copier": True}
COPIER_RING = 64 * 1024          # engine_copier.c TX_RING_SIZE
MAX_READINGS = 64                # readings followed at once before giving up


def filler(w, seq, i):
    """Filler byte i of writer w's chunk seq (bench/selftest_writers.c)."""
    return SET[(seq * 7 + i * 3 + w * 11) % len(SET)]


def chunk(w, seq):
    """Writer w's chunk seq, as the guest's writer() builds it."""
    head = f"<{chr(ord('A') + w)}{seq:05d}:"
    return head + "".join(filler(w, seq, i) for i in range(len(head), CHUNK - 1)) + ">"


def where(w, pos):
    """Writer w's byte pos, in words."""
    return f"writer {chr(ord('A') + w)} chunk {pos // CHUNK} byte {pos % CHUNK}"


def demultiplex(body, streams, errors):
    """The fewest splits of any reading of body as the writers' streams
    interleaved, or None (errors say where no reading was left). A
    reading: each writer's bytes taken so far and the writer of the last
    byte; a split: a byte of another writer while the last one's chunk is
    open."""
    readings = {((0,) * len(streams), None): 0}
    for k, ch in enumerate(body):
        nxt = {}
        for (pos, last), splits in readings.items():
            for w, s in enumerate(streams):
                if pos[w] < len(s) and s[pos[w]] == ch:
                    key = (pos[:w] + (pos[w] + 1,) + pos[w + 1:], w)
                    n = splits + (last is not None and last != w and pos[last] % CHUNK != 0)
                    nxt[key] = min(n, nxt.get(key, n))
        if not nxt:
            wants = "; ".join(f"{where(w, p)} ({streams[w][p:p + 1]!r})"
                              for (pos, _), _ in list(readings.items())[:2]
                              for w, p in enumerate(pos))
            errors.append(f"byte {k} {ch!r} (in {body[max(0, k - 12):k + 12]!r}) is no "
                          f"writer's next byte; expected one of: {wants}")
            return None
        if len(nxt) > MAX_READINGS:
            errors.append(f"byte {k}: more than {MAX_READINGS} readings of the wire")
            return None
        readings = nxt
    done = {key: n for key, n in readings.items()
            if all(p == len(s) for p, s in zip(key[0], streams))}
    if not done:
        pos = next(iter(readings))[0]
        errors.append("bytes missing at the end: " + ", ".join(
            f"{where(w, p)} of {len(s) // CHUNK} chunks"
            for w, (p, s) in enumerate(zip(pos, streams)) if p < len(s)))
        return None
    return min(done.values())


def copier_wraps_in_chunks(body, acc_begin):
    """The copier's ring wraps inside the body that fall inside a chunk:
    wire offsets x where the bytes taken reach a multiple of the ring
    (its k-th byte is at ring index acc_begin + k) and byte x - 1 does not
    end a chunk."""
    first = -acc_begin % COPIER_RING or COPIER_RING
    return sum(body[x - 1] != ">" for x in range(first, len(body) + 1, COPIER_RING))


def check_wire(body, backend, writers, chunks, summary, errors):
    """The chunk stream between the begin and end lines; the splits and
    short writes it shows (or None)."""
    streams = ["".join(chunk(w, seq) for seq in range(chunks)) for w in range(writers)]
    splits = demultiplex(body, streams, errors)
    short = int(summary.get("short_writes", -1))
    if splits is None:
        return None
    if not SHORT_WRITES[backend] and (short, splits) != (0, 0):
        errors.append(f"{backend}: short_writes={short} and {splits} split chunks on the wire, "
                      "expected none (its blocking write takes every byte)")
    if splits > short:
        errors.append(f"{splits} chunks split on the wire, but short_writes={short}")
    if backend == "copier":
        wraps = copier_wraps_in_chunks(body, int(summary.get("user_acc_begin", 0)))
        if short < wraps:
            errors.append(f"copier: {wraps} ring wraps inside a chunk, but short_writes={short} "
                          "(a write stops at the wrap)")
        return splits, short, wraps
    return splits, short, 0


def main():
    """Run, check, report."""
    p = arg_parser(__doc__, 120, append=True)
    p.add_argument("--backend", required=True, choices=sorted(SHORT_WRITES))
    args = p.parse_args()
    status, text = boot(args.image_dir, args.log, ["selftest=writers"] + args.append,
                        args.timeout)
    errors = [] if status == 0 else [f"exit status {status}"]
    begin = re.search(r"^selftest=writers begin backend=(\S+) writers=(\d+) chunk=(\d+) "
                      r"chunks=(\d+)\n", text, re.M)
    end = re.search(r"\nselftest=writers end (.*)\n", text)
    if not begin or not end or int(begin[3]) != CHUNK:
        errors.append("no begin/end lines (or another chunk size)")
        return report(text, errors, "")
    if begin[1] != args.backend:
        errors.append(f"backend={begin[1]}, expected {args.backend}")
    writers, chunks = int(begin[2]), int(begin[4])
    summary = dict(re.findall(r"(\w+)=(\S+)", end[1]))
    seen = check_wire(text[begin.end():end.start()], args.backend, writers, chunks, summary,
                      errors)
    drains = [int(x) for x in summary.get("drains", "0,0").split(",")]
    if (summary.get("writers_done"), summary.get("drainers_done")) != (str(writers),) * 2:
        errors.append(f"not every writer and drainer returned: {end[1]}")
    if min(drains) < 1 or summary.get("drain_errors") != "0,0" or \
            summary.get("write_errors") != "0" or summary.get("sums") != "1":
        errors.append(f"drains, errors or counter sums wrong: {end[1]}")
    if "selftest=writers status=PASS" not in text:
        errors.append("no `selftest=writers status=PASS`")
    splits, short, wraps = seen or (0, 0, 0)
    return report(text, errors, f"{writers} writers x {chunks} chunks, every byte once and in "
                                f"order, {splits} split (short_writes={short}, ring wraps in a "
                                f"chunk {wraps}), drains {drains}")


if __name__ == "__main__":
    sys.exit(main())
