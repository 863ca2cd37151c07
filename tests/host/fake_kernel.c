/* Host stand-in for the kernel services of the UART driver; see
 * fake_kernel.h. Deterministic: fake time only. The clock, PLIC, panic,
 * interrupt delivery, timers and the idle step are here; the tasks and
 * the scheduler are fake_tasks.c's. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "csr.h"
#include "fake_acct.h"
#include "fake_kernel.h"
#include "fake_kernel_priv.h"
#include "fake_uart.h"
#include "kernel.h"
#include "plic.h"
#include "scheduler.h"
#include "timer.h"
#include "waitq.h"

#define FK_MAX_TIMERS 16
#define FK_DEFAULT_BUDGET_NS (30ULL * 1000000000ULL)
#define FK_DEFAULT_STORM 1000
#define FK_SPIN_LIMIT 10000000u

struct host_csr host_csr;

static struct {
    irq_handler_t handler;
    void *arg;
    uint32_t irq;
    bool in_isr;
    unsigned storm_limit;
    struct timer *timers[FK_MAX_TIMERS];
    unsigned ntimers;
    uint64_t point_rng;         /* fk_irq_schedule: seeded generator */
    unsigned point_per_mille;   /* ... and the share of points taken */
    uint64_t spin_ns;           /* fake time per spin-loop hint */
    uint64_t wake_ns;           /* fake time from a timer's expiry to its task */
} k;

struct fk_stats fk_st;

/* Every test, first (task main, no other task running). */
void fk_init(void)
{
    memset(&k, 0, sizeof k);
    memset(&fk_st, 0, sizeof fk_st);
    fk_tasks_reset();
    fu_set_access_hook(NULL);
    k.storm_limit = FK_DEFAULT_STORM;
    memset(&host_csr, 0, sizeof host_csr);
    host_csr.xstatus = XSTATUS_XIE;
    fk_set_budget(FK_DEFAULT_BUDGET_NS);
}

/* Any test: the fake time budget and the interrupt storm limit, the
 * registered IRQ and the stats. */
void fk_set_budget(uint64_t ns) { fu_set_time_limit(fu_now() + ns); }
void fk_set_storm_limit(unsigned n) { k.storm_limit = n; }
void fk_set_spin_ns(uint64_t ns) { k.spin_ns = ns; }
void fk_set_wake_ns(uint64_t ns) { k.wake_ns = ns; }
uint32_t fk_irq_number(void) { return k.irq; }
const struct fk_stats *fk_stats(void) { return &fk_st; }

/* ---- clock, PLIC, panic -------------------------------------------------- */

uint64_t clock_now_ns(void) { return fu_now(); }

/* The driver (uart_be_init), boot task: the UART's handler. */
int irq_register(uint32_t irq, irq_handler_t fn, void *arg)
{
    if (irq == 0)
        return -EINVAL;
    k.irq = irq;
    k.handler = fn;
    k.arg = arg;
    return 0;
}

/* Any context: the kernel's panic ends the test. */
_Noreturn void panic(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "PANIC: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_PANIC);
}

/* ---- interrupts ------------------------------------------------------------ */

static void fire_timers(bool callbacks_only);

/* Run expired timer callbacks (the timer interrupt), then the handler
 * while the UART's line is asserted, interrupts masked as on the hart. */
void fk_deliver(void)
{
    unsigned n = 0;

    if (k.in_isr)
        return;
    fire_timers(true);
    if (!k.handler)
        return;
    while (fu_irq_line()) {
        if (++n > k.storm_limit)
            fu_fatal("interrupt storm: line still asserted after %u handler "
                     "runs (LSR %#x)", k.storm_limit, fu_lsr_peek());
        unsigned long saved = host_csr.xstatus;
        host_csr.xstatus &= ~(unsigned long)XSTATUS_XIE;
        k.in_isr = true;
        uint64_t reads = fu_stats()->reads;
        k.handler(k.arg);
        fk_st.isr_reads += fu_stats()->reads - reads;
        k.in_isr = false;
        host_csr.xstatus = saved;
        fk_st.isr_runs++;
    }
    if (n > fk_st.max_isr_burst)
        fk_st.max_isr_burst = n;
}

/* Interrupts unmasked: take a pending one. A task that keeps unmasking
 * while no fake time passes is spinning on something only time could
 * change (no register access, no block): a hang. */
void host_irq_enabled(void)
{
    static uint64_t last_now, same;
    if (fu_now() != last_now) {
        last_now = fu_now();
        same = 0;
    } else if (++same > FK_SPIN_LIMIT) {
        fu_fatal("task spins: %u interrupt unmasks without fake time passing",
                 FK_SPIN_LIMIT);
    }
    if (host_csr.xstatus & XSTATUS_XIE)
        fk_deliver();
}

/* Any test: take what is pending now. */
void fk_take_irqs(void) { fk_deliver(); }

/* Task code, any register access (fu_set_access_hook) and the test's own
 * points: with interrupts enabled, take what is pending when the seeded
 * generator says so. */
void fk_irq_point(void)
{
    if (!k.point_per_mille || k.in_isr || !(host_csr.xstatus & XSTATUS_XIE))
        return;
    k.point_rng ^= k.point_rng << 13;
    k.point_rng ^= k.point_rng >> 7;
    k.point_rng ^= k.point_rng << 17;
    if ((k.point_rng >> 20) % 1000 < k.point_per_mille) {
        fk_st.point_irqs++;
        fk_deliver();
    }
}

/* Any test: interrupts at a seeded share of the points (0: off). */
void fk_irq_schedule(uint64_t seed, unsigned per_mille)
{
    k.point_rng = seed * 0x9E3779B97F4A7C15ULL | 1;
    k.point_per_mille = per_mille;
    fu_set_access_hook(per_mille ? fk_irq_point : NULL);
}

/* Task code, a busy-wait loop (cpu_spin_hint, csr.h): one instruction of
 * work, and the hint's fake time. */
void host_spin_hint(void)
{
    fk_st.spin_hints++;
    fa_work(1);
    if (k.spin_ns)
        fu_advance_to(fu_now() + k.spin_ns);
}

/* ---- idling --------------------------------------------------------------- */

/* fk_step: the earliest armed deadline, UINT64_MAX if none. */
static uint64_t next_deadline(void)
{
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < k.ntimers; i++)
        if (k.timers[i]->entry.deadline < t)
            t = k.timers[i]->entry.deadline;
    return t;
}

/* Expire due timers (only those with a callback: the timer interrupt
 * taken at an interrupt point); callbacks run as an ISR. */
static void fire_timers(bool callbacks_only)
{
    for (unsigned i = 0; i < k.ntimers;) {
        struct timer *t = k.timers[i];
        if (t->entry.deadline > fu_now() || (callbacks_only && !t->fire)) {
            i++;
            continue;
        }
        k.timers[i] = k.timers[--k.ntimers];
        t->entry.armed = false;
        t->fired = true;
        fk_st.timers_fired++;
        if (t->fire) {
            unsigned long saved = host_csr.xstatus;
            host_csr.xstatus &= ~(unsigned long)XSTATUS_XIE;
            k.in_isr = true;
            t->fire(t);
            k.in_isr = false;
            host_csr.xstatus = saved;
        }
        waker_wake(&t->waker);
        i = 0;                            /* the callback may have re-armed */
    }
}

/* The scheduler (fake_tasks.c), nothing ready: advance fake time to the
 * next event (UART or timer) and expire the timers due; a timer that
 * expired wakes its task wake_ns later. */
void fk_step(void)
{
    uint64_t t = fu_next_event(), d = next_deadline();
    if (d < t)
        t = d;
    if (t == UINT64_MAX)
        fu_fatal("task blocked with no UART event or timer pending: it "
                 "would sleep forever");
    fu_advance_to(t);
    uint64_t fired = fk_st.timers_fired;
    fire_timers(false);
    if (k.wake_ns && fk_st.timers_fired != fired)
        fu_advance_to(fu_now() + k.wake_ns);
}

/* ---- timers ----------------------------------------------------------------- */

int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w)
{
    if (!t)
        return -EINVAL;
    timer_cancel(t);
    if (k.ntimers == FK_MAX_TIMERS)
        fu_fatal("too many armed timers");
    t->waker = w;
    t->fired = false;
    t->entry.deadline = deadline_ns;
    t->entry.armed = true;
    k.timers[k.ntimers++] = t;
    return 0;
}

/* Any context (waitq.c, the driver): disarm t. */
bool timer_cancel(struct timer *t)
{
    for (unsigned i = 0; i < k.ntimers; i++)
        if (k.timers[i] == t) {
            k.timers[i] = k.timers[--k.ntimers];
            t->entry.armed = false;
            return true;
        }
    return false;
}

/* sched_block_until, sleep_until, sleep_for: the real src/kernel/waitq.c. */

/* The running task: sleep to t, other tasks and interrupts running. */
void fk_idle_until(uint64_t t)
{
    fk_deliver();
    sleep_until(t);
    fk_deliver();
}
