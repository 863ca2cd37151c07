/* The board as the rest of the kernel sees it: one const description,
 * built from boards/<board>/board.h by src/kernel/platform.c (the only C
 * file besides the clock that includes a board header). */
#ifndef BOARD_INFO_H
#define BOARD_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include "uart_cfg.h"

struct board_info {
    const char *name;
    uint64_t timebase_hz;
    uintptr_t plic_base;
    uint32_t plic_context;           /* context of hart 0 in this mode */
    uint32_t plic_contexts_per_hart;
    uintptr_t plic_ctrl;     /* T-Head PLIC_CTRL, 0 when absent */
    uint32_t uart_irq;
    uintptr_t clint_base;
    bool clint_split32;      /* mtimecmp writable only as 32-bit halves */
    uintptr_t test_device;   /* QEMU finisher, 0 when absent */
    uint32_t plic_nsources;  /* interrupt sources, for the boot-time reset */
    bool uart_rx_trigger_fixed;  /* the UART interrupts at every received byte */
    uint32_t hart_first;     /* the first hart id with the kernel's mode (sifive_u:
                                1, hart 0 being an M-mode-only monitor core) */
    bool has_fdt;
    bool qemu;               /* a QEMU machine: QEMU's counters and clock */
    struct uart_cfg uart;
};

extern const struct board_info board;

/* Boot, interrupts masked, before any output: clocks, pins, caches. */
void board_early_init(void);

#endif
