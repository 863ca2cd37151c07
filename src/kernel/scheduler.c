/* Cooperative scheduler, one per hart: a FIFO run queue of the hart's
 * own tasks, wakers, race-free idle. Only its hart touches a run queue
 * (with interrupts masked, no lock): a task of another hart is woken
 * through that hart's inbox and an IPI (sched_inbox.c). */
#include <errno.h>
#include "cpu_acct.h"
#include "csr.h"
#include "harts.h"
#include "kernel.h"
#include "sched_priv.h"
#include "scheduler.h"

/* switch.S; ie: 0 or XSTATUS_XIE, the bit `from` gets back. */
void switch_context(struct context *from, struct context *to, unsigned long ie);
_Static_assert(offsetof(struct context, ie) == 112, "switch.S's offset of ie");

static struct task main_tasks[HARTS_MAX];   /* each hart's boot context */
static HART_LOCAL struct task *current;
static HART_LOCAL struct task *rq_head, *rq_tail;

/* Interrupts masked: append t to the run queue. */
static void rq_push(struct task *t)
{
    t->next = 0;
    if (rq_tail)
        rq_tail->next = t;
    else
        rq_head = t;
    rq_tail = t;
    t->queued = true;
}

/* Interrupts masked: take the first ready task, or NULL. */
static struct task *rq_pop(void)
{
    struct task *t = rq_head;
    if (t) {
        rq_head = t->next;
        if (!rq_head)
            rq_tail = 0;
        t->queued = false;
    }
    return t;
}

/* Task context: write the guard words at the bottom of a stack. */
static void stack_guard_init(uint64_t *lo)
{
    for (int i = 0; i < TASK_STACK_GUARD_WORDS; i++)
        lo[i] = TASK_STACK_GUARD;
}

/* Boot of each hart, interrupts masked: adopt the boot stack as the
 * hart's task `name`. */
void sched_hart_init(void *boot_stack_lo, const char *name)
{
    struct task *m = &main_tasks[hart_self()];

    *m = (struct task){ .name = name, .state = TASK_RUNNING, .hart = (uint8_t)hart_self() };
    m->stack_lo = boot_stack_lo;
    stack_guard_init(m->stack_lo);
    current = m;
}

/* Boot, hart 0, interrupts masked. */
void sched_init(void *boot_stack_lo)
{
    sched_hart_init(boot_stack_lo, "main");
    panic_task_name_from(sched_current_name);
}

/* Any context: report a broken stack guard and stop. */
static __attribute__((noinline, noreturn)) void stack_overflow(const struct task *t)
{
    panic("stack overflow in task %s (guard words at %p overwritten)", t->name,
          (void *)t->stack_lo);
}

/* Any context: panic naming t if its guard words were overwritten. */
static inline void check_stack(const struct task *t)
{
    const uint64_t *g = t->stack_lo;
    _Static_assert(TASK_STACK_GUARD_WORDS == 2, "check every guard word");
    if ((g[0] ^ TASK_STACK_GUARD) | (g[1] ^ TASK_STACK_GUARD))
        stack_overflow(t);
}

/* Any context. */
void sched_check_stack(const struct task *t)
{
    check_stack(t);
}

/* Scheduler, interrupts masked, nothing ready: wfi until an interrupt
 * is pending, let it run, mask again, until a task is queued; the whole
 * wait, its loop turns included, is idle time. The run queue was checked
 * with interrupts masked, so a wake cannot slip in unseen before a wfi. */
static __attribute__((noinline)) void idle_until_queued(void)
{
    struct cpu_acct *prev = cpu_acct_switch_task(&cpu_acct_idle);

    do {
        __asm__ volatile("wfi");
        irq_enable();             /* the pending interrupt is taken here */
        irq_save();
    } while (!rq_head);
    cpu_acct_switch_task(prev);
}

/* schedule_slow, interrupts masked, the run queue's first entry `next`
 * is missing or finished: the next ready task, idling until there is
 * one. */
static struct task *next_ready(struct task *next)
{
    for (;;) {
        if (!next)
            idle_until_queued();
        else if (next->state != TASK_DONE)
            return next;          /* (a done task may still have been woken) */
        next = rq_pop();
    }
}

/* schedule_locked, schedule_slow, interrupts masked, f the caller's
 * irq_save flag (task_exit's 0): run next, and unmask as f says once the
 * caller's task runs again: switch_context does it on the way back, as
 * the caller's tail call (no frame kept across the switch), or, next the
 * caller's task itself, irq_restore here. */
static inline __attribute__((always_inline)) void switch_to(struct task *next, unsigned long f)
{
    next->state = TASK_RUNNING;
    struct task *prev = current;
    if (next != prev) {
        check_stack(prev);
        current = next;
        cpu_acct_switch_task(&next->acct);
        switch_context(&prev->ctx, &next->ctx, f);
        return;
    }
    irq_restore(f);
}

/* schedule_locked, interrupts masked by f, the run queue's first entry
 * `next` is missing or finished: switch_to the next ready task (out of
 * line: the common switch makes no call that returns, so it keeps no
 * frame). */
static __attribute__((noinline)) void schedule_slow(struct task *next, unsigned long f)
{
    switch_to(next_ready(next), f);
}

/* sched_yield, sched_block, task_exit (task context), interrupts masked,
 * f the caller's irq_save flag (task_exit's 0), current->state already
 * set: run the next ready task (idling until there is one); interrupts
 * as f says once the caller's task runs again. */
static inline __attribute__((always_inline)) void schedule_locked(unsigned long f)
{
    struct task *next = rq_pop();

    if (__builtin_expect(!next || next->state == TASK_DONE, 0)) {
        schedule_slow(next, f);
        return;
    }
    switch_to(next, f);
}

/* First code of every spawned task (interrupts masked by the scheduler). */
static void task_start(void)
{
    irq_enable();
    current->entry(current->arg);
    task_exit();
}

/* Any task: t set up to start entry(arg) on stack[words] on hart h. */
void sched_task_setup(struct task *t, const char *name, void (*entry)(void *), void *arg,
                      uint64_t *stack, size_t words, unsigned h)
{
    *t = (struct task){ .name = name, .entry = entry, .arg = arg,
                        .stack_lo = stack, .state = TASK_READY, .hart = (uint8_t)h };
    stack_guard_init(stack);
    t->ctx.ra = (uint64_t)task_start;
    t->ctx.sp = (uint64_t)&stack[words] & ~15ULL;
}

/* Any task: a new task on this hart. */
void task_spawn(struct task *t, const char *name, void (*entry)(void *), void *arg,
                uint64_t *stack, size_t words)
{
    sched_task_setup(t, name, entry, arg, stack, words, hart_self());
    unsigned long f = irq_save();
    rq_push(t);
    irq_restore(f);
}

/* Any task. */
void sched_yield(void)
{
    unsigned long f = irq_save();
    current->state = TASK_READY;
    if (!current->queued)
        rq_push(current);
    schedule_locked(f);
}

/* Any task. */
void sched_block(void)
{
    unsigned long f = irq_save();
    current->state = TASK_BLOCKED;
    schedule_locked(f);
}

/* Any task. */
void task_exit(void)
{
    irq_save();
    current->state = TASK_DONE;
    schedule_locked(0);
    panic("finished task %s resumed", current->name);
}

/* Any task: end t, a task of this hart that is not the running task;
 * later wakes of it are ignored and a queued entry is skipped. */
void task_kill(struct task *t)
{
    if (t->hart != hart_self())
        panic("task_kill: task %s belongs to hart %u, not %u", t->name, t->hart, hart_self());
    unsigned long f = irq_save();
    if (t != current)
        t->state = TASK_DONE;
    irq_restore(f);
}

/* Interrupt handler, interrupts masked: end task t, which has overrun
 * (a watchdog). The task the interrupt stopped is sent to task_exit()
 * when the interrupt returns (it may be spinning, interrupts on): the
 * trap's return address, which trap_entry leaves in epc (handlers do not
 * nest); any other is killed (blocked or ready). */
void task_abort_from_isr(struct task *t)
{
    if (t == current)
        csr_write(CSR_XEPC, (unsigned long)task_exit);
    else
        task_kill(t);
}

/* Interrupts masked, this hart's task t: queue it unless it is queued
 * or finished. */
void sched_wake_local(struct task *t)
{
    if (!t->queued && t->state != TASK_DONE)
        rq_push(t);
}

/* Any context (task or ISR): a task of another hart goes through that
 * hart's inbox (sched_inbox.c). */
void waker_wake(const struct waker *w)
{
    struct task *t = w->task;
    if (!t)
        return;
    if (__builtin_expect(t->hart != hart_self(), 0)) {
        sched_wake_remote(t);
        return;
    }
    unsigned long f = irq_save();
    sched_wake_local(t);
    irq_restore(f);
}

/* IPI handler (ipi_init's, kmain and hart_main), interrupts masked: every
 * task in this hart's inbox to the run queue, oldest first. wake_pending
 * is cleared after the task's link is read: a wake after that links it
 * again. */
void sched_ipi(void)
{
    struct task *t = sched_inbox_take();
    while (t) {
        struct task *next = t->wake_next;
        __atomic_store_n(&t->wake_pending, 0, __ATOMIC_RELEASE);
        sched_wake_local(t);
        t = next;
    }
}

/* Any task. */
int task_spawn_on(unsigned h, struct task *t, const char *name, void (*entry)(void *),
                  void *arg, uint64_t *stack, size_t words)
{
    if (h >= harts_online())
        return -EINVAL;
    if (h == hart_self()) {
        task_spawn(t, name, entry, arg, stack, words);
        return 0;
    }
    harts_share(true);                 /* before the task can run: its hart's calls lock */
    sched_task_setup(t, name, entry, arg, stack, words, h);
    sched_wake_remote(t);              /* READY and not queued: hart h queues it */
    return 0;
}

/* Any context. */
struct task *sched_current(void)
{
    return current;
}

/* Any context ("boot" before sched_init, e.g. in an early panic). */
const char *sched_current_name(void)
{
    return current ? current->name : "boot";
}

