#!/usr/bin/python3
"""scripts/qemu/build's cache and its refusals, without building QEMU
again: each case works in a scratch folder beside the real build (whose
downloaded source package it links to).

Cases (--case):
  uptodate    the real build's binary is up to date: --check says so
              (status 0) and a build runs nothing, in well under a second
  stale       a patch that differs by one byte makes the binary out of
              date (--check: status 1, "the patches changed")
  tool        a build with ninja missing from PATH stops before any work,
              naming the Debian package (ninja-build)
  unreachable a mirror that cannot be reached stops the fetch with one
              message naming what to do
  badpatch    a patch that does not apply stops after the unpack, naming
              the patch and the source package's version
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.path.join(ROOT, "scripts", "qemu", "build")
PATCHES = os.path.join(ROOT, "scripts", "qemu", "patches")


def run(args, env=None):
    """The build script with args: (status, stdout + stderr, seconds)."""
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, BUILD, *args], capture_output=True, text=True,
                       env=env, check=False, stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout + r.stderr, time.monotonic() - t0


def scratch_out(real, tmp, with_binary=True):
    """A build folder that shares the real one's source package (dl) and,
    with_binary, its key and a stand-in binary."""
    out = os.path.join(tmp, "out")
    os.makedirs(os.path.join(out, "dl"))
    for n in os.listdir(os.path.join(real, "dl")):
        os.symlink(os.path.join(real, "dl", n), os.path.join(out, "dl", n))
    if with_binary:
        os.makedirs(os.path.join(out, "bin"))
        shutil.copyfile(os.path.join(real, "qemu.key"), os.path.join(out, "qemu.key"))
        with open(os.path.join(out, "bin", "qemu-system-riscv64"), "w") as f:
            f.write("#!/bin/sh\n")
    return out


def main():
    """One case; status 1 with the reason when it does not hold."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--qemu-dir", required=True, help="the real build's folder (UARTBENCH_QEMU_DIR)")
    p.add_argument("--case", required=True,
                   choices=["uptodate", "stale", "tool", "unreachable", "badpatch"])
    args = p.parse_args()
    real = os.path.abspath(args.qemu_dir)
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.case == "uptodate":
            rc, out, _ = run(["--out", real, "--check"])
            if rc != 0 or "is up to date" not in out:
                errors.append(f"--check: status {rc}: {out.strip()}")
            rc, out, took = run(["--out", real])
            if rc != 0 or "is up to date" not in out or took > 5:
                errors.append(f"build: status {rc} in {took:.1f} s: {out.strip()}")
        elif args.case == "stale":
            out_dir = scratch_out(real, tmp)
            rc, out, _ = run(["--out", out_dir, "--check"])
            if rc != 0:
                errors.append(f"the copied key is not up to date: {out.strip()}")
            patches = os.path.join(tmp, "patches")
            shutil.copytree(PATCHES, patches)
            last = sorted(os.listdir(patches))[-1]
            with open(os.path.join(patches, last), "a") as f:
                f.write("\n")
            rc, out, _ = run(["--out", out_dir, "--check", "--patches", patches])
            if rc != 1 or "out of date: the patches changed" not in out:
                errors.append(f"a changed patch: status {rc}: {out.strip()}")
        elif args.case == "tool":
            bin_dir = os.path.join(tmp, "bin")
            os.makedirs(bin_dir)
            for tool in ("apt-get", "dpkg-source", "patch", "meson", "pkg-config", "cc",
                         "python3", "sh"):
                path = shutil.which(tool)
                if path:
                    os.symlink(path, os.path.join(bin_dir, tool))
            env = dict(os.environ, PATH=bin_dir)
            rc, out, _ = run(["--out", os.path.join(tmp, "out")], env=env)
            want = "ninja not found; install the Debian package ninja-build"
            if rc != 1 or want not in out or os.path.exists(os.path.join(tmp, "out", "dl")):
                errors.append(f"status {rc}, want 1 with {want!r} and nothing fetched: "
                              f"{out.strip()}")
        elif args.case == "unreachable":
            rc, out, _ = run(["--out", os.path.join(tmp, "out"), "--mirror",
                              "http://127.0.0.1:9/debian"])
            want = "cannot reach the Debian mirror for the source package"
            if rc != 1 or want not in out:
                errors.append(f"status {rc}, want 1 with {want!r}: {out.strip()[-600:]}")
        elif args.case == "badpatch":
            out_dir = scratch_out(real, tmp, with_binary=False)
            patches = os.path.join(tmp, "patches")
            shutil.copytree(PATCHES, patches)
            with open(os.path.join(patches, "9999-does-not-apply.patch"), "w") as f:
                f.write("--- a/VERSION\n+++ b/VERSION\n@@ -1 +1 @@\n-0.0.0\n+0.0.1\n")
            rc, out, _ = run(["--out", out_dir, "--patches", patches])
            want = "patch 9999-does-not-apply.patch does not apply to qemu 1:"
            if rc != 1 or want not in out or os.path.exists(os.path.join(out_dir, "obj")):
                errors.append(f"status {rc}, want 1 with {want!r} before configure: "
                              f"{out.strip()[-600:]}")
    for e in errors:
        print(f"FAIL {args.case}: {e}")
    if not errors:
        print(f"{args.case}: ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
