#!/usr/bin/python3
"""scripts/compare --plan: which presets, boots and report each option
combination gives (nothing is built or run), and its refusals."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARE = os.path.join(ROOT, "scripts/compare")
BACKENDS = ("async", "console", "copier")


def plan(*args):
    """scripts/compare --plan ARGS: its status and output."""
    res = subprocess.run([sys.executable, COMPARE, "--plan", *args], capture_output=True,
                         text=True, check=False)
    return res.returncode, res.stdout + res.stderr


def expect(cond, what, out):
    """Stop with what is wrong and the output when cond is false."""
    if not cond:
        sys.exit("FAIL: %s\n--- compare output ---\n%s" % (what, out))


def main():
    """Each combination's plan, each refusal's status and message."""
    status, out = plan()
    expect(status == 0, "default plan: exit %d" % status, out)
    for b in BACKENDS:
        expect("build preset qemu-virt-%s-nowire\n" % b in out, "preset %s-nowire" % b, out)
        expect(re.search(r"^compare: boot %s: scripts/qemu-run --image-dir \S+/build/"
                         r"qemu-virt-%s-nowire --log \S+/run\.log$" % (b, b), out, re.M),
               "default: boot %s from its -nowire build on the emulator's line" % b, out)
    expect("--line" not in out and "boot linux" not in out,
           "default: the line's default point, no Linux", out)
    expect(re.search(r"--baseline 'qemu-virt async' .*d1-async-q31\.log$", out, re.M),
           "default report: baseline async, the StarryOS D1 log last", out)
    expect("build preset qemu-sifive-u-async\n" in out and re.search(
        r"^compare: boot qemu-sifive-u-async: scripts/qemu-run --image-dir \S+/build/"
        r"qemu-sifive-u-async --log \S+/run\.log$", out, re.M) and re.search(
        r"--label 'qemu-virt copier' --label 'qemu-sifive-u async' --label 'StarryOS D1 async' "
        r".*/qemu-virt-copier-nowire/run\.log \S+/qemu-sifive-u-async/run\.log \S+d1-async",
        out, re.M), "default: the SiFive UART's async column after the designs", out)
    status, out = plan("--also", "none")
    expect(status == 0 and "sifive" not in out, "--also none: no other board's column", out)

    status, out = plan("--wire", "model")
    expect(status == 0, "--wire model: exit %d" % status, out)
    for b in BACKENDS:
        expect("build preset qemu-virt-%s\n" % b in out, "preset qemu-virt-%s" % b, out)
    expect("nowire" not in out, "--wire model: no -nowire", out)
    expect("sifive" not in out, "--wire model: no other board's column", out)
    expect(re.search(r"--baseline 'qemu-virt async-model' .*d1-async-q31\.log$", out, re.M),
           "--wire model report: the model's baseline", out)

    status, out = plan("--wire", "off", "--linux", "--no-starryos")
    expect(status == 0, "--wire off --linux: exit %d" % status, out)
    for b in BACKENDS:
        expect("build preset qemu-virt-%s-nowire\n" % b in out, "preset %s-nowire" % b, out)
        expect(re.search(r"^compare: boot %s: scripts/qemu-run --image-dir \S+/build/"
                         r"qemu-virt-%s-nowire --line instant --log \S+/run-instant\.log$" % (b, b),
                         out, re.M),
               "boot %s from its -nowire build on QEMU's instant UART" % b, out)
    expect(re.search(r"^compare: boot linux: scripts/qemu-run --kernel \S+/Image --initrd "
                     r"\S+/initramfs\.cpio\.gz --line instant --append tty=/dev/ttyS0 "
                     r"--append baud=115200 --append norandmaps --log \S+/run\.log$", out, re.M),
           "the Linux peer's boot on QEMU's instant UART", out)
    expect(re.search(r"^compare: build Linux peer: kernel \S+", out, re.M),
           "the Linux peer's build", out)
    expect(re.search(r"--baseline 'qemu-virt async-instant' .*--label 'linux-6\.1 8250 "
                     r"\(uartbench-hosted\)'", out), "report: nowire baseline, Linux column", out)
    expect("d1-async-q31" not in out, "--no-starryos leaves the D1 log out", out)
    expect("linux-s32" not in out, "QEMU's instant UART: no far end, no RX boots", out)

    status, out = plan("--wire", "device", "--linux")
    expect(status == 0, "--wire device --linux: exit %d" % status, out)
    expect(re.search(r"^compare: boot linux: scripts/qemu-run --kernel \S+/Image --initrd "
                     r"\S+/initramfs\.cpio\.gz --line 115200/16 --append tty=/dev/ttyS0 .*"
                     r"--log \S+/run-line\.log$", out, re.M),
           "the Linux peer's boot on the emulator's line, beside the images", out)
    expect(re.search(r"--baseline 'qemu-virt async' .*--label 'linux-6\.1 8250 "
                     r"\(uartbench-hosted\)' .*/run\.log /\S+/hosted-full/run-line\.log"
                     r"\+\S+/run-line-s32\.log\+\S+/run-line-s33\.log "
                     r"\S+d1-async-q31\.log$", out, re.M),
           "report: the line's baseline, the Linux column from its logs on the line", out)
    for sid, stream in (("s32", "65536@1s:32"), ("s33", "4096@1s:33")):
        expect(re.search(r"^compare: boot linux-%s: scripts/qemu-run --kernel \S+/Image .*"
                         r"--append sections=%s --append far_end_stream=%s "
                         r"--far-end-stream %s --log \S+/run-line-%s\.log$"
                         % (sid, sid.upper(), stream, stream, sid), out, re.M),
               "the Linux peer's %s in a boot of its own, with the far end's stream" % sid, out)
    for b in BACKENDS:
        expect(re.search(r"^compare: boot %s: scripts/qemu-run --image-dir \S+/build/"
                         r"qemu-virt-%s-nowire --log \S+/run\.log$" % (b, b), out, re.M),
               "boot %s from its -nowire build on the emulator's line" % b, out)
    for baud, trig in ((115200, 1), (115200, 8), (3000000, 1), (3000000, 8)):
        at = "%d-16-%d" % (baud, trig)
        expect(re.search(r"^compare: boot async-rx-%s: scripts/qemu-run --image-dir \S+/build/"
                         r"qemu-virt-async-nowire --line %d/16/%d --append sections=S32,S33 "
                         r"--log \S+/run-rx-%s\.log$" % (at, baud, trig, at), out, re.M),
               "ours' S32/S33 at %s in a boot of its own" % at, out)
        for sid in ("s32", "s33"):
            expect(re.search(r"^compare: boot linux-%s-%s: scripts/qemu-run --kernel \S+ "
                             r"--initrd \S+ --line %d/16 --append tty=/dev/ttyS0 --append "
                             r"norandmaps --append baud=%d --append rx_trigger=%d --append "
                             r"counters=cpuwide --append sections=%s .*--log "
                             r"\S+/run-line-%s-%s\.log$" % (sid, at, baud, baud, trig,
                                                            sid.upper(), sid, at), out, re.M),
                   "Linux's %s at %s: its line, baud and RX trigger, counted CPU-wide"
                   % (sid, at), out)
        expect(re.search(r"--rx-point 'qemu-virt async=\S+/run-rx-%s\.log' --rx-point "
                         r"'linux-6\.1 8250=\S+/run-line-s32-%s\.log\+\S+/run-line-s33-%s"
                         r"\.log'" % (at, at, at), out),
               "report: ours and Linux's logs at %s as --rx-point" % at, out)
    status, out = plan("--wire", "device", "--linux", "--rx-points", "none")
    expect(status == 0 and "-rx-" not in out and "--rx-point" not in out
           and "s32-115200" not in out, "--rx-points none: no RX point boots", out)

    for args, want in ((("--linux", "--wire", "device", "--board", "qemu-virt-m"),
                        r"--linux: the Linux peer runs on qemu-virt"),
                       (("--linux", "--wire", "model"),
                        r"--linux: give --wire device \(the emulator's line"),
                       (("--board", "qemu-virt-m"), r"--board qemu-virt-m --wire device: no "
                        r"preset qemu-virt-m-async-nowire, .*give --wire model"),
                       (("--also", "qemu-virt-async-nowire"), r"--also qemu-virt-async-"
                        r"nowire: want an image preset of another QEMU board without the wire "
                        r"model, such as qemu-sifive-u-async"),
                       (("--also", "d1-async"), r"--also d1-async: want an image preset of "
                        r"another QEMU board"),
                       (("--wire", "model", "--also", "qemu-sifive-u-async"), r"--also "
                        r"qemu-sifive-u-async: another board's column runs on its own line, "
                        r"with --wire device only"),
                       (("--wire", "fast"), r"--wire: invalid choice: 'fast' \(choose from "
                        r"'device', 'model', 'instant', 'off'\)"),
                       (("--backends", "async,polled"), r"--backends polled: valid values: "
                        r"async, console, copier"),
                       (("--backends", "console", "--baseline", "async"), r"--baseline async "
                        r"is not one of --backends"),
                       (("--linux", "--wire", "device", "--rx-points", "3000000/16"),
                        r"--rx-points 3000000/16: want BAUD/FIFO/RXTRIG points"),
                       (("--linux", "--wire", "device", "--rx-points", "115200/16/16"),
                        r"--rx-points 115200/16/16: want BAUD/FIFO/RXTRIG")):
        status, out = plan(*args)
        expect(status == 2 and re.search(want, out), "%s: want exit 2 and /%s/" %
               (" ".join(args), want), out)
        expect("build preset" not in out, "%s: refused after planning" % " ".join(args), out)
    print("ok: default, --wire model, --wire off --linux --no-starryos and --wire device "
          "--linux plans (with and without RX points); 8 refusals with exit 2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
