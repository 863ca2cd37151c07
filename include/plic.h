/* PLIC for the image's privilege context: priorities, enables, threshold,
 * claim/complete, and a table of registered handlers by source. */
#ifndef PLIC_H
#define PLIC_H

#include <stdint.h>

typedef void (*irq_handler_t)(void *arg);

/* Boot, interrupts masked, before any irq_register: the handler table
 * empty (each slot's no_handler), everything disabled, threshold 0,
 * external interrupts enabled in xie. */
void plic_init(void);
/* Boot of a secondary hart, interrupts masked: its context as plic_init
 * leaves hart 0's (no source enabled there). */
void plic_hart_init(void);
/* Boot or task, after plic_init: route source irq to fn(arg) at priority 1 and enable it
 * for this hart.
 * Returns 0, or -EINVAL for irq 0, a source the board does not have, or
 * no fn. */
int irq_register(uint32_t irq, irq_handler_t fn, void *arg);
/* Trap entry, an interrupt whose cause (xcause) has bit 3 set, the
 * external one's: claim, dispatch, complete until nothing pends. */
void plic_isr(unsigned long cause);

#endif
