#!/usr/bin/python3
"""Every boot argument key refuses a bad value: the keys the image
registers (the list its refusal of an unknown key names) must be exactly
the keys the image's sources read (bootarg("KEY", ...) under src/ and
bench/, the hosted shim's own aside); then each key gets a value no form
of any key has, and each boot must stop before any section with status
101, naming the key's valid forms. An unknown key and an argument that is
not key=value are refused the same way. The arguments are written into a
copy of the image (as scripts/d1-flash does), where none of qemu-run's
own (qemu_mode=, icount_shift=) is."""
import argparse
import os
import re
import sys

import qemu_boot
from check_image_bootargs import boot

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
BAD = "%bad%"
READ_RE = re.compile(r'\bbootarg\("([a-z0-9_]+)"')
S00 = r"^=== \[S00\]"


def keys_read(root=ROOT):
    """The keys the image's C sources pass to bootarg()."""
    found = set()
    for top in ("src", "bench"):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [x for x in dirs if x != "hosted"]
            for f in files:
                if f.endswith(".c"):
                    with open(os.path.join(d, f)) as src:
                        found |= set(READ_RE.findall(src.read()))
    return found


def refused(args, arg, expect, where="image"):
    """Errors of one boot with the boot argument arg in the image (where
    "image") or on QEMU's command line ("qemu": a word the image's place
    cannot hold): it must exit 101 with a line matching expect, before any
    section."""
    tag = re.sub(r"[^a-z0-9_]", "-", arg)
    if where == "image":
        status, text = boot(args, [arg], [], tag)
        text = text.replace("\r\n", "\n")
    else:
        log = os.path.join(args.work, tag + ".log")
        status, text = qemu_boot.boot(args.image_dir, log, [arg], timeout=60)
    errors = [] if status == 101 else ["exit status %d, not 101" % status]
    errors += ["no line matches %r" % expect] if not re.search(expect, text, re.M) else []
    errors += ["a section ran"] if re.search(S00, text, re.M) else []
    return errors, text


def main():
    """Walk the table; exit 0 when every refusal is there, 1 otherwise."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", required=True, help="the image's build directory")
    p.add_argument("--work", required=True, help="directory for the image copies and logs")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    errors, text = refused(args, "nosuchkey=1",
                           r"^unknown boot argument nosuchkey=1; valid keys: [a-z0-9_, ]+$")
    m = re.search(r"^unknown boot argument nosuchkey=1; valid keys: (.*)$", text, re.M)
    if not m:
        print("FAIL nosuchkey=1: %s" % "; ".join(errors))
        return 1
    keys = m.group(1).split(", ")
    read = keys_read()
    if set(keys) != read:
        errors.append("keys registered but read nowhere: %s; read but not registered: %s"
                      % (sorted(set(keys) - read) or "none", sorted(read - set(keys)) or "none"))
    if keys != sorted(keys):
        errors.append("the valid keys are not listed in order: %s" % ", ".join(keys))
    e, _ = refused(args, keys[0], r"^unknown boot argument %s \(not key=value\); valid keys: "
                   % re.escape(keys[0]), where="qemu")
    errors += ["%s alone: %s" % (keys[0], x) for x in e]
    for key in keys:
        e, _ = refused(args, "%s=%s" % (key, BAD),
                       r"^bad boot argument %s=%s; valid forms: \S" % (re.escape(key),
                                                                      re.escape(BAD)))
        errors += ["%s=%s: %s" % (key, BAD, x) for x in e]
        print("%s %s=%s" % ("FAIL" if e else "ok  ", key, BAD))
    for e in errors:
        print("FAIL " + e)
    print("%d keys, each refuses a bad value" % len(keys) if not errors else
          "%d finding(s)" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
