/* libFuzzer target fuzz_uart_isr (fuzz_uart_isr.h): the operations, each
 * one task call into the driver with fuzzer-chosen arguments, its result
 * checked against what the fake UART saw. */
#include <errno.h>
#include <string.h>

#include "fuzz_uart_isr.h"
#include "uart_port.h"

static uint8_t pattern;

/* The target: a non-blocking write of up to MAX_WRITE pattern bytes. */
void op_write(void)
{
    size_t n = take8() % 4 == 0 ? take8() % (MAX_WRITE + 1) : take8() % 24;
    uint8_t *buf = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        buf[i] = pattern++;
    uint32_t room = ring_free(&uart_port.tx);
    size_t want = n < room ? n : room;
    if (tx_log_n + want > LOG_MAX)
        FAIL("TX log full");
    memcpy(tx_log + tx_log_n, buf, want);      /* before: the kick sends them */
    tx_log_n += want;
    f.accepted_total += want;
    f.writes++;
    f.write_req += n;
    f.write_acc += want;
    op_name = "write";
    ssize_t r = uart_be_write(buf, n, true);
    if (r != (want || n == 0 ? (ssize_t)want : -EAGAIN))
        FAIL("uart_be_write(%zu, nonblock) = %zd with %u free", n, r, room);
    free(buf);
}

/* The target: a non-blocking read, its bytes the RBR data values. */
void op_read(void)
{
    size_t n = take8() % (UART_RX_RING_SIZE + 8);
    uint8_t *buf = malloc(n ? n : 1);
    size_t want = n < rx_q_n ? n : rx_q_n;
    uint8_t expect[UART_RX_RING_SIZE];
    /* The model first: an interrupt at the read's unlock (its
     * irq_restore) finds the room the read made. */
    memcpy(expect, rx_q, want);
    memmove(rx_q, rx_q + want, rx_q_n - want);
    rx_q_n -= want;
    op_name = "read";
    ssize_t r = uart_be_read(buf, n, true);
    if (r != (want || n == 0 ? (ssize_t)want : -EAGAIN))
        FAIL("uart_be_read(%zu, nonblock) = %zd, model had %zu", n, r, want);
    if (want && memcmp(buf, expect, want) != 0)
        FAIL("RX bytes differ from the RBR data values");
    free(buf);
}

/* The target (and at the input's end): a snapshot, checked. */
void op_counters(void)
{
    struct uart_counters c;
    op_name = "counters";
    no_irq_at_restore = true;
    int rc = uart_be_counters(&c);
    no_irq_at_restore = false;
    if (rc != 0)
        FAIL("uart_be_counters failed");
    check_counters(&c);
    if (c.staged_bytes != ring_used(&uart_port.tx) || c.ring_empty != (ring_used(&uart_port.tx) == 0) ||
        c.copier_active != fuzz_tx_on())
        FAIL("snapshot fields disagree with the backend state");
}

/* The target: the TX counters reset. */
void op_counters_reset(void)
{
    op_name = "counters_reset";
    /* The model first: an interrupt at the reset's irq_restore counts.
     * The reset clears the TX counters; the RX ones (RX interrupts, bytes,
     * drops, line errors) and DW busy detects count since boot
     * (uart_backend.h, the lower half's). */
    f.iir_thri = f.iir_spurious = f.iir_spurious_thre = 0;
    f.thr_refill = 0;
    f.writes = f.write_req = f.write_acc = 0;
    if (uart_be_counters_reset() != 0)
        FAIL("uart_be_counters_reset failed");
}

/* TX pending = ring + what LSR (and DW TFL) say the hardware holds
 * (nothing only with THRE and TEMT both: TEMT alone, which no UART
 * shows, is no room). The ring is read first, unmasked, and an interrupt
 * taken at the status read's irq_restore may move bytes from it: the sum
 * is that of the task's own register reads and the ring before or
 * after. */
void op_tx_pending(void)
{
    op_name = "tx_pending";
    uint32_t before = ring_used(&uart_port.tx);
    size_t p = uart_be_tx_pending();
    uint32_t lsr = f.task_lsr, after = ring_used(&uart_port.tx);
    size_t hw = 0;
    if ((lsr & (UART_LSR_THRE | UART_LSR_TEMT)) != (UART_LSR_THRE | UART_LSR_TEMT))
        hw = FUZZ_LOWER_DW ? f.task_tfl + 1U : (lsr & UART_LSR_THRE) ? 1U : f.depth;
    if (p != before + hw && p != after + hw)
        FAIL("tx_pending %zu, expected ring %u (%u before) + hardware %zu (LSR %#x TFL %u)",
             p, after, before, hw, lsr, f.task_tfl);
}

/* The target: a drain, bounded; 0 only with the ring empty. */
void op_drain(void)
{
    op_name = "drain";
    int rc = uart_be_drain();
    if (rc != 0 && rc != -ETIMEDOUT)
        FAIL("uart_be_drain = %d", rc);
    if (rc == 0 && ring_used(&uart_port.tx) != 0)
        FAIL("drain returned 0 with %u bytes in the ring", ring_used(&uart_port.tx));
}

/* The target: loopback on or off: MCR read, LOOP changed, written. */
void op_loopback(void)
{
    bool on = take8() & 1;
    op_name = "loopback";
    f.mcr_wrote = false;
    if (uart_be_set_loopback(on) != 0)
        FAIL("uart_be_set_loopback failed");
    unsigned want = on ? f.mcr_read | UART_MCR_LOOP : f.mcr_read & ~(unsigned)UART_MCR_LOOP;
    if (!f.mcr_wrote || f.mcr_written != want)
        FAIL("loopback %d: MCR read %#x, written %#x", on, f.mcr_read, f.mcr_written);
}

/* The target: the polled flush empties the ring. */
void op_flush(void)
{
    op_name = "flush_polled";
    f.flushing = true;
    uart_be_flush_polled();
    f.flushing = false;
    if (ring_used(&uart_port.tx) != 0)
        FAIL("flush left %u bytes in the ring", ring_used(&uart_port.tx));
}

