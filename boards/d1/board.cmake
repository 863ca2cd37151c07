# Allwinner D1, M-mode: xfel loads the raw image into DRAM at 0x40000000
# and jumps there. The build also emits kernel.bin for xfel.
set(BOARD_PRIV M)
set(BOARD_LOAD_ADDR 0x40000000)
# XuanTie C906: cache and T-Head extension set-up at entry (src/arch/riscv/c906.S).
set(BOARD_CPU c906)
