/* TX engine "copier": StarryOS's async UART design re-created
 * (crates/uart_16550/src/async_/driver.rs and isr.rs, kernel/src/drivers/
 * d1_uart.rs, the tcdrain of kernel/src/syscall/fs/ctl.rs). A 64 KiB TX
 * ring; a write takes only the ring's contiguous free run (short near the
 * wrap: the caller loops). A TX copier task pops up to 1 KiB into a staging
 * buffer and sends it with send_bytes (a status read before each byte, as
 * the original's UartPort::send_bytes), retrying on zero progress: 32 fast
 * retries, then the THRE interrupt on and one more try; then a slow poll of
 * up to 4096 rounds of 256 spin hints and a send (COPIER_SLOW_POLL, the
 * default; OFF: straight to the THRE wait, the "IRQ-first" change
 * StarryOS's own improvement spec proposed); then up to 4 yields; then a
 * pure wait for the interrupt. After a chunk it polls TEMT up to 256 times.
 * The TX interrupt turns itself off and wakes the copier (and the drainers
 * on TEMT); an RX cause masks RX and wakes an RX copier task that reads in
 * NAPI style (engine_copier_rx.c). tcdrain waits, with no bound, until the
 * ring is empty, the copier idle, nothing staged and TEMT up. The
 * counters keep the original's meaning; the work is charged to one CPU
 * sub-account per phase
 * (copier_phase_names). Harts: copiers and interrupt on hart 0; writers and
 * drainers on any (wakes through hart 0's inbox; a drainer's re-check timer
 * is its own). One deviation, counted: a drainer re-checks every character
 * time (drain_timer_waits): on a 16550 nothing signals TEMT after the last
 * THRE, so the original's drainer would sleep for ever (its D1 port is
 * woken by the UART's IIR 0xC1 entries, which a 16550 does not make). */
#include <errno.h>
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "scheduler.h"
#include "uart_port.h"

#ifndef COPIER_SLOW_POLL
#define COPIER_SLOW_POLL 1
#endif
#define TX_RING_SIZE        (64U * 1024U)
#define COPIER_BUF_SIZE     1024U     /* staging buffer */
#define TX_FAST_RETRY_LIMIT 32U       /* zero-progress sends before the THRE wait */
#define TX_SLOW_POLL_LIMIT  4096U     /* slow-poll rounds ... */
#define TX_SLOW_POLL_SPINS  256U      /* ... of this many spin hints and a send */
#define TX_YIELD_RETRIES    4U        /* self-wake yields after the slow poll */
#define TX_TEMT_POLL_LIMIT  256U      /* TEMT reads after a chunk */
#define COPIER_STACK_WORDS  1024

enum phase { PH_USER, PH_RING, PH_SEND, PH_FAST, PH_SLOW, PH_TEMT, PH_PARK, PH_COUNT };

/* The phases' names (uart_be_phases), in enum phase's order, then the
 * copier task's own account. */
const char *const copier_phase_names[] = {   /* (COPIER_PHASES of them: engine_copier.h) */
    "user_write",     /* copier_write, in the writer's task */
    "ring_pop",       /* pop into the staging buffer, wakes */
    "send",           /* sends, to the first that moves none */
    "fast_retry",     /* the 32 retries, THRE on, the recheck */
    "slow_poll",      /* spin hints and their sends */
    "temt_poll",      /* TEMT reads after a chunk */
    "park",           /* idle path, yields, blocking */
    "copier_other",   /* the loop between phases (the TX copier task's account) */
};
_Static_assert(sizeof copier_phase_names / sizeof copier_phase_names[0] == PH_COUNT + 1,
               "a name per phase, and the task's");

const char uart_be_name[] = "copier";

/* A port's engine state (p->eng). pending, cursor and copier_active are
 * the TX copier's stores, loaded by any task (COPIER_GET). */
struct copier_port {
    struct task tx_task;
    struct waker tx_waker;
    struct cpu_acct ph_acct[PH_COUNT];
    uint32_t pending, cursor;         /* the staged chunk: stage[cursor..pending) unsent */
    bool copier_active;               /* in a poll cycle */
    bool thre_idle_armed;             /* THRE enabled once in this idle episode */
    uint8_t stage[COPIER_BUF_SIZE];
    uint64_t tx_stack[COPIER_STACK_WORDS];
    uint8_t store[TX_RING_SIZE];      /* the TX ring's */
};
static struct copier_port copier_ports[UART_PORTS];
#define COPIER_SET(var, v) __atomic_store_n(&(var), (v), __ATOMIC_RELAXED)
#define COPIER_GET(var) __atomic_load_n(&(var), __ATOMIC_RELAXED)

/* Any context: p's engine state. */
static inline struct copier_port *cp_of(const struct uart_port *p)
{
    return p->eng;
}

/* Any task: charge what follows to account a (a phase, or the RX account). */
static void enter(struct cpu_acct *a)
{
    if (cpu_acct_now.owner != a) {
        unsigned long f = irq_save();
        cpu_acct_switch_task(a);
        irq_restore(f);
    }
}

/* TX copier: core::hint::spin_loop(), n times (the RISC-V pause hint). */
static void spin(unsigned n)
{
    while (n--)
        cpu_spin_hint();
}

/* TX copier: UartPort::send_bytes: one byte per TX status read while the
 * UART takes one, counted as the original counts each call; the counts
 * and the cursor under the port lock with the stores, so a counter
 * snapshot or reset on another hart sees each byte sent or staged, once. */
static uint32_t send_bytes(struct uart_port *p)
{
    struct copier_port *c = cp_of(p);
    uint32_t n = 0, at = c->cursor, left = c->pending - at;   /* (the copier's own: no reload) */
    unsigned long f = port_lock(p);
    while (n < left && uart_lower.tx_ready(&p->hw)) {
        uart_lower.tx_load(&p->hw, c->stage + at + n, 1);
        n++;
    }
    port_ctr_add(&p->ctr.hw_send_calls, 1);
    port_ctr_add(n ? &p->ctr.hw_send_bytes : &p->ctr.hw_send_zero, n ? n : 1);
    if (n > COPIER_GET(p->ctr.hw_send_max_chunk))
        COPIER_SET(p->ctr.hw_send_max_chunk, n);
    COPIER_SET(c->cursor, c->cursor + n);
    port_unlock(p, f);
    return n;
}

/* TX copier: the THRE interrupt on (UartPort::update_ier), under the
 * port lock (IER's shadow is shared with the interrupt). */
static void thre_on(struct uart_port *p)
{
    unsigned long f = port_lock(p);
    uart_lower.irq_update(&p->hw, UART_IRQ_TX, 0);
    port_unlock(p, f);
}

/* TX copier: Poll::Pending; with `self_wake` the task wakes itself first
 * (the original's wake_by_ref: a yield), else a writer or the ISR does. */
static void pend(struct copier_port *c, bool self_wake)
{
    enter(&c->ph_acct[PH_PARK]);
    COPIER_SET(c->copier_active, false);
    if (self_wake)
        sched_yield();
    else
        sched_block();
}

/* TX copier, the chunk stuck after the fast retries: the slow poll, then
 * the yields. True when it made progress (back to the fast retries). */
static bool slow_paths(struct uart_port *p, unsigned *yields)
{
    struct copier_port *c = cp_of(p);
#if COPIER_SLOW_POLL
    enter(&c->ph_acct[PH_SLOW]);
    for (unsigned polls = 0; polls < TX_SLOW_POLL_LIMIT; polls++) {
        spin(TX_SLOW_POLL_SPINS);
        if (send_bytes(p)) {
            *yields = 0;
            return true;
        }
    }
    port_ctr_add(&p->ctr.slow_poll_exh, 1);
    if (++*yields <= TX_YIELD_RETRIES) {
        pend(c, true);
        return false;
    }
    port_ctr_add(&p->ctr.yield_exh, 1);
#else
    (void)yields;
#endif
    pend(c, false);
    return false;
}

/* TX copier: send the staged chunk, as the original's inner loop: after
 * the fast retries, THRE on and the recheck, the chunk goes to the slow
 * paths whether the recheck moved bytes or not; their progress restarts
 * the loop with a send (of nothing, a zero send as the original counts
 * it, when that progress ended the chunk). False when it ended in a
 * Pending (the chunk resumes on the next poll). */
static bool send_chunk(struct uart_port *p, unsigned *yields)
{
    struct copier_port *c = cp_of(p);
    unsigned retries = 0;
    enter(&c->ph_acct[PH_SEND]);
    for (;;) {
        uint32_t sent = send_bytes(p);
        if (c->cursor >= c->pending)
            return true;
        if (sent) {
            retries = 0;
            enter(&c->ph_acct[PH_SEND]);
            continue;
        }
        enter(&c->ph_acct[PH_FAST]);
        if (++retries <= TX_FAST_RETRY_LIMIT)
            continue;
        port_ctr_add(&p->ctr.no_progress_budget, 1);
        thre_on(p);                          /* TX_WAKER registered, THRE, recheck */
        send_bytes(p);
        if (c->cursor >= c->pending)
            return true;
        if (!slow_paths(p, yields))
            return false;
        retries = 0;
        enter(&c->ph_acct[PH_SEND]);
    }
}

/* TX copier: the ring is empty: THRE on once per idle episode, the ring
 * checked again (a push since the pop), the drainers woken on TEMT; park. */
static void park(struct uart_port *p)
{
    struct copier_port *c = cp_of(p);
    enter(&c->ph_acct[PH_PARK]);
    if (!c->thre_idle_armed) {
        thre_on(p);
        c->thre_idle_armed = true;
    }
    if (ring_used(&p->tx)) {
        c->thre_idle_armed = false;
        pend(c, true);
        return;
    }
    if (uart_lower.tx_empty(&p->hw))
        waitq_wake_all(&p->drain);
    pend(c, false);
}

/* TX copier: after a chunk: TEMT polls, then the drainers on TEMT, else
 * THRE on; the loop goes on at once (Poll::Ready). */
static void chunk_done(struct uart_port *p)
{
    enter(&cp_of(p)->ph_acct[PH_TEMT]);
    for (unsigned t = 0; t < TX_TEMT_POLL_LIMIT && !uart_lower.tx_empty(&p->hw); t++)
        spin(1);
    if (uart_lower.tx_empty(&p->hw))
        waitq_wake_all(&p->drain);
    else
        thre_on(p);
}

/* The TX copier task ("uart-tx-copier"). */
static void tx_copier(void *arg)
{
    struct uart_port *p = arg;
    struct copier_port *c = cp_of(p);
    unsigned yields = 0;

    for (;;) {
        COPIER_SET(c->copier_active, true);
        if (c->cursor >= c->pending) {
            enter(&c->ph_acct[PH_RING]);
            /* under the port lock: a counter reset (queued_at_reset) sees
             * the popped bytes either in the ring or staged */
            unsigned long f = port_lock(p);
            COPIER_SET(c->cursor, 0U);       /* first: a look between sees bytes staged */
            COPIER_SET(c->pending, ring_pop(&p->tx, c->stage, sizeof c->stage));
            port_unlock(p, f);
            if (!c->pending) {
                park(p);
                continue;
            }
            port_ctr_add(&p->ctr.ring_pop_calls, 1);
            port_ctr_add(&p->ctr.ring_pop_bytes, c->pending);
            c->thre_idle_armed = false;
            waitq_wake_all(&p->tx_space);    /* the ring's waker: writers, drainers */
            waitq_wake_all(&p->drain);
        }
        if (send_chunk(p, &yields))
            chunk_done(p);
    }
}

/* copier_tx_irq, copier_tx_room_irq, interrupts masked: the drainers
 * woken on TEMT. */
static void tx_temt_wake(struct uart_port *p)
{
    if (uart_lower.tx_empty(&p->hw))
        waitq_wake_all(&p->drain);
}

/* UART interrupt, interrupts masked, THRE: THRE off, the copier woken,
 * the drainers too on TEMT. */
void copier_tx_irq(struct uart_port *p)
{
    p->ctr.tx_irqs++;
    uart_lower.irq_update(&p->hw, 0, UART_IRQ_TX);
    waker_wake(&cp_of(p)->tx_waker);
    tx_temt_wake(p);
}

/* UART interrupt, interrupts masked, TX_ROOM (an entry with nothing
 * pending, the D1's IIR 0xC1: its port checks LSR THRE and TEMT): the
 * copier woken if the FIFO takes a byte, the drainers on TEMT. */
void copier_tx_room_irq(struct uart_port *p)
{
    if (uart_lower.tx_ready(&p->hw))
        waker_wake(&cp_of(p)->tx_waker);
    tx_temt_wake(p);
}

/* Boot task: p's state from its slot, the ring and the two copier
 * tasks (the RX one engine_copier_rx.c's). */
void copier_init(struct uart_port *p)
{
    struct copier_port *c = &copier_ports[p->index];
    c->pending = c->cursor = 0;
    c->copier_active = c->thre_idle_armed = false;
    for (unsigned i = 0; i < PH_COUNT; i++)
        c->ph_acct[i] = (struct cpu_acct){ 0 };
    c->tx_waker = (struct waker){ &c->tx_task };
    p->eng = c;
    ring_init(&p->tx, c->store, sizeof c->store);
    task_spawn(&c->tx_task, "uart-tx-copier", tx_copier, p, c->tx_stack, COPIER_STACK_WORDS);
    task_acct_own(&c->tx_task);   /* copier_phase_instret reads its account */
    copier_rx_init(p);
}

/* waitq_wait's condition (task, interrupts masked): any free byte. */
static bool has_room(void *arg)
{
    return ring_free(&((struct uart_port *)arg)->tx) != 0;
}

/* Task, any hart: RingBufTx::push: the contiguous free run only (short near the
 * wrap); a blocking write that finds no room waits for some. */
size_t copier_write(struct uart_port *p, const uint8_t *buf, size_t n, bool nonblock)
{
    struct copier_port *c = cp_of(p);
    struct cpu_acct *was = cpu_acct_now.owner;
    uint8_t *slot;

    enter(&c->ph_acct[PH_USER]);
    uint32_t run = ring_write_slice(&p->tx, &slot);
    if (!run && n && !nonblock) {
        port_ctr_add(&p->ctr.writer_blocks, 1);
        waitq_wait(&p->tx_space, has_room, p, 0);
        enter(&c->ph_acct[PH_USER]);
        run = ring_write_slice(&p->tx, &slot);
    }
    size_t k = ring_push(&p->tx, buf, (uint32_t)(n < run ? n : run));   /* the run: no wrap */
    port_took(p, k);
    if (k)
        waker_wake(&c->tx_waker);
    enter(was);
    return k;
}

/* Any task, any hart: p's staged bytes unsent (0: a new chunk began
 * between the loads). */
static uint32_t staged(const struct uart_port *p)
{
    struct copier_port *c = cp_of(p);
    uint32_t n = COPIER_GET(c->pending), at = COPIER_GET(c->cursor);
    return at <= n ? n - at : 0;
}

/* uart_be_drain's condition (task, any hart, interrupts masked,
 * unlocked): what left the ring and the staging buffer, and whether the
 * copier is mid-chunk. With the core's rule for a design without events
 * (nothing held, not busy, the transmitter empty, re-checked every
 * character time, no bound: ENGINE_DRAIN_NO_BOUND) this is the
 * original's TxCompletion::is_drained. */
void copier_drain_view(const struct uart_port *p, struct drain_view *v)
{
    v->out = port_tx_in(p) - ring_used(&p->tx) - staged(p);
    v->busy = COPIER_GET(cp_of(p)->copier_active);
}

/* Task: the ring's bytes and the staged ones. */
size_t copier_queued(const struct uart_port *p)
{
    return ring_used(&p->tx) + staged(p);
}

/* Task, interrupts masked: the snapshot fields (TxCompletion). */
void copier_counters(const struct uart_port *p, struct uart_counters *out)
{
    out->ring_empty = ring_used(&p->tx) == 0;
    out->copier_active = COPIER_GET(cp_of(p)->copier_active);
    out->staged_bytes = staged(p);
}

/* Task: the instructions charged to phase i of p (copier_phase_names). */
uint64_t copier_phase_instret(const struct uart_port *p, unsigned i)
{
    struct copier_port *c = cp_of(p);
    return i < PH_COUNT ? c->ph_acct[i].instret : c->tx_task.acct.instret;
}

/* Any context, interrupts masked: the staged rest and the ring, polled. */
void copier_flush_polled(struct uart_port *p)
{
    struct copier_port *c = cp_of(p);
    uint8_t b = 0;   /* ring_pop writes it; clang's analyzer cannot follow its copy */
    while (c->cursor < c->pending) {
        uart_lower.putc_polled(&p->hw, (char)c->stage[c->cursor++]);
        p->ctr.hw_send_bytes++;
    }
    while (ring_pop(&p->tx, &b, 1)) {
        uart_lower.putc_polled(&p->hw, (char)b);
        p->ctr.ring_pop_bytes++;             /* taken from the ring, as a pop does */
        p->ctr.hw_send_bytes++;
    }
}
