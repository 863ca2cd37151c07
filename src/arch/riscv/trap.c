/* Trap dispatch: timer and external interrupts to their handlers, any
 * exception or unexpected interrupt to panic_trap(). */
#include "csr.h"
#include "kernel.h"
#include "trap.h"

void trap_entry(void);

/* Boot: direct-mode vector for every trap. */
void trap_init(void)
{
    csr_write(CSR_XTVEC, (unsigned long)trap_entry);
}

/* Trap entry, interrupts masked. */
void trap_dispatch(struct trap_frame *f)
{
    if (!(f->cause & CAUSE_INTERRUPT_BIT))
        panic_trap(f, "exception");
    panic_trap(f, "unexpected interrupt");
}
