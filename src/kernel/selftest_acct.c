/* Self-test selftest=acct: the CPU accounting is exact to the instruction
 * (QEMU -icount; any core whose instret counts retired instructions).
 * 1. cpu_acct_call charges the account it names with exactly its own
 *    instructions and the called function's: it is straight-line code
 *    around one indirect call, so it retires its size / 4 instructions,
 *    and the probes below retire their nops plus a ret.
 * 2. Interrupts cost the interrupted task nothing: a counted loop costs
 *    the task the same number of instructions with and without 50 timer
 *    interrupts landing in it, and the interrupts go to the ISR account. */
#include <stdint.h>
#include <stdio.h>
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "timer.h"

#define ACCT_LOOP_TURNS 1000000UL   /* about 2 ms of virtual time at shift 0 */
#define ACCT_TIMERS     50
#define ACCT_STEP_NS    20000ULL

/* Straight-line probes: 4 and 12 nops, then ret; they return x. */
__asm__(".pushsection .text.acct_probe, \"ax\"\n"
        ".option push\n.option norvc\n"
        ".globl acct_probe_4\nacct_probe_4:\n"
        ".rept 4\nnop\n.endr\nret\n"
        ".globl acct_probe_12\nacct_probe_12:\n"
        ".rept 12\nnop\n.endr\nret\n"
        ".option pop\n.popsection\n");
uintptr_t acct_probe_4(uintptr_t x, uintptr_t y, uintptr_t z);
uintptr_t acct_probe_12(uintptr_t x, uintptr_t y, uintptr_t z);
extern const char cpu_acct_call_end[];

/* selftest_acct: instructions charged to a fresh account by one call. */
static uint64_t charged(cpu_acct_fn fn, unsigned nops, int *ok)
{
    static struct cpu_acct probe;
    uint64_t before = probe.instret;
    uint64_t expect = (uint64_t)(cpu_acct_call_end - (const char *)cpu_acct_call) / 4 + nops + 1;

    if (cpu_acct_call(&probe, fn, 41, 0, 0) != 41)
        *ok = 0;
    uint64_t got = probe.instret - before;
    printf("selftest=acct call probe_nops=%u charged=%llu expected=%llu\n", nops,
           (unsigned long long)got, (unsigned long long)expect);
    if (got != expect)
        *ok = 0;
    return got;
}

static volatile unsigned fired;

/* Timer ISR: counts. */
static void count_fire(struct timer *t)
{
    (void)t;
    fired++;
}

/* selftest_acct: the task's and the ISR's instructions across a counted
 * loop, with `timers` timer interrupts due inside it. */
static void loop_cost(unsigned timers, uint64_t *task, uint64_t *isr)
{
    static struct timer tm[ACCT_TIMERS];
    struct cpu_totals a, b;
    uint64_t t0 = clock_now_ns();

    for (unsigned i = 0; i < timers; i++) {
        tm[i].fire = count_fire;
        timer_arm(&tm[i], t0 + 200000 + i * ACCT_STEP_NS, (struct waker){ 0 });
    }
    cpu_acct_read(&a);
    unsigned long n = ACCT_LOOP_TURNS;
    __asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
    cpu_acct_read(&b);
    *task = b.tasks.instret - a.tasks.instret;
    *isr = b.isr.instret - a.isr.instret;
}

/* Boot, main task (selftest=acct). */
int selftest_acct(void)
{
    int ok = 1;
    uint64_t quiet_task, quiet_isr, busy_task, busy_isr;

    uint64_t c4 = charged(acct_probe_4, 4, &ok), c12 = charged(acct_probe_12, 12, &ok);
    if (c12 - c4 != 8)
        ok = 0;
    loop_cost(0, &quiet_task, &quiet_isr);
    loop_cost(ACCT_TIMERS, &busy_task, &busy_isr);
    printf("selftest=acct loop turns=%lu task_quiet=%llu task_with_irqs=%llu timers_fired=%u "
           "isr_quiet=%llu isr_with_irqs=%llu\n", ACCT_LOOP_TURNS,
           (unsigned long long)quiet_task, (unsigned long long)busy_task, fired,
           (unsigned long long)quiet_isr, (unsigned long long)busy_isr);
    return ok && quiet_task == busy_task && fired == ACCT_TIMERS && busy_isr > quiet_isr;
}
