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
 * `round` of the claim; serves it and every cause after it (through the
 * engine's rx_irq for a design that takes RX itself). */
void tty_rx_claim(struct uart_port *p, int round);

#endif
