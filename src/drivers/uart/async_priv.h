/* Async backend (async.c: TX, the interrupt's dispatch, drain; async_rx.c:
 * the RX path; async_ctr.c: the counters): the state its files share and
 * the register helpers every path uses. Not for other code. */
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

/* async.c. Interrupts masked: read LSR, counting the line errors it
 * reports (a read clears them, so every LSR read of this backend goes
 * through here). */
uint32_t lsr_read(void);

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
