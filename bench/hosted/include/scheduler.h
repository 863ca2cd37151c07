/* The kernel's task API (include/scheduler.h) for the sections built as
 * a Linux program (bench/hosted/tasks.c): a task is a thread, a waker
 * its pending-wake flag under the shim's lock. Tasks run preemptively;
 * with the process pinned to one CPU (main.c) they still share one CPU,
 * and a section's second task (S42's compute, S43's sampler) runs when
 * the first blocks or its time slice ends. The include guard is the
 * kernel header's, so that it is never read beside this one.
 *
 * Event order for a waiter, as on the kernel: register interest, check
 * the condition, then sched_block(); a wake between the check and the
 * block makes sched_block() return at once. */
#ifndef SCHEDULER_H
#define SCHEDULER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cpu_acct {
    uint64_t cycles;
    uint64_t instret;
};

enum task_state { TASK_READY, TASK_RUNNING, TASK_BLOCKED, TASK_DONE };

struct task {
    const char *name;
    void (*entry)(void *);
    void *arg;
    pthread_t thread;            /* detached; valid while state != TASK_DONE, and
                                    the task's while it does not name another */
    uint8_t state;               /* under the shim's lock */
    bool queued;                 /* a wake came since the task last blocked */
};

/* A waker names the task to make runnable; safe from any thread. */
struct waker {
    struct task *task;
};

/* <sched.h> has a sched_yield of its own. */
#define sched_yield task_yield

/* Any task: start entry(arg) as a new thread (stack and words, the
 * kernel's static stack, are not used: the thread has its own). */
void task_spawn(struct task *t, const char *name, void (*entry)(void *), void *arg,
                uint64_t *stack, size_t words);
/* Any task: let another thread run (the C library's sched_yield). */
void sched_yield(void);
/* Any task: wait until a waker fires (returns at once if one fired since
 * the task last blocked). */
void sched_block(void);
/* Any task: end another task: its thread is cancelled (it ends at its
 * next blocking call) and waited for; a thread that does not end panics. */
void task_kill(struct task *t);
/* Any thread (a timer's callback, the runner's watchdog): ask t's thread
 * to end at its next blocking call, without waiting. */
void task_abort_from_isr(struct task *t);

/* Any task: the running task (the main thread's is "main"); a waker. */
struct task *sched_current(void);
static inline struct waker waker_current(void) { return (struct waker){ sched_current() }; }

/* Any thread: make w's task runnable once; a finished task or an empty
 * waker: nothing. */
void waker_wake(const struct waker *w);

#endif
