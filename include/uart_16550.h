/* The 16550 register map and the register-access seam. Every UART
 * register access of the kernel goes through the inline functions here,
 * and only the lower halves (src/drivers/uart/lower_*.h) and the wire
 * model call them. Below the seam sits the device: MMIO on a board; the
 * register-level fakes in host tests (HOST_TEST: fake_mmio_*); on QEMU with
 * the wire model built in (WIRE_BAUD > 0), the modelled line in front of
 * QEMU's UART for the registers it models (uart_model_*: their cost is the
 * simulation's, charged to its CPU account by the model's entry points). */
#ifndef UART_16550_H
#define UART_16550_H

#include <stdbool.h>
#include <stdint.h>
#include "uart_cfg.h"

/* Register indices (offset = index << reg_shift). */
enum uart_reg {
    UART_RBR = 0, UART_THR = 0, UART_DLL = 0,
    UART_IER = 1, UART_DLM = 1,
    UART_IIR = 2, UART_FCR = 2,
    UART_LCR = 3, UART_MCR = 4, UART_LSR = 5, UART_MSR = 6, UART_SCR = 7,
    UART_DW_RFL = 0x84 >> 2,   /* DesignWare: Receive FIFO Level */
};

#define UART_IER_RDI    0x01   /* received data available */
#define UART_IER_THRI   0x02   /* transmitter holding register empty */
#define UART_IER_RLSI   0x04   /* receiver line status */
#define UART_IIR_NO_INT 0x01
#define UART_IIR_ID     0x0F
#define UART_IIR_MSI    0x00   /* modem status */
#define UART_IIR_THRI   0x02
#define UART_IIR_RDI    0x04
#define UART_IIR_RLSI   0x06
#define UART_IIR_RX_TIMEOUT 0x0C
#define UART_FCR_ENABLE 0x01
#define UART_FCR_CLR_RX 0x02
#define UART_FCR_CLR_TX 0x04
#define UART_FCR_TRIG_SHIFT 6  /* RX trigger, bits 7:6: 1, 4, 8 or 14 bytes */
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
#define UART_LSR_ERRORS (UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI)

/* Any context: FCR's RX trigger bits for a level of `bytes` (1, 4, 8,
 * 14; anything else: 1), and the level FCR bits v select. */
static inline uint32_t uart_fcr_trigger(unsigned bytes)
{
    unsigned code = bytes >= 14 ? 3 : bytes >= 8 ? 2 : bytes >= 4 ? 1 : 0;
    return (uint32_t)code << UART_FCR_TRIG_SHIFT;
}
static inline unsigned uart_fcr_level(uint32_t v)
{
    static const unsigned char levels[4] = { 1, 4, 8, 14 };
    return levels[(v >> UART_FCR_TRIG_SHIFT) & 3];
}

#ifdef HOST_TEST
#include "fake_mmio.h"
#endif

/* Any context: the byte address of register r (an index, or a byte offset
 * >> reg_shift for IP-specific registers beyond the 16550's). */
static inline uintptr_t uart_reg_addr(const struct uart_cfg *c, unsigned r)
{
    return c->base + ((uintptr_t)r << c->reg_shift);
}

/* Any context: the load and the store themselves, past the wire model. */
static inline uint32_t uart_read_raw(const struct uart_cfg *c, unsigned r)
{
#ifdef HOST_TEST
    return fake_mmio_read(uart_reg_addr(c, r), c->io_width);
#else
    if (c->io_width == 4)
        return *(volatile uint32_t *)uart_reg_addr(c, r);
    return *(volatile uint8_t *)uart_reg_addr(c, r);
#endif
}
static inline void uart_write_raw(const struct uart_cfg *c, unsigned r, uint32_t v)
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
/* The modelled device (src/drivers/uart/wire_seam.S into wire_model.c),
 * any context: a read of r whose bits `mask` the caller looks at, as the
 * model shows it (the model reads the UART for what it does not decide,
 * and only when the caller wants some of that); a write of *v to r,
 * which the model may change (returns false: swallowed); n THR stores in
 * a row (returns how many of them, from the first, reach the UART). */
uint32_t uart_model_read(const struct uart_cfg *c, unsigned r, uint32_t mask);
bool uart_model_write(const struct uart_cfg *c, unsigned r, uint32_t *v);
uint32_t uart_model_thr(const struct uart_cfg *c, uint32_t n);

/* Any context: the registers the model sees reads of (it models a
 * 16550's TX side always: LSR.THRE, LSR.TEMT, IER.THRI; its RX side,
 * RBR, IIR, LSR and the DW UART's RFL, while a modelled stream is
 * attached) and writes of: THR, IER, FCR, LCR (DLAB). */
static inline bool uart_modelled_reg(unsigned r)
{
    return r == UART_LSR || r == UART_IER || r == UART_IIR || r == UART_RBR || r == UART_DW_RFL;
}
static inline bool uart_modelled_write(unsigned r)
{
    return r == UART_THR || r == UART_IER || r == UART_FCR || r == UART_LCR;
}
#endif

/* Any context: the bits `mask` of register r, the only ones the caller
 * looks at. With the wire model, a modelled register's read is the
 * model's, and a read that wants none of the UART's own bits does not
 * access the UART (a polling loop then costs QEMU no MMIO exit). Such a
 * read also leaves LSR's error bits set where a real read clears them:
 * only paths that ignore those bits ask for modelled bits alone. */
static inline uint32_t uart_read_bits(const struct uart_cfg *c, unsigned r, uint32_t mask)
{
#if WIRE_BAUD
    if (uart_modelled_reg(r))
        return uart_model_read(c, r, mask) & mask;
#endif
    return uart_read_raw(c, r) & mask;
}

/* Any context: a whole register. */
static inline uint32_t uart_read(const struct uart_cfg *c, unsigned r)
{
    return uart_read_bits(c, r, UINT32_MAX);
}
static inline void uart_write(const struct uart_cfg *c, unsigned r, uint32_t v)
{
#if WIRE_BAUD
    if (uart_modelled_write(r) && !uart_model_write(c, r, &v))
        return;
#endif
    uart_write_raw(c, r, v);
}

/* Any context (a FIFO refill): store n bytes into THR back to back, the
 * address and width worked out once; the caller has checked that the FIFO
 * has room for them. The wire model sees the burst as one access. */
static inline void uart_write_thr_burst(const struct uart_cfg *c, const uint8_t *p, uint32_t n)
{
    uintptr_t a = uart_reg_addr(c, UART_THR);
#if WIRE_BAUD
    n = uart_model_thr(c, n);
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

#endif
