#!/usr/bin/python3
"""uartbench-hosted's refusals: each bad command line or unusable tty ends
the run before any section, with its message on stderr, nothing on the
log, and its exit status (101: a bad command line or operating point, as
the kernel's bad boot argument; 102: a tty that cannot be used); as
/init (--init) the options come from the environment, and the refusals
name them as boot arguments (tty=, baud=, quick=, qemu_mode=,
icount_shift=). And --help: the usage, status 0."""
import argparse
import os
import re
import stat
import sys
import tempfile

from pty_run import FarEnd, run

USAGE, TTY = 101, 102


def cases(far_path, regular):
    """(name, args, status, stderr regex, preexec) of every refusal."""
    sections = "S00,S05,S06,S10,S11,S12,S13,S14,S20,S21,S30,S31,S32,S33,S41,S42,S43,S40,S50"
    good = ["--tty", far_path, "--baud", "115200"]
    return [
        ("missing-tty", ["--baud", "115200"], USAGE, r"--tty PATH is missing"),
        ("missing-baud", ["--tty", far_path], USAGE, r"--baud N is missing"),
        ("unknown-option", good + ["--bogus"], USAGE, r"--bogus: unknown option"),
        ("bad-path", ["--tty", "/nonexistent/ttyX", "--baud", "115200"], TTY,
         r"/nonexistent/ttyX: cannot open: No such file or directory \(ENOENT\)"),
        ("not-a-tty", ["--tty", regular, "--baud", "115200"], TTY,
         re.escape(regular) + r": not a tty \(ENOTTY\)"),
        ("unknown-section", good + ["--sections", "S10,S99"], USAGE,
         r"--sections: 'S99' is not a section; valid values: " + sections + "$"),
        ("bad-baud", ["--tty", far_path, "--baud", "12345"], USAGE,
         r"--baud 12345: not a speed of termios; valid values: 50,75,.*,115200,.*,4000000$"),
        ("baud-not-a-number", ["--tty", far_path, "--baud", "fast"], USAGE,
         r"--baud fast: not a baud"),
        ("bad-stream", good + ["--far-end-stream", "65536@1:32"], USAGE,
         r"--far-end-stream 65536@1:32: not BYTES@START\[:SEED\] \(BYTES 1\.\.16777216, "),
        ("stream-too-long", good + ["--far-end-stream", "16777217@1s"], USAGE,
         r"--far-end-stream 16777217@1s: not BYTES@START"),
        ("bad-far-end", good + ["--far-end", "internal"], USAGE,
         r"--far-end internal: valid value: external$"),
        ("far-end-and-stream", good + ["--far-end", "external", "--far-end-stream", "1@1s"],
         USAGE, r"--far-end external and --far-end-stream 1@1s: one far end or the other$"),
        ("bad-trigger", good + ["--rx-trigger", "3"], USAGE,
         r"--rx-trigger 3: valid values: 1, 4, 8, 14 \(bytes in the RX FIFO\)$"),
        ("trigger-on-pty", good + ["--rx-trigger", "8"], TTY,
         r"--rx-trigger 8: cannot set it in /sys/class/tty/\S+/rx_trig_bytes: .* \(the tty's "
         r"driver shows no RX trigger\)$"),
        ("init-with-options", ["--init", "--tty", far_path], USAGE,
         r"--init takes the options from the environment, not the command line"),
    ]


def init_cases(far_path):
    """(name, environment, status, stderr regex) of every refusal as /init."""
    good = {"tty": far_path, "baud": "115200"}
    return [
        ("init-missing-tty", {"baud": "115200"}, USAGE, r"^uartbench-hosted: tty= is missing"),
        ("init-missing-baud", {"tty": far_path}, USAGE, r"^uartbench-hosted: baud= is missing"),
        ("init-bad-baud", dict(good, baud="fast"), USAGE, r"baud=fast: not a baud"),
        ("init-bad-quick", dict(good, quick="yes"), USAGE, r"quick=yes: valid values: 0, 1$"),
        ("init-bad-mode", dict(good, qemu_mode="fast"), USAGE,
         r"qemu_mode=fast: valid values: icount, realtime$"),
        ("init-bad-shift", dict(good, icount_shift="11"), USAGE,
         r"icount_shift=11: valid values: 0\.\.10$"),
        ("init-unknown-section", dict(good, sections="S99"), USAGE,
         r"sections=: 'S99' is not a section"),
        ("init-bad-stream", dict(good, far_end_stream="1@1s:4294967296"), USAGE,
         r"far_end_stream=1@1s:4294967296: not BYTES@START"),
        ("init-bad-far-end", dict(good, far_end="yes"), USAGE,
         r"far_end=yes: valid value: external$"),
        ("init-bad-path", dict(good, tty="/nonexistent/ttyX"), TTY,
         r"/nonexistent/ttyX: cannot open"),
    ]


def no_permission(binary, far):
    """EACCES: the tty's mode forbids the user (root: run as nobody on a
    root-only tty; others: a tty of theirs with mode 000)."""
    root = os.geteuid() == 0
    os.chmod(far.path, stat.S_IRUSR | stat.S_IWUSR if root else 0)
    return run(binary, ["--tty", far.path, "--baud", "115200"], **({"user": 65534} if root else {}))


def main():
    """Run every case; one line per case, FAIL lines for the wrong ones."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--binary", required=True)
    args = p.parse_args()
    errors = []
    far = FarEnd()
    with tempfile.NamedTemporaryFile(prefix="not-a-tty-") as regular:
        results = [(n, a, s, r, run(args.binary, a)) for n, a, s, r in cases(far.path,
                                                                             regular.name)]
    for name, env, status, pattern in init_cases(far.path):
        clean = {k: v for k, v in os.environ.items()
                 if k not in ("tty", "baud", "sections", "quick", "qemu_mode", "icount_shift")}
        results.append((name, ["--init"], status, pattern,
                        run(args.binary, ["--init"], env=dict(clean, **env))))
    results.append(("no-permission", [], TTY, r": cannot open: Permission denied \(EACCES\); is "
                    r"the user in the tty's group", no_permission(args.binary, far)))
    help_status, help_out, _, _ = run(args.binary, ["--help"])
    raw = far.stop()
    for name, argv, want, pattern, (status, out, err, _) in results:
        ok = status == want and re.search(pattern, err, re.M) and not out
        print(f"{name}: status {status} (want {want}): {err.strip().splitlines()[0] if err else ''}")
        if not ok:
            errors.append(f"{name}: status {status}, stdout {len(out)} bytes, stderr {err!r}; "
                          f"want status {want} and /{pattern}/")
    if help_status != 0 or not help_out.startswith(b"usage: uartbench-hosted --tty PATH --baud N"):
        errors.append(f"--help: status {help_status}, {help_out[:60]!r}")
    if raw:
        errors.append(f"the refused runs wrote {len(raw)} bytes to the tty")
    for e in errors:
        print(f"FAIL: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
