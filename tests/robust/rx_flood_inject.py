"""RX flood on QEMU (rx_flood.py): the injector. One select loop reads the
guest's output for the phase markers and sends the flood, then the counted
burst and its line breaks, paced by how many injected bytes are queued
ahead of QEMU's serial model (rx_flood.py's docstring has the phases)."""
import array
import fcntl
import random
import re
import selectors
import termios
import time

IAC, BRK = 0xFF, 0xF3
S43_GROUPS = {"quick": 1, "full": 5}

# Guest output markers (regex on one line), in log order; at each the
# injector notes the host time and how many bytes QEMU had taken.
MARKERS = [
    ("s30", r"^=== \[S30\]"),
    ("s31_end", r"^  section=S31 status="),
    ("s33_end", r"^  section=S33 status="),   # the last section that reads RX
    ("s41", r"^=== \[S41\]"),
    ("s42", r"^=== \[S42\]"),
    ("s43", r"^=== \[S43\]"),
    ("s43_reset", None),            # payload-begin=s43-loaded-<groups>, from the manifest
    ("s43_end", r"^  section=S43 status="),
    ("s40", r"^=== \[S40\]"),
    ("s40_rx", r"^  counter=rx "),
]


def server_rx_queue(port, peer_port):
    """Bytes in the receive queue of QEMU's end of the connection, from
    /proc/net/tcp (fallback when qemu_end() fails; slow on some kernels)."""
    want_local, want_peer = f":{port:04X}", f":{peer_port:04X}"
    try:
        with open("/proc/net/tcp") as f:
            next(f)
            for line in f:
                p = line.split()
                if p[1].endswith(want_local) and p[2].endswith(want_peer):
                    return int(p[4].split(":")[1], 16)
    except (OSError, StopIteration, IndexError, ValueError):
        pass
    return 0


class Injector:
    """The select loop: phases, flood, burst and breaks, markers."""

    def __init__(self, sock, port, args, qemu_sock):
        self.sock, self.port, self.args = sock, port, args
        self.qemu_sock = qemu_sock
        self.q_max_age = 0.001 if qemu_sock else 0.02
        self.peer_port = sock.getsockname()[1]
        self.rng = random.Random(args.seed)
        self.t0 = time.monotonic()
        self.phase = "flood"
        self.sent = 0               # wire bytes accepted by our socket
        self.flood_uart = 0         # UART bytes those flood bytes stand for
        self.escapes = 0            # IAC IAC pairs (one 0xFF each)
        self.burst_left = []        # wire pieces of the burst still to queue
        self.burst_sent = 0
        self.breaks_sent = 0
        self.pending = b""
        self.q_at_quiet = None      # queue when the flood stopped
        self.burst_done_t = None    # host time the burst had all been taken
        self.line = b""
        self.received = 0
        self.reset = False
        self.marks = {}             # name -> (host s, bytes taken by QEMU)
        self.q_cache = (0.0, 0)
        self.marker_res = [(n, re.compile(r) if r else None) for n, r in MARKERS]

    def now(self):
        """Host seconds since the start."""
        return time.monotonic() - self.t0

    def queued(self):
        """Injected wire bytes not yet taken by QEMU."""
        buf = array.array("i", [0])
        fcntl.ioctl(self.sock.fileno(), termios.TIOCOUTQ, buf)
        q = buf[0]
        if self.qemu_sock:
            fcntl.ioctl(self.qemu_sock.fileno(), termios.FIONREAD, buf)
            q += buf[0]
        else:
            q += server_rx_queue(self.port, self.peer_port)
        self.q_cache = (time.monotonic(), q)
        return q

    def queued_recent(self):
        """queued(), at most q_max_age old (the loop runs every ms; the
        /proc/net/tcp fallback costs milliseconds of CPU per read)."""
        if time.monotonic() - self.q_cache[0] > self.q_max_age:
            return self.queued()
        return self.q_cache[1]

    def taken(self):
        """Injected wire bytes QEMU's serial model has read from the socket."""
        return self.sent - self.queued()

    def flood_chunk(self):
        """Next flood chunk: 1 KiB random bytes, 0xFF escaped for telnet."""
        data = self.rng.randbytes(1024)
        self.flood_uart += len(data)
        self.escapes += data.count(b"\xff")
        return data.replace(b"\xff", b"\xff\xff")

    def start_burst(self):
        """Queue the counted burst: data (no 0xFF) with the breaks among it."""
        data = bytes(b % 0xFF for b in self.rng.randbytes(self.args.burst))
        pieces, nb = [], self.args.breaks
        step = len(data) // (nb + 1) if nb else len(data)
        for i in range(nb):
            pieces += [data[i * step:(i + 1) * step], bytes([IAC, BRK])]
        pieces.append(data[nb * step:])
        self.burst_left = [p for p in pieces if p]
        self.phase = "burst"

    def on_line(self, text):
        """A complete guest line: markers drive the phases."""
        m = re.match(r"^  bench_scale=(\w+)", text)
        if m:
            groups = S43_GROUPS.get(m.group(1), 1)
            self.marker_res = [(n, r if r else re.compile(
                r"payload-begin=s43-loaded-%d$" % groups)) for n, r in self.marker_res]
        for name, rx in self.marker_res:
            if name in self.marks or rx is None or not rx.search(text):
                continue
            self.marks[name] = (self.now(), self.taken())
            if name == self.args.quiet_at and self.phase == "flood":
                self.phase = "quiet"
                self.q_at_quiet = self.queued()
            elif name == "s43_reset" and self.phase in ("flood", "quiet"):
                if self.q_at_quiet is None:
                    self.q_at_quiet = self.queued()
                self.start_burst()

    def on_data(self, data):
        """Guest output (the socket copy): split lines for the markers."""
        self.received += len(data)
        if self.args.socket_log:
            self.args.socket_log.write(data)
        self.line += data
        *lines, self.line = self.line.split(b"\n")
        for raw in lines:
            self.on_line(raw.rstrip(b"\r").decode("ascii", "replace"))

    def want_send(self):
        """Whether to offer more bytes now."""
        if self.phase == "flood" and (self.flood_uart >= self.args.budget or
                                      self.now() > self.args.flood_seconds):
            self.phase = "quiet"
            self.q_at_quiet = self.queued()
        if self.phase == "burst" and not self.burst_left and not self.pending:
            if self.burst_done_t is None and self.queued_recent() == 0:
                self.burst_done_t = self.now()
            return False
        if self.phase not in ("flood", "burst"):
            return False
        return bool(self.pending) or self.queued_recent() < self.args.inflight

    def send_some(self):
        """One non-blocking send."""
        if not self.pending:
            if self.phase == "flood":
                self.pending = self.flood_chunk()
            elif self.phase != "burst" or not self.burst_left:
                return                  # the phase changed since want_send()
            else:
                self.pending = self.burst_left.pop(0)
                if self.pending == bytes([IAC, BRK]):
                    self.breaks_sent += 1
                else:
                    self.burst_sent += len(self.pending)
        try:
            n = self.sock.send(self.pending)
        except BlockingIOError:
            return
        self.sent += n
        self.pending = self.pending[n:]

    def drain(self):
        """QEMU has exited: read what its end still had for us (the
        duplicate from qemu_end() keeps the connection open, so this ends
        on a quiet 0.2 s, not EOF: loopback delivery may lag the sender),
        then note the final count."""
        sel = selectors.DefaultSelector()
        sel.register(self.sock, selectors.EVENT_READ)
        while sel.select(0.2):
            try:
                data = self.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except ConnectionResetError:
                break
            if not data:
                break
            self.on_data(data)
        sel.close()
        if self.qemu_sock:
            self.marks["end"] = (self.now(), self.taken())

    def run(self, proc, timeout):
        """Until the guest closes the line; False on timeout."""
        sel = selectors.DefaultSelector()
        sel.register(self.sock, selectors.EVENT_READ)
        while self.now() < timeout:
            events = selectors.EVENT_READ | (selectors.EVENT_WRITE if self.want_send() else 0)
            sel.modify(self.sock, events)
            for _, ev in sel.select(0.002):
                if ev & selectors.EVENT_READ:
                    try:
                        data = self.sock.recv(65536)
                    except (BlockingIOError, InterruptedError):
                        continue
                    except ConnectionResetError:
                        self.reset = True
                        return True
                    if not data:
                        return True
                    self.on_data(data)
                if ev & selectors.EVENT_WRITE:
                    try:
                        self.send_some()
                    except (BrokenPipeError, ConnectionResetError):
                        self.reset = True
                        return True
            if proc.poll() is not None:
                self.drain()
                return True
            # Pace the loop: the guest's output comes as one-byte segments,
            # and QEMU takes about 30 injected bytes per ms; a 1 ms period
            # keeps QEMU fed (--inflight) at a fraction of the CPU.
            time.sleep(0.001)
        return False
