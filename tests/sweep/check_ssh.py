#!/usr/bin/python3
"""scripts/sweep over GNU parallel's multi-machine path (--sshloginfile), for
real, on this machine's loopback: an sshd of the test's own (a temporary
host key and authorised key, a free port, 127.0.0.1 only, this user),
an sshloginfile naming it, both points sent there (GNU parallel's joblog
names that host for each), the points' logs back in OUT, and the
frontier (report --sweep) the same as that of a local run of the same
points. Needs Debian's openssh-server and openssh-client (scripts/install-deps).

  check_ssh.py --images DIR --out DIR
"""
import argparse
import getpass
import os
import re
import shutil
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SWEEP = os.path.join(ROOT, "scripts/sweep")
REPORT = os.path.join(ROOT, "bench/report/report")
SSHD = "/usr/sbin/sshd"
# Two points of about a second each: async and console at 3 Mbaud, FIFO
# 16, 125 MHz, on the emulator's line.
POINTS = ["--line", "device", "--backends", "async,console", "--bauds", "3000000",
          "--fifos", "16", "--cpus", "3", "--triggers", "1", "-j", "2"]


def fail(what, text=""):
    """Stop with what went wrong."""
    sys.exit("FAIL: %s%s" % (what, "\n" + text if text else ""))


def free_port():
    """A TCP port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_sshd(work):
    """An sshd on a free loopback port with a fresh host key, accepting a
    fresh key of this user's; (process, port, ssh command line)."""
    for name in ("host", "user"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                        os.path.join(work, name)], check=True)
    shutil.copy(os.path.join(work, "user.pub"), os.path.join(work, "authorized_keys"))
    os.chmod(os.path.join(work, "authorized_keys"), 0o600)
    port = free_port()
    conf = os.path.join(work, "sshd_config")
    with open(conf, "w", encoding="utf-8") as fh:
        fh.write("Port %d\nListenAddress 127.0.0.1\nHostKey %s\nAuthorizedKeysFile %s\n"
                 "PidFile %s\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                 "UsePAM no\nStrictModes no\nPermitRootLogin prohibit-password\n"
                 "AllowUsers %s\n" % (port, os.path.join(work, "host"),
                                      os.path.join(work, "authorized_keys"),
                                      os.path.join(work, "sshd.pid"), getpass.getuser()))
    if os.geteuid() == 0:
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)   # its privilege separation dir
    proc = subprocess.Popen([SSHD, "-D", "-e", "-f", conf],
                            stderr=open(os.path.join(work, "sshd.log"), "w"))
    ssh = "ssh -p %d -i %s -o BatchMode=yes -o StrictHostKeyChecking=no " \
          "-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR %s@127.0.0.1" % (
              port, os.path.join(work, "user"), getpass.getuser())
    for _ in range(100):                    # until it answers (or 10 s)
        if subprocess.run(ssh.split() + ["true"], capture_output=True).returncode == 0:
            return proc, port, ssh
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    with open(os.path.join(work, "sshd.log"), encoding="utf-8", errors="replace") as fh:
        fail("sshd on 127.0.0.1:%d did not accept the key" % port, fh.read())


def sweep(images, out, extra):
    """scripts/sweep over POINTS into out; (status, output)."""
    res = subprocess.run([sys.executable, SWEEP, "--images", images, "--out", out] + POINTS +
                         extra, capture_output=True, text=True, check=False)
    return res.returncode, res.stdout + res.stderr


def frontier(out):
    """The frontier tables of out's sweep.md (everything before its plots)."""
    with open(os.path.join(out, "sweep.md"), encoding="utf-8") as fh:
        text = fh.read()
    return text.split("## Plots", 1)[0].split("\n", 3)[3]   # without the folder's name


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--images", required=True)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    work = os.path.join(a.out, "ssh")
    os.makedirs(work)
    if not os.path.exists(SSHD) or not shutil.which("ssh"):
        fail("%s or ssh not found: install Debian's openssh-server and openssh-client "
             "(scripts/install-deps does)" % SSHD)
    proc, port, ssh = start_sshd(work)
    try:
        logins = os.path.join(work, "sshloginfile")
        with open(logins, "w", encoding="utf-8") as fh:
            fh.write("2/%s\n" % ssh)                     # no ':' line: nothing runs locally
        status, text = sweep(a.images, os.path.join(a.out, "remote"),
                             ["--sshloginfile", logins])
    finally:
        proc.terminate()
        proc.wait()
    if status != 0 or "2 points in " not in text or "2 complete" not in text:
        fail("the sweep over ssh: exit %d, want 2 complete points" % status, text)
    with open(os.path.join(a.out, "remote", "joblog"), encoding="utf-8") as fh:
        rows = [line.split("\t") for line in fh.read().splitlines()[1:]]
    hosts = {r[1] for r in rows}
    if len(rows) != 2 or not all("127.0.0.1" in h for h in hosts):
        fail("joblog: want 2 jobs, each on %s, got hosts %r" % (ssh, hosts))
    logs = [n for n in os.listdir(os.path.join(a.out, "remote", "logs")) if n.endswith(".log")]
    if len(logs) != 2:
        fail("want the 2 points' logs in OUT/remote/logs, got %r" % logs)
    status, text = sweep(a.images, os.path.join(a.out, "local"), [])
    if status != 0:
        fail("the local sweep: exit %d" % status, text)
    remote, local = frontier(os.path.join(a.out, "remote")), frontier(os.path.join(a.out, "local"))
    if remote != local:
        fail("the frontier over ssh differs from the local one",
             "--- ssh ---\n%s\n--- local ---\n%s" % (remote, local))
    rows_md = re.findall(r"^\| (async|console) \| 16 \| [^|]+ \|$", remote, re.M)
    if sorted(rows_md) != ["async", "console"]:
        fail("the frontier has no row for async and console at FIFO 16", remote)
    print("ok: 2 points sent to an sshd of our own on 127.0.0.1:%d through --sshloginfile, "
          "their logs back, the frontier equal to a local run's" % port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
