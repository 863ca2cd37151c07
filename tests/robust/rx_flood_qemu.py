"""RX flood on QEMU (rx_flood.py): QEMU's launch on a listening TCP socket
chardev, the duplicate of QEMU's end of the connection, and the injector's
run until the guest exits."""
import ctypes
import os
import socket
import subprocess
import time

from qemu_line import build_command
from rx_flood_inject import Injector

SYS_PIDFD_GETFD = 438       # same number on every Linux architecture


def qemu_command(desc, args, fd):
    """QEMU argv: the image as scripts/qemu-run boots it (qemu_line), the
    UART on fd."""
    args.icount_shift, args.smp, args.append, args.qemu_args = desc["shift"], 1, [], []
    chardev = f"socket,id=uart0,fd={fd},server=on,wait=on,telnet=on,logfile={args.log}"
    return build_command(desc, args, chardev)


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
