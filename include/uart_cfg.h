/* Read-only description of one UART instance, filled from boards/ (Zephyr's
 * split: this const config, the driver's mutable state elsewhere). Which
 * IP it is (the lower half that drives it) the board chooses at build
 * time: boards/<board>/board.cmake sets BOARD_UART_LOWER. */
#ifndef UART_CFG_H
#define UART_CFG_H

#include <stdbool.h>
#include <stdint.h>

struct uart_cfg {
    uintptr_t base;        /* MMIO base address */
    uint8_t reg_shift;     /* register index << reg_shift = byte offset */
    uint8_t io_width;      /* access width in bytes: 1 or 4 */
    uint32_t clock_hz;     /* UART input clock */
    uint32_t baud;         /* requested baud rate */
    uint16_t fifo_depth;   /* TX FIFO depth in bytes (the board's; the IP may report its own) */
    uint8_t rx_trigger;    /* RX FIFO trigger level in bytes: 1, 4, 8 or 14 (FCR) */
    bool tx_at_store;      /* an idle transmitter starts a character at the THR
                              store (the project's QEMU); a UART may otherwise wait
                              for its baud clock's next tick */
};

/* Any context: a 16550-family divisor (clock / 16 / baud) for the
 * configured clock and baud, rounded to nearest; the baud rate it really
 * gives, in milli-baud; one 8N1 character (10 bits) at that baud, in ns.
 * Pure arithmetic on the config (src/drivers/uart/uart_cfg.c), used by
 * the 16550 lower halves' timing op, the wire model and the hosted build;
 * the driver's line is its lower half's (uart_lower.timing). */
uint32_t uart_divisor(const struct uart_cfg *c);
uint64_t uart_real_baud_milli(const struct uart_cfg *c);
uint64_t uart_char_ns(const struct uart_cfg *c);

#endif
