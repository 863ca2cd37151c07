/* Wire model, receive side (src/drivers/uart/wire_rx.c behind
 * wire_model.c's filter), in fake time, ns-exact and byte-exact: stream
 * byte k arrives (LSR.DR) at start + ceil(k x 1e10 / baud) and not 1 ns
 * before, in a burst stream at start + b x T + ceil(j x 1e10 / baud); the
 * bytes are the pattern's; the received data interrupt shows at the
 * trigger-th byte (the RX timer armed for exactly then); the character
 * timeout 4 character times after the last byte in or out, restarted by
 * an RBR read. main() runs these and the other files' tests
 * (test_wire_rx.h). */
#include <stdio.h>
#include "check.h"
#include "test_wire_rx.h"

static const struct peer_point stream = { PEER_STREAM, 0, 0 };

/* A perfect reader of n bytes of the stream (seed, start): each byte is
 * not there halfway from the previous one nor 1 ns before its arrival,
 * and is there at it, and it is the pattern's; the ground truth counts it
 * at that instant. */
static void perfect_reader(const char *what, uint64_t n, uint32_t seed, uint64_t start)
{
    int f0 = check_failures;
    for (uint64_t k = 1; k <= n && check_failures == f0; k++) {
        uint64_t t = arrival(start, k);
        now_ns = k > 1 ? (arrival(start, k - 1) + t) / 2 : start + (t - start) / 2;
        CHECK_EQ(lsr(UART_LSR_DR), 0);
        CHECK_EQ(peer_stats().sent, k - 1);
        now_ns = t - 1;
        CHECK_EQ(lsr(UART_LSR_DR), 0);
        CHECK_EQ(peer_stats().sent, k - 1);
        now_ns = t;
        CHECK_EQ(lsr(UART_LSR_DR), UART_LSR_DR);
        CHECK_EQ(rbr(), pattern_at(seed, k - 1));
        CHECK_EQ(lsr(UART_LSR_DR), 0);
        struct wire_rx_stats s = peer_stats();
        CHECK_EQ(s.sent, k);
        CHECK_EQ(s.last_ns, t);
        if (check_failures != f0)
            fprintf(stderr, "%s: byte %llu of %llu (arrival %llu ns after the start)\n", what,
                    (unsigned long long)k, (unsigned long long)n,
                    (unsigned long long)(t - start));
    }
    struct wire_rx_stats s = peer_stats();
    CHECK_EQ(s.first_ns, arrival(start, 1));
    CHECK_EQ(s.delivered, n);
    CHECK_EQ(s.lost, 0);
}

/* A continuous stream, starting later than now, at 115200 and at 3 Mbaud. */
void test_arrival_stream(void)
{
    setup(115200, 16, stream, RX_IER, 1);
    uint64_t start = now_ns + 12345;
    CHECK_EQ(wire_peer_start(40, 0x5eed, start), 0);
    /* The formula itself: 1e10 / 115200 = 86805.5... ns a character. */
    CHECK_EQ(arrival(start, 1) - start, 86806);
    CHECK_EQ(arrival(start, 9) - start, 781250);        /* exact */
    CHECK_EQ(arrival(start, 18) - start, 1562500);
    now_ns = start;
    CHECK_EQ(peer_stats().sent, 0);
    perfect_reader("stream 115200", 40, 0x5eed, start);

    setup(3000000, 64, stream, RX_IER, 1);
    start = now_ns;
    CHECK_EQ(wire_peer_start(100, 77, start), 0);
    CHECK_EQ(arrival(start, 1) - start, 3334);
    CHECK_EQ(arrival(start, 3) - start, 10000);
    perfect_reader("stream 3000000", 100, 77, start);
}

/* Bursts of N bytes every T: a gap between bursts; a burst that fills its
 * period exactly (peer_point_fits' boundary) runs into the next one. */
void test_arrival_burst(void)
{
    struct peer_point b = { PEER_BURST, 4, 1000000 };
    setup(115200, 16, b, RX_IER, 1);
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(14, 0xb0057, start), 0);
    CHECK_EQ(arrival(start, 4) - start, 347223);
    CHECK_EQ(arrival(start, 5) - start, 1000000 + 86806);
    CHECK_EQ(arrival(start, 13) - start, 3000000 + 86806);
    perfect_reader("burst 4 per 1 ms", 14, 0xb0057, start);

    struct peer_point tight = { PEER_BURST, 8, 694445 };
    CHECK(peer_point_fits(&tight, 115200));
    setup(115200, 16, tight, RX_IER, 1);
    start = now_ns;
    CHECK_EQ(wire_peer_start(24, 3, start), 0);
    CHECK_EQ(arrival(start, 8) - start, 694445);
    CHECK_EQ(arrival(start, 9) - start, 694445 + 86806);
    CHECK_EQ(arrival(start, 16) - start, 2 * 694445);
    perfect_reader("burst 8 per 694445 ns", 24, 3, start);
}

/* The trigger level from an FCR write (the boot's was 1): the RX timer
 * armed for the trigger-th byte's arrival; IIR shows no interrupt 1 ns
 * before it, received data at it, and the line rises when the timer
 * fires. */
void test_trigger(unsigned trig)
{
    int f0 = check_failures;
    setup(115200, 16, stream, RX_IER, 1);
    reg_write(UART_FCR, UART_FCR_ENABLE | uart_fcr_trigger(trig));
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(20, 11, start), 0);
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, arrival(start, trig));
    CHECK_EQ(rs.ier, 0);                              /* attached: the line down */
    now_ns = arrival(start, trig) - 1;
    CHECK_EQ(iir(), IIR_NONE);
    CHECK_EQ(rfl(), trig - 1);
    CHECK_EQ(rs.ier, 0);
    run_timer_until(arrival(start, trig) - 1);        /* nothing due before it */
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, arrival(start, trig));
    now_ns = arrival(start, trig);
    fire_rx();
    CHECK_EQ(rs.ier, UART_IER_THRI);                  /* the line up */
    CHECK_EQ(iir(), IIR_RDI);
    CHECK_EQ(rfl(), trig);
    if (check_failures != f0)
        fprintf(stderr, "trigger %u\n", trig);
}

/* Three bytes at trigger 8, then the stream ends: the character timeout
 * at the last arrival + ceil(4 x 1e10 / baud), not 1 ns before; an RBR
 * read restarts the count (also one before the timeout is due); the RX
 * timer is armed for each timeout exactly. */
void test_timeout(void)
{
    const uint32_t seed = 21;
    setup(115200, 16, stream, RX_IER, 8);
    uint64_t start = now_ns, cto = chars_ns(4);
    CHECK_EQ(cto, 347223);
    CHECK_EQ(wire_peer_start(3, seed, start), 0);
    uint64_t last = arrival(start, 3);
    /* No register access: the timer alone follows the bytes (the first
     * one, then the timeout each byte would start), up to 1 ns before. */
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, arrival(start, 1));
    run_timer_until(last + cto - 1);
    CHECK_EQ(rs.ier, 0);
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, last + cto);
    CHECK_EQ(iir(), IIR_NONE);
    CHECK_EQ(rs.ier, 0);
    now_ns = last + cto;
    fire_rx();
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(iir(), IIR_CTI);
    CHECK_EQ(peer_stats().fifo_level, 3);

    /* A read while the timeout is shown: it ends, and counts again. */
    now_ns += 1000;
    uint64_t r1 = now_ns;
    CHECK_EQ(rbr(), pattern_at(seed, 0));
    CHECK_EQ(rs.ier, 0);
    CHECK_EQ(iir(), IIR_NONE);
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, r1 + cto);
    /* A read before the timeout is due restarts it too: the timer set
     * for the first deadline fires, finds nothing, re-arms for the new. */
    now_ns = r1 + cto / 2;
    uint64_t r2 = now_ns;
    CHECK_EQ(rbr(), pattern_at(seed, 1));
    run_timer_until(r1 + cto);
    CHECK_EQ(iir(), IIR_NONE);
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, r2 + cto);
    run_timer_until(r2 + cto - 1);
    CHECK_EQ(iir(), IIR_NONE);
    now_ns = r2 + cto;
    fire_rx();
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(iir(), IIR_CTI);
    /* The last byte read: no cause, no timeout to come. */
    CHECK_EQ(rbr(), pattern_at(seed, 2));
    CHECK_EQ(rs.ier, 0);
    run_timer_until(now_ns + 10 * cto);
    CHECK_EQ(iir(), IIR_NONE);
    CHECK(!rs.armed);
    struct wire_rx_stats s = peer_stats();
    CHECK_EQ(s.delivered, 3);
    CHECK_EQ(s.fifo_level, 0);
}

/* CTest: host.wire_rx. */
int main(void)
{
    find_rx_timer();
    test_arrival_stream();
    test_arrival_burst();
    test_trigger(4);
    test_trigger(8);
    test_trigger(14);
    test_timeout();
    test_overrun();
    test_ground_truth();
    test_depths();
    test_flush();
    test_start_stop();
    test_line();
    test_thre_shared();
    test_no_storm();
    test_restart_arms();
    setup(115200, 16, stream, RX_IER, 1);     /* the last test's stale arms checked */
    check_failures += wire_rx_env_failures() + wire_rx_fifo_failures() +
                      wire_rx_line_failures();
    return check_exit("wire_rx");
}
