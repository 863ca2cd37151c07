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
 * and only when the caller wants some of that); a write of v to r, which
 * the model may change or swallow (it makes the store itself); n THR
 * stores in a row (returns how many of them, from the first, reach the
 * UART: the caller makes them). On the target each is a charged call of
 * the model's entry (wire_seam.S, cpu_acct_sim_call): the driver pays
 * one jal and its arguments, as a register access costs a load or a store
 * and its address; the host tests' fake_acct.c has them as functions. */
#ifdef HOST_TEST
uint32_t uart_model_read(const struct uart_cfg *c, unsigned r, uint32_t mask);
void uart_model_write(const struct uart_cfg *c, unsigned r, uint32_t v);
size_t uart_model_thr(const struct uart_cfg *c, size_t n);
#else
#include "cpu_acct.h"
extern const char uart_model_read_entry[], uart_model_write_entry[], uart_model_thr_entry[];

/* (mask goes sign-extended, the ABI's form of a 32-bit value: one li for
 * a whole register's.) */
static inline uint32_t uart_model_read(const struct uart_cfg *c, unsigned r, uint32_t mask)
{
    return (uint32_t)cpu_acct_sim_call(uart_model_read_entry, 3, (uintptr_t)c, r,
                                       (uintptr_t)(intptr_t)(int32_t)mask);
}
static inline void uart_model_write(const struct uart_cfg *c, unsigned r, uint32_t v)
{
    (void)cpu_acct_sim_call(uart_model_write_entry, 3, (uintptr_t)c, r, v);
}
static inline size_t uart_model_thr(const struct uart_cfg *c, size_t n)
{
    return cpu_acct_sim_call(uart_model_thr_entry, 2, (uintptr_t)c, n, 0);
}
#endif

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
static inline size_t uart_model_burst(const struct uart_cfg *c, unsigned r, size_t n)
{
    return r == UART_THR ? uart_model_thr(c, n) : n;
}

#endif
