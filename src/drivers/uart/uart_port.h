/* The UART driver's middle: the port (the state the tty core and the TX
 * engine share) and the engine interface. Layers, each calling only the
 * ones below it and the kernel's services (tasks, timers, wait queues):
 *
 *   POSIX layer (src/io) -> uart_be_* (uart_backend.h)
 *   tty core, the upper half (tty.c, tty_rx.c, tty_ctr.c): rings, wait
 *       queues, counters, tcdrain, the RX path, the interrupt's dispatch
 *       -> uart_engine's ops (below) and uart_lower
 *   TX engine, one file per design (engine_<BACKEND>.c, its ops table in
 *       engine_<BACKEND>.h): what differs between designs -> uart_lower
 *   lower half, one file per UART IP (uart_lower.h) -> the register seam
 *       (uart_regs.h) -> the device, or its model on QEMU
 *
 * An engine never calls the core: it changes the port's data and wakes
 * the port's wait queues (a kernel service). The core owns the port. */
#ifndef UART_PORT_H
#define UART_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "clock.h"
#include "harts.h"
#include "ring.h"
#include "spinlock.h"
#include "timer.h"
#include "uart_backend.h"
#include "uart_lower.h"
#include "waitq.h"

struct cpu_acct;

/* The RX path's budget (tty_rx.c): its window, and the RX part of the
 * claim under way. */
struct rx_budget {
    struct timer resume;          /* unmasks RX at the window's end (rx_resume) */
    uint64_t start, end;          /* the window (ns) */
    uint64_t busy;                /* ns spent in RX claims in it */
    unsigned left;                /* bytes it still allows */
    bool spent;                   /* the claim's RX part: the budget ran out, data waits */
    uint64_t t0;                  /* ... when it began */
    struct cpu_acct *prev;        /* ... the account to return to (NULL: none) */
};

struct uart_port {
    struct spinlock lock;         /* the port lock (port_lock below) */
    struct uart_hw hw;            /* the lower half's view of the UART */
    struct uart_timing timing;    /* the line as the lower half programs it (its
                                     char_ns: one 10-bit character on the line) */
    struct ring tx;               /* TX ring (the engine's storage; none: capacity 0) */
    struct ring rx;               /* RX ring (the core's) */
    struct waitq tx_space;        /* writers waiting for TX ring space */
    struct waitq drain;           /* drainers waiting for the FIFO to empty */
    struct waitq rx_data;         /* readers waiting for received bytes */
    struct waitq writer_turn;     /* writers waiting for the one writing */
    uint32_t writing;             /* a write is in the engine (one at a time; atomic) */
    volatile uint32_t tx_wanted;  /* free TX bytes the waiting writers need (the least;
                                     0: none waits) */
    uint64_t tx_in;               /* engine: bytes taken by writes since boot (those out
                                     of the ring: tx_in less its bytes; a drain's target
                                     is tx_in at its call); the writer turn's holder
                                     stores it, anyone loads it (atomic: port_took) */
    struct uart_counters ctr;     /* engine: TX fields; core: the rest */
    struct rx_budget rxb;         /* the RX path's (tty_rx.c) */
    void *eng;                    /* the engine's state for this port (its init sets it) */
    unsigned index;               /* the port's slot in the per-port storage (< UART_PORTS) */
    bool up;                      /* uart_be_init done: the engine runs */
    uint64_t idle_since;          /* the console sink's no-TEMT rule: the FIFO seen
                                     empty since (ns; 0: not seen empty) */
};

/* Ports one image drives: the board's console UART (host tests build
 * more). The engines and the RX path keep their per-port state in arrays
 * of this many, indexed by the port's index (as Linux's 8250 keeps
 * serial8250_ports[UART_NR]). */
#ifndef UART_PORTS
#define UART_PORTS 1U
#endif

/* The board's console UART (tty.c), port 0. */
extern struct uart_port uart_port;

/* The port lock. Callers on any hart (writers, drainers, readers) and the
 * UART interrupt (hart 0 only) take it, interrupts masked, around what
 * they share: the TX state and the IER (irq_update's shadow), the rings'
 * consumer sides, the drain's view of the ring, the counters' snapshot
 * and reset. The rings' producer sides need none (one writer at a time:
 * the writer turn; the RX producer is the interrupt or the RX task).
 * Lock order: the port lock, then a wait queue's, then the wire model's.
 * While the driver is not shared (harts_many false: no task on another
 * hart calls it, harts_share) it is not taken: masking interrupts is
 * enough then, as on one hart, and costs no more. */
#define PORT_LOCKED (1UL << 63)   /* in port_lock's value: the lock was taken */

/* port_lock_masked and port_unlock_masked, the driver shared (tty.c):
 * the lock itself, out of line, so the one-hart path stays a load and a
 * branch in every caller. */
void port_spin_lock(struct uart_port *p);
void port_spin_unlock(struct uart_port *p);

/* Any context, interrupts masked: take the port lock if harts share it;
 * whether it was taken, for port_unlock_masked. */
static inline bool port_lock_masked(struct uart_port *p)
{
    if (__builtin_expect(!harts_many(), 1))
        return false;
    port_spin_lock(p);
    return true;
}

/* The caller of port_lock_masked: release the lock if it was taken. */
static inline void port_unlock_masked(struct uart_port *p, bool took)
{
    if (took)
        port_spin_unlock(p);
}

/* Any context: mask interrupts, take the port lock (while the driver
 * is shared); the interrupt state and PORT_LOCKED back. */
static inline unsigned long port_lock(struct uart_port *p)
{
    unsigned long f = irq_save();
    return port_lock_masked(p) ? f | PORT_LOCKED : f;
}

/* The holder of the port lock (port_lock): release it, interrupts as f. */
static inline void port_unlock(struct uart_port *p, unsigned long f)
{
    port_unlock_masked(p, f & PORT_LOCKED);
    irq_restore(f & ~PORT_LOCKED);
}

/* A counter's updaters outside the port lock (the writer turn's holder,
 * the copier task, drainers; any hart): add n to a counter of p->ctr that
 * the snapshot and the reset (tty_ctr.c, under the port lock, on another
 * hart) read and zero: a relaxed atomic add. */
static inline void port_ctr_add(uint64_t *ctr, uint64_t n)
{
    __atomic_fetch_add(ctr, n, __ATOMIC_RELAXED);
}

/* The writer turn's holder (the engine's write), after the push: k more
 * bytes taken, counted and in tx_in (its one writer; drainers on other harts
 * load it: port_tx_in). */
static inline void port_took(struct uart_port *p, uint64_t k)
{
    port_ctr_add(&p->ctr.user_acc, k);
    __atomic_store_n(&p->tx_in, p->tx_in + k, __ATOMIC_RELAXED);
}

/* Any context: the bytes taken by writes since boot, as of now. */
static inline uint64_t port_tx_in(const struct uart_port *p)
{
    return __atomic_load_n(&p->tx_in, __ATOMIC_RELAXED);
}

/* The design: one ops table per engine (engine_<BACKEND>.c), a static
 * const object in its header engine_<BACKEND>.h, included below as
 * `uart_engine` (UART_ENGINE_HEADER, chosen by BACKEND at build time, as
 * the lower half by the board): a call through it compiles to a direct
 * call, and its flags fold at compile time. Every op takes the port; an
 * engine keeps its state in the port's `eng` (its per-port storage, set
 * by its init), none in file statics. The core calls these and nothing
 * else of it; an engine never calls the core: it changes the port's data
 * and wakes the port's wait queues (a kernel service). */
#define ENGINE_COUNTERS  1U       /* the TX counters exist (else ioctls give ENOTTY) */
#define ENGINE_RX_POLLED 2U       /* RX is read from the FIFO on demand: no RX interrupt */
/* How tcdrain (the core's, tty.c) waits for a design: */
#define ENGINE_DRAIN_EVENTS 4U    /* on the drain queue, which the engine wakes at the
                                     events it is asked for (drain_idle, drain_refill);
                                     a caller's bytes are gone once as many later ones
                                     went into the FIFO as the transmitter holds */
#define ENGINE_DRAIN_SPIN   8U    /* spinning on the transmitter (a polling design) */
                                  /* neither: re-checking every character time, each a
                                     counted drain_timer_wait. Without events a drain
                                     waits until the engine holds nothing at all
                                     (nothing tells when the caller's bytes went in) */
#define ENGINE_DRAIN_NO_BOUND 16U /* no deadline of its own (the copier's original) */
/* What a drain learns (uart_be_drain, drain_idle's answers). */
#define DRAIN_DONE       0        /* the caller's bytes have left the wire */
#define DRAIN_FIFO_EMPTY 1        /* nothing queued, the FIFO emptied at a time */
#define DRAIN_WAIT       2        /* not yet: wait (the engine's event is armed) */
#define DRAIN_LOOK       3        /* the engine knows nothing: read the transmitter */

/* tcdrain's view of an engine's TX (drain_view): the engine holds
 * nothing when out is tx_in and it is not busy. */
struct drain_view {
    uint64_t out;                 /* bytes moved into the FIFO since boot: tx_in less
                                     those the engine still holds */
    bool busy;                    /* it is still moving bytes, or awaits its FIFO-empty
                                     event (async: the TX interrupt on; the copier
                                     mid-chunk) */
};
struct uart_engine {
    const char *name;             /* BACKEND: "async", "console", "copier" */
    unsigned flags;               /* ENGINE_* */
    /* Boot task, after the lower half's init: the port's engine state
     * (p->eng), the TX ring, the TX interrupt as the design wants it. */
    void (*init)(struct uart_port *p);
    /* Task: take up to n bytes for transmission (counting user_acc as
     * they are taken). Blocking: until all are taken, unless the design
     * returns short (the caller loops). Non-blocking: what fits, 0 if
     * nothing. */
    size_t (*write)(struct uart_port *p, const uint8_t *buf, size_t n, bool nonblock);
    /* UART interrupt, interrupts masked, cause UART_CAUSE_TX: the TX FIFO
     * emptied (its depth's room, no register read for it). */
    void (*tx_irq)(struct uart_port *p);
    /* UART interrupt, interrupts masked, cause UART_CAUSE_TX_ROOM: an
     * entry with nothing pending (the FIFO may have room, may still hold
     * bytes; the engine may refill if it sends). Two ops, not one with
     * the cause: the common one, tx_irq, tests nothing to know it. */
    void (*tx_room_irq)(struct uart_port *p);
    /* UART interrupt, interrupts masked, an RX cause, for a design that
     * takes RX itself (NULL: the core's RX path, tty_rx.c); the core
     * charges it to the RX account. */
    void (*rx_irq)(struct uart_port *p);
    /* tcdrain (the core's, uart_be_drain) is fed by these three. Task,
     * the port lock held (and, as a hint, in the drain wait's condition,
     * interrupts masked, unlocked): what the engine has moved into the
     * FIFO, and whether it is busy. */
    void (*drain_view)(const struct uart_port *p, struct drain_view *v);
    /* Task, the port lock held, the engine holding nothing and not busy
     * (ENGINE_DRAIN_EVENTS): what it knows of the FIFO. DRAIN_DONE or
     * DRAIN_FIFO_EMPTY at *at_ns as port_drain_idle tells them;
     * DRAIN_WAIT: the engine armed its FIFO-empty event, at which it
     * wakes the drain queue; DRAIN_LOOK: nothing, the core reads the
     * transmitter (NULL: always DRAIN_LOOK). */
    int (*drain_idle)(struct uart_port *p, uint64_t *at_ns);
    /* Task, the port lock held, later writers' bytes queued behind the
     * caller's (ENGINE_DRAIN_EVENTS): wake the drain queue at the next
     * refill into the FIFO (NULL: no such event). */
    void (*drain_refill)(struct uart_port *p);
    /* Task: bytes the engine holds that are not in the FIFO yet. */
    size_t (*queued)(const struct uart_port *p);
    /* Task, interrupts masked: the counter fields the design derives
     * (hw_send_calls, ring_pop_bytes, copier_active, ...) into *out, a
     * copy of p->ctr. */
    void (*counters)(const struct uart_port *p, struct uart_counters *out);
    /* Any context, interrupts masked (exit, panic): send what is queued,
     * polled. */
    void (*flush_polled)(struct uart_port *p);
    /* The design's CPU sub-accounts (uart_be_phases): how many, their
     * names, and (task) the instructions charged to phase i of p. */
    unsigned n_phases;
    const char *const *phase_names;
    uint64_t (*phase_instret)(const struct uart_port *p, unsigned i);
};

/* Task (uart_be_drain), the lower half's tx_empty seen true now: what
 * that tells. DRAIN_DONE where tx_empty sees the shifter (UART_CAP_TEMT);
 * else only the FIFO was seen empty, the last byte may still be on the
 * wire: DRAIN_FIFO_EMPTY at now, and the core's rule waits a character. */
static inline int port_drain_idle(uint64_t *fifo_empty_ns)
{
    if (uart_lower.caps & UART_CAP_TEMT)
        return DRAIN_DONE;
    *fifo_empty_ns = clock_now_ns();
    return DRAIN_FIFO_EMPTY;
}

#ifndef UART_ENGINE_HEADER
#error "UART_ENGINE_HEADER names the image's TX engine, engine_<BACKEND>.h (src/CMakeLists.txt)"
#endif
#include UART_ENGINE_HEADER

#endif
