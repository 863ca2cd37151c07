/* libFuzzer target: the UART driver (the tty core and the async TX engine,
 * src/drivers/uart, on the lower half this target is built with:
 * robust.fuzz_uart_isr.<lower>) with its interrupt handler fed
 * fuzzer-chosen register values.
 *
 * This file includes tty.c, tty_rx.c, tty_ctr.c and engine_async.c, so
 * that every input starts from the same driver state (their statics are
 * reset here) and the checks can see the port (the lower half's IER
 * shadow, the rings) and the engine's TX state. The UART behind the
 * register seam (uart_16550.h, HOST_TEST) is a fake of its own, different from
 * tests/host/fake_uart.c: it has no model of a UART at all. Every register
 * read (IIR, LSR, USR, TFL, RBR, MSR, MCR, ...) returns the next input
 * byte, so the values can contradict each other in any way hardware or a
 * glitch could; it records what the driver does with them.
 *
 * Input: two configuration bytes (register stride and width on a 16550,
 * the board's FIFO depth, baud), the register values of the lower half's
 * bring-up (DW: CPR's FIFO depth, LCR read back), then operations: the interrupt handler, non-blocking writes and
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
 *  - no runaway: at most ISR_MAX_ROUNDS IIR reads and a bounded
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
 *    THRI bit equals the engine's TX_ON state; interrupts are unmasked
 *    after every task call. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The driver's files with the small rings of fuzz_uart_isr.h. */
#include "fuzz_uart_isr.h"
#include "tty.c"
#include "tty_rx.c"
#include "tty_ctr.c"
#include "engine_async.c"

unsigned op_no;
const char *op_name = "";

const unsigned isr_max_rounds = ISR_MAX_ROUNDS;

/* The fake UART (its IIR reads) and the checks, any context. */
bool fuzz_tx_on(void) { return uart_port.eng && tx_of(&uart_port)->state == TX_ON; }

/* ---- checks ---------------------------------------------------------------- */

/* The target, after every operation (task context, interrupts enabled). */
void check_state(void)
{
    struct uart_port *p = &uart_port;
    if (!(host_csr.xstatus & XSTATUS_XIE))
        FAIL("interrupts left masked");
    if (f.ier_written != (int)p->hw.ier)
        FAIL("IER shadow %#x, last IER write %#x", p->hw.ier, f.ier_written);
    if (!!(p->hw.ier & UART_IER_THRI) != (tx_of(p)->state == TX_ON))
        FAIL("IER.THRI %u but TX state %d", !!(p->hw.ier & UART_IER_THRI), (int)tx_of(p)->state);
    if (ring_used(&p->tx) > UART_TX_RING_SIZE || ring_used(&p->rx) > UART_RX_RING_SIZE)
        FAIL("ring overfull: tx %u rx %u", ring_used(&p->tx), ring_used(&p->rx));
    if (f.accepted_total != f.thr_total + ring_used(&p->tx))
        FAIL("accepted %llu bytes, sent %llu (%llu flushed), %u in the ring",
             (unsigned long long)f.accepted_total, (unsigned long long)f.thr_total,
             (unsigned long long)f.flushed_total, ring_used(&p->tx));
    if (ring_used(&p->rx) != rx_q_n)
        FAIL("RX ring holds %u bytes, the model %zu", ring_used(&p->rx), rx_q_n);
    if (waitq_active(&p->tx_space) || waitq_active(&p->drain) || waitq_active(&p->rx_data)
        || waitq_active(&p->writer_turn) || p->writing)
        FAIL("a wait queue keeps a waiter after the call returned");
    if (deadline_timer)
        FAIL("a deadline's timer left armed after the call returned");
    if (f.credit < 0)
        FAIL("FIFO credit negative");
}

/* ---- setup ------------------------------------------------------------------ */

/* Each input, first: the driver's state as at boot (zeroed bss). */
static void reset_driver(void)
{
    uart_port = (struct uart_port){ 0 };   /* (the RX budget and, through eng, the
                                              engine's state are the port's: async_init
                                              sets them) */
    armed_timer = deadline_timer = 0;
}

/* libFuzzer, once per input. */
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
    reset_driver();

    uint8_t c0 = take8(), c1 = take8();
    f.cfg = (struct uart_cfg){
        .base = FUZZ_LOWER_DW ? BASE_DW : BASE_16550,
        .reg_shift = FUZZ_LOWER_DW ? 2 : (c0 & 2 ? 2 : 0),
        .io_width = FUZZ_LOWER_DW ? 4 : (c0 & 2) && (c0 & 4) ? 4 : 1,
        .clock_hz = FUZZ_LOWER_DW ? 24000000 : 3686400,
        .baud = bauds[c1 & 3],
        .fifo_depth = depths[(c0 >> 3) & 7],
        .tx_at_store = c0 & 1,        /* a one-byte write into an idle transmitter */
    };
    f.ier_written = -1;
    /* Bring-up on fuzzer values (DW: CPR, the LCR read back); when it
     * gives up, the UART is left in an unknown state: nothing to check. */
    op_name = "hw_init";
    if (uart_be_hw_init(&f.cfg) != 0)
        return 0;
    f.depth = uart_port.hw.fifo_depth;
    if (f.depth == 0 || (!FUZZ_LOWER_DW && f.depth != f.cfg.fifo_depth))
        FAIL("FIFO depth %u after bring-up (board %u)", f.depth, f.cfg.fifo_depth);
    op_name = "init";
    if (uart_be_init(IRQ) != 0 || !handler)
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
