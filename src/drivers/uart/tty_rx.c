/* The tty core's RX path. The UART interrupt moves received bytes into
 * the RX ring under a budget, as Linux's NAPI does, counted over a window
 * of one FIFO's fill time (it starts at the first RX claim after the last
 * window ended): at most two FIFOs' worth of bytes, and at most a quarter
 * of the window's time spent in RX claims, so that one byte per interrupt
 * adds up as well as a full FIFO, and a slow register access (QEMU in
 * real time) as well as a fast one. A claim that spends the budget masks
 * the RX interrupt and arms a timer that unmasks it at the window's end,
 * or later, when the claims took more than a quarter of the time since
 * the window began; the UART interrupts again at once if data waits. A
 * claim that ends with a timer interrupt pending masks RX until the timer
 * interrupt has run (the hart ranks the external interrupt above the
 * timer: a stream of RX interrupts would hold timers back). Input faster
 * than twice the line rate (QEMU's chardev delivers at no line rate) thus
 * leaves most of the CPU, and the TX cause the 16550 ranks below RX, to
 * the rest of the system (no receive livelock). A real line at its own
 * rate spends neither budget, and cannot overrun the FIFO while RX is
 * masked. The interrupt is the only reader of the FIFO, so the bytes keep
 * their order; drops (ring full) and line errors are counted.
 * The path's time is the RX CPU account's: a claim that starts with an RX
 * cause whole (cpu_acct_retag), less its TX refills; RX causes in a TX
 * claim, and the timer's callback, switched to it.
 * An engine that polls RX (ENGINE_RX_POLLED) has no RX interrupt: a read
 * takes what the FIFO holds. */
#include <errno.h>
#include "clock.h"
#include "cpu_acct.h"
#include "timer.h"
#include "tty_priv.h"

#ifndef UART_RX_RING_SIZE
#define UART_RX_RING_SIZE (16U * 1024U)
#endif
#define RX_BUDGET_FIFOS 2U      /* bytes per window, in FIFOs */
#define RX_SHARE_DIV    4U      /* at most 1/4 of a window's time in RX claims */
#define RX_CHUNK        64U     /* bytes taken from the FIFO per call */

static uint8_t rx_store[UART_PORTS][UART_RX_RING_SIZE];   /* each port's RX ring */

/* Timer interrupt on hart 0 (the port's rxb.resume, armed by the UART
 * interrupt): unmask the port's RX under its lock; its time is RX work. */
static void rx_resume(struct timer *t)
{
    struct uart_port *p =
        (struct uart_port *)(void *)((char *)t - offsetof(struct uart_port, rxb.resume));
    struct cpu_acct *prev = cpu_acct_switch(&cpu_acct_rx);
    bool took = port_lock_masked(p);
    uart_lower.irq_update(&p->hw, UART_IRQ_RX, 0);
    port_unlock_masked(p, took);
    cpu_acct_switch(prev);
}

/* Boot task, from uart_be_init. */
void tty_rx_init(struct uart_port *p)
{
    ring_init(&p->rx, rx_store[p->index], sizeof rx_store[p->index]);
    p->rxb = (struct rx_budget){ .resume = { .fire = rx_resume } };
    if (uart_engine.flags & ENGINE_RX_POLLED)
        return;
    unsigned long f = port_lock(p);
    uart_lower.irq_update(&p->hw, UART_IRQ_RX, 0);
    port_unlock(p, f);
}

/* tty_rx_cause, interrupts masked, the claim's RX part opening (now): a
 * new budget window when the last one has ended. */
static void window_open(struct uart_port *p, uint64_t now)
{
    if (now < p->rxb.end)
        return;
    p->rxb.start = now;
    p->rxb.end = now + p->timing.char_ns * p->hw.fifo_depth;
    p->rxb.busy = 0;
    p->rxb.left = RX_BUDGET_FIFOS * p->hw.fifo_depth;
}

/* tty_rx_claim_end, interrupts masked: mask RX until `resume`. */
static void rx_defer(struct uart_port *p, uint64_t resume)
{
    p->ctr.rx_deferred++;
    uart_lower.irq_update(&p->hw, 0, UART_IRQ_RX);
    timer_arm(&p->rxb.resume, resume, (struct waker){ 0 });
}

/* Interrupts masked: up to max bytes from the FIFO into the ring, those
 * the ring has no room for counted as dropped; returns the bytes taken,
 * *more whether the FIFO holds more. */
static unsigned rx_move(struct uart_port *p, unsigned max, bool *more)
{
    uint8_t buf[RX_CHUNK];
    unsigned total = 0, n;

    do {
        n = uart_lower.rx_take(&p->hw, buf, max - total < RX_CHUNK ? max - total : RX_CHUNK, more);
        uint32_t kept = ring_push(&p->rx, buf, n);
        p->ctr.rx_bytes += kept;
        p->ctr.rx_dropped += n - kept;
        total += n;
    } while (*more && n && total < max);
    return total;
}

/* UART interrupt, interrupts masked, an RX cause: move received bytes
 * into the ring while the budget lasts; false when it ran out with data
 * still waiting. */
static bool rx_serve(struct uart_port *p)
{
    bool more;

    p->ctr.rx_irqs++;
    p->rxb.left -= rx_move(p, p->rxb.left, &more);
    waitq_wake_all(&p->rx_data);
    return !more;
}

/* tty_claim (tty.c), interrupts masked: an RX cause in round `round`.
 * The first opens the claim's RX part: a claim that begins with RX is the
 * RX account's from its first instruction (no switch has happened in it
 * yet); one that began with TX switches here, and its TX refills after
 * this are charged back to the ISR account (tty_claim). A design that
 * takes RX itself gets each RX cause, on the RX account, with no budget
 * (its own RX task reads the FIFO). */
bool tty_rx_cause(struct uart_port *p, int round, bool first)
{
    if (first) {
        p->rxb.spent = false;
        p->rxb.prev = NULL;
        if (round == 0)
            cpu_acct_retag(&cpu_acct_rx);
        else
            p->rxb.prev = cpu_acct_switch(&cpu_acct_rx);
        if (!uart_engine.rx_irq) {
            p->rxb.t0 = clock_now_ns();
            window_open(p, p->rxb.t0);
        }
    }
    if (uart_engine.rx_irq) {
        uart_engine.rx_irq(p);
        return true;
    }
    p->rxb.spent = !rx_serve(p);     /* (a spent claim ends: no call after) */
    return !p->rxb.spent;
}

/* tty_claim, interrupts masked, the claim's end: the window's end, or
 * RX's share of the time, masks RX until then; a timer interrupt pending
 * masks it until the timer ISR has run (it unmasks). */
void tty_rx_claim_end(struct uart_port *p)
{
    if (!uart_engine.rx_irq) {
        uint64_t now = clock_now_ns();
        uint64_t fair = p->rxb.start + RX_SHARE_DIV * (p->rxb.busy += now - p->rxb.t0);
        if (p->rxb.spent || fair >= p->rxb.end)
            rx_defer(p, fair > p->rxb.end ? fair : p->rxb.end);
        else if (timer_irq_pending())
            rx_defer(p, now);
    }
    if (p->rxb.prev)
        cpu_acct_switch(p->rxb.prev);
}

/* Task, any hart, ENGINE_RX_POLLED, the port lock held: what the FIFO
 * holds now, into the ring. */
static void rx_poll(struct uart_port *p)
{
    bool more;
    rx_move(p, ring_free(&p->rx), &more);
}

/* Task, any hart: rx_poll (a polled engine), then up to n bytes from the
 * ring, under the port lock (readers on several harts share the ring). */
static uint32_t rx_take_locked(struct uart_port *p, void *buf, size_t n)
{
    unsigned long f = port_lock(p);
    if (uart_engine.flags & ENGINE_RX_POLLED)
        rx_poll(p);
    uint32_t k = ring_pop(&p->rx, buf, n < UINT32_MAX ? (uint32_t)n : UINT32_MAX);
    port_unlock(p, f);
    return k;
}

static bool rx_has_data(void *arg) { return ring_used(&((struct uart_port *)arg)->rx) != 0; }

/* uart_be_read, uart_be_read_until (task, any hart): up to n bytes;
 * none: -EAGAIN when nonblock, 0 once a timed read's deadline passed,
 * else wait for the first. A polled engine spins on the FIFO for it (it
 * has no interrupt to wait for). */
static ssize_t rx_read(void *buf, size_t n, bool nonblock, bool timed, uint64_t deadline_ns)
{
    struct uart_port *p = &uart_port;
    for (;;) {
        uint32_t k = rx_take_locked(p, buf, n);
        if (k || n == 0)
            return k;
        if (nonblock)
            return -EAGAIN;
        if (timed && clock_now_ns() >= deadline_ns)
            return 0;
        if (!(uart_engine.flags & ENGINE_RX_POLLED))
            waitq_wait(&p->rx_data, rx_has_data, p, timed ? deadline_ns : 0);
    }
}

/* Task, any hart (read). */
ssize_t uart_be_read(void *buf, size_t n, bool nonblock)
{
    return rx_read(buf, n, nonblock, false, 0);
}

/* Task, any hart (read with VMIN 0 and VTIME, read_timing.c). */
ssize_t uart_be_read_until(void *buf, size_t n, uint64_t deadline_ns)
{
    return rx_read(buf, n, false, true, deadline_ns);
}

/* Task, any hart. */
size_t uart_be_rx_available(void)
{
    if (uart_engine.flags & ENGINE_RX_POLLED) {
        unsigned long f = port_lock(&uart_port);
        rx_poll(&uart_port);
        port_unlock(&uart_port, f);
    }
    return ring_used(&uart_port.rx);
}

/* Task. */
int uart_be_set_loopback(bool on)
{
    if (!(uart_lower.caps & UART_CAP_LOOPBACK))
        return -ENOTTY;
    unsigned long f = port_lock(&uart_port);
    uart_lower.loopback(&uart_port.hw, on);
    port_unlock(&uart_port, f);
    return 0;
}
