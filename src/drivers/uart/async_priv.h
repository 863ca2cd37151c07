/* Async backend (async.c: the THRE interrupt and the dispatch; async_tx.c:
 * write and drain; async_rx.c: the RX path; async_ctr.c: the counters):
 * the state its files share and the register helpers and FIFO refill its
 * paths use. Not for other code. */
#ifndef ASYNC_PRIV_H
#define ASYNC_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include "ring.h"
#include "scheduler.h"
#include "uart_16550.h"
#include "uart_backend.h"

#ifndef UART_TX_RING_SIZE
#define UART_TX_RING_SIZE (64U * 1024U)     /* as the original driver */
#endif
#ifndef UART_RX_RING_SIZE
#define UART_RX_RING_SIZE (16U * 1024U)
#endif
#define UART_ISR_MAX_ROUNDS   8   /* IIR causes served per interrupt */

extern const struct uart_cfg *be_cfg;
extern struct ring be_tx;              /* TX ring: task produces, THRE consumes */
extern volatile bool be_thre_on;       /* THRE interrupt enabled */
extern uint32_t be_ier;                /* IER as written */
extern uint64_t be_char_ns;            /* one character on the line */
extern struct uart_counters be_ctr;
extern struct waker be_tx_space_waiter, be_drain_waiter;
extern volatile uint32_t be_tx_space_wanted; /* free bytes the blocked writer waits for */
extern volatile bool be_fifo_empty_seen;     /* THRE saw ring and FIFO empty ... */
extern volatile uint64_t be_fifo_empty_ns;   /* ... at this time (shifter then busy) */

/* async.c. Interrupts masked: read LSR, counting the line errors it
 * reports (a read clears them, so every LSR read of this backend goes
 * through here). */
uint32_t lsr_read(void);

/* Interrupts masked: bytes the TX FIFO takes now (DW: depth - TFL;
 * 16550: a FIFO's worth only when THRE says it is empty). Out of line (a
 * copy in each file that refills), as it was when one file held it all:
 * the S41 figures stay comparable. */
static __attribute__((noinline, unused)) unsigned tx_room(void)
{
    if (be_cfg->dw_apb) {
        uint32_t level = uart_read(be_cfg, UART_DW_TFL);
        return level < be_cfg->fifo_depth ? be_cfg->fifo_depth - level : 0;
    }
    return (lsr_read() & UART_LSR_THRE) ? be_cfg->fifo_depth : 0;
}

/* tx_refill, interrupts masked: one contiguous run of at most room ring
 * bytes into the FIFO; returns its length. */
static inline __attribute__((always_inline)) unsigned load_run(unsigned room)
{
    const uint8_t *p;
    uint32_t k = ring_read_slice(&be_tx, &p);

    if (k > room)
        k = room;
    if (k) {
        uart_write_thr_burst(be_cfg, p, k);
        ring_consume(&be_tx, k);
        be_ctr.ring_pop_calls++;
    }
    return k;
}

/* Interrupts masked: move ring bytes into the FIFO, as many as it has
 * room for (never more: a DW FIFO may be partly full), in two runs when
 * the ring wraps. Returns bytes sent (which makes an earlier FIFO-empty
 * stamp stale); *fifo_was_empty tells whether the FIFO had nothing in it. */
static inline __attribute__((always_inline)) unsigned tx_refill(bool *fifo_was_empty)
{
    unsigned room = tx_room();

    *fifo_was_empty = room == be_cfg->fifo_depth;
    if (!room) {
        be_ctr.hw_send_zero++;
        return 0;
    }
    unsigned sent = load_run(room);
    if (sent && sent < room)      /* the ring wrapped, or ran out */
        sent += load_run(room - sent);
    if (sent) {
        be_fifo_empty_seen = false;
        be_ctr.hw_send_bytes += sent;
        if (sent > be_ctr.hw_send_max_chunk)
            be_ctr.hw_send_max_chunk = sent;
    }
    return sent;
}

/* Interrupts masked: set or clear bits of IER. */
static inline void ier_update(uint32_t set, uint32_t clear)
{
    be_ier = (be_ier | set) & ~clear;
    uart_write(be_cfg, UART_IER, be_ier);
}

/* async.c. Task: block until cond() holds or the waker w fires. */
void async_wait_for(struct waker *w, bool (*cond)(void));
/* async_rx.c. Boot: RX ring, RX interrupts on. */
void async_rx_init(void);
/* async_rx.c. UART interrupt, interrupts masked: IIR cause iir (RX data,
 * RX timeout, line status) in round `round` of the handler: serve it and
 * every cause after it, rounds up to UART_ISR_MAX_ROUNDS, as RX work. */
void async_rx_claim(uint32_t iir, int round);
/* async.c. UART interrupt, interrupts masked, inside an RX claim: a THRE
 * refill, charged to the ISR account. */
void async_tx_irq_in_rx(void);
/* async.c. UART interrupt, interrupts masked: a cause neither TX nor RX
 * (DW busy detect, modem status). */
void async_other_irq(uint32_t iir);

#endif
