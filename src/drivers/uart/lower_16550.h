/* The 16550 family's lower-half functions, shared by the NS16550A
 * (lower_ns16550.h) and the DesignWare APB UART (lower_dw_apb.h), which
 * adds to them. Register names: uart_16550.h; access: the seam
 * (uart_regs.h). Included through uart_lower.h only. */
#ifndef LOWER_16550_H
#define LOWER_16550_H

#include "csr.h"
#include "uart_16550.h"

/* Any: count the line errors an LSR value reports (a read clears them in
 * the UART). Each count one atomic add, only when its bit is set: a task
 * polling LSR and the ISR reading it may count at once, with no masking. */
static inline void l16550_count_errors(struct uart_hw *h, uint32_t lsr)
{
    if (__builtin_expect(lsr & UART_LSR_ERRORS, 0)) {
        if (lsr & UART_LSR_OE)
            __atomic_fetch_add(&h->err.overrun, 1, __ATOMIC_RELAXED);
        if (lsr & UART_LSR_PE)
            __atomic_fetch_add(&h->err.parity, 1, __ATOMIC_RELAXED);
        if (lsr & UART_LSR_FE)
            __atomic_fetch_add(&h->err.framing, 1, __ATOMIC_RELAXED);
        if (lsr & UART_LSR_BI)
            __atomic_fetch_add(&h->err.brk, 1, __ATOMIC_RELAXED);
    }
}

/* Masked: LSR, its line errors counted. */
static inline uint32_t l16550_lsr(struct uart_hw *h)
{
    uint32_t lsr = uart_read(h->cfg, UART_LSR);
    l16550_count_errors(h, lsr);
    return lsr;
}

/* Any: LSR's TX status bits `mask`. A read that reaches the UART clears
 * its line errors, so they are counted; with the wire model, a read of the
 * modelled bits alone never reaches the UART. */
static inline uint32_t l16550_lsr_tx(struct uart_hw *h, uint32_t mask)
{
#if WIRE_BAUD
    return uart_read_bits(h->cfg, UART_LSR, mask);
#else
    uint32_t lsr = uart_read(h->cfg, UART_LSR);
    l16550_count_errors(h, lsr);
    return lsr & mask;
#endif
}

/* Masked: a FIFO's worth when THRE says it is empty, else nothing. */
static inline unsigned l16550_tx_room(struct uart_hw *h)
{
    return (l16550_lsr(h) & UART_LSR_THRE) ? h->fifo_depth : 0;
}

/* Any: LSR.THRE, errors counted: a poll for THRE clears LSR's line
 * errors on a real UART, which must not lose an overrun (Linux's 8250
 * keeps them in lsr_saved_flags for the same reason). */
static inline bool l16550_tx_ready(struct uart_hw *h)
{
    return l16550_lsr_tx(h, UART_LSR_THRE) != 0;
}

/* Masked. */
static inline void l16550_tx_load(struct uart_hw *h, const uint8_t *p, size_t n)
{
    uart_write_burst(h->cfg, UART_THR, p, n);
}

/* Any: LSR.TEMT, errors counted. */
static inline bool l16550_tx_empty(struct uart_hw *h)
{
    return l16550_lsr_tx(h, UART_LSR_TEMT) != 0;
}

/* Any: none, at most the shifter (THRE) or up to a FIFO's worth: all a
 * 16550 tells (errors counted). TEMT without THRE, which no 16550 shows,
 * reads as a FIFO's worth: a level of 0 always means room. */
static inline unsigned l16550_tx_level(struct uart_hw *h)
{
    uint32_t lsr = l16550_lsr_tx(h, UART_LSR_THRE | UART_LSR_TEMT);
    return !(lsr & UART_LSR_THRE) ? h->fifo_depth : (lsr & UART_LSR_TEMT) ? 0 : 1U;
}

/* Masked: IER from the UART_IRQ_* set. */
static inline void l16550_irq_update(struct uart_hw *h, unsigned set, unsigned clear)
{
    h->irqs = (h->irqs | set) & ~clear;
    h->ier = ((h->irqs & UART_IRQ_TX) ? UART_IER_THRI : 0) |
             ((h->irqs & UART_IRQ_RX) ? UART_IER_RDI | UART_IER_RLSI : 0);
    uart_write(h->cfg, UART_IER, h->ier);
}

/* Masked: IER as the UART reads it back (its four interrupt bits). */
static inline uint32_t l16550_irq_read(struct uart_hw *h)
{
    return uart_read(h->cfg, UART_IER) & 0x0FU;
}

/* Any: a 16550's divisor is clock / 16 / baud (uart_cfg.c). */
static inline void l16550_timing(const struct uart_cfg *c, struct uart_timing *t)
{
    *t = (struct uart_timing){ uart_divisor(c), uart_real_baud_milli(c), uart_char_ns(c) };
}

/* Masked: IIR's cause; modem status is read (it clears the cause). An
 * entry whose first IIR read says no interrupt (the DW UART's 0xC1, or a
 * cause another read cleared) may have been the TX FIFO's room: TX_ROOM. */
static inline enum uart_cause l16550_cause_of(struct uart_hw *h, uint32_t iir, bool entry)
{
    if (iir == UART_IIR_THRI)                /* the common one, first (no jump table) */
        return UART_CAUSE_TX;
    switch (iir) {
    case UART_IIR_NO_INT:
        return entry ? UART_CAUSE_TX_ROOM : UART_CAUSE_NONE;
    case UART_IIR_RDI:
    case UART_IIR_RLSI:
    case UART_IIR_RX_TIMEOUT:
        return UART_CAUSE_RX;
    default:
        (void)uart_read(h->cfg, UART_MSR);   /* modem status, or unknown */
        return UART_CAUSE_OTHER;
    }
}

/* ISR. */
static inline enum uart_cause l16550_cause(struct uart_hw *h, bool entry)
{
    return l16550_cause_of(h, uart_read(h->cfg, UART_IIR) & UART_IIR_ID, entry);
}

/* Masked: LSR.DR, then RBR, while bytes wait and max allows. */
static inline unsigned l16550_rx_take(struct uart_hw *h, uint8_t *buf, unsigned max, bool *more)
{
    unsigned n = 0;
    bool dr;
    while ((dr = l16550_lsr(h) & UART_LSR_DR) && n < max)
        buf[n++] = (uint8_t)uart_read(h->cfg, UART_RBR);
    *more = dr;
    return n;
}

/* Task: MCR.LOOP. */
static inline void l16550_loopback(struct uart_hw *h, bool on)
{
    uint32_t mcr = uart_read(h->cfg, UART_MCR);
    uart_write(h->cfg, UART_MCR, on ? mcr | UART_MCR_LOOP : mcr & ~UART_MCR_LOOP);
}

/* Any, panic included: wait for THRE, store one byte. */
static inline void l16550_putc_polled(struct uart_hw *h, char ch)
{
    while (!l16550_tx_ready(h))
        ;
    uart_write(h->cfg, UART_THR, (uint8_t)ch);
}

/* Boot, masked: the divisor, 8N1, FIFOs on and cleared at the config's
 * RX trigger level, DTR/RTS/OUT2,
 * with lcr_write for the LCR stores (the DW UART needs care there);
 * interrupts off. */
static inline int l16550_program(struct uart_hw *h, int (*lcr_write)(struct uart_hw *, uint32_t))
{
    const struct uart_cfg *c = h->cfg;
    uint32_t div = uart_divisor(c);

    h->irqs = h->ier = 0;
    uart_write(c, UART_IER, 0);
    while (!l16550_tx_empty(h))
        ;
    if (lcr_write(h, UART_LCR_DLAB | UART_LCR_8N1))
        return -1;
    uart_write(c, UART_DLL, div & 0xFF);
    uart_write(c, UART_DLM, (div >> 8) & 0xFF);
    if (lcr_write(h, UART_LCR_8N1))
        return -1;
    uart_write(c, UART_FCR, UART_FCR_ENABLE | UART_FCR_CLR_RX | UART_FCR_CLR_TX |
                                uart_fcr_trigger(c->rx_trigger));
    uart_write(c, UART_MCR, UART_MCR_DTR | UART_MCR_RTS | UART_MCR_OUT2);
    return 0;
}

#endif
