/* A threaded stand-in for the kernel's blocking (fake_sched_threads.c):
 * each pthread is a hart that runs one task, with its own interrupt
 * state (HOST_CSR_PER_THREAD: host_csr is thread-local). A task blocks
 * on its hart's condition variable until a waker sets its wake flag, or
 * until the deadline of the one timer its hart may have armed (the one
 * of waitq.c's sched_block_until), which then fires; a wake that comes
 * before the block is kept, and the block returns at once, as the
 * kernel's does. Times are CLOCK_MONOTONIC nanoseconds. */
#ifndef FAKE_SCHED_THREADS_H
#define FAKE_SCHED_THREADS_H

#include <pthread.h>
#include <stdbool.h>
/* scheduler.h's sched_yield (a task's, unused here) under another name:
 * <sched.h>, which pthread.h includes, has the POSIX one. Include this
 * header before any that includes scheduler.h. */
#define sched_yield task_sched_yield
#include "scheduler.h"
#undef sched_yield

struct timer;

struct hart {
    struct task task;            /* first: the kernel's task is the hart */
    pthread_mutex_t mu;
    pthread_cond_t cv;           /* on CLOCK_MONOTONIC */
    bool woken;                  /* a wake no block has taken yet (mu) */
    unsigned long wakes;         /* wakes that set woken (mu) */
    unsigned long taken;         /* wakes blocks took (mu) */
    unsigned long blocks;        /* sched_block calls (own thread) */
    unsigned long block_timeouts;   /* of them, those whose timer fired */
    struct timer *timer;         /* the armed timer, or NULL (own thread) */
    unsigned long bad_timers;    /* armed beside another, or for another task */
};

/* Test main, before the thread starts: h idle, named name. */
void hart_init(struct hart *h, const char *name);
/* The hart's thread, first: h is this thread's task, interrupts on. */
void hart_enter(struct hart *h);

#endif
