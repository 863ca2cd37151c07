/* The tty core's own interfaces between its files (tty.c, tty_rx.c,
 * tty_ctr.c). Not for engines or other code. */
#ifndef TTY_PRIV_H
#define TTY_PRIV_H

#include "uart_port.h"

#define ISR_MAX_ROUNDS 8    /* causes served per UART interrupt */

/* tty_rx.c. Boot task: the RX ring; RX interrupts on (unless the engine
 * polls RX). */
void tty_rx_init(struct uart_port *p);
/* tty_rx.c. UART interrupt, interrupts masked: an RX cause in round
 * `round` of the claim (tty_claim's loop, tty.c); `first`: the claim's
 * first, which opens its RX part (its account, its budget window).
 * Served into the ring, or by the engine's rx_irq for a design that takes
 * RX itself. False: the budget is spent, the claim ends. */
bool tty_rx_cause(struct uart_port *p, int round, bool first);
/* tty_rx.c. UART interrupt, interrupts masked, the claim's end with its
 * RX part open: the budget's verdict (RX masked until later, or not),
 * the account back. */
void tty_rx_claim_end(struct uart_port *p);

#endif
