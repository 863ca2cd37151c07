/* Host stand-in for the kernel services of the UART driver with a thread
 * per task and a CPU lock per hart (fake_kernel_threads.h): real time,
 * panic, timers, interrupt delivery and the harts' idle threads; the
 * tasks and the scheduler's calls are fake_tasks_threads.c's. */
#include "fake_kernel_threads_priv.h"   /* first: <pthread.h> without its sched_yield */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "harts.h"
#include "plic.h"
#include "timer.h"

#define FT_STORM 100000U         /* handler runs in a row: a storm */
#define FT_IDLE_MAX_NS 2000000ULL  /* an idle thread looks at least this often */

__thread struct host_csr host_csr;
HART_LOCAL unsigned hart_self_index;
int host_harts_many;
__thread struct cpu_acct cpu_acct_isr, cpu_acct_idle, cpu_acct_sim, cpu_acct_rx;
__thread struct cpu_acct_now cpu_acct_now;
__thread struct cpu_acct_trap cpu_acct_trap;   /* (no trap entry on the host: never set) */
unsigned cpu_clock_shift;
bool cpu_instret_exact;

struct ft_hart ft_harts[FT_HARTS];
__thread struct ft_task *ft_cur;
int ft_stop;
static uint64_t t0;                      /* CLOCK_MONOTONIC at ft_harts_init */
static irq_handler_t handler;
static void *handler_arg;

/* Any thread: CLOCK_MONOTONIC in ns. */
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The driver, any context: ns since ft_init. */
uint64_t clock_now_ns(void) { return mono_ns() - t0; }

/* Any thread: a wait until clock_now_ns() == t, as a timespec. */
struct timespec ft_abs_of(uint64_t t)
{
    uint64_t a = t0 + t;
    return (struct timespec){ .tv_sec = (time_t)(a / 1000000000ULL),
                              .tv_nsec = (long)(a % 1000000000ULL) };
}

/* Boot: a condition variable on CLOCK_MONOTONIC. */
void ft_cond_init(pthread_cond_t *cv)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(cv, &a);
    pthread_condattr_destroy(&a);
}

/* Any thread: the message, naming the thread's task, and exit(1). */
_Noreturn void ft_fatal(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FATAL (hart %u, %s) at %llu ns: ", hart_self(),
            ft_cur ? ft_cur->tk->name : "idle/main", (unsigned long long)clock_now_ns());
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

/* The kernel's panic, any context: fatal. */
_Noreturn void panic(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ft_fatal("PANIC: %s", msg);
}

/* The driver (uart_be_init), boot task: the UART's handler (hart 0's). */
int irq_register(uint32_t irq, irq_handler_t fn, void *arg)
{
    if (irq == 0)
        return -EINVAL;
    handler = fn;
    handler_arg = arg;
    return 0;
}

/* A thread's first code: its hart, its interrupt state, its CPU account. */
void ft_thread_setup(unsigned hart, bool irqs_on, struct cpu_acct *acct)
{
    hart_self_index = hart;
    host_csr.xstatus = irqs_on ? XSTATUS_XIE : 0;
    cpu_acct_now.owner = acct;
}


/* ---- timers and interrupts (the hart's lock held) ----------------------- */

/* The hart's lock held, interrupts masked: fire the expired timers; the
 * earliest deadline left (UINT64_MAX: none). */
static uint64_t fire_timers(struct ft_hart *h)
{
    uint64_t next = UINT64_MAX, now = clock_now_ns();
    for (unsigned i = 0; i < h->ntimers;) {
        struct timer *t = h->timers[i];
        if (t->entry.deadline > now) {
            if (t->entry.deadline < next)
                next = t->entry.deadline;
            i++;
            continue;
        }
        h->timers[i] = h->timers[--h->ntimers];
        t->entry.armed = false;
        t->fired = true;
        if (t->fire)
            t->fire(t);
        waker_wake(&t->waker);
        i = 0;                   /* a callback may have re-armed */
        next = UINT64_MAX;
    }
    return next;
}

/* The hart's lock held (its idle thread, or its task at an interrupt
 * point): the timer interrupt, then on hart 0 the UART handler while the
 * line is asserted, interrupts masked; returns when to look next. */
static uint64_t take_interrupts(struct ft_hart *h)
{
    if (h->in_isr)
        return UINT64_MAX;
    h->in_isr = true;
    unsigned long saved = host_csr.xstatus;
    host_csr.xstatus &= ~(unsigned long)XSTATUS_XIE;
    uint64_t due = fire_timers(h), ev = UINT64_MAX;
    if (h == &ft_harts[0] && handler) {
        unsigned n = 0;
        while (ft_bus_line(&ev)) {
            if (++n > FT_STORM)
                ft_fatal("interrupt storm: the line stays asserted after %u handler runs", n);
            handler(handler_arg);
        }
    }
    host_csr.xstatus = saved;
    h->in_isr = false;
    return ev < due ? ev : due;
}

/* Interrupts unmasked by a task (csr.h, irq_enable): take what is pending
 * on its hart (timers; the UART on hart 0). */
void host_irq_enabled(void)
{
    if (ft_cur && (host_csr.xstatus & XSTATUS_XIE))
        take_interrupts(&ft_harts[ft_cur->hart]);
}

/* A spin loop's hint (csr.h), any thread: let another thread run. */
void host_spin_hint(void)
{
    syscall(SYS_sched_yield);
}

/* Any task (waitq.c's deadlines) or interrupt (the driver's RX resume):
 * arm t on this hart. */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w)
{
    struct ft_hart *h = &ft_harts[hart_self()];
    if (!t)
        return -EINVAL;
    timer_cancel(t);
    if (h->ntimers == FT_TIMERS)
        ft_fatal("too many armed timers");
    t->waker = w;
    t->fired = false;
    t->entry.deadline = deadline_ns;
    t->entry.armed = true;
    t->hart = (uint8_t)hart_self();
    h->timers[h->ntimers++] = t;
    ft_poke(h, false);
    return 0;
}

/* Any context of t's hart: disarm t. */
bool timer_cancel(struct timer *t)
{
    struct ft_hart *h = &ft_harts[hart_self()];
    for (unsigned i = 0; i < h->ntimers; i++)
        if (h->timers[i] == t) {
            h->timers[i] = h->timers[--h->ntimers];
            t->entry.armed = false;
            return true;
        }
    if (t->entry.armed)
        ft_fatal("timer armed on hart %u cancelled from hart %u", t->hart, hart_self());
    return false;
}

/* ---- idle threads ------------------------------------------------------- */

/* Any thread (a timer armed, a task blocking, the bus): h's idle thread looks. */
void ft_poke(struct ft_hart *h, bool ignore_sync)
{
    void AnnotateIgnoreSyncBegin(const char *file, int line);
    void AnnotateIgnoreSyncEnd(const char *file, int line);
    if (ignore_sync)
        AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
    __atomic_store_n(&h->poke, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&h->mu);
    pthread_cond_signal(&h->cv);
    pthread_mutex_unlock(&h->mu);
    if (ignore_sync)
        AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
}

/* The bus (fake_uart_bus.c), a thread of hart 1..: the line is up. */
void ft_irq_poke(void) { ft_poke(&ft_harts[0], true); }

/* Idle thread of hart h: until a poke or clock_now_ns() == due. */
static void idle_wait(struct ft_hart *h, uint64_t due)
{
    pthread_mutex_lock(&h->mu);
    while (!__atomic_exchange_n(&h->poke, 0, __ATOMIC_RELAXED) &&
           !__atomic_load_n(&ft_stop, __ATOMIC_RELAXED)) {
        uint64_t now = clock_now_ns();
        if (now >= due)
            break;
        struct timespec ts = ft_abs_of(due - now < FT_IDLE_MAX_NS ? due : now + FT_IDLE_MAX_NS);
        pthread_cond_timedwait(&h->cv, &h->mu, &ts);
    }
    pthread_mutex_unlock(&h->mu);
}

/* Idle thread of hart (uintptr_t)arg, interrupts masked: whenever no task
 * holds the hart, its timers and (hart 0) the UART interrupt. */
void *ft_idle_main(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    struct ft_hart *h = &ft_harts[i];
    ft_thread_setup(i, false, &cpu_acct_idle);
    prctl(PR_SET_TIMERSLACK, 1UL);          /* wake at the line's events, not 50 us late */
    while (!__atomic_load_n(&ft_stop, __ATOMIC_RELAXED)) {
        ft_hart_take(h, "idle");
        uint64_t due = take_interrupts(h);
        ft_hart_give(h);
        idle_wait(h, due);
    }
    return 0;
}

/* Any thread of hart h: run on it, as who, once the threads that asked
 * before it have had their turn (first come, first served, as the
 * scheduler's run queue: a task woken while another runs gets the hart
 * before that one, if it blocks, gets it back; a plain mutex lets the
 * thread that gives the hart up take it again first, however long the
 * woken one has waited). */
void ft_hart_take(struct ft_hart *h, const char *who)
{
    pthread_mutex_lock(&h->cpu_mu);
    unsigned long turn = h->ticket++;
    while (h->serving != turn)
        pthread_cond_wait(&h->cpu_cv, &h->cpu_mu);
    pthread_mutex_unlock(&h->cpu_mu);
    __atomic_store_n(&h->holder, who, __ATOMIC_RELAXED);
}

/* The thread running on hart h: give it up to the next turn. */
void ft_hart_give(struct ft_hart *h)
{
    __atomic_store_n(&h->holder, NULL, __ATOMIC_RELAXED);
    pthread_mutex_lock(&h->cpu_mu);
    h->serving++;
    pthread_cond_broadcast(&h->cpu_cv);
    pthread_mutex_unlock(&h->cpu_mu);
}

/* Boot (ft_init): time starts; the harts' locks. */
void ft_harts_init(void)
{
    t0 = mono_ns();
    for (unsigned i = 0; i < FT_HARTS; i++) {
        pthread_mutex_init(&ft_harts[i].cpu_mu, 0);
        ft_cond_init(&ft_harts[i].cpu_cv);
        pthread_mutex_init(&ft_harts[i].mu, 0);
        ft_cond_init(&ft_harts[i].cv);
    }
}
