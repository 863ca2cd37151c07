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
 * any context: a read of r whose UART value (or 0, when the caller wants
 * none of the UART's own bits) is v, as the model shows it; a write of
 * *v to r, which the model may change (returns false: swallowed); n THR
 * stores in a row (returns how many of them, from the first, reach the
 * UART). */
uint32_t uart_model_read(const struct uart_cfg *c, unsigned r, uint32_t v);
bool uart_model_write(const struct uart_cfg *c, unsigned r, uint32_t *v);
uint32_t uart_model_thr(const struct uart_cfg *c, uint32_t n);

/* Any context: the bits of register r the model decides on a read (it
 * models a 16550's TX side: LSR.THRE, LSR.TEMT, IER.THRI); 0: the
 * register is the UART's own. Writes it sees: THR, IER, LCR (DLAB). */
static inline uint32_t uart_modelled_bits(unsigned r)
{
    return r == UART_LSR ? UART_LSR_THRE | UART_LSR_TEMT : r == UART_IER ? UART_IER_THRI : 0;
}
static inline bool uart_modelled_write(unsigned r)
{
    return r == UART_THR || r == UART_IER || r == UART_LCR;
}
#endif

/* Any context: the bits `mask` of register r, the only ones the caller
 * looks at. With the wire model, the bits it models come from it, and a
 * read that wants none of the UART's own bits does not access the UART
 * (a polling loop then costs QEMU no MMIO exit). Such a read also leaves
 * LSR's error bits set where a real read clears them: only paths that
 * ignore those bits ask for modelled bits alone. */
static inline uint32_t uart_read_bits(const struct uart_cfg *c, unsigned r, uint32_t mask)
{
#if WIRE_BAUD
    uint32_t own = uart_modelled_bits(r);
    if (own)
        return uart_model_read(c, r, (mask & ~own) ? uart_read_raw(c, r) : 0) & mask;
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
