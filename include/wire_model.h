/* Wire model (QEMU boards, build option WIRE_BAUD > 0): a modelled device
 * behind the register seam (uart_16550.h) that makes QEMU's instant 16550
 * behave like a real line. Every byte stored to THR takes 10 bit times
 * after the previous one; LSR.THRE and LSR.TEMT follow modelled time; a
 * store into a full modelled FIFO is lost and counted. When the modelled
 * FIFO empties, a timer interrupt (a sim timer: timer.h) switches THRI on
 * in QEMU's IER, and QEMU's own THRE interrupt reaches the driver's
 * handler through the PLIC. Bytes still reach QEMU's UART. No driver code
 * knows the model exists; its time is charged to the sim CPU account
 * (cpu_acct.h) by its entry points (wire_seam.S). It models the NS16550A
 * QEMU has, not the DesignWare UART (no QEMU board has one). */
#ifndef WIRE_MODEL_H
#define WIRE_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "uart_16550.h"

struct wire_stats {
    uint64_t baud, fifo;        /* 0, 0 when the model is off */
    uint64_t bytes;             /* bytes accepted onto the modelled line */
    uint64_t lost;              /* stores into a full modelled FIFO */
    uint64_t thre_irqs;         /* modelled THRE interrupts delivered */
    uint64_t calls;             /* register accesses filtered */
    uint64_t instret, cycles;   /* spent in the model (the sim account):
                                   instructions, rdcycle counts */
};

/* Line faults the model injects on request (boot argument fault=, see
 * src/kernel/fault.c), so tests reach paths a healthy line never takes. */
enum wire_fault {
    WIRE_FAULT_NONE,
    WIRE_FAULT_TEMT_STUCK,      /* LSR.TEMT never rises */
};

/* Boot, interrupts masked, after uart_hw_init(): start the model for the
 * UART c. No-op when the model is off. */
void wire_model_init(const struct uart_cfg *c);
/* Boot task: inject fault f from now on; -ENODEV when the model is off
 * (there is no modelled line to break). */
int wire_model_fault(enum wire_fault f);
/* Any task: the model's counters (all zero when off); instret and cycles
 * are the sim account's. */
void wire_model_stats(struct wire_stats *out);

/* The seam's entry points call these (any context, interrupts masked,
 * the sim account owning the CPU); host tests call them directly: adjust
 * a value read from register r; filter a write (false: the store is
 * swallowed); n THR stores in a row (a FIFO refill): how many of them,
 * from the first, go on to the UART. */
uint32_t wire_read(const struct uart_cfg *c, unsigned r, uint32_t v);
bool wire_write(const struct uart_cfg *c, unsigned r, uint32_t *v);
uint32_t wire_write_thr(const struct uart_cfg *c, uint32_t n);

#endif
