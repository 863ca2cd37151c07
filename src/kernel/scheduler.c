/* Cooperative scheduler: FIFO run queue, wakers, race-free idle. */
#include "cpu_acct.h"
#include "csr.h"
#include "kernel.h"
#include "scheduler.h"
#include "trap.h"

void switch_context(struct context *from, struct context *to);

static struct task main_task = { .name = "main", .state = TASK_RUNNING };
static struct task *current = &main_task;
static struct task *rq_head, *rq_tail;

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

/* Boot, interrupts masked. */
void sched_init(void *boot_stack_lo)
{
    main_task.stack_lo = boot_stack_lo;
    stack_guard_init(main_task.stack_lo);
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
    struct cpu_acct *prev = cpu_acct_switch(&cpu_acct_idle);

    do {
        __asm__ volatile("wfi");
        irq_enable();             /* the pending interrupt is taken here */
        irq_save();
    } while (!rq_head);
    cpu_acct_switch(prev);
}

/* Task context, interrupts masked, current->state already set: run the
 * next ready task (idling until there is one). */
static inline __attribute__((always_inline)) void schedule_locked(void)
{
    struct task *next;

    for (;;) {
        next = rq_pop();
        if (!next)
            idle_until_queued();
        else if (next->state != TASK_DONE)
            break;                /* (a done task may still have been woken) */
    }
    next->state = TASK_RUNNING;
    if (next != current) {
        struct task *prev = current;
        check_stack(prev);
        current = next;
        cpu_acct_switch(&next->acct);
        switch_context(&prev->ctx, &next->ctx);
    }
}

/* First code of every spawned task (interrupts masked by the scheduler). */
static void task_start(void)
{
    irq_enable();
    current->entry(current->arg);
    task_exit();
}

/* Any task. */
void task_spawn(struct task *t, const char *name, void (*entry)(void *), void *arg,
                uint64_t *stack, size_t words)
{
    *t = (struct task){ .name = name, .entry = entry, .arg = arg,
                        .stack_lo = stack, .state = TASK_READY };
    stack_guard_init(stack);
    t->ctx.ra = (uint64_t)task_start;
    t->ctx.sp = (uint64_t)&stack[words] & ~15ULL;
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
    schedule_locked();
    irq_restore(f);
}

/* Any task. */
void sched_block(void)
{
    unsigned long f = irq_save();
    current->state = TASK_BLOCKED;
    schedule_locked();
    irq_restore(f);
}

/* Any task. */
void task_exit(void)
{
    irq_save();
    current->state = TASK_DONE;
    schedule_locked();
    panic("finished task %s resumed", current->name);
}

/* Any task: end t, which is not the running task; later wakes of it
 * are ignored and a queued entry is skipped. */
void task_kill(struct task *t)
{
    unsigned long f = irq_save();
    if (t != current)
        t->state = TASK_DONE;
    irq_restore(f);
}

/* Interrupt handler, interrupts masked: end task t, which has overrun
 * (a watchdog). The task the interrupt stopped is sent to task_exit()
 * when the interrupt returns (it may be spinning, interrupts on); any
 * other is killed (blocked or ready). */
void task_abort_from_isr(struct task *t)
{
    struct trap_frame *f = trap_interrupted_frame();
    if (t == current && f)
        f->epc = (uint64_t)task_exit;
    else
        task_kill(t);
}

/* Any context (task or ISR). */
void waker_wake(const struct waker *w)
{
    struct task *t = w->task;
    if (!t)
        return;
    unsigned long f = irq_save();
    if (!t->queued && t->state != TASK_DONE)
        rq_push(t);
    irq_restore(f);
}

/* Any context. */
struct task *sched_current(void)
{
    return current;
}

/* Any context. */
const char *sched_current_name(void)
{
    return current->name;
}

