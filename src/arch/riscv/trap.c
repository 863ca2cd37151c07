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

static HART_LOCAL struct trap_frame *irq_frame;   /* frame of the interrupt being handled */
static void (*on_timer)(void);                    /* trap_init's timer handler */

/* Interrupt handlers: the interrupted context's frame (NULL elsewhere). */
struct trap_frame *trap_interrupted_frame(void)
{
    return irq_frame;
}

/* Boot of each hart: direct-mode vector for every trap, the timer
 * interrupt's handler (the same on each: a relaxed store, another hart's
 * dispatch may load it). */
void trap_init(void (*timer)(void))
{
    __atomic_store_n(&on_timer, timer, __ATOMIC_RELAXED);
    csr_write(CSR_XTVEC, (unsigned long)trap_entry);
}

/* Trap entry, interrupts masked: the interrupt's time, from the trap's
 * first instruction, goes to the ISR account; trap_entry switches back. */
struct cpu_acct *trap_dispatch(struct trap_frame *f)
{
    if (!(f->cause & CAUSE_INTERRUPT_BIT))
        panic_trap(f, "exception");
    struct cpu_acct *prev = cpu_acct_switch_at(
        &cpu_acct_isr, f->entry_cycle, f->entry_instret - cpu_acct_now.fix[CPU_ACCT_FIX_TRAP_HEAD]);
    irq_frame = f;
    switch (f->cause & ~CAUSE_INTERRUPT_BIT) {
    case IRQ_XTIMER:
        __atomic_load_n(&on_timer, __ATOMIC_RELAXED)();
        break;
    case IRQ_XEXT:
        plic_isr();
        break;
    case IRQ_XSOFT:
        ipi_isr();
        break;
    default:
        panic_trap(f, "unexpected interrupt");
    }
    irq_frame = 0;
    return prev;
}
