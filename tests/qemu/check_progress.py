#!/usr/bin/python3
"""scripts/qemu-run --progress (the main job's run-brief target): a quick
image's whole suite, and on the terminal one line per section as it
ends, its status the log's and its key figure the log's last value of
that key (scripts/progress_line.py), the Done line, and the run's own
lines, nothing of the raw log; the log whole in its file."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    image, log = sys.argv[1], sys.argv[2]
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/qemu-run"), "--image-dir",
                        image, "--progress", "--log", log, "--timeout", "120"],
                       capture_output=True, text=True, check=False)
    out = r.stdout.splitlines()
    with open(log, encoding="ascii", errors="replace") as fh:
        text = fh.read()
    statuses = re.findall(r"^\s*section=(S\d\d) status=(\S+)", text, re.M)
    errors = [] if r.returncode == 0 else [f"qemu-run exit {r.returncode}: {r.stderr[-300:]}"]
    got = [tuple(ln.split()[:2]) for ln in out if re.match(r"S\d\d ", ln)]
    if got != statuses or not statuses:
        errors.append(f"progress lines {got}, the log's sections {statuses}")
    if len(out) != len(statuses) + 1 or not out[-1].startswith("Done. sections="):
        errors.append(f"{len(out)} lines on stdout for {len(statuses)} sections:\n"
                      + "\n".join(out[:40]))
    s41 = re.findall(r"median_instructions_per_byte=(\S+)", text)
    line = next((ln for ln in out if ln.startswith("S41 ")), "")
    if not s41 or f"instructions per byte {s41[-1]}," not in line:
        errors.append(f"S41's line {line!r}, the log's last median {s41[-1:]}")
    if "Done. sections=" not in text or len(text.splitlines()) < 3 * len(out):
        errors.append("the log file is not the whole log")
    for e in errors:
        print(f"FAIL: {e}")
    print("\n".join(out))
    print("progress: " + ("FAIL" if errors else "ok"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
