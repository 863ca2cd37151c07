/* Host tests with a thread per hart: what the threaded fake kernel's
 * files share (fake_kernel_threads.c: time, timers, interrupts, idle
 * threads; fake_tasks_threads.c: tasks and the scheduler). Not for
 * tests, which use fake_kernel_threads.h. */
#ifndef FAKE_KERNEL_THREADS_PRIV_H
#define FAKE_KERNEL_THREADS_PRIV_H

#define sched_yield posix_sched_yield   /* <sched.h>'s, not the kernel's (scheduler.h) */
#include <pthread.h>
#undef sched_yield
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "fake_kernel_threads.h"
#include "scheduler.h"
#include "timer.h"

#define FT_TIMERS 16             /* armed timers per hart */

struct ft_task {
    struct task own;             /* a test task's (the driver's: its own struct) */
    struct task *tk;             /* what the driver sees */
    unsigned hart;
    bool test;                   /* ft_join waits for it */
    pthread_t th;
    pthread_mutex_t mu;          /* woken, under it */
    pthread_cond_t cv;
    bool woken;                  /* a waker fired since the task last blocked */
    void (*entry)(void *);
    void *arg;
    const char *step;            /* its last ft_step (atomic) */
    const char *sched;           /* where sched_block has it, or NULL (atomic) */
    int done;                    /* its entry returned (atomic) */
};

struct ft_hart {
    pthread_mutex_t cpu_mu;      /* the hart's turns: ticket, serving */
    pthread_cond_t cpu_cv;
    unsigned long ticket;        /* the next thread to ask gets this turn */
    unsigned long serving;       /* the turn running on the hart now */
    pthread_mutex_t mu;          /* the idle thread's wait */
    pthread_cond_t cv;
    int poke;                    /* look now (atomic) */
    pthread_t idle;
    struct timer *timers[FT_TIMERS];   /* armed on this hart (its holder's) */
    unsigned ntimers;
    bool in_isr;                 /* an interrupt is being taken (its holder's) */
    const char *holder;          /* who holds the hart: a task's name, "idle" (atomic) */
};

extern struct ft_hart ft_harts[FT_HARTS];
extern __thread struct ft_task *ft_cur;   /* the thread's task (NULL: idle, main) */
extern int ft_stop;                       /* the idle threads end (atomic) */

/* fake_kernel_threads.c. Any thread of hart h: run on it (its lock), as
 * who (the watchdog names it). */
void ft_hart_take(struct ft_hart *h, const char *who);
/* The thread running on hart h: give it up. */
void ft_hart_give(struct ft_hart *h);
/* fake_kernel_threads.c. Boot: time starts; the harts' locks. */
void ft_harts_init(void);
/* Boot: a condition variable on CLOCK_MONOTONIC. */
void ft_cond_init(pthread_cond_t *cv);
/* Any thread: a wait until clock_now_ns() == t, as a timespec. */
struct timespec ft_abs_of(uint64_t t);
/* A thread's first code: its hart, its interrupt state, its CPU account. */
void ft_thread_setup(unsigned hart, bool irqs_on, struct cpu_acct *acct);
/* Any thread: hart h's idle thread looks now (a timer armed, a line
 * raised); ignore_sync: the look gives the poker no happens-before edge
 * to hart h (the interrupt's path, from another hart). */
void ft_poke(struct ft_hart *h, bool ignore_sync);
/* The idle thread of hart (uintptr_t)arg (pthread_create). */
void *ft_idle_main(void *arg);

#endif
