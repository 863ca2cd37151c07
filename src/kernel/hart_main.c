/* A secondary hart's kernel: what kmain is to the boot hart. The arch's
 * hart_wait (start.S) enters it once harts_release lets the hart go; the
 * boot hart's wait for them (harts_release) is here too. */
#include "clock.h"
#include "cpu_acct.h"
#include "harts.h"
#include "ipi.h"
#include "kernel.h"
#include "plic.h"
#include "scheduler.h"
#include "timer.h"
#include "trap.h"
#include "waitq.h"

/* hart_wait (start.S) on a released hart, interrupts masked, on its own
 * stack and zeroed TLS block: the hart's trap vector, accounts,
 * scheduler, timer, PLIC context and IPI, then its idle loop. */
void hart_main(unsigned index)
{
    static const char *const names[HARTS_MAX] = { "main", "hart1", "hart2", "hart3",
                                                  "hart4", "hart5", "hart6", "hart7" };
    hart_self_index = index;
    cpu_acct_early_init();
    trap_init(timer_isr);
    sched_hart_init(harts_stack_bottom(index), names[index]);
    cpu_acct_hart_init();
    timer_init();
    plic_hart_init();
    ipi_init(sched_ipi);
    harts_arrived();
    irq_enable();
    for (;;)
        sched_block();   /* never woken: the scheduler runs this hart's tasks */
}

#define RELEASE_WAIT_NS 2000000000ULL   /* every hart is in by then */
#define RELEASE_POLL_NS 100000ULL

/* harts_release: sleep (so that QEMU runs the other harts: under -icount
 * a busy hart keeps them waiting for up to its 100 ms slice) until
 * count() reaches n, or panic naming the stage. */
static void await_harts(unsigned (*count)(void), unsigned n, const char *stage)
{
    uint64_t until = clock_now_ns() + RELEASE_WAIT_NS;
    for (unsigned c; (c = count()) < n; sleep_for(RELEASE_POLL_NS))
        if (clock_now_ns() > until)
            panic("harts: %u of %u %s", c, n, stage);
}

/* kmain, boot hart, main task, interrupts on: release every waiting hart
 * (the arch's harts_go_all) and wait until each has reached its
 * scheduler; the harts online. */
unsigned harts_release(void)
{
    uint64_t settle = harts_settle_ns();
    if (settle)
        sleep_for(settle);
    if (harts_started())               /* S-mode: an HSM start takes effect later */
        await_harts(harts_waiting_count, harts_started(), "started harts waiting");
    unsigned want = harts_go_all();
    if (want > 1)
        await_harts(harts_online, want, "released harts online");
    return want;
}
