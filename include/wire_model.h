/* Wire model (QEMU boards, build option WIRE_BAUD > 0): makes QEMU's
 * instant 16550 behave like a real line. Every byte stored to THR takes
 * 10 bit times after the previous one; THRE, TEMT, the FIFO level (and
 * USR/TFL on DW) follow modelled time; a store into a full modelled FIFO
 * is lost and counted; the THRE interrupt arrives through the timer queue
 * when the modelled FIFO empties and enters the UART's registered handler.
 * Bytes still reach QEMU's UART. Neither backend knows the model exists. */
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
    uint64_t instret, cycles;   /* spent inside the model (overhead) */
};

/* Boot, interrupts masked, after uart_hw_init(): start the model for the
 * UART c on PLIC source irq. No-op when the model is off. */
void wire_model_init(const struct uart_cfg *c, uint32_t irq);
/* Any task: the model's counters (all zero when off). */
void wire_model_stats(struct wire_stats *out);

/* Register layer hooks (ns16550.c), any context: adjust a value read
 * from register r; filter a write (false: the store is swallowed). The
 * register layer times each whole register access that goes through the
 * model and charges it with wire_charge(): with the model on, a register
 * access is simulation, and its cost is not the driver's. */
void wire_charge(uint64_t i0, uint64_t c0);
uint32_t wire_read(const struct uart_cfg *c, enum uart_reg r, uint32_t v);
bool wire_write(const struct uart_cfg *c, enum uart_reg r, uint32_t *v);

#endif
