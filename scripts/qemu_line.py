"""The QEMU command of a uartbench run (scripts/qemu-run, and the tests
that boot QEMU on a chardev of their own): the project's QEMU, the image,
the line's operating point (the emulator's 16550: --line, --bus-ns,
--far-end; docs/qemu-line.md), icount."""
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QEMU = os.path.join(ROOT, "build", "qemu", "bin", "qemu-system-riscv64")
QEMU_DATA = "/usr/share/qemu"      # Debian's qemu-system-data: OpenSBI for -bios default
LINE_DEFAULT = "115200/16"
BUS_NS_DEFAULT = 80                # ns per UART register access (docs/qemu-line.md)
BAUD_RANGE = (9600, 12000000)
FIFOS = (1, 16, 32, 64, 128)
TRIGGERS = (1, 4, 8, 14)
BURST_MAX = 65536
LINE_FORMS = ("BAUD/FIFO[/RXTRIG] (BAUD 9600..12000000, FIFO 1, 16, 32, 64 or 128, RXTRIG "
              "1, 4, 8 or 14 and at most FIFO; e.g. 115200/16, 3000000/1, 921600/64/8) "
              "or instant (QEMU's UART sends at once)")
# The SiFive UART (sifive_u): 8-entry FIFOs, no RX trigger levels; its
# line is QEMU's sifive_uart with line-timing (scripts/qemu/patches/0011)
# and the far end (0007, 0013), given as -global properties.
SIFIVE_DRIVER = "riscv.sifive.uart"
SIFIVE_LINE_DEFAULT = "115200/8"
SIFIVE_LINE_FORMS = ("BAUD/8 (BAUD 9600..12000000; the SiFive UART's FIFOs are 8 deep and it has "
                     "no RX trigger levels; e.g. 115200/8, 921600/8) or instant")
FAR_FORMS = ("off, stream or burst:N:T (N 1..65536 bytes every T, with unit ns, us or ms, "
             "at least N character times; e.g. burst:64:10ms)")
STREAM_MAX = 1 << 24
STREAM_FORMS = ("BYTES@START[:SEED] (BYTES 1..%d, START a virtual time with unit ns, us, ms "
                "or s, SEED 0..4294967295, default 0; e.g. 65536@2s:7)" % STREAM_MAX)
UNITS = {"ns": 1, "us": 1000, "ms": 10 ** 6, "s": 10 ** 9}


def far_end_log(log):
    """The far end's ground truth beside serial log `log` (qemu-run's
    default --far-end-log)."""
    return os.path.splitext(log)[0] + ".far-end.json"


def far_end_streams(path):
    """The RX streams of a far end's ground truth (one JSON object per
    line, as QEMU's far end writes them); OSError or ValueError when the
    file cannot be read as one."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def parse_line(text, uart="16550"):
    """--line: (baud, fifo, rx trigger or None), or None for instant, for
    a 16550 or the SiFive UART (uart "sifive"); ValueError naming the
    valid forms otherwise."""
    if text == "instant":
        return None
    if uart == "sifive":
        m = re.fullmatch(r"([0-9]+)/8", text)
        if not m or not BAUD_RANGE[0] <= int(m.group(1)) <= BAUD_RANGE[1]:
            raise ValueError(f"bad --line {text}; valid forms: {SIFIVE_LINE_FORMS}")
        return int(m.group(1)), 8, None
    parts = text.split("/")
    try:
        nums = [int(x) for x in parts]
    except ValueError:
        nums = []
    if len(nums) not in (2, 3) or not all(p.isdigit() for p in parts):
        raise ValueError(f"bad --line {text}; valid forms: {LINE_FORMS}")
    baud, fifo, trig = nums[0], nums[1], nums[2] if len(nums) == 3 else None
    if not BAUD_RANGE[0] <= baud <= BAUD_RANGE[1] or fifo not in FIFOS or \
            trig is not None and (trig not in TRIGGERS or trig > fifo):
        raise ValueError(f"bad --line {text}; valid forms: {LINE_FORMS}")
    return baud, fifo, trig


def parse_far_end(text, baud):
    """--far-end: None (off), (0, 0) (stream) or (burst bytes, period ns);
    ValueError naming the valid forms otherwise."""
    if text in ("off", "stream"):
        return None if text == "off" else (0, 0)
    m = re.fullmatch(r"burst:([0-9]+):([0-9]+)(ns|us|ms)", text)
    if not m or not 1 <= int(m.group(1)) <= BURST_MAX:
        raise ValueError(f"bad --far-end {text}; valid forms: {FAR_FORMS}")
    n, period = int(m.group(1)), int(m.group(2)) * {"ns": 1, "us": 1000, "ms": 10 ** 6}[m.group(3)]
    if period * baud < n * 10 * 10 ** 9:
        raise ValueError(f"bad --far-end {text}: {n} bytes take longer than its period at "
                 f"{baud} baud; valid forms: {FAR_FORMS}")
    return n, period


def parse_stream(text):
    """--far-end-stream: (bytes, start ns, seed); ValueError naming the
    valid forms otherwise."""
    m = re.fullmatch(r"([0-9]+)@([0-9]+)(ns|us|ms|s)(?::([0-9]+))?", text)
    if not m or not 1 <= int(m.group(1)) <= STREAM_MAX or \
            m.group(4) and int(m.group(4)) > 0xFFFFFFFF:
        raise ValueError(f"bad --far-end-stream {text}; valid forms: {STREAM_FORMS}")
    return int(m.group(1)), int(m.group(2)) * UNITS[m.group(3)], int(m.group(4) or 0)


def line_args(desc, args):
    """QEMU arguments and boot arguments of the line: the device's (an
    image without the wire model, by default at LINE_DEFAULT) or QEMU's
    instant UART (the wire model's images, the Linux peer, --line
    instant); the 16550's, or the SiFive UART's (desc "uart": "sifive").
    ValueError for a bad option."""
    kind, uart = desc.get("line", "device"), desc.get("uart", "16550")
    default = SIFIVE_LINE_DEFAULT if uart == "sifive" else LINE_DEFAULT
    text = args.line or (default if kind == "device" else "instant")
    if args.line and args.line != "instant" and kind == "model":
        raise ValueError("--line: this image has the wire model, which is its line "
                 "(its operating point is the boot argument wire=)")
    point = parse_line(text, uart)
    if point is None:
        if args.far_end_stream:
            raise ValueError("--far-end-stream: the far end is the emulator's line's; "
                             "this run has QEMU's instant UART (give --line BAUD/FIFO)")
        return [], [], None
    baud, fifo, trig = point
    clock = args.uart_clock or 16 * baud
    if clock < 16 * BAUD_RANGE[0] or clock > 0xFFFFFFFF:
        raise ValueError(f"bad --uart-clock {clock}: valid values {16 * BAUD_RANGE[0]} .. "
                 f"{0xFFFFFFFF} Hz (16 x the baud at divisor 1)")
    if uart == "sifive":
        props = [("line-timing", "on"), ("clock-frequency", clock), ("current-speed", baud),
                 ("access-latency", args.bus_ns)]
        return device_globals(SIFIVE_DRIVER, props + far_end_props(args, baud)), [], ""
    props = [("line-timing", "on"), ("fifo-size", fifo), ("access-latency", args.bus_ns)]
    machine = f",uart-clock={clock},uart-speed={baud}"
    boot = [f"rx_trigger={trig}"] if trig else []
    return device_globals("serial-mm", props + far_end_props(args, baud)), boot, machine


def far_end_props(args, baud):
    """The far end's properties (QEMU's uart-far-end.c, on either UART):
    none for --far-end off. ValueError for a bad --far-end or
    --far-end-stream."""
    far = parse_far_end(args.far_end or "stream", baud)
    if far is None:
        if args.far_end_stream:
            raise ValueError("--far-end-stream needs the far end: not with --far-end off")
        return []
    props = [("far-end", "on"), ("far-end-log", args.far_end_log)]
    if far[0]:
        props += [("far-end-burst", far[0]), ("far-end-period", far[1])]
    if args.far_end_stream:
        n, start, seed = parse_stream(args.far_end_stream)
        props += [("far-end-bytes", n), ("far-end-start", start), ("far-end-seed", seed)]
    return props


def device_globals(driver, props):
    """-global arguments setting each (property, value) of QEMU device
    driver (DRIVER.PROP=VALUE; the long form where the driver's name has a
    dot, as riscv.sifive.uart)."""
    form = ("driver={d},property={p},value={v}" if "." in driver else "{d}.{p}={v}")
    return [a for prop, v in props for a in ("-global", form.format(d=driver, p=prop, v=v))]


def build_command(desc, args, chardev=None):
    """Return the QEMU argv for the image description and options; the
    UART's chardev a file at args.log unless chardev names another."""
    qemu_line, boot_line, machine = line_args(desc, args)
    bootargs = desc["cmdline"].split() if "cmdline" in desc else []
    bootargs.append(f"qemu_mode={args.mode}")
    if args.mode == "icount":
        bootargs.append(f"icount_shift={args.icount_shift}")
    bootargs += boot_line + args.append
    cmd = [args.qemu, "-L", QEMU_DATA, "-machine", desc["machine"] + (machine or ""),
           "-m", "128M", "-smp", str(args.smp + desc.get("monitor_harts", 0)),
           "-bios", desc["bios"],
           "-kernel", desc["kernel"], "-append", " ".join(bootargs),
           "-display", "none", "-monitor", "none",
           "-chardev", chardev or f"file,id=uart0,path={args.log}",
           "-serial", "chardev:uart0"] + qemu_line
    if "initrd" in desc:
        cmd += ["-initrd", desc["initrd"]]
    if desc.get("backend") == "linux":
        cmd += ["-no-reboot"]
    if args.mode == "icount":
        cmd += ["-icount", f"shift={args.icount_shift},sleep=off"]
    return cmd + args.qemu_args


def add_line_options(p):
    """The options of the line and the QEMU binary, on parser p."""
    p.add_argument("--line", metavar="POINT",
                   help=f"the emulator's line: {LINE_FORMS}; the SiFive UART's: "
                   f"{SIFIVE_LINE_FORMS}; default {LINE_DEFAULT} ({SIFIVE_LINE_DEFAULT}) for "
                   "an image without the wire model, instant for one with it and the Linux peer")
    p.add_argument("--uart-clock", type=int, metavar="HZ",
                   help="the UART's input clock (default 16 x the baud: divisor 1, the baud "
                   "exact; e.g. 24000000 as on the D1, divisor 13: 115384.6 baud)")
    p.add_argument("--bus-ns", type=int, default=BUS_NS_DEFAULT, metavar="NS",
                   help="bus time of one UART register access, 0..10000 ns (default "
                   f"{BUS_NS_DEFAULT}, from the D1: docs/qemu-line.md)")
    p.add_argument("--far-end", metavar="TRAFFIC",
                   help=f"the line's far end, for S32 and S33: {FAR_FORMS}; default stream "
                   "(the SiFive UART's line: off, it has none)")
    p.add_argument("--far-end-stream", metavar="BYTES@START[:SEED]",
                   help="a stream the far end starts by itself at a virtual time, for a "
                   "kernel that cannot start one (it knows nothing of the far end's control "
                   f"page): {STREAM_FORMS}; its shape is --far-end's")
    p.add_argument("--far-end-log", metavar="FILE",
                   help="where QEMU writes each RX stream's ground truth, one JSON object per "
                   "line (default: the serial log's name with .far-end.json)")
    p.add_argument("--qemu", default=None, metavar="PATH",
                   help="the QEMU binary (default: the environment's UARTBENCH_QEMU, else "
                   f"qemu.json's, else {QEMU})")


def finish_line_options(p, args, desc):
    """After parsing (args.log set): the far end's log beside the serial
    log, the bus time checked, the QEMU binary (--qemu, qemu.json's, the
    default)."""
    args.far_end_log = os.path.abspath(args.far_end_log or far_end_log(args.log))
    if not 0 <= args.bus_ns <= 10000:
        p.error(f"--bus-ns {args.bus_ns}: valid values 0..10000")
    args.qemu = os.path.abspath(args.qemu or os.environ.get("UARTBENCH_QEMU") or
                                desc.get("qemu") or QEMU)
