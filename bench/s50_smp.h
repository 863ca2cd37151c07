/* S50's parts (s50_smp.c: the section and the TX phases; s50_rx.c: the
 * RX phase; s50_tasks.c: the phases' tasks, started and waited for, and
 * their shared steps): what they share. */
#ifndef S50_SMP_H
#define S50_SMP_H

#include <stdbool.h>
#include <stdint.h>
#include "harts.h"
#include "scheduler.h"

#define S50_STACK_WORDS 1024
#define S50_PHASES      5        /* writers, thre, drain, rx, quiesce */

/* What one hart's task did in the running phase. */
struct s50_hart {
    uint64_t writes, bytes, drains, drain_errors, reads, read_bytes, yields;
};

/* The section's tasks: one per hart, a phase at a time. */
struct s50_run {
    unsigned nharts;
    struct s50_hart hart[HARTS_MAX];
    struct waker main;             /* the section task, woken by each finisher */
    volatile unsigned done;        /* tasks of the phase that have finished */
    uint32_t yield_seed;           /* boot argument s50_yield_seed= (0: no extra yields) */
    uint64_t deadline;             /* the phase's watchdog (virtual ns) */
    bool stuck;                    /* a phase's watchdog passed: its tasks may live on */
    unsigned phase;                /* phases begun (a task and stack each per hart) */
};
extern struct s50_run s50;

/* Section task: start entry(arg h) on every online hart h and wait until
 * each has returned or the phase's watchdog passes; false on the watchdog
 * (s50_tasks.c, as the five below). */
bool s50_run_phase(const char *name, void (*entry)(void *));
/* Section task: the next phase's tasks, entry(h) on harts first.. (the
 * harts below count as done: the section task does their part). */
void s50_phase_start(const char *name, void (*entry)(void *), unsigned first);
/* Section task: until the phase's tasks are done, or its watchdog (false;
 * they may live on: s50.stuck). */
bool s50_phase_wait(void);
/* A phase task on hart h: maybe yield here (the seeded stress schedule). */
void s50_maybe_yield(unsigned h);
/* A phase task, at its end: count itself done, wake the section. */
void s50_task_done(void);
/* Section task: `  diag=s50-hart` lines of the phase, one per hart. */
void s50_print_harts(const char *phase);
/* Section task: the RX phase (s50_rx.c): readers on two harts share one
 * modelled far-end stream; 1 PASS, 0 FAIL, -1 skipped (no far end). */
int s50_rx_phase(void);

#endif
