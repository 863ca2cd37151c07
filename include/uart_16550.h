/* 16550-family UART register layer (NS16550A on QEMU, DesignWare APB UART
 * on the D1). Both backends and the panic path drive the hardware only
 * through these functions and a const struct uart_cfg from the board. */
#ifndef UART_16550_H
#define UART_16550_H

#include <stdbool.h>
#include <stdint.h>

/* Read-only description of one UART instance (filled from boards/). */
struct uart_cfg {
    uintptr_t base;        /* MMIO base address */
    uint8_t reg_shift;     /* register index << reg_shift = byte offset */
    uint8_t io_width;      /* access width in bytes: 1 or 4 */
    bool dw_apb;           /* DesignWare APB extras: USR, TFL, RFL, CPR */
    uint32_t clock_hz;     /* UART input clock */
    uint32_t baud;         /* requested baud rate */
    uint16_t fifo_depth;   /* TX FIFO depth in bytes */
};

/* Register indices (offset = index << reg_shift). */
enum uart_reg {
    UART_RBR = 0, UART_THR = 0, UART_DLL = 0,
    UART_IER = 1, UART_DLM = 1,
    UART_IIR = 2, UART_FCR = 2,
    UART_LCR = 3, UART_MCR = 4, UART_LSR = 5, UART_MSR = 6, UART_SCR = 7,
    UART_DW_USR = 0x7C >> 2,   /* UART Status Register */
    UART_DW_TFL = 0x80 >> 2,   /* Transmit FIFO Level */
    UART_DW_RFL = 0x84 >> 2,   /* Receive FIFO Level */
    UART_DW_CPR = 0xF4 >> 2,   /* Component Parameter Register */
};

#define UART_IER_RDI    0x01   /* received data available */
#define UART_IER_THRI   0x02   /* transmitter holding register empty */
#define UART_IER_RLSI   0x04   /* receiver line status */
#define UART_IIR_NO_INT 0x01
#define UART_IIR_ID     0x0F
#define UART_IIR_THRI   0x02
#define UART_IIR_RDI    0x04
#define UART_IIR_RLSI   0x06
#define UART_IIR_BUSY   0x07   /* DW: LCR written while busy */
#define UART_IIR_RX_TIMEOUT 0x0C
#define UART_FCR_ENABLE 0x01
#define UART_FCR_CLR_RX 0x02
#define UART_FCR_CLR_TX 0x04
#define UART_LCR_8N1    0x03
#define UART_LCR_DLAB   0x80
#define UART_MCR_DTR    0x01
#define UART_MCR_RTS    0x02
#define UART_MCR_OUT2   0x08
#define UART_MCR_LOOP   0x10
#define UART_LSR_DR     0x01
#define UART_LSR_OE     0x02
#define UART_LSR_PE     0x04
#define UART_LSR_FE     0x08
#define UART_LSR_BI     0x10
#define UART_LSR_THRE   0x20
#define UART_LSR_TEMT   0x40
#define UART_DW_USR_BUSY 0x01
#define UART_DW_USR_TFNF 0x02  /* TX FIFO not full */
#define UART_DW_USR_TFE  0x04  /* TX FIFO empty */

#ifdef HOST_TEST
#include "fake_mmio.h"
#endif

/* Any context: the address of register r. */
static inline uintptr_t uart_reg_addr(const struct uart_cfg *c, enum uart_reg r)
{
    return c->base + ((uintptr_t)r << c->reg_shift);
}

/* Any context: the load and the store themselves, past the wire model:
 * the only MMIO of the driver (the wire model stores with the second). */
static inline uint32_t uart_read_raw(const struct uart_cfg *c, enum uart_reg r)
{
#ifdef HOST_TEST
    return fake_mmio_read(uart_reg_addr(c, r), c->io_width);
#else
    if (c->io_width == 4)
        return *(volatile uint32_t *)uart_reg_addr(c, r);
    return *(volatile uint8_t *)uart_reg_addr(c, r);
#endif
}
static inline void uart_write_raw(const struct uart_cfg *c, enum uart_reg r, uint32_t v)
{
#ifdef HOST_TEST
    fake_mmio_write(uart_reg_addr(c, r), c->io_width, v);
#else
    if (c->io_width == 4)
        *(volatile uint32_t *)uart_reg_addr(c, r) = v;
    else
        *(volatile uint8_t *)uart_reg_addr(c, r) = (uint8_t)v;
#endif
}

#if WIRE_BAUD
#include "cpu_acct.h"
/* ns16550.c, run through cpu_acct_call with the sim account owning the
 * CPU: the wire model's view of a read (returns it), its filter of a
 * write (*(uint32_t *)pv; returns 0 if the store is swallowed), its
 * share of n THR stores (returns how many, from the first, pass). */
uintptr_t uart_hook_read(uintptr_t c, uintptr_t r, uintptr_t v);
uintptr_t uart_hook_write(uintptr_t c, uintptr_t r, uintptr_t pv);
uintptr_t uart_hook_thr(uintptr_t c, uintptr_t n, uintptr_t unused);
/* Any context: the bits of register r whose value the model decides on
 * a read (0: the register is QEMU's, untouched); the model knows them
 * without asking the UART. */
static inline uint32_t uart_modelled_bits(const struct uart_cfg *c, enum uart_reg r)
{
    if (r == UART_LSR)
        return UART_LSR_THRE | UART_LSR_TEMT;
    if (r == UART_IER)
        return UART_IER_THRI;
    if (c->dw_apb && r == UART_DW_USR)
        return UART_DW_USR_BUSY | UART_DW_USR_TFNF | UART_DW_USR_TFE;
    if (c->dw_apb && r == UART_DW_TFL)
        return UINT32_MAX;
    return 0;
}
static inline bool uart_modelled_write(enum uart_reg r)
{
    return r == UART_THR || r == UART_IER || r == UART_LCR;
}
#endif

/* Any context: the bits `mask` of register r, the only ones the caller
 * looks at. With the wire model built in, the bits it models come from it
 * (its cost is the model's: the driver pays for the call), and a read
 * that wants none of the UART's own bits does not access the UART: a
 * polling loop then costs QEMU no MMIO exit. Such a read also leaves
 * LSR's error bits (OE, PE, FE, BI) set, where a real read clears them;
 * only paths that ignore those bits ask for modelled bits alone. */
static inline uint32_t uart_read_bits(const struct uart_cfg *c, enum uart_reg r, uint32_t mask)
{
#if WIRE_BAUD
    uint32_t own = uart_modelled_bits(c, r);
    if (own) {
        uint32_t v = (mask & ~own) ? uart_read_raw(c, r) : 0;
        return (uint32_t)cpu_acct_call(&cpu_acct_sim, uart_hook_read, (uintptr_t)c, r, v) & mask;
    }
#endif
    return uart_read_raw(c, r) & mask;
}

/* Any context: register access, inline (a whole register read, as
 * uart_read_bits with every bit). */
static inline uint32_t uart_read(const struct uart_cfg *c, enum uart_reg r)
{
    return uart_read_bits(c, r, UINT32_MAX);
}
static inline void uart_write(const struct uart_cfg *c, enum uart_reg r, uint32_t v)
{
#if WIRE_BAUD
    if (uart_modelled_write(r) &&
        !cpu_acct_call(&cpu_acct_sim, uart_hook_write, (uintptr_t)c, r, (uintptr_t)&v))
        return;
#endif
    uart_write_raw(c, r, v);
}

/* Any context (THRE interrupt): store n bytes into THR back to back (a
 * FIFO refill; the caller has checked that the FIFO has room for them),
 * the address and width worked out once, not per byte. The wire model,
 * when built in, sees the burst as one access and decides how many of
 * the bytes the modelled FIFO takes. */
static inline void uart_write_thr_burst(const struct uart_cfg *c, const uint8_t *p, uint32_t n)
{
    uintptr_t a = uart_reg_addr(c, UART_THR);
#if WIRE_BAUD
    n = (uint32_t)cpu_acct_call(&cpu_acct_sim, uart_hook_thr, (uintptr_t)c, n, 0);
#endif
#ifdef HOST_TEST
    for (uint32_t i = 0; i < n; i++)
        fake_mmio_write(a, c->io_width, p[i]);
#else
    if (c->io_width == 4) {
        volatile uint32_t *thr = (volatile uint32_t *)a;
#pragma GCC unroll 4
        for (uint32_t i = 0; i < n; i++)
            *thr = p[i];
    } else {
        volatile uint8_t *thr = (volatile uint8_t *)a;
#pragma GCC unroll 4
        for (uint32_t i = 0; i < n; i++)
            *thr = p[i];
    }
#endif
}

/* Boot: the TX FIFO depth a DW UART reports in CPR.FIFO_MODE (bits
 * 23:16, in units of 16 bytes), or 0 when unknown (no CPR, not DW). */
unsigned uart_fifo_depth_probe(const struct uart_cfg *c);

/* Divisor for the configured clock and baud, rounded to nearest. */
uint32_t uart_divisor(const struct uart_cfg *c);
/* The baud rate the divisor really gives, in milli-baud. */
uint64_t uart_real_baud_milli(const struct uart_cfg *c);
/* Nanoseconds one 8N1 character (10 bits) takes at that baud. */
uint64_t uart_char_ns(const struct uart_cfg *c);

/* Boot, interrupts masked: program divisor, 8N1, FIFOs; IER cleared. */
int uart_hw_init(const struct uart_cfg *c);

/* Any context, polled: send one byte / wait until the shifter is empty. */
void uart_putc_polled(const struct uart_cfg *c, char ch);
void uart_wait_idle_polled(const struct uart_cfg *c);

#endif
