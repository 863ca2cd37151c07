"""The Linux 8250 peer's kernel options (scripts/linux-peer/build-kernel):
what the peer needs from the final .config and why, a fragment's wishes,
a .config's values, and the check of one against the others."""

# What the peer needs from the final .config, whatever the fragment says,
# and why (docs/linux-peer.md).
REQUIRED = {
    "CONFIG_64BIT": "riscv64 user space",
    "CONFIG_SOC_VIRT": "QEMU virt's devices",
    "CONFIG_MMU": "glibc programs need paged memory",
    "CONFIG_NONPORTABLE": "lets EFI be off (PORTABLE selects EFI)",
    "CONFIG_FPU": "Debian's riscv64 glibc is hard-float: without it /init dies of SIGILL",
    "CONFIG_TTY": "the serial port as a tty",
    "CONFIG_SERIAL_8250": "the 8250 driver, the peer under test",
    "CONFIG_SERIAL_8250_CONSOLE": "the kernel's console on ttyS0",
    "CONFIG_SERIAL_OF_PLATFORM": "the 8250 port found through the device tree",
    "CONFIG_SERIAL_EARLYCON": "boot messages before the driver probes (earlycon)",
    "CONFIG_PRINTK": "kernel messages (panics) on the console",
    "CONFIG_BLK_DEV_INITRD": "the initramfs holding /init",
    "CONFIG_RD_GZIP": "the initramfs is gzip-compressed",
    "CONFIG_BINFMT_ELF": "/init is an ELF program",
    "CONFIG_DEVTMPFS": "/dev for the program",
    "CONFIG_DEVTMPFS_MOUNT": "/dev for the program",
    "CONFIG_SYSFS": "the device tree in /sys/firmware/devicetree: the line QEMU's UART keeps",
    "CONFIG_RISCV_SBI": "S-mode under OpenSBI: timer, console, power-off",
    "CONFIG_SIFIVE_PLIC": "the UART's interrupt",
    "CONFIG_HIGH_RES_TIMERS": "clock_nanosleep to the microsecond (S43)",
    "CONFIG_NO_HZ_IDLE": "no periodic tick while idle",
    "CONFIG_POSIX_TIMERS": "clock_nanosleep(TIMER_ABSTIME) and timers",
    "CONFIG_FUTEX": "glibc's locks",
    "CONFIG_PERF_EVENTS": "perf_event_open: instructions and cycles",
    "CONFIG_RISCV_PMU": "hardware counters",
    "CONFIG_RISCV_PMU_SBI": "hardware counters through OpenSBI (opens rdinstret to user mode)",
    "CONFIG_POWER_RESET": "reboot(RB_POWER_OFF) stops QEMU",
}


def parse_fragment(text):
    """The fragment's wishes: {CONFIG_X: value}, value None = not set."""
    wanted = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("CONFIG_") and "=" in line:
            name, value = line.split("=", 1)
            wanted[name] = value
        elif line.startswith("# CONFIG_") and line.endswith(" is not set"):
            wanted[line[2:-len(" is not set")]] = None
    return wanted


def parse_config(path):
    """A .config's values: {CONFIG_X: value}; symbols not set are absent."""
    values = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("CONFIG_") and "=" in line:
                name, value = line.split("=", 1)
                values[name] = value
    return values


def check_config(wanted, config_path, fragment):
    """The first wish of the fragment the final .config lost, else the
    first option the peer needs that is not =y: a message, or None."""
    got = parse_config(config_path)
    for name, value in wanted.items():
        have = got.get(name)
        if value is None and have is not None and have != "n":
            return (f"{name} is {name}={have} in the final .config, but {fragment} asks "
                    f"'# {name} is not set' (something selects it; see {config_path})")
        if value is not None and have != value:
            state = "not set" if have is None else f"{name}={have}"
            return (f"{name}={value} asked for by {fragment} did not end up in the final "
                    f".config: it is {state} there (unknown symbol or an unmet dependency; "
                    f"see {config_path})")
    for name, why in REQUIRED.items():
        if got.get(name) != "y":
            return (f"{name} is not =y in the final .config, and the Linux peer needs it "
                    f"({why}); add {name}=y to {fragment}")
    return None
