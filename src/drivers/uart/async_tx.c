/* Async backend, the task side of TX: write (into the TX ring, loading
 * the FIFO when THRE interrupts are off), drain and the TX backlog. The
 * THRE interrupt is async.c's. */
#include <errno.h>
#include "async_priv.h"
#include "clock.h"
#include "csr.h"
#include "timer.h"

#define UART_DRAIN_TEMT_TRIES 4   /* char-time sleeps waiting for TEMT */
#define UART_DRAIN_MARGIN_NS  10000000ULL

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

static bool tx_has_space(void) { return ring_free(&be_tx) >= be_tx_space_wanted; }

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
        be_tx_space_wanted = (uint32_t)(left < quarter ? left : quarter);
        be_ctr.writer_blocks++;
        async_wait_for(&be_tx_space_waiter, tx_has_space);
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
            if (be_fifo_empty_seen) {
                irq_restore(f);
                break;
            }
            uint32_t lsr = lsr_read();
            if (lsr & UART_LSR_TEMT) {
                irq_restore(f);
                return 0;
            }
            if (lsr & UART_LSR_THRE) {    /* FIFO empty now: only the shifter */
                be_fifo_empty_seen = true;
                be_fifo_empty_ns = clock_now_ns();
                irq_restore(f);
                break;
            }
            be_thre_on = true;               /* ask for the FIFO-empty event */
            ier_update(UART_IER_THRI, 0);
        }
        be_drain_waiter = waker_current();
        int rc = sched_block_until(deadline);
        be_drain_waiter.task = 0;
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
        uint64_t due = be_fifo_empty_ns + (uint64_t)(t + 1) * be_char_ns;
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

