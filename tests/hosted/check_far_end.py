#!/usr/bin/python3
"""uartbench-hosted with its far end outside (--far-end external) on a
pty: S32 and S33 ask the far end at the pty's master side for their
streams, and it answers (scripts/far_end_line.py, as scripts/far-end
does on a real port). Checks:

- exit status 0, S32 and S33 PASS, the manifest's peer=external;
- each section's stream: the far end was asked for the section's bytes
  and seed, sent them all, and the section's figures hold against that
  ground truth: sent = the far end's sent, received + lost = sent, and,
  with nothing lost, the CRC of what the section read = the CRC of what
  the far end sent;
- the capture, the requests taken out, is S33's TX payload, whole
  (scripts/payload_witness.py), and nothing else;
- `report --check` on the log is clean."""
import os
import re
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "report"))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from uartreport import check, parse  # noqa: E402
import payload_witness as witness  # noqa: E402
from far_end_line import FarEnd  # noqa: E402
sys.path.insert(0, HERE)
from pty_run import arg_parser  # noqa: E402

SEEDS = {"S32": 32, "S33": 33}


def serve(binary, baud, log_path, timeout):
    """Run the binary on a pty's slave, the far end on its master, until
    it exits; (status, stdout, stderr, the far end)."""
    master, slave = os.openpty()
    os.set_blocking(master, False)
    proc = subprocess.Popen([binary, "--tty", os.ttyname(slave), "--baud", str(baud), "--quick",
                             "--sections", "S32,S33", "--far-end", "external"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)

    def read(wait):
        """What the binary wrote on the tty; None once it exited and all is read."""
        ready, _, _ = select.select([master], [], [], wait)
        if ready:
            try:
                return os.read(master, 65536)
            except (BlockingIOError, OSError):
                return b""
        return None if proc.poll() is not None else b""

    def write(data):
        """What the tty's input takes now."""
        try:
            return os.write(master, data)
        except BlockingIOError:
            return 0

    far = FarEnd(read, write, baud)
    end = time.monotonic() + timeout
    far.run(until=lambda _: time.monotonic() > end)
    try:
        out, err = proc.communicate(timeout=max(end - time.monotonic(), 1))
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    os.close(master)
    os.close(slave)
    with open(log_path, "wb") as fh:
        fh.write(out)
    return proc.returncode, out, err.decode(errors="replace"), far


def check_streams(log, far, errors):
    """Each section's stream against the far end's ground truth."""
    for sid, seed in SEEDS.items():
        streams = [s for s in far.streams if s["seed"] == seed]
        recs = log.records(sid, kind="diag", tag=sid.lower() + "-rx")
        if len(streams) != 1 or not recs:
            errors.append(f"{sid}: {len(streams)} streams of seed {seed} asked, "
                          f"{len(recs)} rx records")
            continue
        s, r = streams[0], recs[0]
        sent, got, lost = (int(r.get(k, "-1")) for k in ("sent", "received", "lost"))
        if s["sent"] != s["bytes"] or sent != s["sent"]:
            errors.append(f"{sid}: the far end sent {s['sent']} of {s['bytes']}, the section "
                          f"says sent={sent}")
        if got + lost != sent:
            errors.append(f"{sid}: received {got} + lost {lost} != sent {sent}")
        if lost == 0 and r.get("crc_rx") != "0x%08x" % s["crc"]:
            errors.append(f"{sid}: crc_rx={r.get('crc_rx')}, the far end sent "
                          f"0x{s['crc']:08x}")
        st = log.statuses.get(sid)
        if st is None or st.get("status") != "PASS":
            errors.append(f"{sid}: status {st and st.get('status')} "
                          f"reason {st and st.get('reason')}")


def check_external(log, far, raw, errors):
    """A log of S32 and S33 with the far end outside (far, its streams)
    and what the far end captured (raw): peer=external, each stream, S33's
    TX payload whole in the capture, `report --check`; the check's result."""
    if log.manifest.get("peer") != "external":
        errors.append(f"manifest peer={log.manifest.get('peer')}, expected external")
    check_streams(log, far, errors)
    found = witness.raw_witnesses(raw)
    if [t for t, v, _ in found if v == "match"] != ["s33-tx"]:
        errors.append(f"far end: witnesses {found}, expected s33-tx whole")
    result = check.check_log(log)
    errors += [f"check: {f.section} {f.key}: {f.what}" for f in result.findings]
    return result


def verdict(path, result, errors):
    """Every failure, the check's verdict; the exit status."""
    for e in errors:
        print(f"FAIL: {e}")
    print(f"{path}: {check.verdict(result)}")
    return 1 if errors else 0


def main():
    """Run, check, report."""
    p = arg_parser(__doc__, 40)
    args = p.parse_args()
    status, out, err, far = serve(args.binary, args.baud, args.log, args.timeout)
    with open(args.log + ".far-end", "wb") as fh:
        fh.write(far.capture)
    with open(args.log + ".far-end.json", "w") as fh:
        fh.write(far.truth())
    errors = [] if status == 0 else [f"exit status {status}: {err.strip()[-400:]}"]
    log = parse.parse_bytes(out, args.log)
    raw = bytes(far.capture)
    result = check_external(log, far, raw, errors)
    rest = re.sub(witness.WITNESS_RE.pattern + rb"\r\n", b"", raw, flags=re.S)
    if rest:
        errors.append(f"far end: {len(rest)} bytes outside the witnesses: {rest[:80]!r}")
    for s in far.streams:
        print(f"stream {s['stream']} seed {s['seed']}: sent {s['sent']} of {s['bytes']} "
              f"({s['end']}), crc32 0x{s['crc']:08x}")
    return verdict(args.log, result, errors)


if __name__ == "__main__":
    sys.exit(main())
