#!/usr/bin/env python3
"""Hostile RX input on QEMU: flood the guest's UART with random bytes and
line breaks while the benchmark suite runs, then check that the suite
still completes, that no transmitted payload was corrupted, and that the
driver's RX counters (S40) account exactly for what was sent in their
window. docs/robustness-qemu.md explains the design and the figures.

The UART is a TCP socket chardev on 127.0.0.1: this script opens a
listening socket on a free port and hands it to QEMU (`fd=`, no port
race); `server=on,wait=on` holds the guest until the injector connects;
`telnet=on` makes QEMU turn a telnet BREAK (IAC BRK) into a line break.
QEMU also copies every byte the guest transmits to the chardev's
`logfile=`, which is the log checked here (the socket copy only drives
the phases). The injector duplicates QEMU's end of the connection
(pidfd_getfd): FIONREAD on it gives QEMU's receive queue, and holding it
keeps the connection from being reset when QEMU exits with injected
bytes unread (a reset discards output this end has not read yet).

One select loop, paced at 1 ms, reads the guest's output (for the
markers below) and sends, non-blocking, whenever fewer than --inflight
injected bytes are queued ahead of QEMU's serial model (our send queue,
SIOCOUTQ, + QEMU's receive queue; /proc/net/tcp if the duplicate cannot
be had). QEMU takes a byte only when its
RX FIFO has room, so this is the highest rate it accepts; a deeper queue
would only blur the accounting. Phases, driven by the guest's output:

  flood   boot .. the header of --quiet-at (S42): random bytes (0xFF
          sent as IAC IAC); S05..S41 run under RX load;
  quiet   .. the last counter reset of S43
          (`payload-begin=s43-loaded-<groups>`): nothing sent, the queue
          drains (S42 and S43's idle groups give it a margin of a few
          hundred ms of host time, so no flood byte can reach the guest
          after that reset, even under icount where the guest outruns
          this reader);
  burst   then exactly --burst random bytes (no 0xFF) with --breaks
          telnet BREAKs spread among them, all of which S40's counters
          (RX counters count since boot: S40's figures minus the
          `*_at_reset` figures S43's last loaded group printed) must count:
          rx_bytes + rx_dropped = burst + breaks (a break delivers one
          NUL byte), rx_breaks = breaks, rx_overruns = 0.

Exit status 0 when every check holds. Sections that cannot pass with
foreign bytes on the line are named with --may-fail and must fail for
that reason (why_failed), not any reason.
"""
import argparse
import array
import ctypes
import fcntl
import json
import os
import random
import re
import resource
import selectors
import socket
import subprocess
import sys
import termios
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
from uartreport import parse, recompute  # noqa: E402

QEMU = "qemu-system-riscv64"
SYS_PIDFD_GETFD = 438       # same number on every Linux architecture
IAC, BRK = 0xFF, 0xF3
SECTIONS = 16
RX_RING = 16 * 1024          # src/drivers/uart/async.c UART_RX_RING_SIZE
S43_GROUPS = {"quick": 1, "full": 5}

# Guest output markers (regex on one line), in log order; at each the
# injector notes the host time and how many bytes QEMU had taken.
MARKERS = [
    ("s30", r"^=== \[S30\]"),
    ("s31_end", r"^  section=S31 status="),
    ("s41", r"^=== \[S41\]"),
    ("s42", r"^=== \[S42\]"),
    ("s43", r"^=== \[S43\]"),
    ("s43_reset", None),            # payload-begin=s43-loaded-<groups>, from the manifest
    ("s43_end", r"^  section=S43 status="),
    ("s40", r"^=== \[S40\]"),
    ("s40_rx", r"^  counter=rx "),
]


def qemu_command(desc, args, fd):
    """QEMU argv: the image as scripts/qemu-run boots it, the UART on fd."""
    bootargs = [f"qemu_mode={args.mode}"]
    if args.mode == "icount":
        bootargs.append(f"icount_shift={desc['shift']}")
    chardev = f"socket,id=uart0,fd={fd},server=on,wait=on,telnet=on,logfile={args.log}"
    cmd = [QEMU, "-machine", desc["machine"], "-m", "128M", "-smp", "1",
           "-bios", desc["bios"], "-kernel", desc["kernel"], "-append", " ".join(bootargs),
           "-display", "none", "-monitor", "none", "-chardev", chardev,
           "-serial", "chardev:uart0"]
    if args.mode == "icount":
        cmd += ["-icount", f"shift={desc['shift']},sleep=off"]
    return cmd


def qemu_end(pid, peer):
    """A duplicate of QEMU's end of the connection (pidfd_getfd, Linux >= 5.6,
    allowed for our own child), or None. FIONREAD on it is QEMU's receive
    queue, exact and cheap; holding it also keeps the connection open after
    QEMU exits, so no reset can discard output not read yet."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pidfd = os.pidfd_open(pid)
    except (OSError, AttributeError):
        return None
    try:
        for name in os.listdir(f"/proc/{pid}/fd"):
            try:
                if not os.readlink(f"/proc/{pid}/fd/{name}").startswith("socket:"):
                    continue
            except OSError:
                continue
            fd = libc.syscall(SYS_PIDFD_GETFD, pidfd, int(name), 0)
            if fd < 0:
                continue
            s = socket.socket(fileno=fd)
            try:
                if s.getpeername() == peer:
                    return s
            except OSError:
                pass
            s.close()
    except OSError:
        pass
    finally:
        os.close(pidfd)
    return None


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


def boot_and_flood(args, desc):
    """Start QEMU on a listening socket, run the injector; (status, injector)."""
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    port = lsock.getsockname()[1]
    if os.path.exists(args.log):
        os.unlink(args.log)
    cmd = args.wrap.split() + qemu_command(desc, args, lsock.fileno())
    if args.verbose:
        print(" ".join(cmd))
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            pass_fds=[lsock.fileno()])
    lsock.close()
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.setblocking(False)
    qemu_sock = None
    for _ in range(100):        # QEMU accepts the connection soon after
        qemu_sock = qemu_end(proc.pid, sock.getsockname())
        if qemu_sock or proc.poll() is not None:
            break
        time.sleep(0.01)
    if not qemu_sock:
        print("note: cannot duplicate QEMU's socket (pidfd_getfd); using /proc/net/tcp")
    inj = Injector(sock, port, args, qemu_sock)
    finished = inj.run(proc, args.timeout)
    sock.close()
    if qemu_sock:
        qemu_sock.close()
    try:
        return (proc.wait(timeout=10) if finished else 124), inj
    except subprocess.TimeoutExpired:
        return 124, inj
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def why_failed(sid, text):
    """None if section sid failed the way foreign RX bytes make it fail."""
    body = re.search(r"^=== \[%s\].*?^  section=%s status=(\w+)" % (sid, sid), text,
                     re.M | re.S)
    if not body:
        return "section missing"
    chunk, status = body.group(0), body.group(1)
    if status != "FAIL":
        return f"status {status}"
    if sid == "S05":
        # Loopback RX latency: every read must return the byte just looped
        # back; a foreign byte in the ring or FIFO comes first instead.
        m = re.search(r"^  s05-rx-latency mode=loopback-mcr .*loopback_rc=(-?\d+) ok=(\d+)$",
                      chunk, re.M)
        if not m:
            return "no s05-rx-latency line"
        if int(m.group(1)) != 0:
            return f"loopback_rc={m.group(1)}"
        return None
    if sid == "S30":
        # A read that should find the port empty returned (injected) data.
        bad = re.findall(r"^  method=\S+ status=FAIL result=(\S+) read_rc=(-?\d+)", chunk, re.M)
        if not bad:
            return "no failing method line"
        for result, rc in bad:
            if result != "unexpected" or int(rc) <= 0:
                return f"method failed with result={result} read_rc={rc}, not with data"
        return None
    if sid == "S31":
        # The loopback got as many bytes back as it sent, foreign ones among them.
        m = re.search(r"^  status=FAIL rx_mode=loopback-mcr rx_fixed_bytes=(\d+) received=(\d+) "
                      r"mismatched=(\d+)", chunk, re.M)
        if not m:
            return "no S31 result line"
        want, got, bad = map(int, m.groups())
        if got != want or bad == 0:
            return f"received={got}/{want} mismatched={bad}"
        return None
    return "not a section foreign RX bytes may fail"


def structural_checks(args, status, text, errors):
    """Done line, statuses, exit status, panic."""
    allowed = [s for s in args.may_fail.split(",") if s]
    if "PANIC" in text:
        errors.append("log contains PANIC")
    done = re.search(r"^Done\. sections=(\d+) passed=(\d+) failed=(\d+)$", text, re.M)
    statuses = re.findall(r"^  section=(S\d\d) status=(\w+)", text, re.M)
    if not done:
        errors.append("suite did not complete: no `Done.` line")
    else:
        total, passed, failed = map(int, done.groups())
        if total != SECTIONS or passed + failed != total:
            errors.append(f"{done.group(0)!r}: expected {SECTIONS} sections")
        if status != failed:
            errors.append(f"exit status {status}, but the Done line says failed={failed}")
        nfail = sum(st in ("FAIL", "TIMEOUT") for _, st in statuses)
        if nfail != failed:
            errors.append(f"{nfail} sections FAIL/TIMEOUT, the Done line says failed={failed}")
    if len(statuses) != SECTIONS:
        errors.append(f"{len(statuses)} section status lines, expected {SECTIONS}")
    for sid, st in statuses:
        if st == "PASS":
            continue
        if sid not in allowed:
            errors.append(f"{sid}: status {st}")
            continue
        why = why_failed(sid, text)
        if why:
            errors.append(f"{sid}: {st}, not the way foreign RX bytes make it fail: {why}")
        else:
            print(f"note: {sid} FAIL, explained by foreign RX bytes (--may-fail)")


def s40_rx(log):
    """S40's `counter=rx` record as ints, or None."""
    for r in log.sections["S40"].records if "S40" in log.sections else []:
        if r.kind == "counter" and r.tag == "rx":
            return {k: int(v) for k, v in r.kv.items() if k != "counter"}
    return None


def s43_rx_at_reset(log):
    """RX counters since boot at S43's last counter reset, or None."""
    last = None
    for r in log.sections["S43"].records if "S43" in log.sections else []:
        if r.kind == "diag" and r.tag == "s43-loaded-group" and "rx_bytes_at_reset" in r.kv:
            last = {k[:-len("_at_reset")]: int(v) for k, v in r.kv.items()
                    if k.endswith("_at_reset")}
    return last


def accounting(args, inj, log, text, errors):
    """Print the figures; on the async backend check S40's RX counters."""
    marks = inj.marks
    taken_end = max([v[1] for v in marks.values()] + [0])
    print(f"injected: {inj.sent} wire bytes = flood {inj.flood_uart} B ({inj.escapes} 0xFF "
          f"as IAC IAC) + burst {inj.burst_sent} B + {inj.breaks_sent} BREAKs; QEMU took "
          f"{taken_end} by the last marker, {inj.sent - taken_end} never (still queued: QEMU "
          "reads the line only while its RX FIFO has room)")
    print("markers (host s, wire bytes taken): " +
          " ".join(f"{k}={v[1]}@{v[0]:.2f}" for k, v in marks.items()))
    s31 = re.search(r"^  status=\w+ rx_mode=loopback-mcr .* rx_dropped=(\d+) rx_overruns=(\d+)$",
                    text, re.M)
    lb_foreign = marks["s31_end"][1] - marks["s30"][1] if "s31_end" in marks and "s30" in marks else 0
    if s31:
        print(f"S31 loopback window: rx_dropped={s31.group(1)} rx_overruns={s31.group(2)} "
              f"({lb_foreign} foreign bytes taken during S30..S31)")
    rx = s40_rx(log)
    if log.manifest.get("backend") == "console":
        if rx is not None:
            errors.append("console backend printed RX counters")
        return
    if rx is None:
        errors.append("S40 printed no counter=rx line")
        return
    base = s43_rx_at_reset(log)
    if base is None:
        errors.append("S43 printed no rx_*_at_reset figures")
        return
    print("S40 since boot: " + " ".join(f"{k}={v}" for k, v in rx.items()))
    rx = {k: v - base.get(k, 0) for k, v in rx.items()}
    counted = rx["rx_bytes"] + rx["rx_dropped"]
    print("S40 (window: last S43 counter reset .. S40): " +
          " ".join(f"{k}={v}" for k, v in rx.items()))
    need = ("s31_end", "s43", "s43_reset", "s40")
    missing = [k for k in need if k not in marks]
    if missing:
        errors.append(f"markers not seen: {missing}")
        return
    if inj.burst_done_t is None or inj.burst_done_t > marks["s40"][0]:
        errors.append("the burst was not all taken by QEMU before S40 (host too slow?); "
                      "the window cannot be counted exactly")
        return
    want = inj.burst_sent + inj.breaks_sent        # a break delivers a NUL byte
    slack = (inj.q_at_quiet or 0) + 1              # flood leftovers, a byte in the FIFO
    print(f"window: sent {inj.burst_sent} B + {inj.breaks_sent} BREAKs after the reset; guest "
          f"counted {counted} (rx_bytes {rx['rx_bytes']} + rx_dropped {rx['rx_dropped']}), "
          f"expected {want}..{want + slack}")
    if not want <= counted <= want + slack:
        errors.append(f"S40 counted {counted} RX bytes, expected {want} "
                      f"(+ at most {slack} flood bytes still queued when the flood stopped)")
    since_s31 = marks["s43"][1] - marks["s31_end"][1]
    if since_s31 > RX_RING + 16:
        # Nothing reads the RX ring after S31: once it is full, every byte
        # must be counted as dropped, none as stored.
        if rx["rx_bytes"]:
            errors.append(f"{since_s31} B arrived after S31 with no reader (ring {RX_RING} B), "
                          f"yet rx_bytes={rx['rx_bytes']}: the ring took bytes it has no room for")
    if rx["rx_breaks"] != inj.breaks_sent:
        errors.append(f"rx_breaks={rx['rx_breaks']}, {inj.breaks_sent} BREAKs were sent in "
                      "the window")
    if rx["rx_overruns"]:
        errors.append(f"rx_overruns={rx['rx_overruns']}: QEMU feeds the FIFO only when it has "
                      "room, so outside MCR loopback an overrun means a lost byte in the driver")
    # Overruns: QEMU's loopback path pushes the looped-back bytes into the
    # RX FIFO without flow control, so a foreign byte already in the FIFO
    # makes the 16-byte loopback chunk overrun it. In realtime thousands of
    # foreign bytes arrive during S31; the driver must have counted some.
    if args.mode == "realtime" and lb_foreign >= 4096 and s31 and int(s31.group(2)) == 0:
        errors.append(f"{lb_foreign} foreign bytes arrived during S30..S31 but S31 counted no "
                      "overrun (LSR.OE) in its loopback")
    if rx["rx_framing"] or rx["rx_parity"]:
        errors.append("framing/parity errors counted; QEMU produces none")


def main():
    """Parse options, boot, flood, check, report."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--log", required=True, help="guest output (QEMU chardev logfile)")
    p.add_argument("--timeout", type=float, default=120, help="host seconds before QEMU is killed")
    p.add_argument("--mode", choices=["icount", "realtime"], default="realtime",
                   help="realtime (default): guest time = host time, so the flood keeps its "
                        "host rate through idle time; icount: -icount shift=N,sleep=off")
    p.add_argument("--budget", type=int, default=64 << 20, help="most flood bytes")
    p.add_argument("--flood-seconds", type=float, default=600, help="stop flooding after this")
    p.add_argument("--quiet-at", default="s42", choices=["s30", "s41", "s42"],
                   help="marker (section header) at which the flood stops")
    p.add_argument("--inflight", type=int, default=512,
                   help="most injected bytes queued ahead of QEMU")
    p.add_argument("--burst", type=int, default=512, help="bytes sent in the counted window")
    p.add_argument("--breaks", type=int, default=8, help="BREAKs sent in the counted window")
    p.add_argument("--may-fail", default="",
                   help="comma-separated sections allowed to FAIL, for the foreign-byte reason")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: from time)")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--wrap", default="", help="debugging: command to run QEMU under")
    p.add_argument("--socket-log", type=argparse.FileType("wb"),
                   help="debugging: save the guest output read from the socket")
    args = p.parse_args()
    args.log = os.path.abspath(args.log)
    if args.seed is None:
        args.seed = int(time.time())

    with open(os.path.join(args.image_dir, "qemu.json")) as f:
        desc = json.load(f)
    desc["shift"] = int(desc.get("icount_shift", 0))
    t0 = time.monotonic()
    status, inj = boot_and_flood(args, desc)
    try:
        with open(args.log, "rb") as f:
            raw = f.read()
    except OSError:
        raw = b""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(f"injector CPU: {ru.ru_utime + ru.ru_stime:.1f} s")
    print(f"{desc['board']}/{desc['backend']} ({args.mode}, seed {args.seed}): exit status "
          f"{status} after {time.monotonic() - t0:.1f} s, {len(raw)} B logged"
          f"{', connection reset at exit' if inj.reset else ''} (log: {args.log})")
    errors = []
    if status == 124:
        errors.append(f"TIMEOUT: guest still running after {args.timeout:g} s, killed")
    text = raw.decode("utf-8", "replace").replace("\r\n", "\n")
    log = parse.parse_bytes(raw, args.log)
    an = recompute.analyze(log)
    structural_checks(args, status, text, errors)
    if not an.payloads:
        errors.append("no payload witness found")
    for tag, verdict, detail in an.payloads:
        if verdict != "match":
            errors.append(f"TX payload {tag}: {verdict} ({detail})")
    for flag in an.flags:
        errors.append(f"recompute: {flag}")
    print(f"TX payloads: {sum(v == 'match' for _, v, _ in an.payloads)} of "
          f"{len(an.payloads)} witnesses match their CRC")
    accounting(args, inj, log, text, errors)
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print("ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
