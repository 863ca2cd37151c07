/* S50's phases as tasks (s50_smp.c's TX phases and s50_rx.c's RX
 * phase run through them): a task per hart and phase, started and waited
 * for with a watchdog; the steps every phase task shares (the seeded
 * yields, the count the section task waits for); the per-hart lines. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "clock.h"
#include "s50_smp.h"
#include "scheduler.h"
#include "waitq.h"

#define PHASE_NS 3000000000ULL        /* a phase's watchdog, virtual ns */
#define U(x)     ((unsigned long long)(x))

/* A task and stack per phase and hart, never reused: a task that has
 * finished may still have a wake on its way from another hart (a waker
 * that took it off a wait queue just before it returned), and a task
 * struct set up again while that wake is queued would be corrupted. */
static struct task tasks[S50_PHASES][HARTS_MAX];
static uint64_t stacks[S50_PHASES][HARTS_MAX][S50_STACK_WORDS];

/* Section task: the next phase's tasks, entry(h) on harts first.. (the
 * harts below count as done: the section task does their part). */
void s50_phase_start(const char *name, void (*entry)(void *), unsigned first)
{
    memset(s50.hart, 0, sizeof s50.hart);
    s50.done = first;
    s50.deadline = clock_now_ns() + PHASE_NS;
    for (unsigned h = first; h < s50.nharts; h++)
        task_spawn_on(h, &tasks[s50.phase][h], name, entry, (void *)(uintptr_t)h,
                      stacks[s50.phase][h], S50_STACK_WORDS);
    s50.phase++;
}

/* Section task: until the phase's tasks are done, or its watchdog (false;
 * they may live on: s50.stuck). */
bool s50_phase_wait(void)
{
    while (__atomic_load_n(&s50.done, __ATOMIC_ACQUIRE) < s50.nharts)
        if (sched_block_until(s50.deadline) == -ETIMEDOUT &&
            __atomic_load_n(&s50.done, __ATOMIC_ACQUIRE) < s50.nharts)
            return !(s50.stuck = true);
    return true;
}

/* Section task: start a phase on every hart, wait for it (see s50_smp.h). */
bool s50_run_phase(const char *name, void (*entry)(void *))
{
    s50_phase_start(name, entry, 0);
    return s50_phase_wait();
}

/* Section task: what each hart did in the phase. */
void s50_print_harts(const char *phase)
{
    for (unsigned h = 0; h < s50.nharts; h++) {
        struct s50_hart *x = &s50.hart[h];
        printf("  diag=s50-hart phase=%s hart=%u writes=%llu bytes=%llu drains=%llu "
               "drain_errors=%llu reads=%llu read_bytes=%llu yields=%llu\n", phase, h,
               U(x->writes), U(x->bytes), U(x->drains), U(x->drain_errors), U(x->reads),
               U(x->read_bytes), U(x->yields));
    }
}

/* A phase task on hart h: with a seed, yield where the hart's own
 * xorshift says (about one call in three). */
void s50_maybe_yield(unsigned h)
{
    static uint32_t state[HARTS_MAX];
    if (!s50.yield_seed)
        return;
    uint32_t x = state[h] ? state[h] : s50.yield_seed * 2654435761U + h + 1;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    state[h] = x;
    for (unsigned k = x % 3 == 0 ? 1 + (x >> 8) % 3 : 0; k; k--) {
        s50.hart[h].yields++;
        sched_yield();
    }
}

/* A phase task, at its end. */
void s50_task_done(void)
{
    __atomic_fetch_add(&s50.done, 1, __ATOMIC_ACQ_REL);
    waker_wake(&s50.main);
}
