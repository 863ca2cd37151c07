/* What the wire model's two halves share: the TX side and the register
 * filter (wire_model.c), the modelled far end and RX FIFO (wire_rx.c).
 * Every function here runs with interrupts masked, on the sim account. */
#ifndef WIRE_PRIV_H
#define WIRE_PRIV_H

#include "wire_model.h"

#define NS_PER_10BITS_NUM 10000000000ULL   /* 10 bits x 1e9 ns */
#define WIRE_FIFO_MAX 128U

/* wire_rx.c: the RX side. Init at boot; whether a stream is attached
 * (the model then owns RBR, IIR, LSR's RX bits and the interrupt line);
 * register reads and writes of an attached stream at now. */
void wire_rx_init(const struct uart_cfg *c, const struct peer_point *p);
bool wire_rx_attached(void);
uint32_t wire_rx_lsr(uint64_t now, bool read_errors);   /* DR, OE */
uint32_t wire_rx_rbr(uint64_t now);
uint32_t wire_rx_level(uint64_t now);                   /* RFL */
uint32_t wire_rx_iir(uint64_t now);                     /* RX cause or NO_INT */
void wire_rx_ier(uint32_t ier, uint64_t now);
void wire_rx_fcr(uint32_t fcr, uint64_t now);
void wire_rx_rearm(uint64_t now);                       /* the timer for the next event */

/* wire_model.c, while a stream is attached: QEMU's interrupt line as the
 * modelled causes want it (QEMU's IER.THRI on: its empty THR raises the
 * line); attach and detach switch QEMU's IER between the two modes. */
void wire_line_update(uint64_t now);
void wire_line_mode(bool attached, uint64_t now);

#endif
