# QEMU virt, S-mode: OpenSBI (QEMU's -bios default) loads the ELF at 0x80200000.
set(BOARD_PRIV S)
set(BOARD_LOAD_ADDR 0x80200000)
set(BOARD_QEMU_MACHINE virt)
set(BOARD_QEMU_BIOS default)
# UART0 is QEMU's NS16550A: its lower half (src/drivers/uart/lower_ns16550.h).
set(BOARD_UART_LOWER ns16550)
# The harts' timebase is QEMU's machine property timebase-frequency (the
# project's patch 0015): the build's TIMEBASE_HZ sets both.
set(BOARD_QEMU_TIMEBASE_PROPERTY timebase-frequency)
