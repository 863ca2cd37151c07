# Allwinner D1, M-mode: xfel loads the raw image into DRAM at 0x40000000
# and jumps there. The build also emits kernel.bin for xfel.
set(BOARD_PRIV M)
set(BOARD_LOAD_ADDR 0x40000000)
# XuanTie C906: cache and T-Head extension set-up at entry (src/arch/riscv/c906.S).
set(BOARD_CPU c906)
# UART0 is a DesignWare APB UART: its lower half (src/drivers/uart/lower_dw_apb.h).
set(BOARD_UART_LOWER dw_apb)

# `--target flash`: load kernel.bin with xfel (board in FEL mode) and save the
# serial log to d1.log; the exit status is the kernel's (see scripts/d1-flash).
set(D1_SERIAL_PORT /dev/ttyUSB0 CACHE STRING "Serial device of the USB-serial adapter on UART0")
set(D1_FLASH_TIMEOUT 600 CACHE STRING "Seconds to wait for the Done. line after xfel exec")
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_custom_target(flash
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/d1-flash
          --build-dir ${CMAKE_BINARY_DIR} --port ${D1_SERIAL_PORT}
          --timeout ${D1_FLASH_TIMEOUT} --log ${CMAKE_BINARY_DIR}/d1.log
  DEPENDS kernel USES_TERMINAL
  COMMENT "Loading ${BOARD}/${BACKEND} onto the D1 with xfel, serial log from ${D1_SERIAL_PORT} in d1.log")
