/* Lower half: the DesignWare APB UART (the D1's UART0: 32-bit registers at
 * a stride of 4, snps,dw-apb-uart), a 16550 (lower_16550.h) plus USR, TFL,
 * RFL and CPR, and its quirks, all of them here: an LCR store while the
 * UART is busy is ignored and raises IIR 0x7 (wait for USR.BUSY to clear,
 * check LCR, read USR to clear the cause); an RX-timeout cause with no
 * data needs a dummy RBR read or it fires forever; the TX room is depth
 * minus TFL (an entry with IIR 0xC1, nothing pending, may come with the
 * FIFO part full); the FIFO depth is in CPR. Included through uart_lower.h
 * only. */
#ifndef LOWER_DW_APB_H
#define LOWER_DW_APB_H

#include "lower_16550.h"

/* Register byte offsets / 4 (the DW registers are 32-bit at stride 4). */
#define DW_USR (0x7C >> 2)            /* UART Status Register */
#define DW_TFL (0x80 >> 2)            /* Transmit FIFO Level */
#define DW_RFL UART_DW_RFL            /* Receive FIFO Level */
#define DW_CPR (0xF4 >> 2)            /* Component Parameter Register */
#define DW_USR_BUSY 0x01
#define DW_USR_TFNF 0x02              /* TX FIFO not full */
#define DW_USR_TFE  0x04              /* TX FIFO empty */
#define DW_IIR_BUSY 0x07              /* busy detect */
#define DW_CPR_FIFO_SHIFT 16          /* CPR.FIFO_MODE, bits 23:16 ... */
#define DW_CPR_FIFO_MASK  0xFFU
#define DW_CPR_FIFO_UNIT  16U         /* ... in units of 16 bytes */
#define DW_BUSY_RETRIES   100000U     /* USR reads waiting for !BUSY */
#define DW_LCR_TRIES      8U          /* LCR store attempts */

/* Masked: depth minus TFL. */
static inline unsigned dw_tx_room(struct uart_hw *h)
{
    uint32_t level = uart_read(h->cfg, DW_TFL);
    return level < h->fifo_depth ? h->fifo_depth - level : 0;
}

/* Any: USR.TFNF. */
static inline bool dw_tx_ready(struct uart_hw *h)
{
    return uart_read_bits(h->cfg, DW_USR, DW_USR_TFNF) != 0;
}

/* Any: TFL and the shifter, exact (0: LSR's THRE and TEMT, so a level
 * of 0 always means room). */
static inline unsigned dw_tx_level(struct uart_hw *h)
{
    uint32_t lsr = l16550_lsr_tx(h, UART_LSR_THRE | UART_LSR_TEMT);
    return lsr == (UART_LSR_THRE | UART_LSR_TEMT) ? 0 : uart_read(h->cfg, DW_TFL) + 1U;
}

/* ISR: busy detect and an empty RX timeout served here. */
static inline enum uart_cause dw_cause(struct uart_hw *h, bool entry)
{
    uint32_t iir = uart_read(h->cfg, UART_IIR) & UART_IIR_ID;
    if (iir == DW_IIR_BUSY) {
        h->busy_detect++;
        (void)uart_read(h->cfg, DW_USR);            /* clears the cause */
        return UART_CAUSE_OTHER;
    }
    if (iir == UART_IIR_RX_TIMEOUT && !(l16550_lsr(h) & UART_LSR_DR)) {
        (void)uart_read(h->cfg, UART_RBR);          /* timeout without data */
        return UART_CAUSE_OTHER;
    }
    return l16550_cause_of(h, iir, entry);
}

/* Boot: an LCR store the UART takes: wait for !BUSY, store, check. */
static inline int dw_lcr_write(struct uart_hw *h, uint32_t lcr)
{
    for (unsigned t = 0; t < DW_LCR_TRIES; t++) {
        for (unsigned n = 0; uart_read_bits(h->cfg, DW_USR, DW_USR_BUSY) && n < DW_BUSY_RETRIES;)
            n++;
        uart_write(h->cfg, UART_LCR, lcr);
        if (uart_read(h->cfg, UART_LCR) == lcr)
            return 0;
        (void)uart_read(h->cfg, DW_USR);            /* clears a busy detect */
    }
    return -1;
}

/* Boot, masked: the FIFO depth from CPR when the UART reports one. */
static inline int dw_init(struct uart_hw *h)
{
    uint32_t cpr = uart_read(h->cfg, DW_CPR);
    unsigned depth = ((cpr >> DW_CPR_FIFO_SHIFT) & DW_CPR_FIFO_MASK) * DW_CPR_FIFO_UNIT;

    h->fifo_depth = depth ? (uint16_t)depth : h->cfg->fifo_depth;
    h->fifo_source = depth ? "cpr" : "board";
    return l16550_program(h, dw_lcr_write);
}

static const struct uart_lower uart_lower = {
    .name = "dw-apb",
    .caps = UART_CAP_TEMT | UART_CAP_LOOPBACK | UART_CAP_TX_LEVEL,
    .timing = l16550_timing,
    .init = dw_init,
    .tx_room = dw_tx_room,
    .tx_ready = dw_tx_ready,
    .tx_load = l16550_tx_load,
    .tx_empty = l16550_tx_empty,
    .tx_level = dw_tx_level,
    .irq_update = l16550_irq_update,
    .irq_read = l16550_irq_read,
    .cause = dw_cause,
    .rx_take = l16550_rx_take,
    .loopback = l16550_loopback,
    .putc_polled = l16550_putc_polled,
};

#endif
