/* Races of the async TX engine and the tty core (src/drivers/uart) against
 * their own interrupt, on one lower half (host.uart_async_races.<lower>):
 * the fake kernel takes the UART interrupt at a seeded
 * choice of every register access, every TX/RX ring call of the driver
 * (linked with --wrap=ring_push,--wrap=ring_pop: just before and just
 * after the call, e.g. between the push and the kick's unmasked THRE
 * check) and every unmask. With a 256-byte TX ring, random writes
 * (blocking and not), drains, time passing without interrupts, RX bytes
 * and reads, many seeds per configuration: a writer races THRE refills,
 * a kick finds THRE on or off, the ring wraps mid-refill, a drain races
 * the last refill. Checked: every byte reaches the wire exactly once and
 * in order, RX bytes come back in order, no wake-up is lost (after every
 * operation, bytes in the ring have THRE on; a line left alone long
 * enough is idle with every byte out; every drain returns 0 within two
 * characters of the last stop bit; no drain times out). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "ring.h"
#include "test_uart_async.h"

#define SEEDS  1000    /* per FIFO depth */
#define OPS    40      /* per seed */
#define RX_MAX 4096

uint32_t __real_ring_push(struct ring *r, const void *src, uint32_t n);
uint32_t __real_ring_pop(struct ring *r, void *dst, uint32_t n);

static uint64_t pushes, pops;       /* the driver's ring calls that came through */

/* The driver (the engine's write's push, task; the RX path, ISR), instead of
 * ring_push: an interrupt point on either side of the real call. */
uint32_t __wrap_ring_push(struct ring *r, const void *src, uint32_t n)
{
    pushes++;
    fk_irq_point();
    uint32_t k = __real_ring_push(r, src, n);
    fk_irq_point();
    return k;
}

/* The driver (uart_be_read, the polled flush; task), instead of
 * ring_pop: the same. */
uint32_t __wrap_ring_pop(struct ring *r, void *dst, uint32_t n)
{
    pops++;
    fk_irq_point();
    uint32_t k = __real_ring_pop(r, dst, n);
    fk_irq_point();
    return k;
}

static uint8_t rx_sent[RX_MAX], rx_got[RX_MAX];
static size_t rx_sent_n, rx_got_n;
static uint64_t rx_next;            /* earliest arrival of the next RX byte */

/* race_run: a few RX bytes arrive, one character apart at least. */
static void rx_inject_some(void)
{
    unsigned n = 1 + rnd() % 8;
    for (unsigned i = 0; i < n && rx_sent_n < RX_MAX; i++) {
        if (rx_next < fu_now())
            rx_next = fu_now();
        rx_next += (1 + rnd() % 3) * char_ns();
        rx_sent[rx_sent_n] = (uint8_t)rnd();
        fu_rx_inject_at(rx_next, rx_sent[rx_sent_n], 0);
        rx_sent_n++;
    }
}

/* race_run, at the end: the bytes read back are the bytes sent, in
 * order, but for those the fake lost to a full RX FIFO (the interrupt
 * came later than the FIFO's worth of characters: legitimate here), and
 * then the driver counted the overrun. */
static void check_rx(void)
{
    uint64_t lost = fu_stats()->rx_lost;
    size_t j = 0;

    CHECK_EQ(rx_got_n + lost, rx_sent_n);
    for (size_t i = 0; i < rx_sent_n && j < rx_got_n; i++)
        j += rx_sent[i] == rx_got[j];
    CHECK_EQ(j, rx_got_n);                      /* a subsequence, in order */
    CHECK(lost ? counters().rx_overruns > 0 : counters().rx_overruns == 0);
}

/* race_run: a non-blocking read of whatever has arrived. */
static void rx_read_some(void)
{
    uint8_t buf[64];
    ssize_t r = uart_be_read(buf, 1 + rnd() % sizeof buf, true);
    if (r > 0 && rx_got_n + (size_t)r <= RX_MAX) {
        memcpy(rx_got + rx_got_n, buf, (size_t)r);
        rx_got_n += (size_t)r;
    }
}

/* race_run: time passes up to the instant the TX FIFO empties (THRE
 * pending, not yet taken): the next operation races the refill. */
static void advance_to_fifo_empty(void)
{
    while (fu_tx_level() && fu_next_event() != UINT64_MAX)
        fu_advance_to(fu_next_event());
}

/* race_run, after each operation: bytes in the ring have the THRE
 * interrupt on to take them (the backend's own rule); otherwise nothing
 * would ever send them: a lost kick. */
static void check_not_stranded(void)
{
    struct uart_counters c = counters();
    CHECK(c.staged_bytes == 0 || c.copier_active);
}

/* race_run: leave the line alone long enough for everything queued to
 * go out; a byte left in the ring means a lost kick or refill. */
static void check_goes_idle(void)
{
    size_t left = expect_n - fu_out_count();
    fk_idle_until(fu_now() + (left + 3) * char_ns());
    CHECK_EQ(fu_out_count(), expect_n);
    CHECK(fu_lsr_peek() & UART_LSR_TEMT);
}

/* main(): one seeded run with a FIFO of depth bytes. */
static void race_run(uint64_t seed, unsigned depth)
{
    static uint8_t buf[600];

    setup(depth);
    rnd_seed(seed);
    fk_irq_schedule(seed, 100 + rnd() % 850);
    rx_sent_n = rx_got_n = 0;
    rx_next = 0;
    for (int op = 0; op < OPS; op++) {
        size_t n = 1 + rnd() % (rnd() % 12 ? 2 * depth + 2 : sizeof buf);
        switch (rnd() % 10) {
        case 0: case 1: case 2: case 3:
            fill_random(buf, n);
            write_all(buf, n);
            break;
        case 4: case 5: {
            fill_random(buf, n);
            ssize_t r = uart_be_write(buf, n, true);
            if (r > 0)
                expect_add(buf, (size_t)r);
            break;
        }
        case 6:
            drain_checked("race");
            break;
        case 7:
            rx_inject_some();
            break;
        case 8:
            rx_read_some();
            CHECK(uart_be_tx_pending() <= UART_TX_RING_SIZE + depth + 1U);
            break;
        default:
            check_goes_idle();
            break;
        }
        check_not_stranded();
        switch (rnd() % 4) {   /* time passes, the interrupt waits for a point */
        case 0:
            fu_advance_to(fu_now() + rnd() % ((depth + 2) * char_ns()));
            break;
        case 1:
            advance_to_fifo_empty();
            break;
        default:
            break;
        }
    }
    drain_checked("race end");
    check_output("race");
    fk_idle_until(rx_next + 6 * char_ns());
    while (uart_be_rx_available())
        rx_read_some();
    check_rx();
    CHECK_EQ(counters().drain_timeouts, 0);
}

/* The test program: SEEDS seeded runs on each FIFO depth, stopping at
 * the first that fails. */
int main(void)
{
    static const unsigned depths[] = { 1, 16, 64 };
    uint64_t points = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    for (unsigned d = 0; d < 3; d++)
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            int before = check_failures + uart_async_util_failures();
            race_run(seed, depths[d]);
            points += fk_stats()->point_irqs;
            if (check_failures + uart_async_util_failures() > before) {
                fprintf(stderr, "race: failed with seed %llu, %s depth %u\n",
                        (unsigned long long)seed, LOWER_NAME, depths[d]);
                goto out;
            }
        }
out:
    printf("interrupts taken at access/ring points: %llu\n", (unsigned long long)points);
    /* The ring is inline in the driver's files but for the host tests'
     * ring_calls.h: without it, no ring point would be taken. */
    printf("driver ring calls wrapped: %llu pushes, %llu pops\n", (unsigned long long)pushes,
           (unsigned long long)pops);
    CHECK(pushes > 0 && pops > 0);
    check_failures += uart_async_util_failures();
    free(expect);
    return check_exit(LOWER_SUITE("uart_async_races"));
}
