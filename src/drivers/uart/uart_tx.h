/* Helpers shared by both backends: FIFO room, character time. */
#ifndef UART_TX_H
#define UART_TX_H

#include "uart_16550.h"

/* Any context: bytes the TX FIFO can take now without loss. DW: depth
 * minus TFL; 16550: a full FIFO's worth only when THRE says it is empty. */
static inline unsigned uart_tx_room(const struct uart_cfg *c)
{
    if (c->dw_apb) {
        uint32_t level = uart_read(c, UART_DW_TFL);
        return level < c->fifo_depth ? c->fifo_depth - level : 0;
    }
    return (uart_read(c, UART_LSR) & UART_LSR_THRE) ? c->fifo_depth : 0;
}

/* Any context: nanoseconds one 8N1 character (10 bits) takes at the
 * divisor's real baud: 10 * 16 * divisor / clock. */
static inline uint64_t uart_char_ns(const struct uart_cfg *c)
{
    return 10ULL * 16ULL * uart_divisor(c) * 1000000000ULL / c->clock_hz;
}

#endif
