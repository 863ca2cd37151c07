"""The far end of a serial line, on the host (scripts/far-end, and the
tests that hold a pty's master side): everything the board sends is
captured, and the board's requests for an RX stream are answered.

A request travels in the board's own output, between STX (0x02) and ETX
(0x03), bytes that neither its log nor its payloads ever hold:
  far-end stream bytes=N seed=S lead_ms=L   send stream S of N bytes,
                                            starting L ms after the request
  far-end stop                              stop the stream now
(bench/hosted/far_end.c, --far-end external). A stream is the sections'
pattern (include/pattern.h): byte k is 0x21 + (k * 7 + k // 94 + seed) % 94.
It is paced to the line's baud by the host's clock, one 10-bit character
per byte, and never sent ahead of it. The ground truth of each stream is
kept: what was asked, what was sent before it ended or was stopped, and
the CRC-32 of the bytes sent."""
import json
import time
import zlib

STX, ETX = 0x02, 0x03
REQUEST_MAX = 200            # a request longer than this is not one: kept as output
CHUNK_MAX = 64               # bytes written at once at most


def pattern(seed, first, n):
    """Bytes first .. first + n - 1 of stream `seed`'s pattern."""
    return bytes(0x21 + (k * 7 + k // 94 + seed) % 94 for k in range(first, first + n))


def parse_request(text):
    """A request's text: ('stream', bytes, seed, lead_ms), ('stop',), or
    None for anything else."""
    words = text.split()
    if words == ["far-end", "stop"]:
        return ("stop",)
    if len(words) != 5 or words[:2] != ["far-end", "stream"]:
        return None
    kv = dict(w.split("=", 1) for w in words[2:] if "=" in w)
    try:
        n, seed, lead = int(kv["bytes"]), int(kv["seed"]), int(kv["lead_ms"])
    except (KeyError, ValueError):
        return None
    if n < 1 or not 0 <= seed < 1 << 32 or not 0 <= lead <= 60000:
        return None
    return ("stream", n, seed, lead)


class FarEnd:
    """One line's far end. read(timeout) returns the bytes the board sent
    (b"" after timeout seconds with none; None at the end of the line),
    write(data) sends what it can and returns how many bytes it took."""

    def __init__(self, read, write, baud, clock=time.monotonic):
        self.read, self.write, self.baud, self.clock = read, write, baud, clock
        self.capture = bytearray()     # the board's output, its requests taken out
        self.streams = []              # the ground truth, one dict per stream
        self._pending = None           # a request being read (after its STX)
        self._stream = None            # the stream being sent

    def feed(self, data):
        """The board's output: requests answered, the rest captured."""
        for b in data:
            if self._pending is not None:
                if b == ETX:
                    self._request(self._pending.decode("ascii", "replace"))
                    self._pending = None
                elif len(self._pending) < REQUEST_MAX:
                    self._pending.append(b)
                else:                      # not a request: keep it all
                    self.capture += bytes([STX]) + self._pending + bytes([b])
                    self._pending = None
            elif b == STX:
                self._pending = bytearray()
            else:
                self.capture.append(b)

    def _request(self, text):
        """One request, answered; an unknown one is kept in the capture."""
        req = parse_request(text)
        if req is None:
            self.capture += bytes([STX]) + text.encode() + bytes([ETX])
            return
        self._end("stopped" if req[0] == "stop" else "replaced")
        if req[0] == "stream":
            _, n, seed, lead = req
            self._stream = {"stream": len(self.streams) + 1, "seed": seed, "bytes": n,
                            "lead_ms": lead, "baud": self.baud, "sent": 0, "crc": 0,
                            "t0": self.clock() + lead / 1000.0, "end": None}
            self.streams.append(self._stream)

    def _end(self, how):
        """The stream being sent ends (how: sent, stopped, replaced)."""
        if self._stream is not None:
            self._stream["end"] = how
            self._stream = None

    def pump(self):
        """Send what the line's time allows of the current stream, in
        chunks; the seconds until more is due (None: nothing to send)."""
        s = self._stream
        while s is not None:
            due = int((self.clock() - s["t0"]) * self.baud / 10)
            due = min(max(due, 0), s["bytes"])
            if due <= s["sent"]:
                if s["sent"] == s["bytes"]:
                    self._end("sent")
                    return None
                return max(s["t0"] + (s["sent"] + 1) * 10.0 / self.baud - self.clock(), 0)
            data = pattern(s["seed"], s["sent"], min(due - s["sent"], CHUNK_MAX))
            took = self.write(data)
            s["crc"] = zlib.crc32(data[:took], s["crc"])
            s["sent"] += took
            if took < len(data):
                return 0.001               # the line pushes back: try again soon
        return None

    def run(self, until=None, timeout=None):
        """Serve the line until read() says it ended, until(capture) is
        true, or timeout seconds passed (then False)."""
        end = None if timeout is None else self.clock() + timeout
        while True:
            wait = self.pump()
            wait = 0.05 if wait is None else min(wait, 0.05)
            data = self.read(wait)
            if data is None:
                return True
            self.feed(data)
            if until is not None and until(self.capture):
                return True
            if end is not None and self.clock() > end:
                return False

    def truth(self):
        """The streams' ground truth: one JSON object per line."""
        rows = []
        for s in self.streams:
            rows.append(json.dumps({"stream": s["stream"], "seed": s["seed"],
                                    "bytes": s["bytes"], "lead_ms": s["lead_ms"],
                                    "baud": s["baud"], "sent": s["sent"],
                                    "crc32": "0x%08x" % s["crc"],
                                    "end": s["end"] or "open"}))
        return "".join(r + "\n" for r in rows)
