/* The lower half of the UART driver: what one UART IP needs (the shape of
 * Linux's uart_ops and NuttX's uart_ops_s), one file per IP, chosen by
 * the board at build time (BOARD_UART_LOWER in boards/<board>/board.cmake
 * names lower_<ip>.h, included below as `uart_lower`). A lower half holds
 * its IP's register map and quirks, drives the registers only through the
 * IP-neutral seam (uart_regs.h) and calls nothing of the
 * kernel: no scheduler, timer or CPU accounting. Its table is a static
 * const object, so a call through it compiles to a direct, inlinable call.
 *
 * Contexts: "masked" functions run with interrupts masked (the ISR, or a
 * task that masked them); "any" ones anywhere, panic included. */
#ifndef UART_LOWER_H
#define UART_LOWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "uart_regs.h"

/* Line errors seen in status reads (a read clears them in the UART). */
struct uart_line_errors {
    uint64_t overrun, parity, framing, brk;
};

/* The line as the IP's clock divider sets it (baud programming is the
 * lower half's): the divisor register's value, the baud it really gives
 * in milli-baud, one 10-bit character at that baud in ns. */
struct uart_timing {
    uint32_t divisor;
    uint64_t baud_milli;
    uint64_t char_ns;
};

/* One UART as its lower half drives it: the board's config and the lower
 * half's own state. The tty core owns the storage; only the lower half
 * writes it (the core reads the figures). */
struct uart_hw {
    const struct uart_cfg *cfg;
    uint16_t fifo_depth;          /* TX FIFO depth in use */
    const char *fifo_source;      /* "board", or where the IP said it ("cpr") */
    uint32_t ier;                 /* the IP's interrupt-enable register as written */
    unsigned irqs;                /* UART_IRQ_* enabled */
    struct uart_line_errors err;  /* since boot */
    uint64_t busy_detect;         /* DW: an LCR write while busy (IIR 0x7) */
};

/* The interrupt's cause. TX: the TX FIFO emptied (the TX interrupt's
 * event: until the engine loads it, the FIFO has its depth's room, which
 * the engine takes without asking tx_room); TX_ROOM: an interrupt entry
 * with nothing pending that the IP may raise while its TX FIFO has room
 * but has not emptied (the DW UART's
 * IIR 0xC1: the lower half says so only at the entry's first read);
 * OTHER: the lower half has served it itself (an IP quirk, modem status);
 * the handler asks again. */
enum uart_cause { UART_CAUSE_NONE, UART_CAUSE_TX, UART_CAUSE_TX_ROOM, UART_CAUSE_RX,
                  UART_CAUSE_OTHER };

#define UART_IRQ_TX 1U            /* TX FIFO empty (16550: IER.THRI, SiFive: ie.txwm) */
#define UART_IRQ_RX 2U            /* RX data, RX timeout, line status */

#define UART_CAP_TEMT     1U      /* tx_empty sees the shifter, not only the FIFO */
#define UART_CAP_LOOPBACK 2U      /* internal loopback */
#define UART_CAP_TX_LEVEL 4U      /* tx_level is exact, not only a bound */

struct uart_lower {
    const char *name;             /* the IP, e.g. "ns16550", "dw-apb" */
    unsigned caps;                /* UART_CAP_* */
    /* Any: the divisor for the config's clock and baud, and its line. */
    void (*timing)(const struct uart_cfg *c, struct uart_timing *t);
    /* Boot, masked: divisor, 8N1, FIFOs, interrupts off, FIFO depth. */
    int (*init)(struct uart_hw *h);
    /* Masked: bytes the TX FIFO takes now (a status read: errors counted). */
    unsigned (*tx_room)(struct uart_hw *h);
    /* Any: whether the TX FIFO takes a byte now, from the TX status bits
     * alone (a polling loop: nothing else read or cleared). */
    bool (*tx_ready)(struct uart_hw *h);
    /* Masked: store n <= tx_room() bytes (or n <= fifo_depth after a TX
     * cause, before any other store). */
    void (*tx_load)(struct uart_hw *h, const uint8_t *p, size_t n);
    /* Any: FIFO and shifter empty (UART_CAP_TEMT), else FIFO empty. */
    bool (*tx_empty)(struct uart_hw *h);
    /* Any: bytes still in the FIFO and shifter (exact or a bound): 0
     * exactly when tx_empty; 1 with a FIFO deeper than one byte: the FIFO
     * empty, the shifter perhaps sending. */
    unsigned (*tx_level)(struct uart_hw *h);
    /* Masked: interrupts `set` on, `clear` off (UART_IRQ_*). */
    void (*irq_update)(struct uart_hw *h, unsigned set, unsigned clear);
    /* Masked: the interrupt-enable register, read back from the UART. */
    uint32_t (*irq_read)(struct uart_hw *h);
    /* ISR: the highest pending cause; entry: the claim's first read. */
    enum uart_cause (*cause)(struct uart_hw *h, bool entry);
    /* Masked: up to max received bytes into buf, errors counted; *more
     * tells whether data is left after max. */
    unsigned (*rx_take)(struct uart_hw *h, uint8_t *buf, unsigned max, bool *more);
    /* Task: internal loopback on or off (UART_CAP_LOOPBACK). */
    void (*loopback)(struct uart_hw *h, bool on);
    /* Any, panic included: send one byte, polling. */
    void (*putc_polled)(struct uart_hw *h, char ch);
};

#ifndef UART_LOWER_HEADER
#error "UART_LOWER_HEADER names the board's lower half (boards/<board>/board.cmake)"
#endif
#include UART_LOWER_HEADER

#endif
