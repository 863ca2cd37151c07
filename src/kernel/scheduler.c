/* Cooperative scheduler, one per hart: a run ring of the hart's own
 * tasks in FIFO order, wakers, race-free idle. Only its hart touches a
 * run ring (with interrupts masked, no lock): a task of another hart is
 * woken through that hart's inbox and an IPI (sched_inbox.c).
 *
 * The ring holds the ready tasks and the running task, unless it has
 * blocked: rq_tail is the ring's last task, the one a wake adds comes
 * after it, and the running task comes right after it (rq_tail->next ==
 * current while current is in the ring). A yield moves the tail onto the
 * running task; a block takes the running task out. */
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
static HART_LOCAL struct task *rq_tail;     /* NULL: the ring is empty */

/* Interrupts masked, t not in the ring: add t at the ring's end (it runs
 * after every task in it, the running task last). */
static void rq_add(struct task *t)
{
    struct task *tail = rq_tail;
    if (tail) {
        t->next = tail->next;
        tail->next = t;
    } else {
        t->next = t;
    }
    rq_tail = t;
    t->state = TASK_QUEUED;
}

/* Interrupts masked, t in the ring: take it out (a walk round the ring:
 * task_kill's and task_exit's, which set its state). */
static void rq_remove(struct task *t)
{
    struct task *p = t;
    while (p->next != t)
        p = p->next;
    if (p == t) {
        rq_tail = 0;
    } else {
        p->next = t->next;
        if (rq_tail == t)
            rq_tail = p;
    }
}

/* Task context: write the guard word at the bottom of a stack. */
static void stack_guard_init(uint64_t *lo)
{
    _Static_assert(TASK_STACK_GUARD_WORDS == 1, "one guard word");
    lo[0] = TASK_STACK_GUARD;
}

/* Boot of each hart, interrupts masked: adopt the boot stack as the
 * hart's task `name`, the one task of its run ring. */
void sched_hart_init(void *boot_stack_lo, const char *name)
{
    struct task *m = &main_tasks[hart_self()];

    *m = (struct task){ .name = name, .hart = (uint8_t)hart_self(), .charge = &cpu_acct_tasks };
    m->stack_lo = boot_stack_lo;
    stack_guard_init(m->stack_lo);
    current = m;
    rq_add(m);                    /* (rq_tail starts NULL: a hart's TLS starts zeroed) */
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
    panic("stack overflow in task %s (guard word at %p overwritten)", t->name,
          (void *)t->stack_lo);
}

/* Any context: panic naming t if its guard word was overwritten. */
static inline void check_stack(const struct task *t)
{
    if (*t->stack_lo != TASK_STACK_GUARD)
        stack_overflow(t);
}

/* Any context. */
void sched_check_stack(const struct task *t)
{
    check_stack(t);
}

/* schedule_idle, interrupts masked, the ring empty: wfi until an
 * interrupt is pending, let it run, mask again, until a task is added;
 * the whole wait, its loop turns included, is idle time; returns the
 * ring's tail, read after the wait (the caller's copy is stale: an
 * interrupt handler added the task). The ring was checked with
 * interrupts masked, so a wake cannot slip in unseen before a wfi. */
static __attribute__((noinline)) struct task *idle_until_queued(void)
{
    struct cpu_acct *prev = cpu_acct_switch_task(&cpu_acct_idle);

    do {
        __asm__ volatile("wfi");
        irq_enable();             /* the pending interrupt is taken here */
        irq_save();
    } while (!rq_tail);
    cpu_acct_switch_task(prev);
    return rq_tail;
}

/* switch_to, interrupts masked, next's account not the owner: switch
 * the accounts, then the context (out of line, so that the common
 * switch loads nothing of the accounts but their owner). */
static __attribute__((noinline)) void switch_acct(struct task *prev, struct task *next,
                                                  unsigned long f)
{
    cpu_acct_switch_task(next->charge);
    switch_context(&prev->ctx, &next->ctx, f);
}

/* The scheduler's switches, interrupts masked, prev the running task and
 * next another (current is set here), f the flag prev gets back when it
 * runs again (task_exit's 0): switch_context does it on the way back, as
 * the caller's tail call (no frame kept across the switch). The accounts
 * switch only when next's differs from the owner (tasks without their
 * own account share one). */
static inline __attribute__((always_inline)) void switch_to(struct task *prev, struct task *next,
                                                            unsigned long f)
{
    check_stack(prev);
    current = next;
    if (__builtin_expect(cpu_acct_now.owner != next->charge, 0)) {
        switch_acct(prev, next, f);
        return;
    }
    switch_context(&prev->ctx, &next->ctx, f);
}

/* sched_block, task_exit (task context), interrupts masked, the running
 * task out of the ring: run the ring's first task, idling until there is
 * one (the caller's own task, woken: no switch). A wake of the caller's
 * task while it idled added it; a second is not kept for its next
 * block. */
static __attribute__((noinline)) void schedule_idle(unsigned long f)
{
    struct task *prev = current, *tail = rq_tail;

    if (!tail) {
        tail = idle_until_queued();
        prev->woken = false;
    }
    struct task *next = tail->next;
    if (next == prev) {
        irq_restore(f);
        return;
    }
    switch_to(prev, next, f);
}

/* sched_block, interrupts masked by f, cur the running task, in the
 * ring (rq_tail->next): take it out and run the next ready task, idling
 * until there is one. */
static inline __attribute__((always_inline)) void leave_ring(struct task *cur, unsigned long f)
{
    struct task *next = cur->next;

    cur->state = TASK_BLOCKED;
    if (__builtin_expect(next == cur, 0)) {
        rq_tail = 0;
        schedule_idle(f);
        return;
    }
    rq_tail->next = next;
    switch_to(cur, next, f);
}

/* First code of every spawned task (interrupts masked by the scheduler). */
static void task_start(void)
{
    irq_enable();
    current->entry(current->arg);
    task_exit();
}

/* Any task: t set up to start entry(arg) on stack[words] on hart h,
 * charged to that hart's tasks' account. */
void sched_task_setup(struct task *t, const char *name, void (*entry)(void *), void *arg,
                      uint64_t *stack, size_t words, unsigned h)
{
    *t = (struct task){ .name = name, .entry = entry, .arg = arg, .stack_lo = stack,
                        .charge = hart_local_of(h, &cpu_acct_tasks), .hart = (uint8_t)h };
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
    rq_add(t);
    irq_restore(f);
}

/* Any task, t of this hart. */
void task_acct_own(struct task *t)
{
    unsigned long f = irq_save();
    t->charge = &t->acct;
    if (t == current)
        cpu_acct_switch_task(&t->acct);
    irq_restore(f);
}

/* sched_yield, sched_block, interrupts masked by f, cur the running
 * task, in the ring (rq_tail->next): the tail moves onto it, and the
 * task after it runs (none other: cur goes on). */
static inline __attribute__((always_inline)) void rotate(struct task *cur, unsigned long f)
{
    struct task *next = cur->next;

    cur->woken = false;
    if (next == cur) {
        irq_restore(f);
        return;
    }
    rq_tail = cur;
    switch_to(cur, next, f);
}

/* Any task. */
void sched_yield(void)
{
    unsigned long f = irq_save();
    rotate(current, f);
}

/* sched_block, interrupts masked by f, the running task woken since it
 * last ran: it yields (out of line, so that sched_block keeps no frame). */
static __attribute__((noinline)) void block_woken(unsigned long f)
{
    rotate(current, f);
}

/* Any task: woken since it last ran, it yields; otherwise it leaves the
 * ring until a wake adds it again. */
void sched_block(void)
{
    unsigned long f = irq_save();
    struct task *cur = current;

    if (__builtin_expect(cur->woken, 0)) {
        block_woken(f);
        return;
    }
    leave_ring(cur, f);
}

/* Any task; or one task_abort_from_isr sent here, which may have been
 * blocked (its hart idling on its stack) and woken since, anywhere in
 * the ring. */
void task_exit(void)
{
    irq_save();
    struct task *cur = current;
    if (cur->state == TASK_QUEUED)
        rq_remove(cur);
    cur->state = TASK_DONE;
    schedule_idle(0);
    panic("finished task %s resumed", cur->name);
}

/* Any task or interrupt handler (task_abort_from_isr): end t, a task of
 * this hart that is not the running task: out of the ring, and later
 * wakes of it are ignored. */
void task_kill(struct task *t)
{
    if (t->hart != hart_self())
        panic("task_kill: task %s belongs to hart %u, not %u", t->name, t->hart, hart_self());
    unsigned long f = irq_save();
    if (t != current) {
        if (t->state == TASK_QUEUED)
            rq_remove(t);
        t->state = TASK_DONE;
    }
    irq_restore(f);
}

/* Interrupt handler, interrupts masked: end task t, which has overrun
 * (a watchdog). The task the interrupt stopped is sent to task_exit()
 * when the interrupt returns (it may be spinning, interrupts on, or
 * blocked, its hart idling on its stack): the
 * trap's return address, which trap_entry leaves in epc (handlers do not
 * nest); any other is killed (blocked or ready). */
void task_abort_from_isr(struct task *t)
{
    if (t == current)
        csr_write(CSR_XEPC, (unsigned long)task_exit);
    else
        task_kill(t);
}

/* Interrupts masked, this hart's task t: add it to the ring unless it
 * is in it or finished; the running task keeps the wake for its next
 * sched_block. */
void sched_wake_local(struct task *t)
{
    if (__builtin_expect(t->state == TASK_BLOCKED, 1))
        rq_add(t);
    else if (t == current)        /* (a finished one idling: schedule_idle clears it) */
        t->woken = true;
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
    sched_wake_remote(t);              /* BLOCKED: hart h adds it to its ring */
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

