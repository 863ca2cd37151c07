/* host.wire_rx: the modelled RX FIFO. Overrun (the byte that finds the
 * FIFO full is lost, the FIFO keeps what it holds, OE reported once by
 * an LSR read that looks at it, RLSI while it is set), the ground truth
 * against a perfect and a slow reader, FIFO depths 1 (a 16450) and 128,
 * RFL, an FCR RX clear, starting and stopping a stream. */
#include <errno.h>
#include <stdio.h>
#include "check.h"
#include "crc32.h"
#include "test_wire_rx.h"

static const struct peer_point stream = { PEER_STREAM, 0, 0 };

/* No reader, FIFO 16: byte 17 is lost at its arrival; OE, RLSI. */
void test_overrun(void)
{
    const uint32_t seed = 3;
    setup(115200, 16, stream, RX_IER, 1);
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(20, seed, start), 0);
    now_ns = arrival(start, 17) - 1;
    struct wire_rx_stats s = peer_stats();
    CHECK_EQ(s.lost, 0);
    CHECK_EQ(s.delivered, 16);
    CHECK_EQ(s.fifo_level, 16);
    CHECK_EQ(rfl(), 16);
    CHECK_EQ(lsr(UART_LSR_ERRORS | UART_LSR_DR), UART_LSR_DR);
    CHECK_EQ(iir(), IIR_RDI);
    now_ns = arrival(start, 17);
    s = peer_stats();
    CHECK_EQ(s.lost, 1);
    CHECK_EQ(s.sent, 17);
    CHECK_EQ(s.delivered, 16);
    CHECK_EQ(s.fifo_level, 16);
    CHECK_EQ(s.overruns, 0);
    CHECK_EQ(iir(), IIR_RLSI);                       /* OE and IER.RLSI */
    /* A read that does not look at OE leaves it set ... */
    CHECK_EQ(lsr(UART_LSR_DR | UART_LSR_THRE | UART_LSR_TEMT),
             UART_LSR_DR | UART_LSR_THRE | UART_LSR_TEMT);
    CHECK_EQ(peer_stats().overruns, 0);
    CHECK_EQ(iir(), IIR_RLSI);
    /* ... one that does reports it once and clears it; the model counts it. */
    CHECK_EQ(lsr(UART_LSR_ERRORS | UART_LSR_DR), UART_LSR_OE | UART_LSR_DR);
    CHECK_EQ(peer_stats().overruns, 1);
    CHECK_EQ(lsr(UART_LSR_ERRORS | UART_LSR_DR), UART_LSR_DR);
    CHECK_EQ(peer_stats().overruns, 1);
    CHECK_EQ(iir(), IIR_RDI);
    /* The FIFO holds bytes 1..16 in order; byte 17 is gone, 18 follows. */
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ(rbr(), pattern_at(seed, i));
    CHECK_EQ(lsr(UART_LSR_DR), 0);
    now_ns = arrival(start, 20);
    for (unsigned i = 17; i < 20; i++)
        CHECK_EQ(rbr(), pattern_at(seed, i));
    s = peer_stats();
    CHECK_EQ(s.lost, 1);
    CHECK_EQ(s.delivered, 19);
    CHECK_EQ(s.sent, 20);

    /* Without IER.RLSI the overrun raises no line status interrupt. */
    setup(115200, 16, stream, UART_IER_RDI, 1);
    start = now_ns;
    CHECK_EQ(wire_peer_start(17, seed, start), 0);
    now_ns = arrival(start, 17);
    CHECK_EQ(iir(), IIR_RDI);
    CHECK_EQ(lsr(UART_LSR_OE), UART_LSR_OE);
    /* With IER.RLSI alone, only the overrun is a cause. */
    setup(115200, 16, stream, UART_IER_RLSI, 1);
    start = now_ns;
    CHECK_EQ(wire_peer_start(17, seed, start), 0);
    now_ns = arrival(start, 17) - 1;
    CHECK_EQ(iir(), IIR_NONE);
    now_ns = arrival(start, 17);
    CHECK_EQ(iir(), IIR_RLSI);
    CHECK_EQ(lsr(UART_LSR_OE), UART_LSR_OE);
    CHECK_EQ(iir(), IIR_NONE);
    /* ... and the RX timer alone raises the line for it, at its arrival. */
    setup(115200, 16, stream, UART_IER_RLSI, 1);
    start = now_ns;
    CHECK_EQ(wire_peer_start(17, seed, start), 0);
    run_timer_until(arrival(start, 17) - 1);
    CHECK_EQ(rs.ier, 0);
    run_timer_until(arrival(start, 17));
    CHECK_EQ(rs.ier, UART_IER_THRI);
}

/* The ground truth: a perfect reader gets everything, its CRC the
 * pattern's; a reader of one byte every 3 character times loses some,
 * and what it reads plus what was lost is what was sent. */
void test_ground_truth(void)
{
    enum { N = 1000 };
    static uint8_t pat[N];
    const uint32_t seed = 0xC0FFEE;
    setup(115200, 16, stream, RX_IER, 1);
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(N, seed, start), 0);
    uint32_t crc = 0;
    for (unsigned k = 1; k <= N; k++) {
        now_ns = arrival(start, k);
        pat[k - 1] = pattern_at(seed, k - 1);
        uint8_t b = (uint8_t)rbr();
        crc = crc32_update(crc, &b, 1);
    }
    now_ns += 1000000000ULL;
    CHECK_EQ(lsr(UART_LSR_DR), 0);
    struct wire_rx_stats s = peer_stats();
    CHECK_EQ(s.total, N);
    CHECK_EQ(s.sent, N);
    CHECK_EQ(s.delivered, N);
    CHECK_EQ(s.lost, 0);
    CHECK_EQ(s.overruns, 0);
    CHECK_EQ(s.flushed, 0);
    CHECK_EQ(s.fifo_level, 0);
    CHECK_EQ(s.crc, crc32_update(0, pat, N));
    CHECK_EQ(crc, s.crc);
    CHECK_EQ(s.first_ns, arrival(start, 1));
    CHECK_EQ(s.last_ns, arrival(start, N));
    CHECK(s.attached);

    /* The slow reader: LSR (errors counted, as the driver does) and one
     * RBR read every 3 character times, until nothing more can come. */
    setup(115200, 16, stream, RX_IER, 1);
    start = now_ns;
    CHECK_EQ(wire_peer_start(600, seed + 1, start), 0);
    uint64_t got = 0, oe = 0;
    crc = 0;
    for (uint64_t m = 1; m < 100000; m++) {
        now_ns = start + chars_ns(3 * m);
        uint32_t l = lsr(UINT32_MAX);
        oe += !!(l & UART_LSR_OE);
        if (l & UART_LSR_DR) {
            uint8_t b = (uint8_t)rbr();
            crc = crc32_update(crc, &b, 1);
            got++;
        } else if (peer_stats().sent == 600) {
            break;
        }
    }
    s = peer_stats();
    CHECK_EQ(s.sent, 600);
    CHECK_EQ(got + s.lost, s.sent);
    CHECK_EQ(got, s.delivered);
    CHECK_EQ(crc, s.crc);
    CHECK_EQ(oe, s.overruns);
    CHECK(s.lost > 300);                              /* a third read: two thirds lost */
    CHECK(s.overruns > 0 && s.overruns <= s.lost);
}

/* test_depths: the RX timer set for byte k of the stream that started at
 * start, received data pending from its arrival on, not 1 ns before. */
static void rdi_at(uint64_t start, uint64_t k)
{
    CHECK_EQ(rs.armed_at, arrival(start, k));
    now_ns = arrival(start, k) - 1;
    CHECK_EQ(iir(), IIR_NONE);
    now_ns = arrival(start, k);
    CHECK_EQ(iir(), IIR_RDI);
}

/* FIFO depth 1 (a 16450: every trigger is 1) and 128 (trigger 14); a
 * depth beyond the model's buffer is held at 128; RFL is the level. */
void test_depths(void)
{
    setup(115200, 1, stream, RX_IER, 1);
    reg_write(UART_FCR, UART_FCR_ENABLE | uart_fcr_trigger(14));
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(3, 5, start), 0);
    rdi_at(start, 1);
    CHECK_EQ(rfl(), 1);
    now_ns = arrival(start, 2);
    CHECK_EQ(rfl(), 1);
    CHECK_EQ(peer_stats().lost, 1);
    CHECK_EQ(lsr(UART_LSR_OE | UART_LSR_DR), UART_LSR_OE | UART_LSR_DR);
    CHECK_EQ(rbr(), pattern_at(5, 0));
    CHECK_EQ(rfl(), 0);
    now_ns = arrival(start, 3);
    CHECK_EQ(rbr(), pattern_at(5, 2));

    for (int big = 0; big < 2; big++) {
        setup(115200, big ? 256 : 128, stream, RX_IER, 14);
        start = now_ns;
        CHECK_EQ(wire_peer_start(130, 6, start), 0);
        rdi_at(start, 14);
        for (unsigned k = 15; k <= 128; k += 19) {
            now_ns = arrival(start, k);
            CHECK_EQ(rfl(), k);
            CHECK_EQ(peer_stats().fifo_level, k);
        }
        now_ns = arrival(start, 128);
        CHECK_EQ(rfl(), 128);
        CHECK_EQ(peer_stats().lost, 0);
        now_ns = arrival(start, 129);
        CHECK_EQ(rfl(), 128);
        CHECK_EQ(peer_stats().lost, 1);
        for (unsigned i = 0; i < 128; i++)
            CHECK_EQ(rbr(), pattern_at(6, i));
        CHECK_EQ(rfl(), 0);
    }
}

/* FCR with RX clear empties the FIFO (counted as flushed); the stream
 * goes on into it; FCR without it keeps the FIFO, sets the trigger, and
 * the line follows the write. */
void test_flush(void)
{
    setup(115200, 16, stream, RX_IER, 8);
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(30, 8, start), 0);
    now_ns = arrival(start, 5);
    CHECK_EQ(rfl(), 5);
    reg_write(UART_FCR, UART_FCR_ENABLE | UART_FCR_CLR_RX | uart_fcr_trigger(8));
    struct wire_rx_stats s = peer_stats();
    CHECK_EQ(s.flushed, 5);
    CHECK_EQ(s.fifo_level, 0);
    CHECK_EQ(rfl(), 0);
    CHECK_EQ(lsr(UART_LSR_DR), 0);
    CHECK_EQ(iir(), IIR_NONE);
    /* Eight more reach the trigger again: bytes 6..13. */
    now_ns = arrival(start, 13) - 1;
    CHECK_EQ(iir(), IIR_NONE);
    now_ns = arrival(start, 13);
    CHECK_EQ(iir(), IIR_RDI);
    CHECK_EQ(rs.ier, UART_IER_THRI);                  /* the line up */
    reg_write(UART_FCR, UART_FCR_ENABLE | uart_fcr_trigger(14));
    CHECK_EQ(rs.ier, 0);                              /* 8 < 14: the FCR write drops it */
    CHECK_EQ(rfl(), 8);
    CHECK_EQ(peer_stats().flushed, 5);
    CHECK_EQ(iir(), IIR_NONE);                        /* 8 < 14, not yet a timeout */
    CHECK_EQ(rbr(), pattern_at(8, 5));
    s = peer_stats();
    CHECK_EQ(s.delivered, 13);
    CHECK_EQ(s.lost, 0);
}

/* wire_peer_start with peer=off and while attached; the stream's
 * counters; wire_peer_stop: what is left, QEMU's IER the driver's again,
 * the RX timer cancelled, the RX registers QEMU's again. */
void test_start_stop(void)
{
    struct peer_point off = { PEER_OFF, 0, 0 };
    setup(115200, 16, off, RX_IER, 1);
    CHECK_EQ(wire_peer_start(10, 1, now_ns), -ENOTCONN);
    CHECK(!peer_stats().attached);
    CHECK_EQ(rbr(), RAW_RBR);                         /* QEMU's */
    CHECK_EQ(rs.rbr_reads, 1);

    setup(115200, 16, stream, RX_IER, 4);
    uint64_t start = now_ns, n0 = peer_stats().stream;
    CHECK_EQ(wire_peer_start(10, 1, start), 0);
    CHECK_EQ(wire_peer_start(10, 1, start), -EBUSY);
    struct wire_rx_stats s = peer_stats();
    CHECK(s.attached);
    CHECK_EQ(s.stream, n0 + 1);
    CHECK_EQ(s.total, 10);
    now_ns = arrival(start, 5);
    CHECK_EQ(iir(), IIR_RDI);
    CHECK_EQ(rs.ier, UART_IER_THRI);                  /* the line up */
    CHECK(rs.armed);                                  /* still for byte 4 (lazy) */
    uint64_t w = rs.ier_writes;
    wire_peer_stop();
    s = peer_stats();
    CHECK(!s.attached);
    CHECK_EQ(s.left, 5);
    CHECK_EQ(s.sent, 5);
    CHECK_EQ(rs.ier_writes, w + 1);
    CHECK_EQ(rs.ier, RX_IER);                         /* the driver's IER, raw */
    CHECK(!rs.armed);
    /* What it had not sent never comes; RBR, IIR, LSR are QEMU's. */
    now_ns = arrival(start, 10);
    CHECK_EQ(peer_stats().sent, 5);
    uint64_t r = rs.rbr_reads, o = rs.other_reads;
    CHECK_EQ(rbr(), RAW_RBR);
    CHECK_EQ(iir(), IIR_NONE);
    CHECK_EQ(lsr(UART_LSR_DR), 0);
    CHECK_EQ(rs.rbr_reads, r + 1);
    CHECK_EQ(rs.other_reads, o + 2);
    /* IER stores reach QEMU again. */
    reg_write(UART_IER, UART_IER_RDI);
    CHECK_EQ(rs.ier, UART_IER_RDI);
    wire_peer_stop();                                 /* detached: nothing happens */
    CHECK_EQ(rs.ier, UART_IER_RDI);
    /* The next stream starts afresh. */
    start = now_ns;
    CHECK_EQ(wire_peer_start(2, 1, start), 0);
    s = peer_stats();
    CHECK_EQ(s.stream, n0 + 2);
    CHECK_EQ(s.sent, 0);
    CHECK_EQ(s.left, 0);
    CHECK_EQ(s.crc, 0);
    CHECK_EQ(s.fifo_level, 0);
    now_ns = arrival(start, 1);
    CHECK_EQ(rbr(), pattern_at(1, 0));
}

/* main(): this file's failed checks. */
int wire_rx_fifo_failures(void) { return check_failures; }
