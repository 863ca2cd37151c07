/* Plain MMIO accessors for kernel devices (PLIC, CLINT, finisher, CCU).
 * The UART has its own width/stride-aware seam in uart_regs.h. */
#ifndef MMIO_H
#define MMIO_H

#include <stdint.h>

/* Any context. */
static inline uint32_t mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline uint64_t mmio_read64(uintptr_t a) { return *(volatile uint64_t *)a; }
static inline void mmio_write64(uintptr_t a, uint64_t v) { *(volatile uint64_t *)a = v; }

#endif
