/* TX engine "async": a 64 KiB TX ring refilled into the FIFO by the TX
 * (THRE) interrupt, a FIFO's worth per interrupt, never a byte at a time;
 * a write to an idle UART loads the FIFO straight from its buffer.
 * No path spins on a register: a writer that finds the ring full and a
 * drainer block on the port's wait queues.
 *
 * TX state (async_tx.state, changed only by tx_enter):
 *   TX_OFF   TX interrupt off; the FIFO may hold bytes (a kick's refill,
 *            a write's direct load)
 *   TX_ON    TX interrupt on: the ring has bytes, or a drainer waits for
 *            the FIFO-empty event
 *   TX_EMPTY TX interrupt off; ring and FIFO were empty at empty_ns (the
 *            shifter may still send the last byte)
 * Transitions: OFF/EMPTY -> ON (task, masked: a kick that leaves bytes in
 * the ring; a drain asking for the FIFO-empty event); ON -> OFF (TX
 * interrupt: the ring ran dry and nobody waits to drain); ON -> EMPTY (TX
 * interrupt: ring and FIFO empty); OFF -> EMPTY (task, masked: a drain
 * that finds the FIFO empty; a one-byte write into a transmitter seen
 * idle, from its store: idle_push); EMPTY -> OFF (any other refill that
 * sends).
 * Every transition and every refill is made under the port lock (tasks
 * on any hart, the interrupt on hart 0); only the interrupt leaves
 * TX_ON, which is what lets kick's unlocked look be trusted on hart 0. */
#include "harts.h"
#include <errno.h>
#include "clock.h"
#include "csr.h"
#include "timer.h"
#include "uart_port.h"

#ifndef UART_TX_RING_SIZE
#define UART_TX_RING_SIZE (64U * 1024U)     /* as the original driver */
#endif

const char uart_be_name[] = "async";

enum tx_state { TX_ON, TX_OFF, TX_EMPTY };   /* TX_ON 0: the refill's test is one branch */

/* A port's engine state (p->eng). */
struct async_tx {
    union {
        struct {
            uint8_t state;            /* enum tx_state, stored atomically (tx_enter):
                                         kick, async_write and async_drain_view
                                         load it without the lock */
            bool refill_wake;         /* a drainer asks: wake it at the next refill */
        };
        uint16_t unusual;             /* both at once, for the refill's one test: not
                                         0, the TX state is not TX_ON or a drainer
                                         asks (the port lock held) */
    };
    uint64_t empty_ns;                /* TX_EMPTY since (the FIFO empty from then on) */
    uint8_t store[UART_TX_RING_SIZE]; /* the TX ring's */
};
static struct async_tx async_ports[UART_PORTS];

/* Any context: p's engine state. */
static inline struct async_tx *tx_of(const struct uart_port *p)
{
    return p->eng;
}

/* The port lock held: the one place the TX state changes. */
static inline void tx_enter(struct uart_port *p, enum tx_state s)
{
    struct async_tx *t = tx_of(p);
    enum tx_state was = t->state;
    __atomic_store_n(&t->state, (uint8_t)s, __ATOMIC_RELAXED);
    if (s == TX_ON && was != TX_ON)
        uart_lower.irq_update(&p->hw, UART_IRQ_TX, 0);
    else if (s != TX_ON && was == TX_ON)
        uart_lower.irq_update(&p->hw, 0, UART_IRQ_TX);
    if (s == TX_EMPTY) {
        t->empty_ns = clock_now_ns();
        waitq_wake_all(&p->drain);
    }
}

/* tx_refill, the port lock held: ring bytes into the FIFO, as many as
 * it has room for (never more: a DW FIFO may be partly full), in two runs
 * when the ring wraps; no TX state. room: the FIFO's (its depth: the FIFO
 * holds nothing; 0: nothing is loaded, the caller counted the look).
 * Counters: the largest refill, a wrap's second ring read, and no ring
 * read for a refill that loads nothing (the rest as async_counters
 * says). Returns the bytes sent; *left: the bytes still in the ring. */
static inline __attribute__((always_inline)) ring_idx_t refill_load(struct uart_port *p,
                                                                  ring_idx_t room,
                                                                  ring_idx_t *left)
{
    struct ring_peeked k = ring_peek(&p->tx, room);
    ring_idx_t n = k.n;

    *left = k.used - n;
    if (n) {
        uart_lower.tx_load(&p->hw, k.p, k.first);
        if (n > k.first) {                     /* the ring wrapped */
            uart_lower.tx_load(&p->hw, p->tx.buf, n - k.first);
            p->ctr.ring_pop_calls++;
        }
        ring_release(&p->tx, &k, n);
        if (n > p->ctr.hw_send_max_chunk)
            p->ctr.hw_send_max_chunk = n;
    } else {
        p->ctr.ring_pop_calls--;
    }
    return n;
}

/* kick_locked, direct_load, tx_irq_events, the port lock held: a refill
 * that sent bytes ends TX_EMPTY. */
static inline __attribute__((always_inline)) void sent_ends_empty(struct uart_port *p,
                                                                  ring_idx_t sent)
{
    if (sent && tx_of(p)->state == TX_EMPTY)
        tx_enter(p, TX_OFF);
}

/* tx_refill, tx_irq_events, the port lock held: a writer waits (its
 * want published by has_space) and the ring, with used bytes in it, has
 * the room it waits for. */
static inline __attribute__((always_inline)) bool writer_room(struct uart_port *p,
                                                              ring_idx_t used)
{
    return p->tx_wanted && ring_capacity(&p->tx) - used >= p->tx_wanted;
}

/* Boot task: p's state from its slot, the ring empty, TX off. */
void async_init(struct uart_port *p)
{
    struct async_tx *t = &async_ports[p->index];
    t->state = TX_OFF;
    t->refill_wake = false;
    t->empty_ns = 0;
    p->eng = t;
    ring_init(&p->tx, t->store, sizeof t->store);
}

/* tx_refill, after its refill (sent bytes; the FIFO's room it took:
 * its depth for a TX cause, what tx_room found for TX_ROOM; used bytes
 * left in the ring), the port lock held: the TX state's changes and
 * the wakes (out of line: the common refill needs none of them and keeps
 * no value across a call). The TX interrupt stays on while the ring has
 * bytes, or while a drainer waits for the FIFO to empty: that event (ring
 * and FIFO really empty; a TX_ROOM entry may come with the FIFO still
 * holding bytes) moves to TX_EMPTY and wakes the drainers; a drainer with
 * later bytes behind its own asks to be woken at each refill. Without a
 * drainer the last refill turns the interrupt off at once: none is spent
 * on an event nobody waits for. Writers are woken when the ring has the
 * room they wait for. */
static __attribute__((noinline)) void tx_irq_events(struct uart_port *p, ring_idx_t sent,
                                                    ring_idx_t room, ring_idx_t used)
{
    struct async_tx *t = tx_of(p);

    sent_ends_empty(p, sent);
    if (t->refill_wake && sent) {
        t->refill_wake = false;
        waitq_wake_all(&p->drain);
    }
    if (used == 0) {
        /* the ring ran dry: the refill sent less than its room, which
         * async_counters' count corrects */
        p->ctr.hw_send_bytes += sent - room;
        if (sent == 0 && room == p->hw.fifo_depth)
            tx_enter(p, TX_EMPTY);
        else if (sent && !waitq_active(&p->drain))
            tx_enter(p, TX_OFF);
    }
    if (writer_room(p, used)) {
        p->tx_wanted = 0;
        waitq_wake_all(&p->tx_space);
    }
}

/* async_tx_irq, async_tx_room_irq (UART interrupt, hart 0), the port
 * lock held: refill up to room, then tx_irq_events when the refill
 * changes the TX state or wakes anybody: `unusual` (a TX state other
 * than TX_ON, or a drainer's refill wake, as the caller read them), an
 * empty ring, a writer's room. */
static inline __attribute__((always_inline)) void tx_refill(struct uart_port *p,
                                                            unsigned unusual, ring_idx_t room)
{
    ring_idx_t used;
    ring_idx_t sent = refill_load(p, room, &used);
    p->ctr.tx_irqs++;                         /* after the loads: no store between them */
    if (unusual || used == 0 || writer_room(p, used))
        tx_irq_events(p, sent, room, used);
}

/* UART interrupt (hart 0), the port lock held, a TX cause: the FIFO's
 * emptying (uart_lower.h), its room the depth, with no register read for
 * it. */
void async_tx_irq(struct uart_port *p)
{
    tx_refill(p, tx_of(p)->unusual, p->hw.fifo_depth);
}

/* UART interrupt (hart 0), the port lock held, a TX_ROOM cause: with the
 * TX interrupt on, a refill of the room the FIFO says it has (counted
 * as async_counters says: room for the depth). */
void async_tx_room_irq(struct uart_port *p)
{
    struct async_tx *t = tx_of(p);
    if (t->state != TX_ON)
        return;
    ring_idx_t room = uart_lower.tx_room(&p->hw);
    p->ctr.hw_send_bytes += room - p->hw.fifo_depth;
    if (!room)
        p->ctr.hw_send_zero++;
    tx_refill(p, t->refill_wake, room);
}

/* kick_loads' and direct_load's refills: the largest, the looks at the
 * FIFO's room and the loads (hw_send_max_chunk, hw_send_calls,
 * ring_pop_calls); the last refill's room left and bytes; whether a look
 * found no room. */
struct kick_refill {
    ring_idx_t most, looks, loads, chunk;
    unsigned room;
    bool full;
};

/* kick_loads (one contiguous run of the ring), direct_load (the caller's
 * buffer), the port lock held: b's n bytes into the FIFO: a look at its
 * room, a load of what fits, again while it has room. Returns the bytes
 * sent. */
static inline __attribute__((always_inline)) ring_idx_t kick_run(struct uart_port *p,
                                                                 const uint8_t *b, ring_idx_t n,
                                                                 struct kick_refill *r)
{
    ring_idx_t sent = 0;

    while (sent < n) {
        r->looks++;
        unsigned room = uart_lower.tx_room(&p->hw);
        if (!room) {
            p->ctr.hw_send_zero++;
            r->full = true;
            break;
        }
        ring_idx_t k = ring_min(room, n - sent);
        uart_lower.tx_load(&p->hw, b + sent, k);
        r->loads++;
        sent += k;
        if (k > r->most)
            r->most = k;
        r->room = room - (unsigned)k;
        r->chunk = k;
    }
    return sent;
}

/* kick_loads, direct_load, idle_push, the port lock held: S40's counters of their
 * refills, each counted as it is (hw_send_calls: refills outside the
 * interrupt; ring_pop_calls: the loads; sent bytes in all), where the
 * interrupt's are counted as async_counters says. */
static inline __attribute__((always_inline)) void kick_count(struct uart_port *p,
                                                             const struct kick_refill *r,
                                                             ring_idx_t sent)
{
    p->ctr.hw_send_calls += r->looks;
    p->ctr.ring_pop_calls += r->loads;
    p->ctr.hw_send_bytes += sent;
    p->ctr.hw_send_max_chunk = r->most;
}

/* kick_locked, the port lock held, the ring not empty: refill_load's
 * refills again and again while the FIFO takes bytes and the ring has
 * them (a UART that sends faster than the CPU fills it, as QEMU's without
 * a line), over one look at the ring and one release for all of them:
 * per refill only the FIFO's room is read. The counters are kick_count's
 * (hw_send_calls: refills outside the interrupt): the refill that reaches
 * the ring's end goes on at its start with the room it has left, one
 * refill in two loads. Returns the bytes sent; *left: the bytes still in
 * the ring. */
static inline __attribute__((always_inline)) ring_idx_t kick_loads(struct uart_port *p,
                                                                   ring_idx_t *left)
{
    struct ring_peeked pk = ring_peek(&p->tx, ~(ring_idx_t)0);
    struct kick_refill r = { p->ctr.hw_send_max_chunk, 0, 0, 0, 0, false };
    ring_idx_t sent = kick_run(p, pk.p, pk.first, &r);

    if (!r.full && pk.n > pk.first) {          /* the ring wraps */
        ring_idx_t k = ring_min(r.room, pk.n - pk.first);
        if (k) {
            uart_lower.tx_load(&p->hw, p->tx.buf, k);
            r.loads++;
            if (r.chunk + k > r.most)
                r.most = r.chunk + k;
        }
        sent += k + kick_run(p, p->tx.buf + k, pk.n - pk.first - k, &r);
    }
    ring_release(&p->tx, &pk, sent);
    kick_count(p, &r, sent);
    *left = pk.used - sent;
    return sent;
}

/* kick, the TX interrupt maybe off: the look and the loads under the
 * port lock (out of line: kick's common early return stays short). */
static __attribute__((noinline)) void kick_locked(struct uart_port *p)
{
    unsigned long f = irq_save();
    bool took = port_lock_masked(p);
    if (tx_of(p)->state != TX_ON && ring_used(&p->tx)) {
        ring_idx_t left;
        sent_ends_empty(p, kick_loads(p, &left));
        if (left)
            tx_enter(p, TX_ON);
    }
    port_unlock_masked(p, took);
    irq_restore(f);
}

/* Task on any hart, after a push: with the TX interrupt off, load the FIFO now, and
 * again while it takes more (a UART that sends faster than the CPU fills
 * it, such as QEMU's without the wire model, then needs no interrupt; a
 * real line's FIFO is full after the first load, and one status read
 * says so); if bytes are left in the ring, turn the interrupt on and let
 * it do the rest. The state is read first without masking: an interrupt
 * that turns it off runs either before that read (which then sees it off)
 * or after it, and then finds the pushed bytes and keeps it on. That
 * holds on hart 0, the interrupt's; on another hart the interrupt may run
 * at the same time, so the look is made under the port lock. */
static inline void kick(struct uart_port *p)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);   /* the read stays after the push */
    if (__atomic_load_n(&tx_of(p)->state, __ATOMIC_RELAXED) == TX_ON &&
        (!harts_many() || hart_self() == 0))
        return;
    kick_locked(p);
}

/* push_from, write_rest, task: k more bytes taken into the ring (in
 * tx_in), the ring's kick, and the drainers woken (their bytes are not
 * the last any more). Returns k. */
static inline __attribute__((always_inline)) size_t took_kick(struct uart_port *p, size_t k)
{
    port_took(p, k);
    kick(p);
    waitq_wake_all(&p->drain);
    return k;
}

/* push_from, write_rest, task: what fits of b's n bytes into the ring. */
static inline size_t push_ring(struct uart_port *p, const uint8_t *b, size_t n)
{
    return ring_push(&p->tx, b, n < UINT32_MAX ? (uint32_t)n : UINT32_MAX);
}

struct space_want {
    struct uart_port *p;
    uint32_t want;
};

/* waitq_wait's condition (task, interrupts masked): room for the
 * writer's want; if not, the want is published for the TX interrupt
 * (under the port lock: the interrupt resets it on another hart). */
static bool has_space(void *arg)
{
    struct space_want *w = arg;
    if (ring_free(&w->p->tx) >= w->want)
        return true;
    bool took = port_lock_masked(w->p);
    bool room = ring_free(&w->p->tx) >= w->want;
    if (!room && (!w->p->tx_wanted || w->want < w->p->tx_wanted))
        w->p->tx_wanted = w->want;
    port_unlock_masked(w->p, took);
    return room;
}

/* push_from, task (blocking, the ring was full): wait for room and push
 * the rest. Wake-up watermark: a quarter of the ring, or all that is left
 * to write, so a big writer is woken once per many refills. */
static __attribute__((noinline)) size_t write_rest(struct uart_port *p, const uint8_t *b,
                                                   size_t n, size_t done)
{
    while (done < n) {
        size_t left = n - done, quarter = ring_capacity(&p->tx) / 4;
        struct space_want w = { p, (uint32_t)(left < quarter ? left : quarter) };
        port_ctr_add(&p->ctr.writer_blocks, 1);
        waitq_wait(&p->tx_space, has_space, &w, 0);
        done += took_kick(p, push_ring(p, b + done, left));
    }
    return done;
}

/* async_write, direct_load, task: b's bytes from the k-th on (the first
 * k taken and counted already) into the ring, what fits, kicked;
 * blocking, the rest as the ring makes room. Returns the bytes taken. */
static inline __attribute__((always_inline)) size_t push_from(struct uart_port *p,
                                                              const uint8_t *b, size_t n,
                                                              size_t k, bool nonblock)
{
    k += took_kick(p, push_ring(p, b + k, n - k));
    if (__builtin_expect(k < n, 0) && !nonblock)
        k = write_rest(p, b, n, k);
    return k;
}

/* direct_load, the port lock held, the TX interrupt off and the ring
 * empty: one byte into a transmitter seen idle (FIFO and shifter empty:
 * one look at its level, where the IP sees its shifter) goes straight
 * into the shifter, on a UART that starts a character at the store
 * (tx_at_store), so the FIFO is empty from the store on: TX_EMPTY, with
 * the clock read after the store (an upper bound of when the FIFO's byte
 * went into the shifter). A drain then sleeps from there without looking
 * at the UART. Elsewhere (a UART that waits for its baud clock's next
 * tick: the drain's own look is the later, observed start), or with the
 * transmitter busy, the write is direct_load's. Returns whether it sent
 * the byte. */
static inline __attribute__((always_inline)) bool idle_push(struct uart_port *p,
                                                            const uint8_t *b)
{
    if (!(uart_lower.caps & UART_CAP_TEMT) || !p->hw.cfg->tx_at_store ||
        uart_lower.tx_level(&p->hw))
        return false;
    uart_lower.tx_load(&p->hw, b, 1);
    tx_enter(p, TX_EMPTY);
    struct kick_refill r = { p->ctr.hw_send_max_chunk ? p->ctr.hw_send_max_chunk : 1, 1, 1,
                             1, 0, false };
    kick_count(p, &r, 1);
    return true;
}

/* direct_push, direct_push_one, task: b's first bytes straight into
 * the FIFO, as many as it takes (kick_run: again while it takes more),
 * with no copy into the ring, if the ring is empty under the port lock
 * (the interrupt may have changed the state on another hart); one byte
 * after a drain into the shifter alone if it has gone idle (idle_push);
 * the rest as async_write's. Returns the bytes taken. */
static inline __attribute__((always_inline)) size_t direct_load(struct uart_port *p,
                                                                const uint8_t *b, size_t n,
                                                                bool nonblock)
{
    unsigned long f = irq_save();
    bool took = port_lock_masked(p);
    ring_idx_t sent = 0;
    bool woke = false;                     /* idle_push's TX_EMPTY woke the drainers */
    if (tx_of(p)->state != TX_ON && !ring_used(&p->tx)) {
        if (n == 1 && (woke = idle_push(p, b))) {
            sent = 1;
            port_took(p, 1);
        } else {
            struct kick_refill r = { p->ctr.hw_send_max_chunk, 0, 0, 0, 0, false };
            /* at most a ring's worth: interrupts stay masked no longer than
             * for a kick of a full ring, whatever the write's size */
            sent = kick_run(p, b, ring_min(n, ring_capacity(&p->tx)), &r);
            kick_count(p, &r, sent);
            port_took(p, sent);            /* with the counters: a snapshot sees both */
            sent_ends_empty(p, sent);
        }
    }
    port_unlock_masked(p, took);
    irq_restore(f);
    if (sent == n) {
        if (!woke)
            waitq_wake_all(&p->drain);     /* their bytes are not the last any more */
        return n;
    }
    return push_from(p, b, n, sent, nonblock);
}

/* direct_push, task: direct_load of one byte (its own copy, so the
 * one-byte path's registers are not every write's). */
static __attribute__((noinline)) size_t direct_push_one(struct uart_port *p, const uint8_t *b,
                                                        bool nonblock)
{
    return direct_load(p, b, 1, nonblock);
}

/* async_write, task, the TX interrupt off when it looked: direct_load. */
static __attribute__((noinline)) size_t direct_push(struct uart_port *p, const uint8_t *b,
                                                    size_t n, bool nonblock)
{
    if (n == 1)
        return direct_push_one(p, b, nonblock);
    return direct_load(p, b, n, nonblock);
}

/* Task: n bytes into the FIFO and the ring, what fits (blocking: all),
 * and the FIFO started. With the TX interrupt off, the FIFO takes the
 * first bytes straight from buf (direct_push); else they go into the ring
 * and kick loads what the FIFO takes. The bytes count as accepted as soon
 * as they are in the FIFO or the ring. */
__attribute__((flatten)) size_t async_write(struct uart_port *p, const uint8_t *buf, size_t n,
                                            bool nonblock)
{
    if (__atomic_load_n(&tx_of(p)->state, __ATOMIC_RELAXED) != TX_ON)
        return direct_push(p, buf, n, nonblock);
    return push_from(p, buf, n, 0, nonblock);
}

/* uart_be_drain's look, the port lock held (and its wait's condition,
 * unlocked, a hint): what left the ring, and whether the TX interrupt is
 * on (bytes to refill, or a drainer's FIFO-empty event asked for). */
void async_drain_view(const struct uart_port *p, struct drain_view *v)
{
    v->out = port_tx_in(p) - ring_used(&p->tx);
    v->busy = __atomic_load_n(&tx_of(p)->state, __ATOMIC_RELAXED) == TX_ON;
}

/* uart_be_drain's look, the port lock held, ring empty and TX interrupt
 * off: the FIFO-empty event's time if it came (TX_EMPTY); the
 * transmitter empty; the FIFO seen empty now (only the shifter left:
 * TX_EMPTY from now); else the event asked for (TX_ON: the interrupt
 * sees the FIFO empty and wakes the drainers). One look at the
 * transmitter's level tells both (a 16550: one LSR read); a one-byte
 * FIFO's level cannot tell a held byte from a sending shifter, so there
 * the room is asked too. The empty ring restarts at
 * offset 0, so writes after a drain find it at the same position (their
 * copies keep the caller's alignment); while the driver is shared it
 * stays where it is (a writer on another hart may be pushing). */
int async_drain_idle(struct uart_port *p, uint64_t *at_ns)
{
    struct async_tx *t = tx_of(p);
    if (!harts_many())
        ring_reset(&p->tx);
    if (t->state != TX_EMPTY) {
        unsigned level = uart_lower.tx_level(&p->hw);
        if (level == 0)
            return port_drain_idle(at_ns);
        if (p->hw.fifo_depth > 1 ? level == 1
                                 : uart_lower.tx_room(&p->hw) == p->hw.fifo_depth)
            tx_enter(p, TX_EMPTY);
    }
    if (t->state == TX_EMPTY) {
        *at_ns = t->empty_ns;
        return DRAIN_FIFO_EMPTY;
    }
    tx_enter(p, TX_ON);
    return DRAIN_WAIT;
}

/* uart_be_drain's look, the port lock held, later writers' bytes behind
 * the caller's: wake the drainers at the next refill that sends (while
 * the ring has bytes to send). */
void async_drain_refill(struct uart_port *p)
{
    if (ring_used(&p->tx))
        tx_of(p)->refill_wake = true;
}

/* Task. */
size_t async_queued(const struct uart_port *p)
{
    return ring_used(&p->tx);
}

/* Task, the port lock held. The TX interrupt's refills are counted as
 * each sending the FIFO's depth in one ring read: the common refill
 * stores tx_irqs alone. Those that do otherwise correct hw_send_bytes and
 * ring_pop_calls where they do it (a wrap's second read and a refill
 * that loads nothing, refill_load; a TX_ROOM entry's room,
 * async_tx_room_irq; a ring that ran dry, tx_irq_events), which is rare; so the two fields hold the refills'
 * differences from that count, and the kicks', direct writes' and polled
 * flush's own counts. */
void async_counters(const struct uart_port *p, struct uart_counters *out)
{
    out->hw_send_calls = p->ctr.hw_send_calls + p->ctr.tx_irqs;   /* each TX entry refills */
    out->ring_pop_calls = p->ctr.ring_pop_calls + p->ctr.tx_irqs;
    out->hw_send_bytes = p->ctr.hw_send_bytes + p->ctr.tx_irqs * p->hw.fifo_depth;
    out->ring_pop_bytes = out->hw_send_bytes;   /* every byte taken goes to THR */
    out->ring_empty = ring_used(&p->tx) == 0;
    out->copier_active = tx_of(p)->state == TX_ON;
    out->staged_bytes = ring_used(&p->tx);
}

/* Any context, interrupts masked (exit, panic): the ring, polled (the bytes count as
 * sent). */
void async_flush_polled(struct uart_port *p)
{
    uint8_t b = 0;   /* ring_pop writes it; clang's analyzer cannot follow its copy */
    while (ring_pop(&p->tx, &b, 1)) {
        uart_lower.putc_polled(&p->hw, (char)b);
        p->ctr.hw_send_bytes++;
    }
}
