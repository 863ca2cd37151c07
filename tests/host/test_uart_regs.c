/* UART register layer (src/drivers/uart/ns16550.c) against the fake UART:
 * access width and stride per variant, divisor programming, the DW LCR
 * busy retry, polled output. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_mmio.h"
#include "fake_uart.h"
#include "uart_16550.h"

static const struct uart_cfg dw_cfg = {
    .base = 0x02500000, .reg_shift = 2, .io_width = 4, .dw_apb = true,
    .clock_hz = 24000000, .baud = 115200, .fifo_depth = 64,
};

static const struct uart_cfg ns_cfg = {
    .base = 0x10000000, .reg_shift = 0, .io_width = 1, .dw_apb = false,
    .clock_hz = 3686400, .baud = 115200, .fifo_depth = 16,
};

static uint64_t char_ns_of(const struct uart_cfg *c)
{
    return 10ULL * 16ULL * uart_divisor(c) * 1000000000ULL / c->clock_hz;
}

static void fake_for(const struct uart_cfg *c, unsigned depth)
{
    struct fu_config f = {
        .base = c->base, .reg_shift = c->reg_shift, .width = c->io_width,
        .dw = c->dw_apb, .fifo_depth = depth, .char_ns = char_ns_of(c),
        .access_ns = 100,
    };
    fu_init(&f);
    fk_init();
}

/* The fake itself rejects what the hardware would not take. */
static void test_fake_rejects_bad_access(void)
{
    fu_errors_quiet(true);
    fake_for(&dw_cfg, 64);
    (void)fake_mmio_read(dw_cfg.base + 1, 4);        /* unaligned */
    CHECK_EQ(fu_errors(), 1);
    (void)fake_mmio_read(dw_cfg.base + 0x14, 1);     /* byte access on DW */
    CHECK_EQ(fu_errors(), 2);
    fake_mmio_write(dw_cfg.base + 0x40, 4, 0);       /* no register there */
    CHECK_EQ(fu_errors(), 3);
    fake_mmio_write(dw_cfg.base + 0x14, 4, 0);       /* LSR is read-only */
    CHECK_EQ(fu_errors(), 4);

    fake_for(&ns_cfg, 16);
    fu_errors_clear();
    (void)fake_mmio_read(ns_cfg.base + 5, 4);        /* word access on NS */
    CHECK_EQ(fu_errors(), 1);
    (void)fake_mmio_read(ns_cfg.base + 0x7C, 1);     /* USR: not a 16550 reg */
    CHECK_EQ(fu_errors(), 2);
    (void)fake_mmio_read(ns_cfg.base + 5, 1);        /* LSR: fine */
    CHECK_EQ(fu_errors(), 2);
    fu_errors_clear();
    fu_errors_quiet(false);
}

static void test_dw_init(void)
{
    fake_for(&dw_cfg, 64);
    CHECK_EQ(uart_divisor(&dw_cfg), 13);
    CHECK_EQ(uart_real_baud_milli(&dw_cfg), 115384615ULL);
    CHECK_EQ(uart_hw_init(&dw_cfg), 0);
    CHECK_EQ(fu_errors(), 0);
    /* Only 32-bit accesses on the 4-byte stride happened. */
    CHECK(fu_stats()->accesses > 0);
    CHECK_EQ(fu_stats()->widths_seen, 1u << 4);
    CHECK_EQ(fu_stats()->offsets_or & 3u, 0);
    CHECK_EQ(fu_reg_dll(), 13);
    CHECK_EQ(fu_reg_dlm(), 0);
    CHECK_EQ(fu_reg_lcr(), UART_LCR_8N1);            /* DLAB off again */
    CHECK_EQ(fu_reg_ier(), 0);
    CHECK(fu_fifo_enabled());
    CHECK_EQ(fu_reg_mcr(), UART_MCR_DTR | UART_MCR_RTS | UART_MCR_OUT2);
    CHECK_EQ(fu_stats()->lcr_ignored, 0);
    CHECK(!fu_busy_detect_pending());
    /* Register round trip through the layer. */
    uart_write(&dw_cfg, UART_SCR, 0x5A);
    CHECK_EQ(uart_read(&dw_cfg, UART_SCR), 0x5A);
    CHECK_EQ(fu_errors(), 0);
}

/* LCR writes that land while the UART is busy are ignored k times: the
 * layer must retry until the value sticks and clear the busy detect. */
static void test_dw_lcr_busy_retry(void)
{
    for (unsigned k = 1; k <= 7; k++) {
        fake_for(&dw_cfg, 64);
        fu_force_lcr_busy(k);
        CHECK_EQ(uart_hw_init(&dw_cfg), 0);
        CHECK_EQ(fu_stats()->lcr_ignored, k);
        CHECK_EQ(fu_stats()->lcr_writes, 2 + k);
        CHECK_EQ(fu_reg_dll(), 13);
        CHECK_EQ(fu_reg_dlm(), 0);
        CHECK_EQ(fu_reg_lcr(), UART_LCR_8N1);
        CHECK(!fu_busy_detect_pending());
        CHECK_EQ(fu_errors(), 0);
    }
    /* Busy on every try: the layer gives up with -EIO, bounded. */
    fake_for(&dw_cfg, 64);
    fu_force_lcr_busy(1000);
    CHECK_EQ(uart_hw_init(&dw_cfg), -EIO);
    CHECK(fu_stats()->lcr_ignored >= 2 && fu_stats()->lcr_ignored <= 16);
    CHECK(fu_reg_dll() != 13);                       /* divisor never written */

    /* Transmitter really busy at init: init waits for TEMT first, so the
     * LCR write is never ignored and nothing is lost or cut short. */
    fake_for(&dw_cfg, 64);
    CHECK_EQ(uart_hw_init(&dw_cfg), 0);
    for (int i = 0; i < 40; i++)
        uart_write(&dw_cfg, UART_THR, (uint8_t)('a' + i % 26));
    CHECK(fu_tx_level() > 0);
    CHECK_EQ(uart_hw_init(&dw_cfg), 0);
    CHECK_EQ(fu_stats()->lcr_ignored, 0);
    CHECK_EQ(fu_out_count(), 40);
    CHECK_EQ(fu_reg_dll(), 13);
    CHECK_EQ(fu_errors(), 0);
}

static void test_ns_init(void)
{
    fake_for(&ns_cfg, 16);
    CHECK_EQ(uart_divisor(&ns_cfg), 2);
    CHECK_EQ(uart_real_baud_milli(&ns_cfg), 115200000ULL);
    CHECK_EQ(uart_hw_init(&ns_cfg), 0);
    CHECK_EQ(fu_errors(), 0);
    CHECK_EQ(fu_stats()->widths_seen, 1u << 1);
    CHECK_EQ(fu_reg_dll(), 2);
    CHECK_EQ(fu_reg_dlm(), 0);
    CHECK_EQ(fu_reg_lcr(), UART_LCR_8N1);
    CHECK(fu_fifo_enabled());

    /* Rounding to nearest and a 16-bit divisor split over DLL/DLM. */
    struct uart_cfg slow = ns_cfg;
    slow.baud = 300;                                 /* 3686400/4800 = 768 */
    fake_for(&slow, 16);
    CHECK_EQ(uart_divisor(&slow), 768);
    CHECK_EQ(uart_hw_init(&slow), 0);
    CHECK_EQ(fu_reg_dll(), 0);
    CHECK_EQ(fu_reg_dlm(), 3);
    CHECK_EQ(uart_divisor(&(struct uart_cfg){ .clock_hz = 24000000, .baud = 1500000 }), 1);
    CHECK_EQ(uart_divisor(&(struct uart_cfg){ .clock_hz = 24000000, .baud = 921600 }), 2);
}

/* uart_putc_polled stores only when THRE is set: nothing is lost even with
 * no FIFO, the bytes leave in order, and idle means the shifter is done. */
static void test_putc_polled(const struct uart_cfg *c, unsigned depth)
{
    static const char msg[] = "The quick brown fox jumps over the lazy dog 0123456789";
    size_t n = sizeof msg - 1;

    fake_for(c, depth);
    CHECK_EQ(uart_hw_init(c), 0);
    fu_stats_clear();
    fu_out_clear();
    uint64_t t0 = fu_now();
    for (size_t i = 0; i < n; i++)
        uart_putc_polled(c, msg[i]);
    uart_wait_idle_polled(c);
    CHECK_EQ(fu_errors(), 0);
    CHECK_EQ(fu_stats()->lost_stores, 0);
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
        uart_write(c, UART_THR, 'x');
    CHECK(fu_stats()->lost_stores >= 3);
    uart_wait_idle_polled(c);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);   /* keep order with stderr */
    test_fake_rejects_bad_access();
    test_dw_init();
    test_dw_lcr_busy_retry();
    test_ns_init();
    test_putc_polled(&ns_cfg, 16);
    test_putc_polled(&ns_cfg, 1);
    test_putc_polled(&dw_cfg, 64);
    test_putc_polled(&dw_cfg, 1);
    CHECK_EQ(fu_errors(), 0);       /* no bad access anywhere above */
    return check_exit("uart_regs");
}
