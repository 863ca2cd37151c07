/* A UART lower half (lower_ns16550.h or lower_dw_apb.h, the one this
 * executable is built with) against the register-level fake UART: access
 * width and stride, divisor programming, the FIFO depth (DW: from CPR),
 * the LCR store (DW: the busy retry), polled output. The interrupt causes
 * and the TX/RX operations: test_uart_lower_ops.c. */
#include <string.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_mmio.h"
#include "fake_uart.h"
#include "test_lower.h"
#include "test_uart_lower.h"

struct uart_cfg cfg;
struct uart_hw hw;

/* Every test: a fresh fake, the lower half's init on it. */
void up(unsigned depth, unsigned board_depth)
{
    cfg = lower_cfg(board_depth);
    lower_fake_init(&cfg, depth, 100);
    hw = (struct uart_hw){ .cfg = &cfg };
    CHECK_EQ(uart_lower.init(&hw), 0);
    fu_stats_clear();
}

/* The fake itself rejects what the hardware would not take (its dw
 * switch at run time: both kinds, whatever the lower half). */
static void test_fake_rejects_bad_access(void)
{
    const uintptr_t dw = 0x02500000, ns = 0x10000000;
    struct fu_config f = { .base = dw, .reg_shift = 2, .width = 4, .dw = true,
                           .fifo_depth = 64, .char_ns = 86805, .access_ns = 100 };
    fu_errors_quiet(true);
    fu_init(&f);
    (void)fake_mmio_read(dw + 1, 4);         /* unaligned */
    CHECK_EQ(fu_errors(), 1);
    (void)fake_mmio_read(dw + 0x14, 1);      /* byte access on DW */
    CHECK_EQ(fu_errors(), 2);
    fake_mmio_write(dw + 0x40, 4, 0);        /* no register there */
    CHECK_EQ(fu_errors(), 3);
    fake_mmio_write(dw + 0x14, 4, 0);        /* LSR is read-only */
    CHECK_EQ(fu_errors(), 4);

    f = (struct fu_config){ .base = ns, .width = 1, .fifo_depth = 16, .char_ns = 86805,
                            .access_ns = 100 };
    fu_init(&f);
    fu_errors_clear();
    (void)fake_mmio_read(ns + 5, 4);         /* word access on NS */
    CHECK_EQ(fu_errors(), 1);
    (void)fake_mmio_read(ns + 0x7C, 1);      /* USR: not a 16550 register */
    CHECK_EQ(fu_errors(), 2);
    (void)fake_mmio_read(ns + 5, 1);         /* LSR: fine */
    CHECK_EQ(fu_errors(), 2);
    fu_errors_clear();
    fu_errors_quiet(false);
}

/* Bring-up: the divisor, 8N1 with DLAB off again, FIFOs on, interrupts
 * off, DTR/RTS/OUT2, only accesses of the IP's width on its stride, the
 * FIFO depth and where it came from. */
static void test_init(void)
{
    up(LOWER_DW ? 64 : 16, 16);
    CHECK_EQ(fu_errors(), 0);
    CHECK_EQ(uart_divisor(&cfg), LOWER_DW ? 13 : 2);
    CHECK_EQ(uart_real_baud_milli(&cfg), LOWER_DW ? 115384615ULL : 115200000ULL);
    CHECK_EQ(strcmp(uart_lower.name, LOWER_NAME), 0);
    cfg = lower_cfg(16);
    lower_fake_init(&cfg, LOWER_DW ? 64 : 16, 100);
    hw = (struct uart_hw){ .cfg = &cfg };
    CHECK_EQ(uart_lower.init(&hw), 0);
    CHECK(fu_stats()->accesses > 0);
    CHECK_EQ(fu_stats()->widths_seen, 1u << cfg.io_width);
    CHECK_EQ(fu_stats()->offsets_or & ((1u << cfg.reg_shift) - 1), 0);
    CHECK_EQ(fu_reg_dll(), uart_divisor(&cfg));
    CHECK_EQ(fu_reg_dlm(), 0);
    CHECK_EQ(fu_reg_lcr(), UART_LCR_8N1);
    CHECK_EQ(fu_reg_ier(), 0);
    CHECK_EQ(hw.ier, 0);
    CHECK(fu_fifo_enabled());
    CHECK_EQ(fu_reg_mcr(), UART_MCR_DTR | UART_MCR_RTS | UART_MCR_OUT2);
    CHECK_EQ(fu_stats()->lcr_writes, 2);
    CHECK_EQ(fu_stats()->lcr_ignored, 0);
    CHECK(!fu_busy_detect_pending());
    /* DW: CPR says 64 where the board said 16; a 16550 has no CPR. */
    CHECK_EQ(hw.fifo_depth, LOWER_DW ? 64 : 16);
    CHECK_EQ(strcmp(hw.fifo_source, LOWER_DW ? "cpr" : "board"), 0);
    /* DW without FIFO_MODE in CPR (a FIFO under 16 bytes): the board's. */
    up(8, 8);
    CHECK_EQ(hw.fifo_depth, 8);
    CHECK_EQ(strcmp(hw.fifo_source, "board"), 0);
    CHECK_EQ(fu_errors(), 0);
}

/* Rounding to nearest and a 16-bit divisor split over DLL/DLM. */
static void test_divisor(void)
{
    struct uart_cfg slow = lower_cfg(16);
    slow.baud = LOWER_DW ? 1200 : 300;       /* 24e6/19200 = 1250, 3686400/4800 = 768 */
    lower_fake_init(&slow, 16, 100);
    hw = (struct uart_hw){ .cfg = &slow };
    CHECK_EQ(uart_lower.init(&hw), 0);
    CHECK_EQ(uart_divisor(&slow), LOWER_DW ? 1250 : 768);
    CHECK_EQ(fu_reg_dll(), LOWER_DW ? 0xE2 : 0);
    CHECK_EQ(fu_reg_dlm(), LOWER_DW ? 4 : 3);
    CHECK_EQ(uart_divisor(&(struct uart_cfg){ .clock_hz = 24000000, .baud = 1500000 }), 1);
    CHECK_EQ(uart_divisor(&(struct uart_cfg){ .clock_hz = 24000000, .baud = 921600 }), 2);
    CHECK_EQ(uart_divisor(&(struct uart_cfg){ .clock_hz = 100, .baud = 115200 }), 1);
    CHECK_EQ(uart_char_ns(&slow), 10ULL * 16 * uart_divisor(&slow) * 1000000000ULL /
                                      slow.clock_hz);
}

/* DW: LCR stores that land while the UART is busy are ignored k times:
 * the lower half retries until the value sticks and clears the busy
 * detect; busy on every try, it gives up, bounded. A 16550 takes every
 * store: one each, never read back. */
static void test_lcr_busy(void)
{
    for (unsigned k = 1; k <= 7; k++) {
        cfg = lower_cfg(64);
        lower_fake_init(&cfg, 64, 100);
        fu_force_lcr_busy(k);
        hw = (struct uart_hw){ .cfg = &cfg };
        CHECK_EQ(uart_lower.init(&hw), 0);
        CHECK_EQ(fu_stats()->lcr_ignored, LOWER_DW ? k : 0);
        CHECK_EQ(fu_stats()->lcr_writes, LOWER_DW ? 2 + k : 2);
        CHECK_EQ(fu_reg_dll(), uart_divisor(&cfg));
        CHECK_EQ(fu_reg_lcr(), UART_LCR_8N1);
        CHECK(!fu_busy_detect_pending());
        CHECK_EQ(fu_errors(), 0);
    }
    if (LOWER_DW) {
        lower_fake_init(&cfg, 64, 100);
        fu_force_lcr_busy(1000);
        hw = (struct uart_hw){ .cfg = &cfg };
        CHECK_EQ(uart_lower.init(&hw), -1);
        CHECK(fu_stats()->lcr_ignored >= 2 && fu_stats()->lcr_ignored <= 16);
        CHECK(fu_reg_dll() != uart_divisor(&cfg));   /* divisor never written */
    }
    /* The transmitter really busy at init: init waits for TEMT first, so
     * no LCR store is ignored and nothing is lost or cut short. */
    up(64, 64);
    for (int i = 0; i < 40; i++)
        uart_write(&cfg, UART_THR, (uint8_t)('a' + i % 26));
    CHECK(fu_tx_level() > 0);
    CHECK_EQ(uart_lower.init(&hw), 0);
    CHECK_EQ(fu_stats()->lcr_ignored, 0);
    CHECK_EQ(fu_out_count(), 40);
    CHECK_EQ(fu_reg_dll(), uart_divisor(&cfg));
    CHECK_EQ(fu_errors(), 0);
}

/* putc_polled stores only when the FIFO has room: nothing is lost even
 * with no FIFO, the bytes leave in order, and tx_empty means the shifter
 * is done. */
static void test_putc_polled(unsigned depth)
{
    static const char msg[] = "The quick brown fox jumps over the lazy dog 0123456789";
    size_t n = sizeof msg - 1;

    up(depth, depth);
    fu_out_clear();
    uint64_t t0 = fu_now();
    for (size_t i = 0; i < n; i++)
        uart_lower.putc_polled(&hw, msg[i]);
    while (!uart_lower.tx_empty(&hw))
        ;
    CHECK_EQ(fu_errors(), 0);
    CHECK_EQ(fu_stats()->lost_stores, 0);
    if (!LOWER_DW)                            /* DW: TFNF, so the FIFO fills */
        CHECK_EQ(fu_stats()->thr_not_thre, 0);
    CHECK_EQ(fu_out_count(), n);
    for (size_t i = 0; i < n && i < fu_out_count(); i++)
        CHECK_EQ(fu_out_buf()[i].b, (uint8_t)msg[i]);
    CHECK(fu_lsr_peek() & UART_LSR_TEMT);
    CHECK(fu_now() >= fu_out_buf()[n - 1].t_ns);
    CHECK(fu_now() - t0 >= n * fu_cfg()->char_ns);

    /* Negative control: storing without waiting overfills the FIFO and
     * the fake counts the lost stores. */
    fu_stats_clear();
    for (unsigned i = 0; i < depth + 5; i++)
        uart_write(&cfg, UART_THR, 'x');
    CHECK(fu_stats()->lost_stores >= 3);
    while (!uart_lower.tx_empty(&hw))
        ;
}

/* The test program: every test on the lower half built in. */
int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);   /* keep order with stderr */
    printf("lower half %s\n", uart_lower.name);
    test_fake_rejects_bad_access();
    test_init();
    test_divisor();
    test_lcr_busy();
    test_putc_polled(LOWER_DW ? 64 : 16);
    test_putc_polled(1);
    test_causes();
    test_dw_quirks();
    test_tx_ops(16);
    test_tx_ops(64);
    test_rx_take(16);
    test_rx_take(1);
    test_irq_and_loopback();
    CHECK_EQ(fu_errors(), 0);           /* no bad access anywhere above */
    check_failures += uart_lower_ops_failures();
    return check_exit(LOWER_SUITE("uart_lower"));
}
