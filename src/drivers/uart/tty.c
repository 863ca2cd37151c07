/* The tty core, the UART driver's upper half: the port, bring-up, the
 * write and tcdrain entry points, the polled path, and the interrupt's
 * dispatch. The RX path is tty_rx.c's, the counters tty_ctr.c's; what
 * differs between designs is the engine's (uart_port.h). */
#include <errno.h>
#include "clock.h"
#include "console.h"
#include "cpu_acct.h"
#include "csr.h"
#include "plic.h"
#include "tty_priv.h"
#include "waitq.h"

#define DRAIN_MARGIN_NS 10000000ULL   /* tcdrain's bound beyond the line time */
#define DRAIN_TEMT_TRIES 4            /* character times waited for TEMT (temt_at each) */

struct uart_port uart_port;
static const struct console_sink tty_console;

/* Boot, interrupts masked, before any output: the IP up, and the port
 * the kernel's console. */
int uart_be_hw_init(const struct uart_cfg *c)
{
    if (!uart_bus_ok(c))
        return -EINVAL;               /* (a config that is not the board's bus) */
    uart_port.hw.cfg = c;
    uart_lower.timing(c, &uart_port.timing);
    int rc = uart_lower.init(&uart_port.hw);
    if (rc == 0)
        console_register(&tty_console, uart_port.timing.char_ns, uart_port.hw.fifo_depth);
    return rc;
}

/* port_lock_masked, interrupts masked, the driver shared: take p's lock. */
__attribute__((noinline)) void port_spin_lock(struct uart_port *p)
{
    spin_lock(&p->lock);
}

/* port_unlock_masked, interrupts masked, the lock held: release it. */
__attribute__((noinline)) void port_spin_unlock(struct uart_port *p)
{
    spin_unlock(&p->lock);
}

/* claim_loop, tx_in_rx, interrupts masked: TX cause c (TX or TX_ROOM)
 * to the engine's op for it. */
static inline void tx_cause(struct uart_port *p, enum uart_cause c)
{
    if (c == UART_CAUSE_TX)
        uart_engine.tx_irq(p);
    else
        uart_engine.tx_room_irq(p);
}

/* claim_loop, interrupts masked, a TX cause after the claim's RX part
 * began: the engine's refill on the ISR account (out of line: the claim's
 * common path keeps no account's address in a register). */
static __attribute__((noinline)) void tx_in_rx(struct uart_port *p, enum uart_cause c)
{
    struct cpu_acct *a = cpu_acct_switch(&cpu_acct_isr);
    tx_cause(p, c);
    cpu_acct_switch(a);
}

/* tty_claim, interrupts masked: the one claim loop, from cause c in
 * round `round` on. Serve the causes in the lower half's order, up to
 * ISR_MAX_ROUNDS: TX to the engine (on the ISR account once the RX part
 * began), RX to the RX path (which ends the claim when its budget is
 * spent), until none is left. An entry with nothing pending, TX_ROOM by
 * the lower half's word, is counted as spurious and handed to the engine
 * as what it may be. */
static __attribute__((noinline)) void claim_loop(struct uart_port *p, enum uart_cause c,
                                                 int round)
{
    bool rx = false;                  /* the claim's RX part is open */
    for (;;) {
        if (c == UART_CAUSE_TX || c == UART_CAUSE_TX_ROOM) {
            if (c == UART_CAUSE_TX_ROOM)
                p->ctr.spurious_irqs++;
            if (rx)
                tx_in_rx(p, c);
            else
                tx_cause(p, c);
        } else if (c == UART_CAUSE_RX) {
            bool first = !rx;
            rx = true;
            if (!tty_rx_cause(p, round, first))
                break;
        } else if (c == UART_CAUSE_NONE) {
            break;
        }
        if (++round == ISR_MAX_ROUNDS)
            break;
        c = uart_lower.cause(&p->hw, false);
    }
    if (rx)
        tty_rx_claim_end(p);
}

/* tty_isr, interrupts masked, the port lock held: the claim. Its common
 * case, a TX cause (a FIFO refill), is served here and ends the claim
 * without asking again: a cause that came meanwhile keeps the UART's
 * line up, and the PLIC's next claim (plic_isr) brings the interrupt
 * back. Anything else goes to the claim loop. */
static __attribute__((noinline)) void tty_claim(struct uart_port *p)
{
    enum uart_cause c = uart_lower.cause(&p->hw, true);
    if (c == UART_CAUSE_TX)
        uart_engine.tx_irq(p);
    else if (c != UART_CAUSE_NONE)
        claim_loop(p, c, 0);
}

/* UART interrupt (PLIC, hart 0 only: its source is enabled in hart 0's
 * context), interrupts masked: the claim under the port lock. */
static void tty_isr(void *arg)
{
    struct uart_port *p = arg;
    if (!harts_many()) {
        tty_claim(p);                 /* (a tail call: one hart, no lock) */
        return;
    }
    port_spin_lock(p);
    tty_claim(p);
    port_spin_unlock(p);
}

/* Boot task, interrupts enabled, after uart_be_hw_init. */
int uart_be_init(uint32_t irq)
{
    struct uart_port *p = &uart_port;

    p->ctr = (struct uart_counters){ 0 };
    p->tx_wanted = 0;
    uart_engine.init(p);
    tty_rx_init(p);
    p->up = true;
    return (uart_engine.flags & ENGINE_RX_POLLED) ? 0 : irq_register(irq, tty_isr, p);
}

/* waitq_wait's condition (task, interrupts masked): no writer holds the
 * turn. */
static bool turn_free(void *arg)
{
    return !__atomic_load_n(&((struct uart_port *)arg)->writing, __ATOMIC_RELAXED);
}

/* uart_be_turn_take, task, another writer holds the turn: wait for it
 * (out of line: the common write finds the turn free); whether it was
 * taken (false: non-blocking, or the wait failed). */
static __attribute__((noinline)) bool turn_wait(struct uart_port *p, bool nonblock)
{
    if (nonblock)
        return false;
    do
        if (waitq_wait(&p->writer_turn, turn_free, p, 0) != 0)
            return false;
    while (__atomic_exchange_n(&p->writing, 1U, __ATOMIC_ACQUIRE));
    return true;
}

/* Task, any hart: the writer turn, one writer at a time, so that a
 * write's bytes go out together and what its caller keeps between them
 * (ONLCR's state, a stdio line) is the holder's alone (as Linux's tty
 * layer serialises writers with atomic_write_lock): a second writer
 * waits, or gets -EAGAIN when non-blocking. Taken by one atomic swap
 * (writers on other harts); 0 or -EAGAIN. */
int uart_be_turn_take(bool nonblock)
{
    struct uart_port *p = &uart_port;
    if (__atomic_exchange_n(&p->writing, 1U, __ATOMIC_ACQUIRE) && !turn_wait(p, nonblock))
        return -EAGAIN;
    return 0;
}

/* Task, the turn's holder: give it back (a release store), wake a waiter. */
void uart_be_turn_give(void)
{
    __atomic_store_n(&uart_port.writing, 0U, __ATOMIC_RELEASE);
    waitq_wake_all(&uart_port.writer_turn);
}

/* Task, the turn's holder: push into the TX ring, count the write. */
ssize_t uart_be_write_held(const void *buf, size_t n, bool nonblock)
{
    struct uart_port *p = &uart_port;
    port_ctr_add(&p->ctr.user_calls, 1);
    port_ctr_add(&p->ctr.user_req, n);
    size_t done = uart_engine.write(p, buf, n, nonblock);
    return done || n == 0 ? (ssize_t)done : -EAGAIN;
}

/* uart_be_drain's wait: the port, the caller's target, and the engine's
 * view and tx_in when the drainer looked. */
struct drain_wait {
    struct uart_port *p;
    uint64_t target, in;
    struct drain_view v;
};

/* drain_reach's conditions (waitq_wait, task, interrupts masked,
 * unlocked). A design with events (a hint: the drainer decides under the
 * lock): its view changed since the drainer looked (an event came, a
 * refill, a write). */
static bool drain_moved(void *arg)
{
    const struct drain_wait *w = arg;
    struct drain_view v;
    uart_engine.drain_view(w->p, &v);
    return v.busy != w->v.busy || v.out != w->v.out || port_tx_in(w->p) != w->in;
}

/* Without events: the engine holds nothing and the transmitter is
 * empty, which the drainer then takes. */
static bool drain_idle_now(void *arg)
{
    struct uart_port *p = arg;
    struct drain_view v;
    uart_engine.drain_view(p, &v);
    return !v.busy && v.out == port_tx_in(p) && uart_lower.tx_empty(&p->hw);
}

/* uart_be_drain, the port lock held: later writers' bytes, `behind` of
 * them, have gone into the FIFO after the caller's: are the caller's
 * gone? Yes once they are at least the transmitter's bytes (FIFO and
 * shifter), for then all of those came after. The lower half's level is
 * exact on a DW, "full" on a 16550 once its FIFO holds anything: read as
 * depth + 1. */
static bool sent_past(struct uart_port *p, uint64_t behind)
{
    unsigned level = uart_lower.tx_level(&p->hw);
    return behind >= (level >= p->hw.fifo_depth ? p->hw.fifo_depth + 1U : level);
}

/* drain_reach, the port lock held, a design with events: one look.
 * DRAIN_DONE: the caller's bytes are gone (later writers' bytes behind
 * them, as many as the transmitter holds: sent_past), or, the engine
 * holding nothing, the transmitter says so; DRAIN_FIFO_EMPTY at *at: the
 * engine holds nothing and the FIFO emptied; DRAIN_WAIT: not yet (w
 * holds what was seen; the engine was asked for its event). */
static int drain_look(struct drain_wait *w, uint64_t *at)
{
    struct uart_port *p = w->p;
    uart_engine.drain_view(p, &w->v);
    w->in = port_tx_in(p);                /* (a writer on another hart may push) */
    if (w->in > w->target && w->v.out >= w->target && sent_past(p, w->v.out - w->target))
        return DRAIN_DONE;
    if (w->v.busy || w->v.out != w->in) {
        if (w->in > w->target && uart_engine.drain_refill)
            uart_engine.drain_refill(p);      /* count the bytes going in behind */
        return DRAIN_WAIT;
    }
    int rc = uart_engine.drain_idle ? uart_engine.drain_idle(p, at) : DRAIN_LOOK;
    if (rc == DRAIN_LOOK)
        rc = uart_lower.tx_empty(&p->hw) ? port_drain_idle(at) : DRAIN_WAIT;
    if (rc == DRAIN_WAIT)
        uart_engine.drain_view(p, &w->v);   /* (as the armed event left it) */
    return rc;
}

/* uart_be_drain, task: until the caller's bytes (those before tx_in at
 * the call) have reached the FIFO and, with nothing behind them, the
 * FIFO emptied. The core waits the design's way (ENGINE_DRAIN_*): on the
 * drain queue for the engine's events, looking each time (a write wakes
 * the drainers, so one waiting for the FIFO to empty learns that bytes
 * behind its own keep it busy); spinning on the transmitter; or
 * re-checking every character time until the engine holds nothing and
 * the transmitter is empty. A stalled line times out at the deadline (0:
 * none), never taken as sent. DRAIN_DONE or DRAIN_FIFO_EMPTY at *at (as
 * port_drain_idle), or -ETIMEDOUT. */
static int drain_reach(struct uart_port *p, uint64_t deadline, uint64_t *at)
{
    if (uart_engine.flags & ENGINE_DRAIN_SPIN) {
        uint64_t lim = deadline ? deadline : UINT64_MAX;
        while (!uart_lower.tx_empty(&p->hw))
            if (clock_now_ns() > lim)
                return -ETIMEDOUT;
        return port_drain_idle(at);
    }
    if (!(uart_engine.flags & ENGINE_DRAIN_EVENTS)) {
        for (;;) {
            uint64_t next = clock_now_ns() + p->timing.char_ns;
            int rc = deadline && deadline < next
                         ? waitq_wait(&p->drain, drain_idle_now, p, deadline)
                         : waitq_wait_step(&p->drain, drain_idle_now, p, next, p->timing.char_ns);
            if (rc == 0)
                return port_drain_idle(at);
            if (deadline && clock_now_ns() >= deadline)
                return -ETIMEDOUT;
            port_ctr_add(&p->ctr.drain_timer_waits, 1);
        }
    }
    struct drain_wait w = { .p = p, .target = port_tx_in(p) };
    for (;;) {
        unsigned long f = port_lock(p);
        int rc = drain_look(&w, at);
        port_unlock(p, f);
        if (rc != DRAIN_WAIT)
            return rc;
        if (waitq_wait(&p->drain, drain_moved, &w, deadline) == -ETIMEDOUT)
            return -ETIMEDOUT;
    }
}

/* uart_be_drain, task: whether the transmitter is empty at `due` (the
 * last stop bit due then): one look as the stop bit ends, not a wake-up
 * after it (the sleep wakes the boot's measured lead early); if that
 * look found the shifter busy (it may have come before `due`), another
 * at `due` or at once. */
static bool temt_at(struct uart_port *p, uint64_t due)
{
    sleep_until_early(due);
    if (uart_lower.tx_empty(&p->hw))
        return true;
    sleep_until(due);
    return uart_lower.tx_empty(&p->hw);
}

/* Task, any hart: tcdrain: every byte written before the call has left
 * the wire. Once the engine holds none of them and the FIFO emptied (a
 * 16550 has no "shifter empty" interrupt), sleep until the last stop bit
 * is due and confirm TEMT (where the IP has it), a few character times
 * at most; if other writers' bytes follow after the FIFO emptied (a
 * writer on another hart), TEMT may not come soon, but the caller's last
 * byte left the shifter one character after the FIFO emptied. Bounded
 * by the queued bytes' line time twice over plus a margin (unless the
 * design has no bound: ENGINE_DRAIN_NO_BOUND). */
int uart_be_drain(void)
{
    struct uart_port *p = &uart_port;
    uint64_t char_ns = p->timing.char_ns, empty_ns;
    uint64_t deadline = (uart_engine.flags & ENGINE_DRAIN_NO_BOUND)
                            ? 0
                            : clock_now_ns() + DRAIN_MARGIN_NS +
                                  2 * char_ns * (uart_engine.queued(p) + p->hw.fifo_depth + 1U);

    port_ctr_add(&p->ctr.drain_calls, 1);   /* drainers on any hart */
    int rc = drain_reach(p, deadline, &empty_ns);
    uint64_t in0 = port_tx_in(p);
    if (rc == DRAIN_FIFO_EMPTY && !(uart_lower.caps & UART_CAP_TEMT)) {
        sleep_until(empty_ns + char_ns);   /* nothing to confirm it with */
        return 0;
    }
    bool temt = rc == DRAIN_FIFO_EMPTY && uart_lower.tx_empty(&p->hw);
    for (int t = 0; rc == DRAIN_FIFO_EMPTY; t++) {
        if (temt || (t > 0 && port_tx_in(p) != in0))
            return 0;                         /* (later bytes: ours left at empty_ns + char) */
        if (t == DRAIN_TEMT_TRIES)
            rc = -ETIMEDOUT;
        else {
            port_ctr_add(&p->ctr.drain_timer_waits, 1);
            uint64_t due = empty_ns + (uint64_t)(t + 1) * char_ns, now = clock_now_ns();
            temt = temt_at(p, due > now ? due : now + char_ns);
        }
    }
    if (rc < 0)
        port_ctr_add(&p->ctr.drain_timeouts, 1);
    return rc < 0 ? rc : 0;
}

/* Task (the console sink's tx_pending too, from the bring-up on):
 * queued bytes plus those still in the hardware; before uart_be_init the
 * engine holds none. */
size_t uart_be_tx_pending(void)
{
    struct uart_port *p = &uart_port;
    return (p->up ? uart_engine.queued(p) : 0) + uart_lower.tx_level(&p->hw);
}

/* The console sink (any context, panic included): one byte, polled. */
static void tty_putc_polled(char ch)
{
    uart_lower.putc_polled(&uart_port.hw, ch);
}

/* Any context: push everything still queued out through the polled path. */
void uart_be_flush_polled(void)
{
    if (!uart_port.up)
        return;
    unsigned long f = irq_save();   /* no port lock: a panic may come while it is held */
    uart_engine.flush_polled(&uart_port);
    irq_restore(f);
}

/* The console sink (any context: exit, panic, polled): the last stop
 * bit is out. An IP that sees its shifter says so (UART_CAP_TEMT); for
 * one that sees only its FIFO, the core's rule: a character time after
 * the FIFO was first seen empty. */
static bool tty_tx_idle(void)
{
    struct uart_port *p = &uart_port;
    if (uart_lower.caps & UART_CAP_TEMT)
        return uart_lower.tx_empty(&p->hw);
    uint64_t now = clock_now_ns();
    if (!uart_lower.tx_empty(&p->hw)) {
        p->idle_since = 0;
        return false;
    }
    if (!p->idle_since)
        p->idle_since = now;
    return now >= p->idle_since + p->timing.char_ns;
}

static const struct console_sink tty_console = {
    .putc_polled = tty_putc_polled,
    .flush_polled = uart_be_flush_polled,
    .tx_pending = uart_be_tx_pending,
    .tx_idle = tty_tx_idle,
};

/* Any task. */
void uart_be_info(struct uart_info *out)
{
    *out = (struct uart_info){ uart_lower.name, uart_engine.name, uart_port.hw.fifo_depth,
                               uart_port.hw.fifo_source, uart_port.timing.char_ns, uart_port.hw.cfg,
                               uart_port.timing.divisor, uart_port.timing.baud_milli };
}
