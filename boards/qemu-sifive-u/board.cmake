# QEMU sifive_u (HiFive Unleashed), S-mode: OpenSBI (QEMU's -bios default)
# loads the ELF at 0x80200000 and starts it on hart 1 (hart 0 is the E51
# monitor core, M-mode only).
set(BOARD_PRIV S)
set(BOARD_LOAD_ADDR 0x80200000)
set(BOARD_QEMU_MACHINE sifive_u)
set(BOARD_QEMU_BIOS default)
# Harts QEMU adds to a run's --smp: the E51, which runs no S-mode code.
set(BOARD_QEMU_MONITOR_HARTS 1)
# The emulator's UART on this machine is QEMU's sifive_uart, which keeps no
# line time: the run is on an instant line, and there is no wire model for it.
set(BOARD_QEMU_LINE instant)
set(BOARD_WIRE_MODEL OFF)
# UART0 is a SiFive UART: its lower half (src/drivers/uart/lower_sifive.h).
set(BOARD_UART_LOWER sifive)
