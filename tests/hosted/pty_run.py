"""Run uartbench-hosted on the slave side of a pty pair held by this
process, capturing on the master side every byte the benchmark writes
to the tty: the far end of the line. Used by check_pty.py,
check_errors.py and check_small_kernel.py."""
import argparse
import os
import select
import subprocess
import threading
import time


class FarEnd:
    """A pty pair: the benchmark gets the slave's path; a thread reads the
    master (the far end) into .data until stop()."""

    def __init__(self):
        """Open the pair; the slave stays open here too (a master read
        fails with EIO while no one holds the slave)."""
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.data = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        """Reader thread: everything the master gets, until stopped and quiet."""
        while True:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                self.data.extend(chunk)
            elif self._stop.is_set():
                return

    def stop(self):
        """Read what is left, stop the reader, close the pair; the capture."""
        self._stop.set()
        self._thread.join(10)
        os.close(self.master)
        os.close(self.slave)
        return bytes(self.data)


def arg_parser(doc, timeout):
    """The checkers' command line: --binary, --log, --baud, --timeout (the
    given default); the caller adds its own."""
    p = argparse.ArgumentParser(description=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", required=True, help="uartbench-hosted")
    p.add_argument("--log", required=True, help="where to keep the log (stdout)")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--timeout", type=float, default=timeout)
    return p


def finish(lines, errors, summary):
    """A checker's end: its figures (lines), each error as `FAIL: `, then
    the summary; the exit status (1 with any error)."""
    for line in lines:
        print(line)
    for e in errors:
        print(f"FAIL: {e}")
    print(summary)
    return 1 if errors else 0


def run(binary, args, log_path=None, timeout=50, **kw):
    """Run binary with args; (exit status, stdout bytes, stderr text, seconds).
    With log_path, stdout goes to that file as well."""
    t0 = time.monotonic()
    proc = subprocess.run([binary] + args, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=timeout, **kw)
    if log_path:
        with open(log_path, "wb") as fh:
            fh.write(proc.stdout)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace"), \
        time.monotonic() - t0
