#!/usr/bin/python3
"""scripts/profile and the trace reading it shares with scripts/tx-path
(scripts/exec_trace.py).

- executed(), on made-up blocks: a block QEMU ended early (the next one
  starts inside it) counts up to the next one's start, not twice; a
  block that loops back to itself counts each time; a block logged again
  at its own start counts again (a loop).
- trace_pcs(), on a made-up trace: a block QEMU rewound at an I/O access
  that is its first instruction (the block of the access alone follows,
  at the same address) ran nothing and is left out; one rewound at an
  access further in stays (it ran up to the access); a block logged and
  then not entered (its chain stopped before it: the instruction budget
  ran out) ran nothing and is left out.
- On a quick image: the refill window of S41 (every trap that ran the
  async engine's TX interrupt) and the write-drain window of S20; each
  profile adds up (its functions' and its files' counts both give the
  total), starts at the trap vector and holds the TX interrupt, and the
  refill's total is the instructions its functions ran."""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.dont_write_bytecode = True
from exec_trace import executed, trace_pcs  # noqa: E402

TB = "Trace 0: 0x7f0 [0000000000000000/%016x/0020f001/%s]\n"
REWOUND = "cpu_io_recompile: rewound execution of TB to %016x\n"
STOPPED = "Stopped execution of TB chain before 0x7f0 [%016x] \n"


def unit(errors):
    """executed() on two made-up basic blocks: 0,2,4 (a branch at 4) and 6,8 (a branch at 8)."""
    addrs, ends = [0, 2, 4, 6, 8], {4, 8}
    cases = [([0], {0: 1, 2: 1, 4: 1}, "one block"),
             ([0, 2], {0: 1, 2: 1, 4: 1}, "a block ended early at 2"),
             ([0, 0], {0: 2, 2: 2, 4: 2}, "a loop"),
             ([2, 6, 0], {2: 2, 4: 2, 6: 1, 8: 1, 0: 1}, "three blocks")]
    for tbs, want, what in cases:
        got = executed(tbs, addrs, ends)
        if got != want:
            errors.append(f"executed({tbs}): {got}, want {want} ({what})")


def parse(errors, tmp):
    """trace_pcs() on three made-up traces."""
    cases = [(TB % (0, "ff020200") + TB % (8, "ff020200") + REWOUND % 8 + TB % (8, "ff038201") +
              TB % (12, "ff020200"), [0, 8, 12], "an access first in its block"),
             (TB % (0, "ff020200") + REWOUND % 0 + TB % (6, "ff038201") + TB % (0, "ff020200"),
              [0, 6, 0], "an access further in"),
             (TB % (0, "ff020200") + TB % (8, "ff020200") + STOPPED % 8 + TB % (8, "ff02020a") +
              TB % (12, "ff020200"), [0, 8, 12], "a block logged, then not entered")]
    for text, want, what in cases:
        path = os.path.join(tmp, "trace")
        with open(path, "w") as fh:
            fh.write(text)
        got = trace_pcs(path)
        if got != want:
            errors.append(f"trace_pcs: {got}, want {want} ({what})")


def profile(image, window, errors):
    """One run of scripts/profile; its output."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/profile"), "--image-dir",
                        image, "--window", window], capture_output=True, text=True, check=False)
    out = r.stdout + r.stderr
    if r.returncode != 0:
        errors.append(f"profile --window {window}: exit {r.returncode}: {out[-400:]}")
        return ""
    total = int(re.search(r"(\d+) instructions\n", out).group(1))
    fns = re.findall(r"^ +(\d+)  ([A-Za-z_.0-9]+)$", out.split("  instructions  file")[0], re.M)
    files = re.findall(r"^ +(\d+)  (\S+)$", out.split("  instructions  file")[1], re.M)
    if sum(int(n) for n, _ in fns) != total or sum(int(n) for n, _ in files) != total:
        errors.append(f"profile --window {window}: functions {sum(int(n) for n, _ in fns)}, "
                      f"files {sum(int(n) for n, _ in files)}, total {total}")
    names = {f for _, f in fns}
    want = {"trap_entry", "async_tx_irq"} if window == "refill" else {"write", "tcdrain"}
    if not want <= names:
        errors.append(f"profile --window {window}: no {want - names} in {sorted(names)}")
    return out


def main():
    errors = []
    unit(errors)
    with tempfile.TemporaryDirectory() as tmp:
        parse(errors, tmp)
    refill = profile(sys.argv[1], "refill", errors)
    drain = profile(sys.argv[1], "write-drain", errors)
    print(refill.splitlines()[0] if refill else "", drain.splitlines()[0] if drain else "",
          sep="\n")
    for e in errors:
        print(f"FAIL: {e}")
    print("profile: " + ("FAIL" if errors else "ok"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
