/* Host stand-in for the kernel's tasks and scheduler with a thread per
 * task (fake_kernel_threads.h): the tasks' threads, each holding its
 * hart's lock while it runs; wakers, blocking, yielding; the start and
 * the watchdog's join. */
#include "fake_kernel_threads_priv.h"   /* first: <pthread.h> without its sched_yield */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "csr.h"
#include "harts.h"
#include "scheduler.h"

static struct ft_task tasks[FT_TASKS];
static unsigned ntasks;
static pthread_mutex_t join_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t join_cv;

/* ---- tasks -------------------------------------------------------------- */

/* Boot: a task record for k (NULL: its own) on hart h. */
static struct ft_task *task_new(struct task *k, unsigned h, const char *name,
                                void (*entry)(void *), void *arg, bool test)
{
    if (ntasks == FT_TASKS || h >= FT_HARTS)
        ft_fatal("spawn of %s: at most %u tasks, harts 0..%u", name, FT_TASKS, FT_HARTS - 1);
    struct ft_task *t = &tasks[ntasks++];
    t->tk = k ? k : &t->own;
    *t->tk = (struct task){ .name = name, .entry = entry, .arg = arg, .state = TASK_QUEUED,
                            .hart = (uint8_t)h };
    t->hart = h;
    t->test = test;
    t->entry = entry;
    t->arg = arg;
    t->step = "not started";
    pthread_mutex_init(&t->mu, 0);
    ft_cond_init(&t->cv);
    return t;
}

/* Boot (main thread): the boot task on hart 0, holding it; time starts. */
void ft_init(void)
{
    ft_harts_init();
    ft_cond_init(&join_cv);
    ft_cur = task_new(NULL, 0, "boot", NULL, NULL, false);
    ft_thread_setup(0, true, &ft_cur->tk->acct);
    ft_hart_take(&ft_harts[0], "boot");
}

static void (*watchdog_more)(void);

/* Boot: what the watchdog prints after the tasks' steps (the driver's state). */
void ft_watchdog_more(void (*dump)(void))
{
    watchdog_more = dump;
}

/* The watchdog (ft_join, main thread), the tasks stuck: each test task
 * still running with its last step, then every task's state as the
 * scheduler's calls left it (read without their locks), the harts'
 * holders, the test's dump. */
static void watchdog_dump(void)
{
    void AnnotateIgnoreReadsBegin(const char *file, int line);
    void AnnotateIgnoreReadsEnd(const char *file, int line);
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    static const char *states[] = { [TASK_BLOCKED] = "blocked",
                                    [TASK_QUEUED] = "ready or running", [TASK_DONE] = "done" };
    for (unsigned i = 1; i < ntasks; i++)
        if (tasks[i].test && !__atomic_load_n(&tasks[i].done, __ATOMIC_ACQUIRE))
            fprintf(stderr, "  hart %u task %s: %s\n", tasks[i].hart, tasks[i].tk->name,
                    __atomic_load_n(&tasks[i].step, __ATOMIC_RELAXED));
    for (unsigned i = 1; i < ntasks; i++) {
        unsigned st = (unsigned)tasks[i].tk->state;
        const char *at = __atomic_load_n(&tasks[i].sched, __ATOMIC_RELAXED);
        fprintf(stderr, "  task %s (hart %u): %s, woken %d%s%s\n", tasks[i].tk->name,
                tasks[i].hart, st <= TASK_DONE ? states[st] : "?", tasks[i].woken, at ? ", " : "",
                at ? at : "");
    }
    for (unsigned i = 0; i < FT_HARTS; i++) {
        const char *who = __atomic_load_n(&ft_harts[i].holder, __ATOMIC_RELAXED);
        fprintf(stderr, "  hart %u held by %s\n", i, who ? who : "nobody");
    }
    if (watchdog_more)
        watchdog_more();
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
}

/* Boot (main thread): a test task of hart h. */
void ft_spawn(unsigned h, const char *name, void (*entry)(void *), void *arg)
{
    task_new(NULL, h, name, entry, arg, true);
}

/* The driver (the engine's init: the copier's tasks), boot task: a task of the
 * spawner's hart that never ends. */
void task_spawn(struct task *t, const char *name, void (*entry)(void *), void *arg,
                uint64_t *stack, size_t words)
{
    (void)stack;
    (void)words;
    task_new(t, hart_self(), name, entry, arg, false);
}

/* The driver (the copier's init), boot task: every fake task has its
 * own account already (its thread charges it). */
void task_acct_own(struct task *t)
{
    (void)t;
}

/* A task's thread: its entry on its hart, interrupts enabled. */
static void *task_main(void *arg)
{
    struct ft_task *t = arg;
    ft_cur = t;
    ft_thread_setup(t->hart, true, &t->tk->acct);
    ft_hart_take(&ft_harts[t->hart], t->tk->name);
    t->tk->state = TASK_QUEUED;
    t->entry(t->arg);
    ft_step("returned");
    ft_hart_give(&ft_harts[t->hart]);
    pthread_mutex_lock(&join_mu);
    __atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&join_cv);
    pthread_mutex_unlock(&join_mu);
    return 0;
}

/* Boot (main thread), after the driver's init: the harts run. */
void ft_go(void)
{
    __atomic_store_n(&host_harts_many, 1, __ATOMIC_RELAXED);
    for (unsigned i = 0; i < FT_HARTS; i++)
        if (pthread_create(&ft_harts[i].idle, 0, ft_idle_main, (void *)(uintptr_t)i))
            ft_fatal("no idle thread");
    for (unsigned i = 1; i < ntasks; i++)
        if (pthread_create(&tasks[i].th, 0, task_main, &tasks[i]))
            ft_fatal("no thread for task %s", tasks[i].tk->name);
    host_csr.xstatus = 0;
    ft_cur = 0;
    ft_hart_give(&ft_harts[0]);
}

/* Any task: its step, for the watchdog. */
void ft_step(const char *what)
{
    if (ft_cur)
        __atomic_store_n(&ft_cur->step, what, __ATOMIC_RELAXED);
}

/* ft_join: whether every test task has returned. */
static bool all_done(void)
{
    for (unsigned i = 1; i < ntasks; i++)
        if (tasks[i].test && !__atomic_load_n(&tasks[i].done, __ATOMIC_ACQUIRE))
            return false;
    return true;
}

/* The main thread, after ft_go: the test tasks joined, the idle threads ended. */
void ft_join(uint64_t timeout_ns)
{
    struct timespec ts = ft_abs_of(clock_now_ns() + timeout_ns);
    pthread_mutex_lock(&join_mu);
    while (!all_done())
        if (pthread_cond_timedwait(&join_cv, &join_mu, &ts) == ETIMEDOUT && !all_done()) {
            fprintf(stderr, "WATCHDOG: tasks still running after %llu ms:\n",
                    (unsigned long long)(timeout_ns / 1000000));
            watchdog_dump();
            exit(1);
        }
    pthread_mutex_unlock(&join_mu);
    for (unsigned i = 1; i < ntasks; i++)
        if (tasks[i].test)
            pthread_join(tasks[i].th, 0);
    __atomic_store_n(&ft_stop, 1, __ATOMIC_RELAXED);
    for (unsigned i = 0; i < FT_HARTS; i++) {
        ft_poke(&ft_harts[i], false);
        pthread_join(ft_harts[i].idle, 0);
    }
}

/* ---- the scheduler's calls ---------------------------------------------- */

/* Any context: the fake task behind the kernel's task k (fatal: none). */
static struct ft_task *ft_of(const struct task *k)
{
    for (unsigned i = 0; i < ntasks; i++)
        if (tasks[i].tk == k)
            return &tasks[i];
    ft_fatal("waker for a task never spawned (%p)", (const void *)k);
}

/* Any context (task or interrupt, any hart): make w's task runnable. */
void waker_wake(const struct waker *w)
{
    if (!w || !w->task)
        return;
    struct ft_task *t = ft_of(w->task);
    pthread_mutex_lock(&t->mu);
    t->woken = true;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

/* Any task: give its hart up until a waker fires (at once if one fired
 * since it last blocked); hart 0's idle thread takes what the task left
 * pending while it had interrupts masked. */
void sched_block(void)
{
    struct ft_task *t = ft_cur;
    struct ft_hart *h = &ft_harts[t->hart];
    t->tk->state = TASK_BLOCKED;
    __atomic_store_n(&t->sched, "waits for a wake", __ATOMIC_RELAXED);
    ft_hart_give(h);
    ft_poke(h, false);
    pthread_mutex_lock(&t->mu);
    while (!t->woken)
        pthread_cond_wait(&t->cv, &t->mu);
    t->woken = false;
    pthread_mutex_unlock(&t->mu);
    __atomic_store_n(&t->sched, "woken, waits for its hart", __ATOMIC_RELAXED);
    ft_hart_take(h, t->tk->name);
    __atomic_store_n(&t->sched, NULL, __ATOMIC_RELAXED);
    t->tk->state = TASK_QUEUED;
}

/* Any task: let the hart's other threads run. */
void sched_yield(void)
{
    struct ft_hart *h = &ft_harts[ft_cur->hart];
    ft_hart_give(h);
    syscall(SYS_sched_yield);
    ft_hart_take(h, ft_cur->tk->name);
}

/* Any context (the driver's wait queues, waitq.c). */
struct task *sched_current(void) { return ft_cur->tk; }
/* Any context: the running task's name. */
const char *sched_current_name(void) { return ft_cur ? ft_cur->tk->name : "idle"; }
