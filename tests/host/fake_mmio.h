/* Host unit tests: the MMIO entry points the UART register seam
 * (include/uart_16550.h) calls under HOST_TEST instead of touching
 * memory. tests/host/fake_uart_regs.c implements them with a register-level
 * model of a 16550 / DesignWare APB UART (see fake_uart.h). */
#ifndef FAKE_MMIO_H
#define FAKE_MMIO_H

#include <stdint.h>

/* One access of width bytes (1 or 4) at addr. An access the model does
 * not accept (wrong width, unaligned, not a register) is recorded as an
 * error, reads then return 0 and writes are dropped. */
uint32_t fake_mmio_read(uintptr_t addr, unsigned width);
void fake_mmio_write(uintptr_t addr, unsigned width, uint32_t value);

#endif
