/* Cooperative scheduler: tasks with static stacks, a FIFO run ring per
 * hart, and wakers. A task runs until it yields, blocks or exits;
 * interrupt handlers never switch tasks, they only wake them. A task
 * belongs to one hart for good (task_spawn: the spawner's; task_spawn_on:
 * any online one) and runs only there; a wake from another hart goes
 * through its hart's inbox and an IPI.
 *
 * Event order for a waiter: register interest (e.g. store the waker where
 * the ISR finds it), check the condition, then sched_block(). A wake that
 * lands between the check and the block finds the task not yet queued,
 * queues it, and sched_block() returns at once: no wake-up is lost. */
#ifndef SCHEDULER_H
#define SCHEDULER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Callee-saved state switched by switch_context (src/arch/riscv/switch.S),
 * and the interrupt-enable bit the task had when it switched out (0 for
 * a new task: task_start enables interrupts). */
struct context {
    uint64_t ra, sp, s[12];
    uint64_t ie;
};

struct cpu_acct {
    uint64_t cycles;
    uint64_t instret;
};

/* BLOCKED: out of its hart's run ring (a new task not yet added too);
 * QUEUED: in it, ready or running (a wake adds nothing); DONE: finished
 * or killed, out of it for good. */
enum task_state { TASK_BLOCKED, TASK_QUEUED, TASK_DONE };

struct task {
    struct context ctx;
    const char *name;
    struct task *next;           /* run-ring link: the task that runs after it */
    uint64_t *stack_lo;          /* lowest word: the guard words start here */
    void (*entry)(void *);
    void *arg;
    struct cpu_acct *charge;     /* where its running time goes: acct, or its hart's tasks' */
    struct cpu_acct acct;        /* its own cycles and instructions, once task_acct_own */
    uint8_t state;               /* enum task_state */
    bool woken;                  /* woken while running: its next sched_block returns at once */
    uint8_t hart;                /* the hart it runs on, for good */
    uint32_t wake_pending;       /* in its hart's inbox (atomic) */
    struct task *wake_next;      /* inbox link */
};

/* A waker names the task to make runnable; safe to fire from an ISR. */
struct waker {
    struct task *task;
};

#define TASK_STACK_GUARD_WORDS 1
#define TASK_STACK_GUARD       0x57ACC0DE57ACC0DEULL

/* Boot, interrupts masked: adopt the boot stack as task "main". */
void sched_init(void *boot_stack_lo);

/* Any task: start entry(arg) on stack[words] as a new ready task. */
void task_spawn(struct task *t, const char *name, void (*entry)(void *), void *arg,
                uint64_t *stack, size_t words);

/* Any task: start entry(arg) as a task of hart h (an online hart,
 * harts.h); 0, or -EINVAL for a hart that is not online. A task placed
 * on another hart than the caller's marks the harts shared first
 * (harts_share(true): from then on every shared-data path locks). */
int task_spawn_on(unsigned h, struct task *t, const char *name, void (*entry)(void *),
                  void *arg, uint64_t *stack, size_t words);
/* Boot of a secondary hart, interrupts masked: its boot stack becomes
 * the hart's task `name`. */
void sched_hart_init(void *boot_stack_lo, const char *name);
/* IPI handler (ipi_isr), interrupts masked: queue the tasks other harts
 * woke for this hart. */
void sched_ipi(void);

struct spinlock_stats;
/* Any context: the statistics of hart h's inbox lock (remote wakes). */
void sched_inbox_stats(unsigned h, struct spinlock_stats *out);

/* Any task: give the CPU to the next ready task, if any. */
void sched_yield(void);
/* Any task: stop running until a waker fires (returns at once if one
 * already fired since the task last ran). */
void sched_block(void);
/* Any task, t a task of this hart: charge t's running time from now on
 * to t->acct (by default a task's time goes to its hart's tasks' account
 * with every other task's, so that a switch between such tasks leaves
 * the accounts alone). */
void task_acct_own(struct task *t);
/* Any task: end another task that is not running (blocked or ready). */
void task_kill(struct task *t);
/* Interrupt handler (a watchdog), interrupts masked: end t, which has
 * overrun: if it is the task the interrupt stopped, the interrupt returns
 * into task_exit(); otherwise it is killed. */
void task_abort_from_isr(struct task *t);
/* Any task: end the current task. */
_Noreturn void task_exit(void);

/* Any task: the running task; a waker for it. */
struct task *sched_current(void);
const char *sched_current_name(void);
static inline struct waker waker_current(void) { return (struct waker){ sched_current() }; }

/* Any context (task or ISR): make w's task runnable once. Waking a
 * finished task or an empty waker does nothing. */
void waker_wake(const struct waker *w);


/* Any context: stack guard check of t; panics naming the task if broken. */
void sched_check_stack(const struct task *t);

#endif
