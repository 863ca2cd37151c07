#!/usr/bin/python3
"""The option checks of scripts/linux-peer/build-kernel (--config-only, on
the cached unpacked source): the fragment passes, and each broken copy of
it stops the configuration with status 1 and a message naming the option
that went wrong:

  no CONFIG_FPU line        CONFIG_FPU is not =y ... the Linux peer needs it
  a symbol that is no Kconfig symbol   CONFIG_SERIAL_8250_CONSOL=y ... did not end up
  no CONFIG_NONPORTABLE     PORTABLE selects EFI: '# CONFIG_EFI is not set' fails

Every run starts from the tinyconfig the kernel's build kept (--built
DIR/obj/tinyconfig.config, copied into the scratch tree): the first
run's log has no make tinyconfig, and its final .config is the build's
(DIR/config), so the kept tinyconfig gives what a fresh one gave.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# (name, edit of the fragment's lines, regex the message must match)
CASES = [
    ("no-fpu", lambda ls: [l for l in ls if l != "CONFIG_FPU=y"],
     r"CONFIG_FPU is not =y in the final \.config, and the Linux peer needs it "
     r"\(Debian's riscv64 glibc is hard-float: without it /init dies of SIGILL\)"),
    ("unknown-symbol", lambda ls: [l.replace("CONFIG_SERIAL_8250_CONSOLE=y",
                                             "CONFIG_SERIAL_8250_CONSOL=y") for l in ls],
     r"CONFIG_SERIAL_8250_CONSOL=y asked for by \S+ did not end up in the final \.config: "
     r"it is not set there"),
    ("no-nonportable", lambda ls: [l for l in ls if l != "CONFIG_NONPORTABLE=y"],
     r"CONFIG_EFI is CONFIG_EFI=y in the final \.config, but \S+ asks "
     r"'# CONFIG_EFI is not set'"),
]


def run(args, fragment, work):
    """build-kernel --config-only on one fragment: (status, output)."""
    r = subprocess.run([sys.executable, args.build_kernel, "--config-only", "--out", work,
                        "--source", args.source, "--source-dir", args.source_dir,
                        "--fragment", fragment],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False)
    return r.returncode, r.stdout + r.stderr


def read(path):
    """A file's text ("" when it does not exist)."""
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def seed_tinyconfig(args):
    """The build's kept tinyconfig (and its key) into the scratch tree."""
    obj = os.path.join(args.work, "obj")
    os.makedirs(obj, exist_ok=True)
    for name in ("tinyconfig.config", "tinyconfig.id"):
        shutil.copyfile(os.path.join(args.built, "obj", name), os.path.join(obj, name))


def check_kept_tinyconfig(args, first):
    """The first run on the kept tinyconfig: no make tinyconfig in its
    log, and the build's final .config."""
    log = read(os.path.join(args.work, "build.log"))
    if " tinyconfig\n" in log:
        return [f"the run on the kept tinyconfig ran make tinyconfig, log:\n{log}"]
    if first != read(os.path.join(args.built, "config")):
        return ["the kept tinyconfig and the fragment give another .config than the build's "
                f"{os.path.join(args.built, 'config')}"]
    print("ok: on the kept tinyconfig (no make tinyconfig), the build's own final .config")
    return []


def main():
    """The fragment, then every broken copy; exit 0 only if all behaved."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-kernel", required=True)
    p.add_argument("--fragment", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--source-dir", required=True, help="the build's unpacked source")
    p.add_argument("--work", required=True, help="scratch directory")
    p.add_argument("--built", required=True,
                   help="the kernel's build directory (its obj/tinyconfig.config and config)")
    args = p.parse_args()
    if not os.path.isfile(os.path.join(args.source_dir, ".source-id")):
        print(f"FAIL: {args.source_dir} holds no unpacked source: build linux-peer-kernel first")
        return 1
    seed_tinyconfig(args)
    errors = []
    status, out = run(args, args.fragment, args.work)
    first = read(os.path.join(args.work, "obj", ".config"))
    errors += check_kept_tinyconfig(args, first)
    if status != 0 or "options as asked" not in out:
        errors.append(f"the fragment itself: status {status}\n{out}")
    else:
        print(f"ok: {args.fragment}: {out.strip().splitlines()[-1]}")
    with open(args.fragment) as f:
        lines = f.read().splitlines()
    for name, edit, rx in CASES:
        broken = os.path.join(args.work, f"{name}.config")
        with open(broken, "w") as f:
            f.write("\n".join(edit(lines)) + "\n")
        status, out = run(args, broken, args.work)
        if status != 1 or not re.search(rx, out):
            errors.append(f"{name}: status {status}, expected 1 and a line matching {rx!r}:\n"
                          f"{out}")
        else:
            print(f"ok: {name}: {re.search(rx, out).group(0)}")
    for e in errors:
        print(f"FAIL: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
