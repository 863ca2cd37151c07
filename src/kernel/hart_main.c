/* A secondary hart's kernel: what kmain is to the boot hart. The arch's
 * hart_wait (start.S) enters it once harts_release lets the hart go. */
#include "cpu_acct.h"
#include "harts.h"
#include "ipi.h"
#include "kernel.h"
#include "plic.h"
#include "scheduler.h"
#include "timer.h"
#include "trap.h"

/* hart_wait (start.S) on a released hart, interrupts masked, on its own
 * stack and zeroed TLS block: the hart's trap vector, accounts,
 * scheduler, timer, PLIC context and IPI, then its idle loop. */
void hart_main(unsigned index)
{
    static const char *const names[HARTS_MAX] = { "main", "hart1", "hart2", "hart3",
                                                  "hart4", "hart5", "hart6", "hart7" };
    hart_self_index = index;
    cpu_acct_early_init();
    trap_init();
    sched_hart_init(harts_stack_bottom(index), names[index]);
    cpu_acct_hart_init();
    timer_init();
    plic_hart_init();
    ipi_init();
    harts_arrived();
    irq_enable();
    for (;;)
        sched_block();   /* never woken: the scheduler runs this hart's tasks */
}
