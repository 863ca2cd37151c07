/* Host stand-in for the kernel's tasks and scheduler (fake_kernel.h):
 * task main (the test program, on the process stack) and up to
 * FK_MAX_TASKS - 1 spawned tasks, each on a heap stack, switched with
 * swapcontext; a FIFO run queue that wakers feed, as src/kernel/
 * scheduler.c's. The test spawns tasks with fk_task_spawn (main joins
 * them); the driver spawns its own with the kernel's task_spawn (a
 * driver's task never ends: join does not wait for it). A switch happens
 * only in sched_block, sched_yield and a task's return, with interrupts
 * masked, each task restoring its own state after; it charges the CPU
 * to the next task's account, as the kernel's does. Under
 * AddressSanitizer every switch is announced to it
 * (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber), so
 * it knows which stack runs. */
#include <stdlib.h>
#include <ucontext.h>

#include "cpu_acct.h"
#include "csr.h"
#include "fake_kernel_priv.h"
#include "fake_uart.h"
#include "scheduler.h"

#if defined(__SANITIZE_ADDRESS__)
#define FK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FK_ASAN 1
#endif
#endif
#if FK_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#define FK_MAX_TASKS 8
#define FK_STACK_BYTES (256U * 1024U)

struct fk_task {
    struct task own;             /* main's and fk_task_spawn's: the task itself */
    struct task *tk;             /* what the kernel's code sees: &own, or task_spawn's */
    bool daemon;                 /* task_spawn's: never joined */
    struct fk_task *rq_next;     /* run-queue link */
    bool queued;                 /* in the run queue: wakes queue it once */
    ucontext_t uc;
    void *stack;                 /* NULL: main's, the process stack */
    const void *asan_bottom;     /* the stack as ASan knows it */
    size_t asan_size;
    void *asan_fake;             /* ASan's fake stack while switched away */
    void (*entry)(void *);
    void *arg;
};

static struct fk_task tasks[FK_MAX_TASKS];
static unsigned ntasks, live;
static struct fk_task *cur, *from, *rq_head, *rq_tail;

/* Interrupts masked: t at the run queue's tail (once). */
static void rq_push(struct fk_task *t)
{
    t->rq_next = 0;
    if (rq_tail)
        rq_tail->rq_next = t;
    else
        rq_head = t;
    rq_tail = t;
    t->queued = true;
}

/* Interrupts masked: the first ready task, or NULL. */
static struct fk_task *rq_pop(void)
{
    struct fk_task *t = rq_head;
    if (t) {
        rq_head = t->rq_next;
        if (!rq_head)
            rq_tail = 0;
        t->queued = false;
    }
    return t;
}

/* Any context (a wake): the fake task behind the kernel's task k. A
 * waker for a task this test never spawned is a stale pointer: fatal. */
static struct fk_task *fk_of(const struct task *k)
{
    for (unsigned i = 0; i < ntasks; i++)
        if (tasks[i].tk == k)
            return &tasks[i];
    fu_fatal("waker for a task that was never spawned in this test (%p)", (const void *)k);
}

/* fk_init (task main): main alone, running; the others' stacks freed. */
void fk_tasks_reset(void)
{
    if (cur && cur != &tasks[0])
        fu_fatal("fk_init called from task %s", cur->tk->name);
    for (unsigned i = 1; i < ntasks; i++)
        free(tasks[i].stack);
    const void *bottom = tasks[0].asan_bottom;
    size_t size = tasks[0].asan_size;
    struct cpu_acct acct = tasks[0].own.acct;
    tasks[0] = (struct fk_task){ .own = { .name = "main", .state = TASK_QUEUED, .acct = acct },
                                 .asan_bottom = bottom, .asan_size = size };
    tasks[0].tk = &tasks[0].own;
    ntasks = 1;
    live = 0;
    cur = &tasks[0];
    rq_head = rq_tail = 0;
}

/* Interrupts masked: run task n (cur stays the caller's until the switch
 * back); a finished caller is never resumed. The CPU is n's from here. */
static void switch_to(struct fk_task *n)
{
    struct fk_task *prev = cur;
    fk_st.switches++;
    from = prev;
    cur = n;
    cpu_acct_switch(&n->tk->acct);
#if FK_ASAN
    __sanitizer_start_switch_fiber(prev->tk->state == TASK_DONE ? NULL : &prev->asan_fake,
                                   n->asan_bottom, n->asan_size);
#endif
    swapcontext(&prev->uc, &n->uc);
#if FK_ASAN
    __sanitizer_finish_switch_fiber(prev->asan_fake, &from->asan_bottom, &from->asan_size);
#endif
}

/* Interrupts masked, the current task's state set: take what is pending,
 * run the first ready task, idling (fake time) while there is none. */
static void schedule(void)
{
    for (;;) {
        fk_deliver();
        struct fk_task *n = rq_pop();
        if (n && n->tk->state == TASK_DONE)
            continue;                       /* (a finished task may have been woken) */
        if (n) {
            n->tk->state = TASK_QUEUED;
            if (n != cur)
                switch_to(n);
            return;
        }
        fk_step();
    }
}

/* First code of a spawned task (interrupts masked by the scheduler). */
static void task_start(void)
{
#if FK_ASAN
    __sanitizer_finish_switch_fiber(NULL, &from->asan_bottom, &from->asan_size);
#endif
    irq_enable();
    cur->entry(cur->arg);
    irq_save();
    cur->tk->state = TASK_DONE;
    if (!cur->daemon)
        live--;
    waker_wake(&(struct waker){ tasks[0].tk });   /* main may be joining */
    schedule();
    fu_fatal("finished task %s resumed", cur->tk->name);
}

/* fk_task_spawn, task_spawn (task main): a new ready task for the kernel
 * task k (NULL: its own), on a heap stack of its own. */
static void spawn(struct task *k, const char *name, void (*entry)(void *), void *arg,
                  bool daemon)
{
    if (cur != &tasks[0] || ntasks == FK_MAX_TASKS)
        fu_fatal("spawn of %s: from task main, at most %u tasks", name, FK_MAX_TASKS);
    struct fk_task *t = &tasks[ntasks++];
    *t = (struct fk_task){ .daemon = daemon, .entry = entry, .arg = arg,
                           .stack = malloc(FK_STACK_BYTES), .asan_size = FK_STACK_BYTES };
    t->tk = k ? k : &t->own;
    *t->tk = (struct task){ .name = name, .entry = entry, .arg = arg, .state = TASK_QUEUED };
    if (!t->stack || getcontext(&t->uc))
        fu_fatal("spawn of %s: no stack", name);
    t->asan_bottom = t->stack;
    t->uc.uc_stack.ss_sp = t->stack;
    t->uc.uc_stack.ss_size = FK_STACK_BYTES;
    t->uc.uc_link = 0;
    makecontext(&t->uc, task_start, 0);
    live += !daemon;
    unsigned long f = irq_save();
    rq_push(t);
    irq_restore(f);
}

/* Task main: a test's task, joined by fk_tasks_join. */
void fk_task_spawn(const char *name, void (*entry)(void *), void *arg)
{
    spawn(NULL, name, entry, arg, false);
}

/* The driver (the engine's init), boot task main: the kernel's task_spawn. The
 * caller's stack is not used: host frames (ASan's above all) need more
 * than a target stack holds, so the task runs on a heap stack as the
 * test's do; it never ends, and fk_init forgets it. */
void task_spawn(struct task *t, const char *name, void (*entry)(void *), void *arg,
                uint64_t *stack, size_t words)
{
    (void)stack;
    (void)words;
    spawn(t, name, entry, arg, true);
}

/* The driver (the copier's init), boot task main: every fake task has
 * its own account already (switch_to charges it). */
void task_acct_own(struct task *t)
{
    (void)t;
}

/* Task main: block until the test's spawned tasks have all returned. */
void fk_tasks_join(void)
{
    while (live)
        sched_block();
}

/* Any context (the driver's wait queues, waitq.c). */
struct task *sched_current(void) { return cur->tk; }
/* Any context (tests' messages): the running task's name. */
const char *sched_current_name(void) { return cur->tk->name; }

/* Any context (task or ISR): queue w's task once, unless it has finished. */
void waker_wake(const struct waker *w)
{
    if (!w || !w->task)
        return;
    unsigned long f = irq_save();
    struct fk_task *t = fk_of(w->task);
    if (!t->queued && t->tk->state != TASK_DONE) {
        fk_st.wakes++;
        rq_push(t);
    }
    irq_restore(f);
}

/* Any task: the next ready task runs first. */
void sched_yield(void)
{
    unsigned long f = irq_save();
    fk_st.yields++;
    cur->tk->state = TASK_QUEUED;
    if (!cur->queued)
        rq_push(cur);
    schedule();
    irq_restore(f);
}

/* Any task: until a waker fires (at once if one fired since it last ran). */
void sched_block(void)
{
    unsigned long f = irq_save();
    fk_st.blocks++;
    cur->tk->state = TASK_BLOCKED;
    schedule();
    irq_restore(f);
}
