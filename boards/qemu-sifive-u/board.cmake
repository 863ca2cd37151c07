# QEMU sifive_u (HiFive Unleashed), S-mode: OpenSBI (QEMU's -bios default)
# loads the ELF at 0x80200000 and starts it on hart 1. Hart 0, the E51
# monitor core, has no S-mode; the project's QEMU keeps it powered off
# (monitor-hart=off: in OpenSBI's wait loop it would spin and drive the
# virtual clock), and QEMU gets it on top of a run's --smp.
set(BOARD_PRIV S)
set(BOARD_LOAD_ADDR 0x80200000)
set(BOARD_QEMU_MACHINE "sifive_u,monitor-hart=off")
set(BOARD_QEMU_BIOS default)
set(BOARD_QEMU_MONITOR_HARTS 1)
# The emulator's line is QEMU's sifive_uart with line-timing (the project's
# patch 0011): scripts/qemu-run --line BAUD/8. The wire model models a
# 16550: none for this board.
set(BOARD_QEMU_UART sifive)
set(BOARD_WIRE_MODEL OFF)
# UART0 is a SiFive UART: its lower half (src/drivers/uart/lower_sifive.h).
set(BOARD_UART_LOWER sifive)
