/* Trap dispatch: timer, external and software (IPI) interrupts to their
 * handlers (their
 * time, trap entry and exit included, charged to the ISR account, or to
 * the sim account for a timer interrupt of sim timers only), any
 * exception or unexpected interrupt to panic_trap(). */
#include "cpu_acct.h"
#include "csr.h"
#include "harts.h"
#include "ipi.h"
#include "kernel.h"
#include "plic.h"
#include "trap.h"

void trap_entry(void);

/* The frame of the interrupt being handled, NULL elsewhere: trap_entry
 * sets it before trap_dispatch and clears it after. */
HART_LOCAL struct trap_frame *trap_irq_frame;
static void (*on_timer)(void);                    /* trap_init's timer handler */

/* Interrupt handlers: the interrupted context's frame (NULL elsewhere). */
struct trap_frame *trap_interrupted_frame(void)
{
    return trap_irq_frame;
}

/* Boot of each hart: direct-mode vector for every trap, the timer
 * interrupt's handler (the same on each: a relaxed store, another hart's
 * dispatch may load it). */
void trap_init(void (*timer)(void))
{
    __atomic_store_n(&on_timer, timer, __ATOMIC_RELAXED);
    csr_write(CSR_XTVEC, (unsigned long)trap_entry);
}

/* Trap entry, an exception, interrupts masked: the panic report. */
void trap_exception(struct trap_frame *f)
{
    panic_trap(f, "exception");
}

/* Trap entry, an interrupt, interrupts masked, on the ISR account (from
 * the trap's first instruction; trap_entry switches back): the external
 * interrupt first (the UART's), then the timer and the IPI. */
void trap_dispatch(unsigned long cause)
{
    unsigned long irq = cause & ~CAUSE_INTERRUPT_BIT;
    if (irq == IRQ_XEXT)
        plic_isr();
    else if (irq == IRQ_XTIMER)
        __atomic_load_n(&on_timer, __ATOMIC_RELAXED)();
    else if (irq == IRQ_XSOFT)
        ipi_isr();
    else
        panic_trap(trap_irq_frame, "unexpected interrupt");
}
