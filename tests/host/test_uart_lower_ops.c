/* A UART lower half against the fake UART (test_uart_lower.c): the
 * interrupt's causes (priorities, modem status, IIR=0xC1 entries; DW: the
 * busy detect cleared by USR, an RX timeout without data ended by one
 * dummy RBR read, no loop), TX room, readiness, level and emptiness
 * (16550: THRE and TEMT only; DW: TFL and TFNF), RX with line errors and
 * overruns counted, IER and loopback. */
#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_lower.h"
#include "test_uart_lower.h"

/* main(): causes in the 16550's order, each cleared as the IP clears it. */
void test_causes(void)
{
    uint8_t b[4];
    bool more;

    up(16, 16);
    uart_lower.irq_update(&hw, UART_IRQ_TX | UART_IRQ_RX, 0);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_TX);     /* THRE on enabling */
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_NONE);   /* the IIR read cleared it */
    fu_rx_inject('a', 0);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_RX);
    CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 1);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_NONE);
    fu_rx_inject('p', FU_RX_PE);                        /* line status first */
    uart_lower.tx_load(&hw, (const uint8_t *)"xy", 2);
    fk_idle_until(fu_now() + 3 * fu_cfg()->char_ns);    /* THRE pending too */
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_RX);
    CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 1);
    CHECK_EQ(hw.err.parity, 1);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_TX);
    /* Modem status: served by the lower half (an MSR read clears it). */
    uart_write(&cfg, UART_IER, hw.ier | 0x08);
    fu_msr_change();
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_OTHER);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_NONE);
    /* An entry with nothing pending (DW IIR 0xC1): at the entry's first
     * read, the FIFO's room; at a later read, nothing. */
    fu_spurious(2);
    uint64_t iir = fu_stats()->iir_reads;
    CHECK_EQ(uart_lower.cause(&hw, true), UART_CAUSE_TX_ROOM);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_NONE);
    CHECK_EQ(fu_stats()->c1_reads, 2);
    CHECK_EQ(fu_stats()->iir_reads, iir + 2);
    CHECK(!fu_irq_line());
    CHECK_EQ(fu_errors(), 0);
}

/* main(): DW only (a 16550 has neither quirk; its lower half never reads
 * USR: the fake rejects it there). */
void test_dw_quirks(void)
{
    uint8_t b[4];
    bool more;

    if (!LOWER_DW)
        return;
    /* Busy detect: an LCR store while TX is active raises IIR 0x7; the
     * cause is the lower half's, a USR read clears it, it is counted. */
    up(64, 64);
    uart_lower.tx_load(&hw, (const uint8_t *)"busy", 4);
    uart_write(&cfg, UART_LCR, UART_LCR_8N1);
    CHECK(fu_busy_detect_pending());
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_OTHER);
    CHECK(!fu_busy_detect_pending());
    CHECK_EQ(hw.busy_detect, 1);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_NONE);
    /* RX timeout without data: one dummy RBR read ends it (no loop: the
     * next cause is none, two IIR reads in all). */
    uart_lower.irq_update(&hw, UART_IRQ_RX, 0);
    fu_stats_clear();
    fu_rx_timeout_nodata();
    CHECK(fu_irq_line());
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_OTHER);
    CHECK_EQ(fu_stats()->rbr_empty_reads, 1);
    CHECK_EQ(fu_stats()->timeout_cleared, 1);
    CHECK(!fu_rx_timeout_pending());
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_NONE);
    CHECK_EQ(fu_stats()->iir_reads, 2);
    CHECK(!fu_irq_line());
    /* A real RX timeout (data below the trigger level): RX, no dummy read,
     * the byte kept. */
    uart_write(&cfg, UART_FCR, UART_FCR_ENABLE | 0x80);   /* trigger: half full */
    fu_rx_inject('t', 0);
    fk_idle_until(fu_now() + 5 * fu_cfg()->char_ns);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_RX);
    CHECK_EQ(fu_stats()->rbr_empty_reads, 1);
    CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 1);
    CHECK_EQ(b[0], 't');
    CHECK_EQ(fu_errors(), 0);
}

/* main(): TX room, readiness, level and emptiness at each stage of a
 * transfer: idle, FIFO partly full, FIFO full, only the shifter busy. */
void test_tx_ops(unsigned depth)
{
    uint8_t buf[64];

    up(depth, depth);
    for (unsigned i = 0; i < depth; i++)
        buf[i] = (uint8_t)i;
    CHECK_EQ(uart_lower.tx_room(&hw), depth);
    CHECK(uart_lower.tx_ready(&hw));
    CHECK(uart_lower.tx_empty(&hw));
    CHECK_EQ(uart_lower.tx_level(&hw), 0);
    /* k bytes: one in the shifter at once, k - 1 in the FIFO. */
    unsigned k = depth / 2;
    uart_lower.tx_load(&hw, buf, k);
    CHECK_EQ(uart_lower.tx_room(&hw), LOWER_DW ? depth - (k - 1) : 0);
    CHECK(uart_lower.tx_ready(&hw) == LOWER_DW);     /* 16550: THRE, DW: TFNF */
    CHECK(!uart_lower.tx_empty(&hw));
    CHECK_EQ(uart_lower.tx_level(&hw), LOWER_DW ? k : depth);
    /* DW: fill what it says it has room for: full, nothing lost. */
    if (LOWER_DW) {
        uart_lower.tx_load(&hw, buf, uart_lower.tx_room(&hw));
        CHECK_EQ(fu_tx_level(), depth);
        CHECK_EQ(uart_lower.tx_room(&hw), 0);
        CHECK(!uart_lower.tx_ready(&hw));
        CHECK_EQ(uart_lower.tx_level(&hw), depth + 1);
    }
    /* Only the shifter: THRE, room for a FIFO, level at most one. */
    while (fu_tx_level())
        fu_advance_to(fu_next_event());
    CHECK_EQ(uart_lower.tx_room(&hw), depth);
    CHECK(uart_lower.tx_ready(&hw));
    CHECK(!uart_lower.tx_empty(&hw));
    CHECK_EQ(uart_lower.tx_level(&hw), 1);
    fu_advance_to(fu_next_event());
    CHECK(uart_lower.tx_empty(&hw));
    CHECK_EQ(uart_lower.tx_level(&hw), 0);
    CHECK_EQ(fu_stats()->lost_stores, 0);
    CHECK_EQ(fu_errors(), 0);
}

/* main(): received bytes in order, at most max per call with *more
 * telling what is left; line errors and overruns counted once each. */
void test_rx_take(unsigned depth)
{
    uint8_t b[8];
    bool more;

    up(depth, depth);
    if (depth == 1) {
        fu_rx_inject('a', 0);
        fu_rx_inject('b', 0);                 /* no room: lost, OE */
        CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 1);
        CHECK(!more);
        CHECK_EQ(b[0], 'a');
        CHECK_EQ(hw.err.overrun, 1);
        CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 0);
        CHECK_EQ(hw.err.overrun, 1);
        return;
    }
    fu_rx_inject('a', 0);
    fu_rx_inject('b', FU_RX_PE);
    fu_rx_inject('c', FU_RX_FE);
    fu_rx_inject('d', FU_RX_BI);
    CHECK_EQ(uart_lower.rx_take(&hw, b, 2, &more), 2);
    CHECK(more);
    CHECK(b[0] == 'a' && b[1] == 'b');
    CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 2);
    CHECK(!more);
    CHECK(b[0] == 'c' && b[1] == 'd');
    CHECK_EQ(hw.err.parity, 1);
    CHECK_EQ(hw.err.framing, 1);
    CHECK_EQ(hw.err.brk, 1);
    CHECK_EQ(hw.err.overrun, 0);
    CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 0);
    CHECK_EQ(fu_errors(), 0);
}

/* main(): IER follows the UART_IRQ_* set; loopback turns MCR.LOOP on and
 * off and keeps the other bits, and sends TX bytes to RX. */
void test_irq_and_loopback(void)
{
    uint8_t b[8];
    bool more;
    const uint8_t mcr = UART_MCR_DTR | UART_MCR_RTS | UART_MCR_OUT2;

    up(16, 16);
    uart_lower.irq_update(&hw, UART_IRQ_TX, 0);
    CHECK_EQ(fu_reg_ier(), UART_IER_THRI);
    uart_lower.irq_update(&hw, UART_IRQ_RX, 0);
    CHECK_EQ(fu_reg_ier(), UART_IER_THRI | UART_IER_RDI | UART_IER_RLSI);
    uart_lower.irq_update(&hw, 0, UART_IRQ_TX);
    CHECK_EQ(fu_reg_ier(), UART_IER_RDI | UART_IER_RLSI);
    CHECK_EQ(hw.ier, fu_reg_ier());
    CHECK_EQ(hw.irqs, UART_IRQ_RX);
    uart_lower.irq_update(&hw, 0, UART_IRQ_RX);
    CHECK_EQ(fu_reg_ier(), 0);
    CHECK(uart_lower.caps & UART_CAP_LOOPBACK);
    uart_lower.loopback(&hw, true);
    CHECK_EQ(fu_reg_mcr(), mcr | UART_MCR_LOOP);
    uart_lower.tx_load(&hw, (const uint8_t *)"lb", 2);
    fk_idle_until(fu_now() + 3 * fu_cfg()->char_ns);
    CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 2);
    CHECK(b[0] == 'l' && b[1] == 'b');
    CHECK_EQ(fu_out_count(), 0);
    uart_lower.loopback(&hw, false);
    CHECK_EQ(fu_reg_mcr(), mcr);
    CHECK_EQ(fu_errors(), 0);
}

/* main(): this file's failed checks. */
int uart_lower_ops_failures(void) { return check_failures; }
