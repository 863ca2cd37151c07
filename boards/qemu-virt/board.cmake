# QEMU virt, S-mode: OpenSBI (QEMU's -bios default) loads the ELF at 0x80200000.
set(BOARD_PRIV S)
set(BOARD_LOAD_ADDR 0x80200000)
set(BOARD_QEMU_MACHINE virt)
set(BOARD_QEMU_BIOS default)
