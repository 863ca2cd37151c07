/* Host test of one UART lower half (test_uart_lower.c, built once per
 * lower half): what its files share. test_uart_lower.c holds bring-up,
 * the divisor, the FIFO depth, the LCR store, polled output and main();
 * test_uart_lower_ops.c the interrupt causes and the TX and RX
 * operations. */
#ifndef TEST_UART_LOWER_H
#define TEST_UART_LOWER_H

#include "uart_lower.h"

extern struct uart_cfg cfg;   /* the UART under test */
extern struct uart_hw hw;     /* the lower half's state for it */

/* test_uart_lower.c: the fake as cfg with a FIFO of depth bytes (the
 * board says board_depth), the lower half brought up on it. */
void up(unsigned depth, unsigned board_depth);

/* test_uart_lower_ops.c */
void test_causes(void);
void test_dw_quirks(void);
void test_tx_ops(unsigned depth);
void test_rx_take(unsigned depth);
void test_irq_and_loopback(void);
int uart_lower_ops_failures(void);

#endif
