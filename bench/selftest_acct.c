/* Self-test selftest=acct: the CPU accounting is exact to the instruction
 * (QEMU -icount; any core whose instret counts retired instructions).
 * 1. A charged call (cpu_acct_sim_call) charges the sim account with
 *    exactly its entry's instructions, cpu_acct_call's (straight-line
 *    code around one indirect call: its size / 4), the called function's
 *    (the probes: their nops and a ret) and the caller's csrs; and it
 *    keeps every register but t0, t1 and the result.
 * 2. Interrupts cost the interrupted task nothing: a counted loop costs
 *    the task the same number of instructions with and without 50 timer
 *    interrupts landing in it, in the tasks' total and in the task's own
 *    account (own), and the interrupts go to the ISR account;
 *    with 50 sim timers (as the wire model's) they go to the sim account
 *    and the ISR account gets none, as they do when each sim timer makes
 *    a charged call; 50 timers that each make a charged call charge both
 *    accounts, and so do 25 sim timers due with 25 others, one of each
 *    per interrupt (the sim account less than a quarter of what 50 whole
 *    sim interrupts take). The console is drained first, so no
 *    UART interrupt falls into the loops.
 * 3. The register seam charges the wire model's work to the sim account:
 *    64 TX-level queries through the driver (a status read each) cost the
 *    ISR account nothing and, with the wire model, the sim account some.
 * Figures are instructions at any QEMU icount shift (the project's QEMU
 * counts retired instructions in instret). It needs instret to count
 * instructions: QEMU -icount, or hardware. */
#include <stdint.h>
#include <stdio.h>
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "kernel.h"
#include "selftest.h"
#include "timer.h"
#include "uart_backend.h"

#define ACCT_LOOP_TURNS 1000000UL   /* about 2 ms of virtual time at shift 0 */
#define ACCT_TIMERS     50
/* The timers' first deadline and spacing at shift 0, scaled to the CPU
 * clock (<< cpu_clock_shift) so that at any shift they fall in the loop,
 * after the time it takes to arm them. */
#define ACCT_LEAD_NS    200000ULL
#define ACCT_STEP_NS    20000ULL
#define ACCT_SEAM_READS 64UL

/* selftest_acct_probe.S: the probes' entries and the register check. */
extern const char acct_probe_4_entry[], acct_probe_12_entry[], cpu_acct_call[],
    cpu_acct_call_end[];
unsigned long acct_call_lost(void);
extern unsigned long acct_probe_status;

/* selftest_acct: one register check (acct_call_lost) with interrupts
 * masked or not: the registers the call lost, the status the probe ran
 * with, and whether interrupts are as they were after it. */
static unsigned long kept(bool masked, unsigned long *probe_status, bool *mask_kept)
{
    unsigned long f = masked ? irq_save() : 0;
    unsigned long lost = acct_call_lost();
    *probe_status = acct_probe_status;
    *mask_kept = irq_enabled() != masked;
    if (masked)
        irq_restore(f);
    return lost;
}

/* selftest_acct: instructions charged to the sim account by one charged
 * call of a probe of `nops` nops and a ret: the entry's, cpu_acct_call's
 * (straight-line code), the probe's and the caller's csrs. */
__attribute__((always_inline)) static inline void charged(const void *entry, unsigned nops,
                                                            int *ok)
{
    uint64_t size = (uintptr_t)cpu_acct_call_end - (uintptr_t)cpu_acct_call;
    uint64_t expect = ACCT_CALL_ENTRY_LEN + size / 4 + nops + 1 + 1;
    unsigned long f = irq_save();            /* nothing else charges sim meanwhile */
    uint64_t before = cpu_acct_sim.instret;
    uintptr_t r = cpu_acct_sim_call(entry, 1, 41, 0, 0);
    uint64_t got = cpu_acct_sim.instret - before;

    irq_restore(f);
    if (r != 41)
        *ok = 0;
    printf("selftest=acct call probe_nops=%u charged=%llu expected=%llu\n", nops,
           (unsigned long long)got, (unsigned long long)expect);
    if (got != expect)
        *ok = 0;
}

static volatile unsigned fired;

/* Timer ISR: counts. */
static void count_fire(struct timer *t)
{
    (void)t;
    fired++;
}

/* Timer ISR: counts, and makes a charged call (a probe's). */
static void call_fire(struct timer *t)
{
    (void)t;
    fired++;
    (void)cpu_acct_sim_call(acct_probe_4_entry, 1, 0, 0, 0);
}

/* loop_cost's timers: plain, sim, plain or sim with a charged call each,
 * or pairs of one sim and one plain timer due together. */
enum loop_kind { LOOP_TIMERS, LOOP_SIMS, LOOP_CALLS, LOOP_SIM_CALLS, LOOP_MIXED };

/* loop_cost, seam_cost: the tasks' instructions, the ISR's and the sim
 * account's from a to b. */
static void totals_delta(const struct cpu_totals *a, const struct cpu_totals *b,
                         struct cpu_totals *d)
{
    d->tasks.instret = b->tasks.instret - a->tasks.instret;
    d->isr = (struct cpu_acct){ b->isr.cycles - a->isr.cycles, b->isr.instret - a->isr.instret };
    d->sim = (struct cpu_acct){ b->sim.cycles - a->sim.cycles, b->sim.instret - a->sim.instret };
}

/* selftest_acct: the tasks', the ISR's and the sim instructions across
 * a counted loop, with `timers` (sim or not) timer interrupts in it, and
 * the running task's own account's (*own). */
static void loop_cost(unsigned timers, enum loop_kind k, struct cpu_totals *d,
                      struct cpu_acct *own)
{
    const struct cpu_acct *mine = &sched_current()->acct;
    static struct timer tm[ACCT_TIMERS];
    struct cpu_totals a, b;

    console_flush();
    (void)uart_be_drain();
    uint64_t t0 = clock_now_ns();
    for (unsigned i = 0; i < timers; i++) {
        unsigned slot = k == LOOP_MIXED ? i / 2 : i;
        bool calls = k == LOOP_CALLS || k == LOOP_SIM_CALLS;
        tm[i] = (struct timer){ .fire = calls ? call_fire : count_fire,
                                .sim = k == LOOP_SIMS || k == LOOP_SIM_CALLS ||
                                       (k == LOOP_MIXED && i % 2) };
        timer_arm(&tm[i], t0 + ((ACCT_LEAD_NS + slot * ACCT_STEP_NS) << cpu_clock_shift),
                  (struct waker){ 0 });
    }
    cpu_acct_read(&a);   /* (charges the owner, this task, up to its switch) */
    struct cpu_acct own0 = *mine;
    unsigned long n = ACCT_LOOP_TURNS;
    __asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
    cpu_acct_read(&b);
    *own = (struct cpu_acct){ mine->cycles - own0.cycles, mine->instret - own0.instret };
    totals_delta(&a, &b, d);
}

/* selftest_acct: the task's, the ISR's and the sim instructions of
 * ACCT_SEAM_READS TX-level queries through the driver on an idle line. */
static void seam_cost(struct cpu_totals *d)
{
    struct cpu_totals a, b;

    console_flush();
    (void)uart_be_drain();
    cpu_acct_read(&a);
    for (unsigned long i = 0; i < ACCT_SEAM_READS; i++)
        (void)uart_be_tx_pending();
    cpu_acct_read(&b);
    totals_delta(&a, &b, d);
}

/* selftest_acct: one line per loop (turns: its iterations; own: the
 * running task's own account, where it has one). */
static void print_loop(const char *what, unsigned long turns, const struct cpu_totals *d,
                       struct cpu_acct own)
{
    printf("selftest=acct loop=%s turns=%lu task=%llu own=%llu own_cycles=%llu isr=%llu "
           "isr_cycles=%llu sim=%llu sim_cycles=%llu fired=%u wire=%d\n",
           what, turns, (unsigned long long)d->tasks.instret, (unsigned long long)own.instret,
           (unsigned long long)own.cycles, (unsigned long long)d->isr.instret,
           (unsigned long long)d->isr.cycles, (unsigned long long)d->sim.instret,
           (unsigned long long)d->sim.cycles, fired, WIRE_BAUD != 0);
}

/* Boot, main task (selftest=acct). */
int selftest_acct(void)
{
    int ok = 1;
    struct cpu_totals quiet, irqs, sims, calls, sim_calls, mixed, seam;
    struct cpu_acct own_quiet, own_irqs, own_sims, own_calls, own_sim_calls, own_mixed;

    printf("selftest=acct instret_shift=0 clock_shift=%u instret_exact=%d\n", cpu_clock_shift,
           cpu_instret_exact);
    if (!cpu_instret_exact) {
        printf("selftest=acct reason=instret-counts-no-instructions\n");
        return 0;
    }

    task_acct_own(sched_current());   /* loop_cost reads the task's own account */
    charged(acct_probe_4_entry, 4, &ok);
    charged(acct_probe_12_entry, 12, &ok);
    for (int masked = 0; masked <= 1; masked++) {
        unsigned long st;
        bool same;
        unsigned long lost = kept(masked, &st, &same);
        printf("selftest=acct call kept masked=%d lost_mask=%#lx probe_masked=%d irqs_as_before=%d\n",
               masked, lost, !(st & XSTATUS_XIE), same);
        ok = ok && lost == 0 && !(st & XSTATUS_XIE) && same;
    }
    loop_cost(0, LOOP_TIMERS, &quiet, &own_quiet);
    print_loop("quiet", ACCT_LOOP_TURNS, &quiet, own_quiet);
    loop_cost(ACCT_TIMERS, LOOP_TIMERS, &irqs, &own_irqs);
    print_loop("timers", ACCT_LOOP_TURNS, &irqs, own_irqs);
    ok = ok && fired == ACCT_TIMERS;
    loop_cost(ACCT_TIMERS, LOOP_SIMS, &sims, &own_sims);
    print_loop("sim-timers", ACCT_LOOP_TURNS, &sims, own_sims);
    loop_cost(ACCT_TIMERS, LOOP_CALLS, &calls, &own_calls);
    print_loop("calls", ACCT_LOOP_TURNS, &calls, own_calls);
    loop_cost(ACCT_TIMERS, LOOP_SIM_CALLS, &sim_calls, &own_sim_calls);
    print_loop("sim-calls", ACCT_LOOP_TURNS, &sim_calls, own_sim_calls);
    loop_cost(ACCT_TIMERS, LOOP_MIXED, &mixed, &own_mixed);
    print_loop("mixed", ACCT_LOOP_TURNS, &mixed, own_mixed);
    seam_cost(&seam);
    print_loop("seam", ACCT_SEAM_READS, &seam, (struct cpu_acct){ 0 });
    return ok && fired == 5 * ACCT_TIMERS && quiet.isr.instret == 0 && quiet.sim.instret == 0 &&
           own_quiet.instret == quiet.tasks.instret && own_irqs.instret == own_quiet.instret &&
           own_sims.instret == own_quiet.instret && own_calls.instret == own_quiet.instret &&
           own_sim_calls.instret == own_quiet.instret && own_mixed.instret == own_quiet.instret &&
           calls.isr.instret > 0 && calls.sim.instret > 0 && sim_calls.isr.instret == 0 &&
           sim_calls.sim.instret > sims.sim.instret && mixed.isr.instret > 0 &&
           mixed.sim.instret > 0 && 4 * mixed.sim.instret < sims.sim.instret &&
           irqs.tasks.instret == quiet.tasks.instret && irqs.isr.instret > 0 &&
           irqs.sim.instret == 0 && sims.tasks.instret == quiet.tasks.instret &&
           sims.isr.instret == 0 && sims.sim.instret > 0 && seam.isr.instret == 0 &&
           (seam.sim.instret > 0) == (WIRE_BAUD != 0);
}
