# QEMU virt, M-mode: no firmware (-bios none), execution starts at 0x80000000.
# Exercises the M-mode paths the D1 uses (CLINT timer, M-mode PLIC context).
set(BOARD_PRIV M)
set(BOARD_LOAD_ADDR 0x80000000)
set(BOARD_QEMU_MACHINE virt)
set(BOARD_QEMU_BIOS none)
# UART0 is QEMU's NS16550A: its lower half (src/drivers/uart/lower_ns16550.h).
set(BOARD_UART_LOWER ns16550)
# The harts' timebase: QEMU's machine property, as on qemu-virt.
set(BOARD_QEMU_TIMEBASE_PROPERTY timebase-frequency)
