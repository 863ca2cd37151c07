/* libFuzzer target: the async UART backend (src/drivers/uart/async.c) with
 * its interrupt handler fed fuzzer-chosen register values.
 *
 * This file includes async.c, so that every input starts from the same
 * backend state (its statics are reset here) and the checks can see the
 * IER shadow, the THRE flag and the rings. The UART behind the register
 * layer (ns16550.c, HOST_TEST) is a fake of its own, different from
 * tests/host/fake_uart.c: it has no model of a UART at all. Every register
 * read (IIR, LSR, USR, TFL, RBR, MSR, MCR, ...) returns the next input
 * byte, so the values can contradict each other in any way hardware or a
 * glitch could; it records what the driver does with them.
 *
 * Input: two configuration bytes (16550 or DesignWare APB, FIFO depth,
 * baud), then operations: the interrupt handler, non-blocking writes and
 * reads, counter snapshots and resets, TX pending, drain, loopback, the
 * polled flush. Interrupts also arrive, when the input says so, whenever
 * task code unmasks them (irq_restore). Register reads take their values
 * from the same byte stream; after the input ends, reads return an idle
 * UART (IIR no interrupt, LSR THRE|TEMT, TFL 0).
 *
 * Invariants (a violation prints what and aborts):
 *  - no FIFO overfill: after a read that reports FIFO room (LSR.THRE: a
 *    FIFO's depth, on a 16550 THRE clear: none; DW TFL: depth - TFL), no
 *    more THR stores than that room before the next such read;
 *  - no runaway: at most UART_ISR_MAX_ROUNDS IIR reads and a bounded
 *    number of register accesses per handler run; bounded blocking in
 *    drain; AddressSanitizer and UBSan for memory and arithmetic;
 *  - only registers of the configured UART, with its access width, and no
 *    store into a read-only register; IER writes only valid bits;
 *  - bytes: THR stores equal the accepted bytes in order; accepted = sent
 *    + flushed + in the ring; RX bytes read back equal the RBR values the
 *    handler took as data (after LSR.DR), minus those dropped on a full
 *    ring;
 *  - counters equal what the fake saw: IIR causes (THRE, RX, busy,
 *    spurious), line errors of every LSR read, RX bytes and drops, THR
 *    bytes, write calls; the IER shadow equals the last IER write and its
 *    THRI bit equals the THRE flag; interrupts are unmasked after every
 *    task call. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The async backend's files with the small rings of fuzz_uart_isr.h. */
#include "fuzz_uart_isr.h"
#include "async.c"
#include "async_tx.c"
#include "async_rx.c"
#include "async_ctr.c"

unsigned op_no;
const char *op_name = "";

const unsigned async_isr_max_rounds = UART_ISR_MAX_ROUNDS;

bool async_thre_on(void) { return be_thre_on; }

/* ---- checks ---------------------------------------------------------------- */

/* After every operation (task context, interrupts enabled). */
static void check_state(void)
{
    if (!(host_csr.xstatus & XSTATUS_XIE))
        FAIL("interrupts left masked");
    if (f.ier_written != (int)be_ier)
        FAIL("IER shadow %#x, last IER write %#x", be_ier, f.ier_written);
    if (!!(be_ier & UART_IER_THRI) != be_thre_on)
        FAIL("IER.THRI %u but be_thre_on %u", !!(be_ier & UART_IER_THRI), be_thre_on);
    if (ring_used(&be_tx) > UART_TX_RING_SIZE || ring_used(&rx) > UART_RX_RING_SIZE)
        FAIL("ring overfull: tx %u rx %u", ring_used(&be_tx), ring_used(&rx));
    if (f.accepted_total != f.thr_total + ring_used(&be_tx))
        FAIL("accepted %llu bytes, sent %llu (%llu flushed), %u in the ring",
             (unsigned long long)f.accepted_total, (unsigned long long)f.thr_total,
             (unsigned long long)f.flushed_total, ring_used(&be_tx));
    if (ring_used(&rx) != rx_q_n)
        FAIL("RX ring holds %u bytes, the model %zu", ring_used(&rx), rx_q_n);
    if (f.credit < 0)
        FAIL("FIFO credit negative");
}

/* ---- operations ------------------------------------------------------------ */

static uint8_t pattern;

static void op_write(void)
{
    size_t n = take8() % 4 == 0 ? take8() % (MAX_WRITE + 1) : take8() % 24;
    uint8_t *buf = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        buf[i] = pattern++;
    uint32_t room = ring_free(&be_tx);
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

static void op_read(void)
{
    size_t n = take8() % (UART_RX_RING_SIZE + 8);
    uint8_t *buf = malloc(n ? n : 1);
    size_t want = n < rx_q_n ? n : rx_q_n;
    op_name = "read";
    ssize_t r = uart_be_read(buf, n, true);
    if (r != (want || n == 0 ? (ssize_t)want : -EAGAIN))
        FAIL("uart_be_read(%zu, nonblock) = %zd, model has %zu", n, r, rx_q_n);
    if (want && memcmp(buf, rx_q, want) != 0)
        FAIL("RX bytes differ from the RBR data values");
    memmove(rx_q, rx_q + want, rx_q_n - want);
    rx_q_n -= want;
    free(buf);
}

static void op_counters(void)
{
    struct uart_counters c;
    op_name = "counters";
    no_irq_at_restore = true;
    int rc = uart_be_counters(&c);
    no_irq_at_restore = false;
    if (rc != 0)
        FAIL("uart_be_counters failed");
    check_counters(&c);
    if (c.staged_bytes != ring_used(&be_tx) || c.ring_empty != (ring_used(&be_tx) == 0) ||
        c.copier_active != be_thre_on)
        FAIL("snapshot fields disagree with the backend state");
}

static void op_counters_reset(void)
{
    op_name = "counters_reset";
    /* The model first: an interrupt at the reset's irq_restore counts.
     * The reset clears the TX counters; the RX ones (RX interrupts, bytes,
     * drops, line errors) count since boot (uart_backend.h). */
    f.iir_thri = f.iir_busy = f.iir_spurious = f.iir_spurious_thre = 0;
    f.thr_refill = 0;
    f.writes = f.write_req = f.write_acc = 0;
    if (uart_be_counters_reset() != 0)
        FAIL("uart_be_counters_reset failed");
}

/* TX pending = ring + what LSR (and DW TFL) say the hardware holds. An
 * interrupt taken at the irq_restore after the LSR read may move bytes;
 * the ring is read last, after the register reads, so the sum is that of
 * the task's own reads and the ring at return. */
static void op_tx_pending(void)
{
    op_name = "tx_pending";
    size_t p = uart_be_tx_pending();
    uint32_t lsr = f.task_lsr;
    size_t hw = 0;
    if (!(lsr & UART_LSR_TEMT))
        hw = f.cfg.dw_apb ? f.task_tfl + 1U : (lsr & UART_LSR_THRE) ? 1U : f.cfg.fifo_depth;
    if (p != ring_used(&be_tx) + hw)
        FAIL("tx_pending %zu, expected ring %u + hardware %zu (LSR %#x TFL %u)", p,
             ring_used(&be_tx), hw, lsr, f.task_tfl);
}

static void op_drain(void)
{
    op_name = "drain";
    int rc = uart_be_drain();
    if (rc != 0 && rc != -ETIMEDOUT)
        FAIL("uart_be_drain = %d", rc);
    if (rc == 0 && ring_used(&be_tx) != 0)
        FAIL("drain returned 0 with %u bytes in the ring", ring_used(&be_tx));
}

static void op_loopback(void)
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

static void op_flush(void)
{
    op_name = "flush_polled";
    f.flushing = true;
    uart_be_flush_polled();
    f.flushing = false;
    if (ring_used(&be_tx) != 0)
        FAIL("flush left %u bytes in the ring", ring_used(&be_tx));
}

/* ---- setup ------------------------------------------------------------------ */

static void reset_backend(void)
{
    /* the backend's state, as at boot (those only blocking calls change,
     * such as the writer's wanted space, are never touched here). */
    be_cfg = NULL;
    memset(&be_tx, 0, sizeof be_tx);
    memset(&rx, 0, sizeof rx);
    be_tx_space_waiter = be_drain_waiter = rx_waiter = (struct waker){ 0 };
    be_thre_on = false;
    be_fifo_empty_seen = false;
    be_fifo_empty_ns = 0;
    be_ier = 0;
    be_char_ns = 0;
    be_ctr = (struct uart_counters){ 0 };
    armed_timer = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint16_t depths[] = { 1, 16, 64, 128, 256, 2, 8, 32 };
    static const uint32_t bauds[] = { 115200, 9600, 1500000, 3000000 };

    if (!tx_log && !(tx_log = malloc(LOG_MAX)))
        abort();
    in_p = data;
    in_n = size;
    op_no = 0;
    op_name = "setup";
    memset(&f, 0, sizeof f);
    f.ier_written = -1;
    tx_log_n = tx_log_sent = 0;
    rx_q_n = 0;
    now_ns = 0;
    handler = NULL;
    woken = in_isr = false;
    memset(&host_csr, 0, sizeof host_csr);
    host_csr.xstatus = XSTATUS_XIE;
    reset_backend();

    uint8_t c0 = take8(), c1 = take8();
    bool dw = c0 & 1;
    f.cfg = (struct uart_cfg){
        .base = dw ? BASE_DW : BASE_16550,
        .reg_shift = dw ? 2 : (c0 & 2 ? 2 : 0),
        .io_width = dw ? 4 : (c0 & 2) && (c0 & 4) ? 4 : 1,
        .dw_apb = dw,
        .clock_hz = dw ? 24000000 : 3686400,
        .baud = bauds[c1 & 3],
        .fifo_depth = depths[(c0 >> 3) & 7],
    };
    f.ier_written = -1;
    if (uart_be_init(&f.cfg, IRQ) != 0 || !handler)
        FAIL("uart_be_init failed");
    check_state();

    while (more()) {
        uint8_t op = take8();
        op_no++;
        f.op_accesses = 0;
        blocks_this_op = 0;
        switch (op % 16) {
        case 0: case 1: case 2: case 3: case 4: case 5:
            op_name = "interrupt";
            run_isr();
            break;
        case 6: case 7: case 8: op_write(); break;
        case 9: op_read(); break;
        case 10: op_counters(); break;
        case 11: op_counters_reset(); break;
        case 12: op_tx_pending(); break;
        case 13: op_drain(); break;
        case 14: op_loopback(); break;
        default: op_flush(); break;
        }
        check_state();
    }
    /* Whatever is left: the counters still add up. */
    op_counters();
    return 0;
}
