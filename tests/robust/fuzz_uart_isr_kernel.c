/* libFuzzer target fuzz_uart_isr: the input decoder and the fake kernel
 * (time, interrupt registration and delivery, blocking) the driver runs
 * on (fuzz_uart_isr.h). */
#include <errno.h>

#include "clock.h"
#include "csr.h"
#include "fuzz_uart_isr.h"
#include "scheduler.h"
#include "timer.h"

/* ---- input ------------------------------------------------------------ */

const uint8_t *in_p;
size_t in_n;

/* Anywhere in the target: whether input is left; the next byte (or dflt,
 * or 0, once it has run out). */
bool more(void) { return in_n != 0; }

uint8_t take8_or(uint8_t dflt)
{
    if (!in_n)
        return dflt;
    in_n--;
    return *in_p++;
}

uint8_t take8(void) { return take8_or(0); }

/* ---- the fake kernel: time, interrupt registration, blocking ------------ */

struct host_csr host_csr;
static struct task main_task = { .name = "fuzz", .state = TASK_QUEUED };
irq_handler_t handler;
static void *handler_arg;
bool woken, in_isr;
bool no_irq_at_restore;   /* a counter snapshot is compared right after */
uint64_t now_ns;
unsigned blocks_this_op;

/* The driver, any context: fake time. */
uint64_t clock_now_ns(void) { return now_ns; }

/* uart_be_init, boot task: the handler must be the UART's. */
int irq_register(uint32_t irq, irq_handler_t fn, void *arg)
{
    if (irq != IRQ || !fn)
        FAIL("irq_register(%u, %p)", irq, (void *)(uintptr_t)fn);
    handler = fn;
    handler_arg = arg;
    return 0;
}

/* The driver's wait queues, task: the one task. */
struct task *sched_current(void) { return &main_task; }

/* A wait queue's wake or a timer, any context. */
void waker_wake(const struct waker *w)
{
    if (w && w->task == &main_task)
        woken = true;
}

/* Task code unmasked interrupts: one may be pending (input decides). */
void host_irq_enabled(void)
{
    if (!in_isr && !no_irq_at_restore && more() && (take8() & 0x80))
        run_isr();
}

/* A contended spinlock's wait (spinlock.h): one thread, never contended. */
void host_spin_hint(void)
{
    FAIL("host_spin_hint: a spinlock was contended with one thread");
}

/* Block (waitq.c: a wait with a deadline, a sleep): a few interrupts
 * (input decides), then the wake or the deadline, when the time moves to
 * it and the deadline's timer fires. Interrupts are taken although the
 * caller masked them: blocking switches away with them enabled. A block
 * without a deadline (waitq_wait without one): no operation here may
 * block so. */
void sched_block(void)
{
    struct timer *t = deadline_timer;

    if (!t)
        FAIL("sched_block: a non-blocking call blocked");
    if (++blocks_this_op > MAX_BLOCKS_PER_OP)
        FAIL("blocked %u times in one call: a hang", MAX_BLOCKS_PER_OP);
    woken = false;
    for (unsigned n = take8_or(1) % 4; n && !woken; n--)
        run_isr();
    if (woken)
        return;
    deadline_timer = 0;
    if (t->entry.deadline > now_ns)
        now_ns = t->entry.deadline;
    t->fired = true;
}

/* The one timer the backend arms (the RX resume timer): it fires at an
 * interrupt the input chooses, before the UART's handler runs. The
 * task's deadline (waitq.c's sched_block_until: a timer that wakes the
 * task) ends its block. */
struct timer *armed_timer, *deadline_timer;

/* The RX path (rx_defer), interrupts masked; a task's deadline. */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w)
{
    if (!t)
        return -EINVAL;
    t->waker = w;
    t->fired = false;
    t->entry.deadline = deadline_ns;
    if (!w.task)
        armed_timer = t;
    else if (deadline_timer && deadline_timer != t)
        FAIL("a second deadline armed beside one");
    else
        deadline_timer = t;
    return 0;
}

/* Any context. */
bool timer_cancel(struct timer *t)
{
    struct timer **slot = t == deadline_timer ? &deadline_timer : &armed_timer;
    bool was = t && *slot == t;
    if (was)
        *slot = 0;
    return was;
}

/* The interrupt: the handler with interrupts masked, as on the hart. */
void run_isr(void)
{
    if (!handler)
        return;
    unsigned long saved = host_csr.xstatus;
    host_csr.xstatus &= ~(unsigned long)XSTATUS_XIE;
    if (armed_timer && (take8() & 1)) {
        struct timer *t = armed_timer;
        armed_timer = 0;
        t->fired = true;
        in_isr = true;
        if (t->fire)
            t->fire(t);
        in_isr = false;
    }
    bool flushing = f.flushing;      /* an interrupt at the flush's irq_restore */
    f.flushing = false;
    in_isr = true;
    f.isr_iir_reads = 0;
    f.isr_accesses = 0;
    f.isr_first_iir = true;
    f.round_accesses = f.round_rx_data = 0;
    handler(handler_arg);
    check_round();
    /* Per round: IIR, then at most RX (4 x depth LSR+RBR pairs, a last LSR,
     * a dummy RBR), TX (room read, depth stores, IER) or one more read. */
    uint64_t bound = isr_max_rounds * (8ULL * f.depth + 4);
    if (f.isr_accesses > bound)
        FAIL("handler made %llu register accesses (bound %llu)",
             (unsigned long long)f.isr_accesses, (unsigned long long)bound);
    in_isr = false;
    f.flushing = flushing;
    host_csr.xstatus = saved;
}

