/* Async backend: TX/RX rings, THRE-interrupt refill, wakers for writers,
 * readers and drainers. No path spins on a register: a writer that finds
 * the ring full, a reader with nothing to read and a drainer all block. */
#include <errno.h>
#include "clock.h"
#include "csr.h"
#include "plic.h"
#include "ring.h"
#include "timer.h"
#include "uart_backend.h"

#ifndef UART_TX_RING_SIZE
#define UART_TX_RING_SIZE (64U * 1024U)     /* as the original driver */
#endif
#ifndef UART_RX_RING_SIZE
#define UART_RX_RING_SIZE (16U * 1024U)
#endif
#define UART_ISR_MAX_ROUNDS   8   /* IIR causes served per interrupt */
#define UART_DRAIN_TEMT_TRIES 4   /* char-time sleeps waiting for TEMT */
#define UART_DRAIN_MARGIN_NS  10000000ULL

const char uart_be_name[] = "async";

static const struct uart_cfg *cfg;
static struct ring tx, rx;
static uint8_t tx_store[UART_TX_RING_SIZE], rx_store[UART_RX_RING_SIZE];
static struct waker tx_space_waiter, drain_waiter, rx_waiter;
static volatile uint32_t tx_space_wanted; /* free bytes the blocked writer waits for */
static volatile bool thre_on;         /* THRE interrupt enabled */
static volatile bool fifo_empty_seen; /* THRE saw ring and FIFO empty ... */
static volatile uint64_t fifo_empty_ns; /* ... at this time (shifter then busy) */
static uint32_t ier;
static uint64_t char_ns;
static struct uart_counters ctr;

/* Interrupts masked: read LSR, counting the line errors it reports (a
 * read clears them, so every LSR read of this backend goes through here). */
static uint32_t lsr_read(void)
{
    uint32_t lsr = uart_read(cfg, UART_LSR);
    if (lsr & (UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI)) {
        ctr.rx_overruns += !!(lsr & UART_LSR_OE);
        ctr.rx_parity += !!(lsr & UART_LSR_PE);
        ctr.rx_framing += !!(lsr & UART_LSR_FE);
        ctr.rx_breaks += !!(lsr & UART_LSR_BI);
    }
    return lsr;
}

/* Interrupts masked: bytes the TX FIFO takes now (DW: depth - TFL;
 * 16550: a FIFO's worth only when THRE says it is empty). */
static unsigned tx_room(void)
{
    if (cfg->dw_apb) {
        uint32_t level = uart_read(cfg, UART_DW_TFL);
        return level < cfg->fifo_depth ? cfg->fifo_depth - level : 0;
    }
    return (lsr_read() & UART_LSR_THRE) ? cfg->fifo_depth : 0;
}

/* tx_refill, interrupts masked: one contiguous run of at most room ring
 * bytes into the FIFO; returns its length. */
static inline __attribute__((always_inline)) unsigned load_run(unsigned room)
{
    const uint8_t *p;
    uint32_t k = ring_read_slice(&tx, &p);

    if (k > room)
        k = room;
    if (k) {
        uart_write_thr_burst(cfg, p, k);
        ring_consume(&tx, k);
        ctr.ring_pop_calls++;
    }
    return k;
}

/* Interrupts masked: move ring bytes into the FIFO, as many as it has
 * room for (never more: a DW FIFO may be partly full), in two runs when
 * the ring wraps. Returns bytes sent (which makes an earlier FIFO-empty
 * stamp stale); *fifo_was_empty tells whether the FIFO had nothing in it. */
static inline __attribute__((always_inline)) unsigned tx_refill(bool *fifo_was_empty)
{
    unsigned room = tx_room();

    *fifo_was_empty = room == cfg->fifo_depth;
    if (!room) {
        ctr.hw_send_zero++;
        return 0;
    }
    unsigned sent = load_run(room);
    if (sent && sent < room)      /* the ring wrapped, or ran out */
        sent += load_run(room - sent);
    if (sent) {
        fifo_empty_seen = false;
        ctr.hw_send_bytes += sent;
        if (sent > ctr.hw_send_max_chunk)
            ctr.hw_send_max_chunk = sent;
    }
    return sent;
}

/* Interrupts masked: set or clear bits of IER. */
static void ier_update(uint32_t set, uint32_t clear)
{
    ier = (ier | set) & ~clear;
    uart_write(cfg, UART_IER, ier);
}

/* Interrupts masked: stop THRE interrupts. */
static void thre_stop(void)
{
    ier_update(0, UART_IER_THRI);
    thre_on = false;
}

/* THRE interrupt: refill the FIFO from the ring. THRE stays enabled while
 * the ring has bytes, or while a drainer waits for the FIFO to empty:
 * that event (ring and FIFO really empty; an IIR=0xC1 entry may come with
 * the FIFO still holding bytes) is stamped and wakes the drainer. Without
 * a drainer the last refill stops THRE at once: no interrupt is spent on
 * an event nobody waits for. Writers waiting for ring space are woken. */
static void tx_irq(void)
{
    bool fifo_empty;

    ctr.tx_irqs++;
    unsigned sent = tx_refill(&fifo_empty);
    uint32_t used = ring_used(&tx);
    if (used == 0) {
        if (sent == 0 && fifo_empty) {
            thre_stop();
            fifo_empty_seen = true;
            fifo_empty_ns = clock_now_ns();
            waker_wake(&drain_waiter);
        } else if (sent && !drain_waiter.task) {
            thre_stop();
        }
    }
    if (tx_space_waiter.task && ring_capacity(&tx) - used >= tx_space_wanted)
        waker_wake(&tx_space_waiter);
}

/* RX interrupt: move every received byte into the RX ring, counting
 * line errors and bytes dropped because the ring was full. */
static void rx_irq(uint32_t iir)
{
    unsigned n = 0;

    ctr.rx_irqs++;
    for (;;) {
        uint32_t lsr = lsr_read();
        if (!(lsr & UART_LSR_DR) || n == 4U * cfg->fifo_depth)
            break;
        uint8_t b = (uint8_t)uart_read(cfg, UART_RBR);
        if (ring_push(&rx, &b, 1))
            ctr.rx_bytes++;
        else
            ctr.rx_dropped++;
        n++;
    }
    if (n == 0 && iir == UART_IIR_RX_TIMEOUT)
        (void)uart_read(cfg, UART_RBR);   /* DW: timeout without data */
    waker_wake(&rx_waiter);
}

/* uart_isr: an IIR cause other than THRE and "none". Not inlined: its
 * registers would be saved on every TX interrupt too. */
static __attribute__((noinline)) void other_irq(uint32_t iir)
{
    switch (iir) {
    case UART_IIR_RLSI:
    case UART_IIR_RDI:
    case UART_IIR_RX_TIMEOUT:
        rx_irq(iir);
        return;
    case UART_IIR_BUSY:
        if (cfg->dw_apb) {
            ctr.busy_detect++;
            (void)uart_read(cfg, UART_DW_USR);   /* clears busy detect */
            return;
        }
        /* a 16550 has no such cause (and no USR): as an unknown one */
        __attribute__((fallthrough));
    default:
        (void)uart_read(cfg, UART_MSR);          /* modem status */
        return;
    }
}

/* UART interrupt (PLIC), interrupts masked: serve IIR causes in order. */
static void uart_isr(void *arg)
{
    (void)arg;
    for (int round = 0; round < UART_ISR_MAX_ROUNDS; round++) {
        uint32_t iir = uart_read(cfg, UART_IIR) & UART_IIR_ID;
        if (iir == UART_IIR_THRI) {
            tx_irq();
        } else if (iir == UART_IIR_NO_INT) {
            if (round == 0) {
                ctr.spurious_irqs++;      /* e.g. DW IIR=0xC1 at entry */
                if (thre_on)
                    tx_irq();             /* fills only the FIFO's room */
            }
            return;
        } else {
            other_irq(iir);
        }
    }
}

/* Boot task, after uart_hw_init(c). */
int uart_be_init(const struct uart_cfg *c, uint32_t irq)
{
    cfg = c;
    char_ns = uart_char_ns(c);
    ctr = (struct uart_counters){ 0 };
    ring_init(&tx, tx_store, sizeof tx_store);
    ring_init(&rx, rx_store, sizeof rx_store);
    unsigned long f = irq_save();
    ier_update(UART_IER_RDI | UART_IER_RLSI, 0);
    irq_restore(f);
    return irq_register(irq, uart_isr, 0);
}

/* Task, after a push: when THRE interrupts are off, load the FIFO now;
 * if bytes are left in the ring, enable THRE and let the interrupt do
 * the rest. thre_on is read first without masking: an interrupt that
 * turns it off runs either before that read (which then sees it off) or
 * after it, and then finds the pushed bytes and keeps THRE on. */
static void tx_kick(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);   /* the read stays after the push */
    if (thre_on)
        return;
    unsigned long f = irq_save();
    if (!thre_on && ring_used(&tx)) {
        bool fifo_empty;
        ctr.hw_send_calls++;              /* refills outside the interrupt */
        tx_refill(&fifo_empty);
        if (ring_used(&tx)) {
            thre_on = true;
            ier_update(UART_IER_THRI, 0);
        }
    }
    irq_restore(f);
}

/* Task: LSR with interrupts masked, errors counted. */
static uint32_t lsr_now(void)
{
    unsigned long f = irq_save();
    uint32_t lsr = lsr_read();
    irq_restore(f);
    return lsr;
}

/* Task: block until cond() holds or the waker fires; irq-masked check. */
static void wait_for(struct waker *w, bool (*cond)(void))
{
    unsigned long f = irq_save();
    *w = waker_current();
    if (!cond())
        sched_block();
    w->task = 0;
    irq_restore(f);
}

static bool tx_has_space(void) { return ring_free(&tx) >= tx_space_wanted; }
static bool rx_has_data(void) { return ring_used(&rx) != 0; }

/* uart_be_write, task: push what fits of n bytes and start the FIFO. */
static size_t push_kick(const uint8_t *p, size_t n)
{
    size_t k = ring_push(&tx, p, n < UINT32_MAX ? (uint32_t)n : UINT32_MAX);
    tx_kick();
    return k;
}

/* uart_be_write, task (blocking, the ring was full): wait for room and
 * push the rest. Wake-up watermark: a quarter of the ring, or all that
 * is left to write, so a big writer is woken once per many refills, not
 * once per FIFO's worth. */
static __attribute__((noinline)) size_t write_rest(const uint8_t *p, size_t n, size_t done)
{
    while (done < n) {
        size_t left = n - done, quarter = ring_capacity(&tx) / 4;
        tx_space_wanted = (uint32_t)(left < quarter ? left : quarter);
        ctr.writer_blocks++;
        wait_for(&tx_space_waiter, tx_has_space);
        done += push_kick(p + done, left);
    }
    return done;
}

/* Task. */
ssize_t uart_be_write(const void *buf, size_t n, bool nonblock)
{
    ctr.user_calls++;
    ctr.user_req += n;
    size_t done = push_kick(buf, n);

    if (done < n && !nonblock)
        done = write_rest(buf, n, done);
    ctr.user_acc += done;
    return done || n == 0 ? (ssize_t)done : -EAGAIN;
}

/* Task. */
ssize_t uart_be_read(void *buf, size_t n, bool nonblock)
{
    for (;;) {
        uint32_t k = ring_pop(&rx, buf, (uint32_t)n);
        if (k || n == 0)
            return k;
        if (nonblock)
            return -EAGAIN;
        wait_for(&rx_waiter, rx_has_data);
    }
}

/* Task: wait until the ring is empty and the FIFO empty (LSR.THRE says
 * so, or the THRE interrupt, asked for if it is off, sees it), then for
 * the shifter: sleep until the last stop bit is due and confirm
 * LSR.TEMT. The empty ring restarts at offset 0. */
int uart_be_drain(void)
{
    uint64_t deadline = clock_now_ns() + UART_DRAIN_MARGIN_NS +
                        2 * char_ns * (ring_used(&tx) + cfg->fifo_depth + 1U);

    ctr.drain_calls++;
    for (;;) {
        unsigned long f = irq_save();
        if (!thre_on && ring_used(&tx) == 0) {
            /* Empty, and no interrupt takes from it: restart at offset
             * 0, so writes after a drain find the ring at the same
             * position (their copies keep the caller's alignment). */
            ring_reset(&tx);
            if (fifo_empty_seen) {
                irq_restore(f);
                break;
            }
            uint32_t lsr = lsr_read();
            if (lsr & UART_LSR_TEMT) {
                irq_restore(f);
                return 0;
            }
            if (lsr & UART_LSR_THRE) {    /* FIFO empty now: only the shifter */
                fifo_empty_seen = true;
                fifo_empty_ns = clock_now_ns();
                irq_restore(f);
                break;
            }
            thre_on = true;               /* ask for the FIFO-empty event */
            ier_update(UART_IER_THRI, 0);
        }
        drain_waiter = waker_current();
        int rc = sched_block_until(deadline);
        drain_waiter.task = 0;
        irq_restore(f);
        if (rc == -ETIMEDOUT && (thre_on || ring_used(&tx))) {
            ctr.drain_timeouts++;
            return -ETIMEDOUT;
        }
    }
    for (int t = 0; !(lsr_now() & UART_LSR_TEMT); t++) {
        if (t == UART_DRAIN_TEMT_TRIES) {
            ctr.drain_timeouts++;
            return -ETIMEDOUT;
        }
        ctr.drain_timer_waits++;
        uint64_t due = fifo_empty_ns + (uint64_t)(t + 1) * char_ns;
        sleep_until(due > clock_now_ns() ? due : clock_now_ns() + char_ns);
    }
    return 0;
}

/* Task. */
size_t uart_be_rx_available(void) { return ring_used(&rx); }

/* Task: bytes in the ring plus those still in the hardware: exact on DW
 * (TFL, plus the shifter); on a 16550 only "none", "at most the shifter"
 * (THRE) or "up to a FIFO's worth" can be told apart. */
size_t uart_be_tx_pending(void)
{
    uint32_t lsr = lsr_now();
    size_t hw = 0;
    if (!(lsr & UART_LSR_TEMT))
        hw = cfg->dw_apb ? uart_read(cfg, UART_DW_TFL) + 1U
                         : (lsr & UART_LSR_THRE) ? 1U : cfg->fifo_depth;
    return ring_used(&tx) + hw;
}

/* Task. */
int uart_be_counters(struct uart_counters *out)
{
    unsigned long f = irq_save();
    uint32_t lsr = lsr_read();            /* counts errors before the copy */
    *out = ctr;
    out->hw_send_calls = ctr.hw_send_calls + ctr.tx_irqs;   /* each THRE entry refills */
    out->ring_pop_bytes = ctr.hw_send_bytes;   /* every byte taken goes to THR */
    out->ring_empty = ring_used(&tx) == 0;
    out->copier_active = thre_on;
    out->staged_bytes = ring_used(&tx);
    out->transmitter_empty = !!(lsr & UART_LSR_TEMT);
    irq_restore(f);
    return 0;
}

/* Task. */
int uart_be_counters_reset(void)
{
    unsigned long f = irq_save();
    struct uart_counters keep = ctr;
    ctr = (struct uart_counters){ 0 };
    /* RX counters stay cumulative since boot: a section resetting the TX
     * counters must not hide what the line delivered or lost. */
    ctr.rx_irqs = keep.rx_irqs;
    ctr.rx_bytes = keep.rx_bytes;
    ctr.rx_dropped = keep.rx_dropped;
    ctr.rx_overruns = keep.rx_overruns;
    ctr.rx_framing = keep.rx_framing;
    ctr.rx_parity = keep.rx_parity;
    ctr.rx_breaks = keep.rx_breaks;
    irq_restore(f);
    return 0;
}

/* Task. */
int uart_be_set_loopback(bool on)
{
    uint32_t mcr = uart_read(cfg, UART_MCR);
    uart_write(cfg, UART_MCR, on ? mcr | UART_MCR_LOOP : mcr & ~UART_MCR_LOOP);
    return 0;
}

/* Any context: polled flush of the TX ring (exit, panic). */
void uart_be_flush_polled(void)
{
    uint8_t b;
    if (!cfg)
        return;
    unsigned long f = irq_save();
    while (ring_pop(&tx, &b, 1))
        uart_putc_polled(cfg, (char)b);
    irq_restore(f);
}
