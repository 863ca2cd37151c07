/* The SiFive UART's lower half (src/drivers/uart/lower_sifive.h) against
 * the register-level fake (fake_sifive_uart.c): baud programming, the
 * watermarks it sets, TX room from txwm and FULL, emptiness and level,
 * the interrupt enables and causes, RX until EMPTY, polled output, and
 * no access the fake refuses. */
#include <stddef.h>
#include "check.h"
#include "fake_sifive_uart.h"
#include "uart_lower.h"

static struct uart_cfg cfg = { .base = FS_BASE, .reg_shift = 2, .io_width = 4,
                               .clock_hz = 500000000, .baud = 115200, .fifo_depth = FS_FIFO,
                               .rx_trigger = 1 };
static struct uart_hw hw;

/* The lower half up on a reset fake. */
static void up(void)
{
    fs_reset();
    hw = (struct uart_hw){ .cfg = &cfg };
    CHECK_EQ(uart_lower.init(&hw), 0);
}

/* main(): div = clock / baud - 1, rounded; the baud and character it gives. */
static void test_timing(void)
{
    struct uart_timing t;
    uart_lower.timing(&cfg, &t);
    CHECK_EQ(t.divisor, 4339);
    CHECK_EQ(t.baud_milli, 115207373);                 /* 500 MHz / 4340 */
    CHECK_EQ(t.char_ns, 86800);                        /* 10 x 4340 / 500 MHz */
    uart_lower.timing(&(struct uart_cfg){ .clock_hz = 24000000, .baud = 1500000 }, &t);
    CHECK_EQ(t.divisor, 15);
    CHECK_EQ(t.char_ns, 6666);
    uart_lower.timing(&(struct uart_cfg){ .clock_hz = 1000000, .baud = 115200 }, &t);
    CHECK_EQ(t.divisor, 8);                            /* 8.68 rounds to 9 = div + 1 */
    uart_lower.timing(&(struct uart_cfg){ .clock_hz = 100000, .baud = 115200 }, &t);
    CHECK_EQ(t.divisor, 0);                            /* the fastest the clock gives */
    CHECK_EQ(t.baud_milli, 100000000);
}

/* main(): init waits for what the firmware left in the TX FIFO, sets the
 * watermarks (txcnt 1, rxcnt 0), both directions on, interrupts off,
 * the divisor, and throws away what waits in the RX FIFO. */
static void test_init(void)
{
    fs_reset();
    struct fs_regs *r = fs_regs();
    r->ie = 3;
    fake_mmio_write(FS_BASE, 4, 'o');                  /* the firmware's last bytes */
    fake_mmio_write(FS_BASE, 4, 'k');
    fs_rx_inject('z');
    fs_tx_drain_every(3);
    hw = (struct uart_hw){ .cfg = &cfg };
    CHECK_EQ(uart_lower.init(&hw), 0);
    CHECK_EQ(r->tx_level, 0);                          /* waited until they left */
    CHECK_EQ(r->n_sent, 2);
    CHECK_EQ(r->txctrl, 0x10001);
    CHECK_EQ(r->rxctrl, 0x00001);
    CHECK_EQ(r->ie, 0);
    CHECK_EQ(r->div, 4339);
    CHECK_EQ(r->rx_level, 0);
    CHECK_EQ(hw.fifo_depth, FS_FIFO);
    CHECK(!fs_irq_line());
    CHECK_EQ(fs_errors(), 0);
}

/* main(): an empty FIFO takes a FIFO's worth; one not empty and not full
 * one byte (the FULL check); a full one none. tx_empty and tx_level see
 * the FIFO only (no shifter bit): the IP has no TEMT. */
static void test_tx(void)
{
    up();
    struct fs_regs *r = fs_regs();
    CHECK(!(uart_lower.caps & UART_CAP_TEMT));
    CHECK(!(uart_lower.caps & UART_CAP_LOOPBACK));
    CHECK(uart_lower.tx_empty(&hw));
    CHECK_EQ(uart_lower.tx_level(&hw), 0);
    CHECK_EQ(uart_lower.tx_room(&hw), FS_FIFO);
    uart_lower.tx_load(&hw, (const uint8_t *)"abc", 3);
    CHECK_EQ(r->tx_level, 3);
    CHECK(!uart_lower.tx_empty(&hw));
    CHECK_EQ(uart_lower.tx_level(&hw), FS_FIFO);       /* a bound */
    CHECK_EQ(uart_lower.tx_room(&hw), 1);
    CHECK(uart_lower.tx_ready(&hw));
    unsigned filled = 3;
    for (unsigned room; (room = uart_lower.tx_room(&hw)) != 0; filled += room)
        uart_lower.tx_load(&hw, (const uint8_t *)"defgh" + (filled - 3), room);
    CHECK_EQ(filled, FS_FIFO);
    CHECK(!uart_lower.tx_ready(&hw));
    CHECK_EQ(r->dropped_tx, 0);
    fs_tx_drain(FS_FIFO);
    CHECK(uart_lower.tx_empty(&hw));
    CHECK_EQ(uart_lower.tx_room(&hw), FS_FIFO);
    CHECK_EQ(r->n_sent, FS_FIFO);
    CHECK_EQ(r->sent[7], 'h');
    CHECK_EQ(fs_errors(), 0);
}

/* main(): the enables as ie and read back; the causes, RX first, only
 * those enabled. */
static void test_irqs(void)
{
    up();
    struct fs_regs *r = fs_regs();
    CHECK_EQ(uart_lower.cause(&hw, true), UART_CAUSE_NONE);   /* txwm pending, not enabled */
    uart_lower.irq_update(&hw, UART_IRQ_TX | UART_IRQ_RX, 0);
    CHECK_EQ(r->ie, 3);
    CHECK_EQ(uart_lower.irq_read(&hw), 3);
    CHECK(fs_irq_line());
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_TX);    /* the FIFO is empty */
    fs_rx_inject('a');
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_RX);
    uart_lower.irq_update(&hw, 0, UART_IRQ_RX);
    CHECK_EQ(r->ie, 1);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_TX);
    uart_lower.tx_load(&hw, (const uint8_t *)"x", 1);
    CHECK_EQ(uart_lower.cause(&hw, false), UART_CAUSE_NONE);  /* not empty: no txwm */
    uart_lower.irq_update(&hw, 0, UART_IRQ_TX);
    CHECK_EQ(uart_lower.irq_read(&hw), 0);
    CHECK(!fs_irq_line());
    CHECK_EQ(fs_errors(), 0);
}

/* main(): rxdata until EMPTY, or max with *more from rxwm. */
static void test_rx(void)
{
    uint8_t b[8];
    bool more;

    up();
    CHECK_EQ(uart_lower.rx_take(&hw, b, sizeof b, &more), 0);
    CHECK(!more);
    for (int i = 0; i < 5; i++)
        CHECK(fs_rx_inject((uint8_t)('0' + i)));
    CHECK_EQ(uart_lower.rx_take(&hw, b, 3, &more), 3);
    CHECK(more);
    CHECK_EQ(b[0], '0');
    CHECK_EQ(b[2], '2');
    CHECK_EQ(uart_lower.rx_take(&hw, b, 3, &more), 2);
    CHECK(!more);
    CHECK_EQ(b[1], '4');
    CHECK_EQ(uart_lower.rx_take(&hw, b, 2, &more), 0);
    CHECK(!more);
    CHECK(fs_rx_inject('x') && fs_rx_inject('y'));
    CHECK_EQ(uart_lower.rx_take(&hw, b, 2, &more), 2);  /* max reached, nothing left */
    CHECK(!more);
    CHECK_EQ(fs_errors(), 0);
}

/* main(): polled output waits on FULL, then stores; nothing is lost. */
static void test_putc_polled(void)
{
    up();
    struct fs_regs *r = fs_regs();
    uart_lower.tx_load(&hw, (const uint8_t *)"12345678", FS_FIFO);
    fs_tx_drain_every(5);
    uint64_t reads = r->txdata_reads;
    uart_lower.putc_polled(&hw, '9');
    CHECK(r->txdata_reads >= reads + 5);               /* it waited for room */
    CHECK_EQ(r->tx_level, FS_FIFO);
    CHECK_EQ(r->dropped_tx, 0);
    fs_tx_drain_every(0);
    fs_tx_drain(FS_FIFO);
    CHECK_EQ(r->sent[FS_FIFO], '9');
    CHECK_EQ(fs_errors(), 0);
}

int main(void)
{
    test_timing();
    test_init();
    test_tx();
    test_irqs();
    test_rx();
    test_putc_polled();
    return check_exit("uart_lower.sifive");
}
