/* The UART register seam, the same for every IP: a read, a write and a
 * burst of stores to register r of the UART c, where r is the register's
 * byte offset divided by the board's stride (offset = r << reg_shift) and
 * every access is io_width bytes wide (uart_cfg.h). Each IP's register map
 * and its quirks are its lower half's (src/drivers/uart/lower_*.h); only
 * the lower halves and the wire model call this seam. Below it sits the
 * device: MMIO on a board; the register-level fakes in host tests
 * (HOST_TEST: fake_mmio_*); on QEMU with the wire model built in
 * (WIRE_BAUD > 0), the modelled line in front of QEMU's UART for the
 * registers it takes (wire_seam.h: their cost is the simulation's). */
#ifndef UART_REGS_H
#define UART_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "uart_cfg.h"

#ifdef HOST_TEST
#include "fake_mmio.h"
#elif __has_include("board.h")
#include "board.h"               /* an image's board (a hosted build has none) */
#endif

/* An image is built for one board: its UART's register stride and access
 * width are the board's constants (uart_bus_ok checks the config against
 * them at bring-up), so that an access costs no look-up; a host test's
 * fake UART takes them from the config. */
#ifdef BOARD_UART_REG_SHIFT
#define UART_REG_SHIFT(c) ((void)(c), BOARD_UART_REG_SHIFT)
#define UART_IO_WIDTH(c)  ((void)(c), BOARD_UART_IO_WIDTH)
#else
#define UART_REG_SHIFT(c) ((c)->reg_shift)
#define UART_IO_WIDTH(c)  ((c)->io_width)
#endif

/* uart_be_hw_init (boot): the config's stride and width are the ones the
 * accesses use. */
static inline bool uart_bus_ok(const struct uart_cfg *c)
{
    return c->reg_shift == UART_REG_SHIFT(c) && c->io_width == UART_IO_WIDTH(c);
}
#if WIRE_BAUD
#include "wire_seam.h"
#endif

/* Any context: the byte address of register r. */
static inline uintptr_t uart_reg_addr(const struct uart_cfg *c, unsigned r)
{
    return c->base + ((uintptr_t)r << UART_REG_SHIFT(c));
}

/* Any context: the load and the store themselves, past the wire model. */
static inline uint32_t uart_read_raw(const struct uart_cfg *c, unsigned r)
{
#ifdef HOST_TEST
    return fake_mmio_read(uart_reg_addr(c, r), c->io_width);
#else
    if (UART_IO_WIDTH(c) == 4)
        return *(volatile uint32_t *)uart_reg_addr(c, r);
    return *(volatile uint8_t *)uart_reg_addr(c, r);
#endif
}
static inline void uart_write_raw(const struct uart_cfg *c, unsigned r, uint32_t v)
{
#ifdef HOST_TEST
    fake_mmio_write(uart_reg_addr(c, r), c->io_width, v);
#else
    if (UART_IO_WIDTH(c) == 4)
        *(volatile uint32_t *)uart_reg_addr(c, r) = v;
    else
        *(volatile uint8_t *)uart_reg_addr(c, r) = (uint8_t)v;
#endif
}

/* Any context: the bits `mask` of register r, the only ones the caller
 * looks at. With the wire model, a modelled register's read is the
 * model's, and a read that wants none of the UART's own bits does not
 * access the UART (a polling loop then costs QEMU no MMIO exit). Such a
 * read also leaves a status register's error bits set where a real read
 * clears them: only paths that ignore those bits ask for modelled bits
 * alone. */
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
    if (uart_modelled_write(r)) {
        uart_model_write(c, r, v);
        return;
    }
#endif
    uart_write_raw(c, r, v);
}

/* Any context (a FIFO refill): store p[0..n) into register r back to
 * back, the address and width worked out once; the caller has checked
 * that the FIFO has room for them. The wire model sees the burst as one
 * access. */
static inline void uart_write_burst(const struct uart_cfg *c, unsigned r, const uint8_t *p,
                                    size_t n)
{
    uintptr_t a = uart_reg_addr(c, r);
#if WIRE_BAUD
    n = uart_model_burst(c, r, n);
#endif
    const uint8_t *end = p + n;   /* the loop counts the pointer: no index to extend */
#ifdef HOST_TEST
    for (; p != end; p++)
        fake_mmio_write(a, c->io_width, *p);
#else
    if (UART_IO_WIDTH(c) == 4) {
        volatile uint32_t *reg = (volatile uint32_t *)a;
#pragma GCC unroll 16
        for (; p != end; p++)
            *reg = *p;
    } else {
        volatile uint8_t *reg = (volatile uint8_t *)a;
#pragma GCC unroll 16
        for (; p != end; p++)
            *reg = *p;
    }
#endif
}

#endif
