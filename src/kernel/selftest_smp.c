/* Self-test selftest=smp: tasks on every online hart.
 * 1. Shared counter: a worker on each hart adds 1 to one counter
 *    SMP_INCREMENTS times, each a read, a short wait and a write under
 *    one spinlock (irq-save): the total is exact, and the lock counted
 *    every acquisition. (QEMU -icount runs one hart at a time up to its
 *    next timer event, so on QEMU the workers seldom overlap: the lock
 *    is seen to count, not to be fought for.)
 * 2. Ring: one task per hart passes a token around SMP_ROUNDS times; each
 *    pass wakes the next hart's task (an IPI); every pass arrives before
 *    the watchdog (a timer on hart 0), none is lost.
 * 3. Sharing: the kernel marks its harts shared (harts_many) when the
 *    first task is placed on another hart, not before.
 * 4. Per-hart accounts: each worker's own account over its loop is some
 *    instructions per increment, and no more than its hart's tasks
 *    account over the same window; each hart's task, ISR and idle figures
 *    are printed. Under QEMU -icount every hart reads the one virtual
 *    clock, so a hart's figures include the other harts' work.
 * Main task, hart 0, interrupts enabled. */
#include <stdio.h>
#include "clock.h"
#include "cpu_acct.h"
#include "harts.h"
#include "ipi.h"
#include "scheduler.h"
#include "selftest.h"
#include "spinlock.h"
#include "waitq.h"

#define SMP_INCREMENTS   2000
#define SMP_ROUNDS       200U
#define SMP_STACK_WORDS  1024
#define SMP_HOLD_SPINS   4               /* inside the lock, between read and write */
#define SMP_MIN_INSNS    8               /* per increment, at the least */
#define SMP_WATCHDOG_NS  500000000ULL    /* virtual time for both parts */

struct hart_fig {
    struct cpu_totals a, b;
    uint64_t worker;                 /* the worker's own account, counter units */
};

static struct task workers[HARTS_MAX], ring[HARTS_MAX];
static uint64_t wstacks[HARTS_MAX][SMP_STACK_WORDS], rstacks[HARTS_MAX][SMP_STACK_WORDS];
static struct spinlock counter_lock;
static volatile uint64_t counter;
static struct hart_fig figs[HARTS_MAX];
static unsigned nharts, done, hops[HARTS_MAX];
static volatile unsigned token, aborted;
static struct waker main_waker;

/* Worker task, one per hart: the locked increments, between two reads of
 * this hart's accounts. */
static void worker(void *arg)
{
    struct hart_fig *f = &figs[(unsigned)(uintptr_t)arg];
    struct task *me = sched_current();

    task_acct_own(me);                   /* f->worker reads its account */
    cpu_acct_read(&f->a);
    uint64_t own = me->acct.instret;
    for (unsigned i = 0; i < SMP_INCREMENTS; i++) {
        unsigned long fl = spin_lock_irqsave(&counter_lock);
        uint64_t v = counter;
        for (unsigned k = 0; k < SMP_HOLD_SPINS; k++)
            cpu_spin_hint();
        counter = v + 1;
        spin_unlock_irqrestore(&counter_lock, fl);
    }
    cpu_acct_read(&f->b);
    f->worker = me->acct.instret - own;
    __atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
    waker_wake(&main_waker);
}

/* Ring task i on hart i: wait for the token, pass it to the next hart's
 * task, SMP_ROUNDS times. */
static void ring_task(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg, next = (i + 1) % nharts;
    struct waker w = { &ring[next] };

    for (unsigned r = 0; r < SMP_ROUNDS; r++) {
        while (__atomic_load_n(&token, __ATOMIC_ACQUIRE) != i) {
            if (aborted)
                return;
            sched_block();
        }
        hops[i]++;
        __atomic_store_n(&token, next, __ATOMIC_RELEASE);
        waker_wake(&w);
    }
    __atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
    waker_wake(&main_waker);
}

/* Main task: wait until `want` tasks are done or the deadline passes;
 * whether they all were. */
static int wait_done(unsigned want, uint64_t deadline)
{
    while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < want)
        if (sched_block_until(deadline) == -110 /* ETIMEDOUT */ &&
            __atomic_load_n(&done, __ATOMIC_ACQUIRE) < want)
            return 0;
    return 1;
}

/* Main task (selftest=smp). */
int selftest_smp(void)
{
    uint64_t deadline = clock_now_ns() + SMP_WATCHDOG_NS;
    unsigned expect_hops = 0, all_hops = 0;
    uint64_t sent = 0, taken = 0;
    int ok = 1;

    nharts = harts_online();
    main_waker = waker_current();
    printf("selftest=smp harts=%u platform_harts=%u\n", nharts, harts_count());

    int shared_before = harts_many();
    for (unsigned h = 0; h < nharts; h++)
        ok &= task_spawn_on(h, &workers[h], "smp-worker", worker, (void *)(uintptr_t)h,
                            wstacks[h], SMP_STACK_WORDS) == 0;
    int shared_after = harts_many();   /* the kernel's own: a task on another hart */
    printf("selftest=smp shared_before=%d shared_after=%d\n", shared_before, shared_after);
    ok &= !shared_before && shared_after == (nharts > 1);
    ok &= wait_done(nharts, deadline);
    struct spinlock_stats ls = spin_stats(&counter_lock);
    printf("selftest=smp counter=%llu expected=%u lock_acquired=%llu lock_contended=%llu "
           "lock_wait_cycles=%llu\n", (unsigned long long)counter, nharts * SMP_INCREMENTS,
           (unsigned long long)ls.acquired, (unsigned long long)ls.contended,
           (unsigned long long)ls.wait_cycles);
    ok &= counter == (uint64_t)nharts * SMP_INCREMENTS && ls.acquired == counter;

    done = 0;
    for (unsigned h = 0; h < nharts; h++)
        ok &= task_spawn_on(h, &ring[h], "smp-ring", ring_task, (void *)(uintptr_t)h,
                            rstacks[h], SMP_STACK_WORDS) == 0;
    int ring_ok = wait_done(nharts, deadline);
    aborted = !ring_ok;
    for (unsigned h = 0; h < nharts; h++)
        all_hops += hops[h];
    expect_hops = nharts * SMP_ROUNDS;
    printf("selftest=smp ring rounds=%u hops=%u expected=%u watchdog=%d\n", SMP_ROUNDS, all_hops,
           expect_hops, !ring_ok);
    ok &= ring_ok && all_hops == expect_hops;

    for (unsigned h = 0; h < nharts; h++) {
        struct hart_fig *f = &figs[h];
        struct spinlock_stats in;
        sched_inbox_stats(h, &in);
        uint64_t tasks = f->b.tasks.instret - f->a.tasks.instret;
        printf("selftest=smp hart=%u ipi_sent=%llu ipi_taken=%llu inbox_acquired=%llu "
               "inbox_contended=%llu worker_insns=%llu tasks_insns=%llu isr_insns=%llu "
               "idle_insns=%llu\n", h, (unsigned long long)ipi_sent(h),
               (unsigned long long)ipi_taken(h), (unsigned long long)in.acquired,
               (unsigned long long)in.contended, (unsigned long long)f->worker,
               (unsigned long long)tasks,
               (unsigned long long)(f->b.isr.instret - f->a.isr.instret),
               (unsigned long long)(f->b.idle.instret - f->a.idle.instret));
        ok &= f->worker >= (uint64_t)SMP_INCREMENTS * SMP_MIN_INSNS &&
              f->worker <= tasks;
        if (nharts > 1)
            ok &= ipi_taken(h) > 0;   /* the ring's wakes came by IPI */
        sent += ipi_sent(h);
        taken += ipi_taken(h);
    }
    printf("selftest=smp ipis sent=%llu taken=%llu\n", (unsigned long long)sent,
           (unsigned long long)taken);
    return ok && taken <= sent;
}
