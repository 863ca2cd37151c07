/* Trap set-up and the C ends of trap_entry (trap.S, which routes each
 * interrupt to its handler: timer, external, software): the handler of
 * the timer interrupt, and the panic for an exception or an unexpected
 * interrupt. */
#include "csr.h"
#include "harts.h"
#include "kernel.h"
#include "trap.h"

void trap_entry(void);

void (*trap_timer_isr)(void);                     /* trap_init's timer handler */

/* Boot of each hart: direct-mode vector for every trap, the timer
 * interrupt's handler (the same on each: a relaxed store, another hart's
 * trap_entry may load it). */
void trap_init(void (*timer)(void))
{
    __atomic_store_n(&trap_timer_isr, timer, __ATOMIC_RELAXED);
    csr_write(CSR_XTVEC, (unsigned long)trap_entry);
}

/* Trap entry, an exception, interrupts masked: the panic report. */
void trap_exception(struct trap_frame *f)
{
    panic_trap(f, "exception");
}

/* Trap entry, an interrupt with no handler, interrupts masked: the
 * panic report. */
void trap_unexpected(struct trap_frame *f)
{
    panic_trap(f, "unexpected interrupt");
}
