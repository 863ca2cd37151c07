/* CPU accounting totals; the switch itself is inline in cpu_acct.h. */
#include "cpu_acct.h"

struct cpu_acct cpu_acct_isr, cpu_acct_idle, cpu_acct_sim;
struct cpu_acct_now cpu_acct_now;
static struct cpu_acct before_init;   /* early boot's account, never read */
static uint64_t boot_cycle, boot_instret;

/* Boot, interrupts masked, kmain's first call: switches before
 * cpu_acct_init (the UART set-up's, through the wire model) charge an
 * account nothing reads. */
void cpu_acct_early_init(void)
{
    cpu_acct_now.owner = &before_init;
}

/* Boot, interrupts masked. */
void cpu_acct_init(void)
{
    cpu_acct_isr = cpu_acct_idle = cpu_acct_sim = (struct cpu_acct){ 0 };   /* no early boot */
    cpu_acct_now.owner = &sched_current()->acct;
    boot_cycle = cpu_acct_now.cycle = rdcycle();
    boot_instret = cpu_acct_now.instret = rdinstret();
}

/* Any task: tasks = everything since boot that was not ISR, idle or
 * simulation. */
void cpu_acct_read(struct cpu_totals *out)
{
    unsigned long f = irq_save();
    cpu_acct_switch(cpu_acct_now.owner);
    out->isr = cpu_acct_isr;
    out->idle = cpu_acct_idle;
    out->sim = cpu_acct_sim;
    out->tasks.cycles = cpu_acct_now.cycle - boot_cycle - out->isr.cycles -
                        out->idle.cycles - out->sim.cycles;
    out->tasks.instret = cpu_acct_now.instret - boot_instret - out->isr.instret -
                         out->idle.instret - out->sim.instret;
    irq_restore(f);
}
