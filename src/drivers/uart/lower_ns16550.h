/* Lower half: the NS16550A (QEMU virt's UART: byte registers, 16-byte
 * FIFO, LSR.TEMT, MCR loopback), which is the 16550 family's common part
 * as it stands (lower_16550.h). Included through uart_lower.h only. */
#ifndef LOWER_NS16550_H
#define LOWER_NS16550_H

#include "lower_16550.h"

/* Boot, masked: a 16550's LCR takes every store. */
static inline int ns16550_lcr_write(struct uart_hw *h, uint32_t lcr)
{
    uart_write(h->cfg, UART_LCR, lcr);
    return 0;
}

/* Boot, masked. */
static inline int ns16550_init(struct uart_hw *h)
{
    h->fifo_depth = h->cfg->fifo_depth;
    h->fifo_source = "board";
    return l16550_program(h, ns16550_lcr_write);
}

static const struct uart_lower uart_lower = {
    .name = "ns16550",
    .caps = UART_CAP_TEMT | UART_CAP_LOOPBACK,
    .timing = l16550_timing,
    .init = ns16550_init,
    .tx_room = l16550_tx_room,
    .tx_ready = l16550_tx_ready,
    .tx_load = l16550_tx_load,
    .tx_empty = l16550_tx_empty,
    .tx_level = l16550_tx_level,
    .irq_update = l16550_irq_update,
    .irq_read = l16550_irq_read,
    .cause = l16550_cause,
    .rx_take = l16550_rx_take,
    .loopback = l16550_loopback,
    .putc_polled = l16550_putc_polled,
};

#endif
