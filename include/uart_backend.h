/* The UART driver behind /dev/console, as the POSIX layer (src/io) and the
 * boot (kmain) see it: the tty core's entry points; the kernel's panic and
 * exit see only the console sink it registers (console.h). Which design
 * does the work is the image's TX engine (BACKEND=async, console, ...),
 * which UART IP its lower half (the board's); src/drivers/uart/uart_port.h
 * draws the layers.
 *
 * Event order (async): uart_be_write() copies into the TX ring and
 * returns; the TX interrupt refills the FIFO; when ring and FIFO are
 * empty the drain waiters are woken; uart_be_drain() then waits on the
 * timer until the last stop bit is due and confirms the transmitter is
 * empty. The console does all of that synchronously, polling. */
#ifndef UART_BACKEND_H
#define UART_BACKEND_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* TX counters: the 16 of the StarryOS benchmark (same names, same
 * meaning where the architecture has the concept, 0 otherwise) and ours. */
struct uart_counters {
    uint64_t user_calls;        /* write calls into the backend */
    uint64_t user_req;          /* bytes requested by them */
    uint64_t user_acc;          /* bytes accepted */
    uint64_t ring_pop_calls;    /* TX ring reads by the refill path */
    uint64_t ring_pop_bytes;    /* (= hw_send_bytes: the refills' bytes) */
    uint64_t hw_send_calls;     /* FIFO refills */
    uint64_t hw_send_bytes;     /* bytes stored into THR */
    uint64_t hw_send_zero;      /* refills that found no FIFO room */
    uint64_t hw_send_max_chunk; /* largest refill */
    uint64_t no_progress_budget;/* (StarryOS copier retries: always 0) */
    uint64_t slow_poll_exh;     /* (always 0: nothing polls) */
    uint64_t yield_exh;         /* (always 0) */
    uint64_t ring_empty;        /* 1 when the TX ring is empty (snapshot) */
    uint64_t copier_active;     /* 1 while THRE interrupts are enabled */
    uint64_t staged_bytes;      /* bytes in the TX ring (snapshot) */
    uint64_t transmitter_empty; /* LSR.TEMT at snapshot time */
    uint64_t tx_irqs;           /* THRE interrupts handled */
    uint64_t rx_irqs;           /* RX data / timeout interrupts handled */
    uint64_t rx_bytes;          /* bytes moved into the RX ring */
    uint64_t rx_dropped;        /* bytes lost because the RX ring was full */
    uint64_t rx_overruns;       /* LSR.OE seen */
    uint64_t rx_framing;        /* LSR.FE seen */
    uint64_t rx_parity;         /* LSR.PE seen */
    uint64_t rx_breaks;         /* LSR.BI seen */
    uint64_t busy_detect;       /* DW busy-detect interrupts (IIR=0x7) */
    uint64_t spurious_irqs;     /* IIR without a pending cause */
    uint64_t writer_blocks;     /* writers that waited for ring space */
    uint64_t drain_calls;
    uint64_t drain_timer_waits; /* waits for the last stop bit (a character's
                                   time each, one or two timer sleeps) */
    uint64_t drain_timeouts;
    uint64_t queued_at_reset;   /* bytes in the TX ring at the last reset */
    uint64_t rx_deferred;       /* RX claims that masked RX to a resume timer
                                   (budget spent, or a timer interrupt waiting) */
};

#include "uart_cfg.h"

/* Boot, interrupts masked, before any output: the UART's lower half up
 * (divisor, 8N1, FIFOs, interrupts off); the polled path works from here. */
int uart_be_hw_init(const struct uart_cfg *c);
/* Boot task, interrupts enabled, after uart_be_hw_init: rings, the
 * engine, the interrupt handler on PLIC source irq, RX interrupts. */
int uart_be_init(uint32_t irq);
/* Task: the writer turn, which uart_be_write takes for one call: a caller
 * that keeps state between its writes (ONLCR, stdio's line) holds it
 * across them and writes with uart_be_write_held. take: 0, or -EAGAIN
 * (non-blocking, another writer holds it); give: the holder, after. */
int uart_be_turn_take(bool nonblock);
void uart_be_turn_give(void);
/* Task, the writer turn held: queue up to n bytes. Blocking: waits for
 * room until all n are taken (a design may return short: the caller
 * loops). Non-blocking: takes what fits, -EAGAIN if nothing fits. */
ssize_t uart_be_write_held(const void *buf, size_t n, bool nonblock);
/* Task: uart_be_write_held in a writer turn of its own. */
static inline ssize_t uart_be_write(const void *buf, size_t n, bool nonblock)
{
    if (uart_be_turn_take(nonblock))
        return -EAGAIN;
    ssize_t r = uart_be_write_held(buf, n, nonblock);
    uart_be_turn_give();
    return r;
}
/* Task: read up to n received bytes; -EAGAIN when none and non-blocking;
 * blocking waits for at least one byte. */
ssize_t uart_be_read(void *buf, size_t n, bool nonblock);
/* Task: the same, but a read that finds none waits for the first only
 * until deadline_ns (clock_now_ns), and returns 0 when it passes. */
ssize_t uart_be_read_until(void *buf, size_t n, uint64_t deadline_ns);
/* Task: wait until every queued byte has left the wire (TEMT);
 * 0 or -ETIMEDOUT. */
int uart_be_drain(void);
/* Task: bytes waiting in the RX path (FIONREAD) / TX path (TIOCOUTQ). */
size_t uart_be_rx_available(void);
size_t uart_be_tx_pending(void);
/* Task: snapshot the counters / reset the TX ones (RX counters count
 * since boot); -ENOTTY for a design without counters (the console). Both
 * with interrupts masked; at every snapshot user_acc + queued_at_reset ==
 * ring_pop_bytes + staged_bytes exactly (async). */
int uart_be_counters(struct uart_counters *out);
int uart_be_counters_reset(void);
/* Any task: LSR.OE reports the lower half has counted since boot (every
 * design, the console included: the lower half counts them). */
uint64_t uart_be_overruns(void);
/* What S50 checks after its harts turned the interrupts on and off: IER
 * as the lower half's shadow holds it, as the register reads back (its
 * enable bits), and whether the TX interrupt is on. */
struct uart_irq_state {
    uint32_t ier_shadow, ier_reg;
    bool tx_on;
};
/* Any task: the state above, under the port lock; 0. */
int uart_be_irq_state(struct uart_irq_state *out);
struct spinlock_stats;
/* Any task: the port lock's statistics (all zero until the driver is
 * shared: harts_share). */
void uart_be_lock_stats(struct spinlock_stats *out);
/* Task: UART internal loopback on or off, for RX tests; -ENOTTY when the
 * IP has none. */
int uart_be_set_loopback(bool on);
/* Any context, even a panic with interrupts masked: push everything
 * still queued out through the polled path. */
void uart_be_flush_polled(void);

/* A CPU sub-account of the design (a phase of its work, e.g. the
 * copier's slow poll): instructions charged to it since boot. */
struct uart_phase {
    const char *name;
    uint64_t instructions;
};
/* Task: up to max of the design's sub-accounts into out; returns how
 * many it has (0: none). */
unsigned uart_be_phases(struct uart_phase *out, unsigned max);

/* What the manifest prints of the driver. */
struct uart_info {
    const char *ip;            /* the lower half: "ns16550", "dw-apb" */
    const char *engine;        /* the design: "async", "console", "copier" */
    unsigned fifo_depth;       /* TX FIFO depth in use */
    const char *fifo_source;   /* "board", or where the IP said it ("cpr") */
    uint64_t char_ns;          /* one 10-bit character on the line */
    const struct uart_cfg *cfg; /* the config in use (the boot's operating point) */
    uint32_t divisor;          /* the IP's divisor register (0: none, or not known) */
    uint64_t baud_milli;       /* the baud the divisor gives, in milli-baud */
};
/* Any task. */
void uart_be_info(struct uart_info *out);
/* Any context: the design's name ("async", "console", ...). */
extern const char uart_be_name[];

#endif
