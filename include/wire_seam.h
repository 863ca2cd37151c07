/* The wire model at the register seam (uart_regs.h, WIRE_BAUD > 0): the
 * 16550 registers it takes and its entry points (src/drivers/uart/
 * wire_seam.S into wire_model.c). It models the NS16550A QEMU has, and the
 * DW UART's RFL; a board whose UART is another IP has no wire model (the
 * build refuses it). */
#ifndef WIRE_SEAM_H
#define WIRE_SEAM_H

#include <stdbool.h>
#include <stdint.h>
#include "uart_16550.h"

/* Any context: a read of r whose bits `mask` the caller looks at, as the
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

/* Any context: a burst of n stores to r, how many reach the UART (the
 * model's, for THR). */
static inline uint32_t uart_model_burst(const struct uart_cfg *c, unsigned r, uint32_t n)
{
    return r == UART_THR ? uart_model_thr(c, n) : n;
}

#endif
