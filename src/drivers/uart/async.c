/* Async backend: TX/RX rings, THRE-interrupt refill, wakers for writers,
 * readers and drainers. No path spins on a register: a writer that finds
 * the ring full, a reader with nothing to read and a drainer all block.
 * This file: TX, the interrupt's dispatch, drain; async_rx.c the RX path,
 * async_ctr.c the counters. */
#include <errno.h>
#include "async_priv.h"
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "plic.h"
#include "timer.h"

#define UART_DRAIN_TEMT_TRIES 4   /* char-time sleeps waiting for TEMT */
#define UART_DRAIN_MARGIN_NS  10000000ULL

const char uart_be_name[] = "async";

const struct uart_cfg *be_cfg;
struct ring be_tx;
volatile bool be_thre_on;
uint32_t be_ier;
uint64_t be_char_ns;
struct uart_counters be_ctr;
static uint8_t tx_store[UART_TX_RING_SIZE];
static struct waker tx_space_waiter, drain_waiter;
static volatile uint32_t tx_space_wanted; /* free bytes the blocked writer waits for */
static volatile bool fifo_empty_seen; /* THRE saw ring and FIFO empty ... */
static volatile uint64_t fifo_empty_ns; /* ... at this time (shifter then busy) */

/* Interrupts masked (every path). */
uint32_t lsr_read(void)
{
    uint32_t lsr = uart_read(be_cfg, UART_LSR);
    if (lsr & (UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI)) {
        be_ctr.rx_overruns += !!(lsr & UART_LSR_OE);
        be_ctr.rx_parity += !!(lsr & UART_LSR_PE);
        be_ctr.rx_framing += !!(lsr & UART_LSR_FE);
        be_ctr.rx_breaks += !!(lsr & UART_LSR_BI);
    }
    return lsr;
}

/* Interrupts masked: bytes the TX FIFO takes now (DW: depth - TFL;
 * 16550: a FIFO's worth only when THRE says it is empty). */
static unsigned tx_room(void)
{
    if (be_cfg->dw_apb) {
        uint32_t level = uart_read(be_cfg, UART_DW_TFL);
        return level < be_cfg->fifo_depth ? be_cfg->fifo_depth - level : 0;
    }
    return (lsr_read() & UART_LSR_THRE) ? be_cfg->fifo_depth : 0;
}

/* tx_refill, interrupts masked: one contiguous run of at most room ring
 * bytes into the FIFO; returns its length. */
static inline __attribute__((always_inline)) unsigned load_run(unsigned room)
{
    const uint8_t *p;
    uint32_t k = ring_read_slice(&be_tx, &p);

    if (k > room)
        k = room;
    if (k) {
        uart_write_thr_burst(be_cfg, p, k);
        ring_consume(&be_tx, k);
        be_ctr.ring_pop_calls++;
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

    *fifo_was_empty = room == be_cfg->fifo_depth;
    if (!room) {
        be_ctr.hw_send_zero++;
        return 0;
    }
    unsigned sent = load_run(room);
    if (sent && sent < room)      /* the ring wrapped, or ran out */
        sent += load_run(room - sent);
    if (sent) {
        fifo_empty_seen = false;
        be_ctr.hw_send_bytes += sent;
        if (sent > be_ctr.hw_send_max_chunk)
            be_ctr.hw_send_max_chunk = sent;
    }
    return sent;
}

/* Interrupts masked: stop THRE interrupts. */
static void thre_stop(void)
{
    ier_update(0, UART_IER_THRI);
    be_thre_on = false;
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

    be_ctr.tx_irqs++;
    unsigned sent = tx_refill(&fifo_empty);
    uint32_t used = ring_used(&be_tx);
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
    if (tx_space_waiter.task && ring_capacity(&be_tx) - used >= tx_space_wanted)
        waker_wake(&tx_space_waiter);
}

/* UART interrupt, interrupts masked, an RX claim's THRE cause: the
 * refill is TX work, charged to the ISR account. */
void async_tx_irq_in_rx(void)
{
    struct cpu_acct *prev = cpu_acct_switch(&cpu_acct_isr);
    tx_irq();
    cpu_acct_switch(prev);
}

/* UART interrupt: a cause neither TX nor RX. */
void async_other_irq(uint32_t iir)
{
    if (iir == UART_IIR_BUSY && be_cfg->dw_apb) {
        be_ctr.busy_detect++;
        (void)uart_read(be_cfg, UART_DW_USR);   /* clears busy detect */
        return;
    }
    /* a 16550 has no busy cause (and no USR): as an unknown one */
    (void)uart_read(be_cfg, UART_MSR);          /* modem status */
}

/* uart_isr: a cause other than THRE and "none" in round `round`; true
 * when it was RX, whose path then served the rest of the claim. Not
 * inlined: its registers would be saved on every TX interrupt too. */
static __attribute__((noinline)) bool other_cause(uint32_t iir, int round)
{
    if (iir == UART_IIR_RDI || iir == UART_IIR_RX_TIMEOUT || iir == UART_IIR_RLSI) {
        async_rx_claim(iir, round);
        return true;
    }
    async_other_irq(iir);
    return false;
}

/* UART interrupt (PLIC), interrupts masked: serve IIR causes in order. */
static void uart_isr(void *arg)
{
    (void)arg;
    for (int round = 0; round < UART_ISR_MAX_ROUNDS; round++) {
        uint32_t iir = uart_read(be_cfg, UART_IIR) & UART_IIR_ID;
        if (iir == UART_IIR_THRI) {
            tx_irq();
        } else if (iir == UART_IIR_NO_INT) {
            if (round == 0) {
                be_ctr.spurious_irqs++;      /* e.g. DW IIR=0xC1 at entry */
                if (be_thre_on)
                    tx_irq();             /* fills only the FIFO's room */
            }
            return;
        } else if (other_cause(iir, round)) {
            return;                   /* the rest of this claim was RX work */
        }
    }
}

/* Boot task, after uart_hw_init(c). */
int uart_be_init(const struct uart_cfg *c, uint32_t irq)
{
    be_cfg = c;
    be_char_ns = uart_char_ns(c);
    be_ctr = (struct uart_counters){ 0 };
    ring_init(&be_tx, tx_store, sizeof tx_store);
    async_rx_init();
    return irq_register(irq, uart_isr, 0);
}

/* Task, after a push: when THRE interrupts are off, load the FIFO now;
 * if bytes are left in the ring, enable THRE and let the interrupt do
 * the rest. be_thre_on is read first without masking: an interrupt that
 * turns it off runs either before that read (which then sees it off) or
 * after it, and then finds the pushed bytes and keeps THRE on. */
static void tx_kick(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);   /* the read stays after the push */
    if (be_thre_on)
        return;
    unsigned long f = irq_save();
    if (!be_thre_on && ring_used(&be_tx)) {
        bool fifo_empty;
        be_ctr.hw_send_calls++;              /* refills outside the interrupt */
        tx_refill(&fifo_empty);
        if (ring_used(&be_tx)) {
            be_thre_on = true;
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

/* Task (writers here, readers in async_rx.c): block until cond() holds
 * or the waker fires; irq-masked check. */
void async_wait_for(struct waker *w, bool (*cond)(void))
{
    unsigned long f = irq_save();
    *w = waker_current();
    if (!cond())
        sched_block();
    w->task = 0;
    irq_restore(f);
}

static bool tx_has_space(void) { return ring_free(&be_tx) >= tx_space_wanted; }

/* uart_be_write, task: push what fits of n bytes and start the FIFO.
 * The bytes count as accepted as soon as they are in the ring: nothing
 * blocks between the push and the count, so a counter snapshot (taken
 * by a task) sees both or neither. */
static size_t push_kick(const uint8_t *p, size_t n)
{
    size_t k = ring_push(&be_tx, p, n < UINT32_MAX ? (uint32_t)n : UINT32_MAX);
    be_ctr.user_acc += k;
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
        size_t left = n - done, quarter = ring_capacity(&be_tx) / 4;
        tx_space_wanted = (uint32_t)(left < quarter ? left : quarter);
        be_ctr.writer_blocks++;
        async_wait_for(&tx_space_waiter, tx_has_space);
        done += push_kick(p + done, left);
    }
    return done;
}

/* Task. */
ssize_t uart_be_write(const void *buf, size_t n, bool nonblock)
{
    be_ctr.user_calls++;
    be_ctr.user_req += n;
    size_t done = push_kick(buf, n);

    if (done < n && !nonblock)
        done = write_rest(buf, n, done);
    return done || n == 0 ? (ssize_t)done : -EAGAIN;
}

/* Task: wait until the ring is empty and the FIFO empty (LSR.THRE says
 * so, or the THRE interrupt, asked for if it is off, sees it), then for
 * the shifter: sleep until the last stop bit is due and confirm
 * LSR.TEMT. The empty ring restarts at offset 0. */
int uart_be_drain(void)
{
    uint64_t deadline = clock_now_ns() + UART_DRAIN_MARGIN_NS +
                        2 * be_char_ns * (ring_used(&be_tx) + be_cfg->fifo_depth + 1U);

    be_ctr.drain_calls++;
    for (;;) {
        unsigned long f = irq_save();
        if (!be_thre_on && ring_used(&be_tx) == 0) {
            /* Empty, and no interrupt takes from it: restart at offset
             * 0, so writes after a drain find the ring at the same
             * position (their copies keep the caller's alignment). */
            ring_reset(&be_tx);
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
            be_thre_on = true;               /* ask for the FIFO-empty event */
            ier_update(UART_IER_THRI, 0);
        }
        drain_waiter = waker_current();
        int rc = sched_block_until(deadline);
        drain_waiter.task = 0;
        irq_restore(f);
        if (rc == -ETIMEDOUT && (be_thre_on || ring_used(&be_tx))) {
            be_ctr.drain_timeouts++;
            return -ETIMEDOUT;
        }
    }
    for (int t = 0; !(lsr_now() & UART_LSR_TEMT); t++) {
        if (t == UART_DRAIN_TEMT_TRIES) {
            be_ctr.drain_timeouts++;
            return -ETIMEDOUT;
        }
        be_ctr.drain_timer_waits++;
        uint64_t due = fifo_empty_ns + (uint64_t)(t + 1) * be_char_ns;
        sleep_until(due > clock_now_ns() ? due : clock_now_ns() + be_char_ns);
    }
    return 0;
}

/* Task: bytes in the ring plus those still in the hardware: exact on DW
 * (TFL, plus the shifter); on a 16550 only "none", "at most the shifter"
 * (THRE) or "up to a FIFO's worth" can be told apart. */
size_t uart_be_tx_pending(void)
{
    uint32_t lsr = lsr_now();
    size_t hw = 0;
    if (!(lsr & UART_LSR_TEMT))
        hw = be_cfg->dw_apb ? uart_read(be_cfg, UART_DW_TFL) + 1U
                         : (lsr & UART_LSR_THRE) ? 1U : be_cfg->fifo_depth;
    return ring_used(&be_tx) + hw;
}

/* Any context: polled flush of the TX ring (exit, panic); the bytes
 * count as sent. */
void uart_be_flush_polled(void)
{
    uint8_t b;
    if (!be_cfg)
        return;
    unsigned long f = irq_save();
    while (ring_pop(&be_tx, &b, 1)) {
        uart_putc_polled(be_cfg, (char)b);
        be_ctr.hw_send_bytes++;
    }
    irq_restore(f);
}
