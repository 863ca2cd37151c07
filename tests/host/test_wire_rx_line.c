/* host.wire_rx: the interrupt line and the RX timer. While a stream is
 * attached, QEMU's IER is the line: THRI (up) when a modelled cause is
 * pending and enabled, 0 (down) when none is; an access on which a 16550
 * evaluates its interrupt (an RBR read, an OE read, an IER or FCR write,
 * the RX timer's event) and that leaves the line up reads QEMU's RBR once
 * (so that QEMU, and the PLIC, look at the line again); an IIR read of an
 * RX cause does not (a claim that serves its cause then ends with no
 * interrupt latched: no spurious claim). The TX side's THRE shares the
 * line, below the RX causes. The RX timer is never armed at or before
 * now (a timeout already due does not re-arm it: no timer storm), and a
 * new stream arms it for its first event. */
#include <stdio.h>
#include "check.h"
#include "test_wire_rx.h"

static const struct peer_point stream = { PEER_STREAM, 0, 0 };

/* Trigger 4: the line up at the 4th byte (timer), no refresh at IIR
 * reads, one at an event or an RBR read that leaves it up, down under the
 * trigger, up from a register access, the driver's IER kept in the model;
 * an OE read ends the line status cause. */
void test_line(void)
{
    setup(115200, 16, stream, RX_IER, 4);
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(10, 2, start), 0);
    CHECK_EQ(rs.ier_writes, 1);                       /* attached: the line, down */
    CHECK_EQ(rs.ier, 0);
    now_ns = arrival(start, 4) - 1;
    CHECK_EQ(iir(), IIR_NONE);
    CHECK_EQ(rs.ier_writes, 1);
    CHECK_EQ(rs.rbr_reads, 0);
    now_ns = arrival(start, 4);
    fire_rx();
    CHECK_EQ(rs.ier_writes, 2);
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(rs.rbr_reads, 0);                        /* it rose: no refresh */
    CHECK_EQ(iir(), IIR_RDI);                         /* an IIR read: no refresh */
    CHECK_EQ(iir(), IIR_RDI);
    reg_write(UART_LCR, UART_LCR_DLAB | UART_LCR_8N1);
    CHECK_EQ(iir(), IIR_RDI);                         /* DLAB does not hide IIR */
    reg_write(UART_LCR, UART_LCR_8N1);
    CHECK_EQ(rs.rbr_reads, 0);
    CHECK_EQ(rs.ier_writes, 2);
    fire_rx();                                        /* an event with the line up */
    CHECK_EQ(rs.rbr_reads, 1);
    CHECK_EQ(rs.ier_writes, 2);
    CHECK_EQ(rbr(), pattern_at(2, 0));                /* 3 left: under the trigger */
    CHECK_EQ(rs.ier_writes, 3);
    CHECK_EQ(rs.ier, 0);
    CHECK_EQ(rs.rbr_reads, 1);                        /* the modelled RBR is not QEMU's */
    CHECK_EQ(iir(), IIR_NONE);
    CHECK_EQ(rs.rbr_reads, 1);
    CHECK_EQ(rs.ier_writes, 3);
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, arrival(start, 5));
    /* A cause found by a register access before the timer: the line
     * rises then, without a refresh (it was down). */
    now_ns = arrival(start, 5);
    CHECK_EQ(iir(), IIR_RDI);
    CHECK_EQ(rs.ier_writes, 4);
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(rs.rbr_reads, 1);
    /* An RBR read that leaves the trigger's bytes: the line stays up and
     * is refreshed (a claim ending now is taken again). */
    now_ns = arrival(start, 6);
    CHECK_EQ(rbr(), pattern_at(2, 1));                /* 4 left: at the trigger */
    CHECK_EQ(rs.ier_writes, 4);
    CHECK_EQ(rs.rbr_reads, 2);
    /* The driver's IER stays in the model: masking RX drops the line,
     * unmasking raises it; a store that changes nothing writes nothing to
     * QEMU's IER. */
    reg_write(UART_IER, 0);
    CHECK_EQ(rs.ier_writes, 5);
    CHECK_EQ(rs.ier, 0);
    CHECK_EQ(uart_read(&cfg, UART_IER), 0);
    CHECK_EQ(iir(), IIR_NONE);
    reg_write(UART_IER, RX_IER);
    CHECK_EQ(rs.ier_writes, 6);
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(uart_read(&cfg, UART_IER), RX_IER);
    CHECK_EQ(rs.rbr_reads, 2);                        /* it rose: no refresh */
    reg_write(UART_IER, RX_IER);                      /* no IER write; the line refreshed */
    CHECK_EQ(rs.ier_writes, 6);
    CHECK_EQ(rs.rbr_reads, 3);

    /* IER.RLSI alone: an overrun is the only cause; the LSR read that
     * reports OE ends it, and the line falls. */
    setup(115200, 16, stream, UART_IER_RLSI, 1);
    start = now_ns;
    CHECK_EQ(wire_peer_start(17, 2, start), 0);
    now_ns = arrival(start, 17);
    CHECK_EQ(iir(), IIR_RLSI);
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(lsr(UART_LSR_DR), UART_LSR_DR);          /* OE not looked at: still up */
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(lsr(UART_LSR_ERRORS), UART_LSR_OE);
    CHECK_EQ(rs.ier, 0);
    CHECK_EQ(iir(), IIR_NONE);
}

/* THRE from the TX side while a stream is attached: on the line, shown
 * by IIR below the RX causes and cleared by the read that shows it; a
 * stop with THRE pending leaves THRI in QEMU's IER (detached mode). */
void test_thre_shared(void)
{
    setup(115200, 16, stream, RX_IER, 8);
    uint64_t start = now_ns + 1000000;                /* the far end starts in 1 ms */
    CHECK_EQ(wire_peer_start(20, 4, start), 0);
    CHECK_EQ(rs.ier, 0);
    reg_write(UART_IER, RX_IER | UART_IER_THRI);      /* TX FIFO empty: THRE at once */
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(uart_read(&cfg, UART_IER), RX_IER | UART_IER_THRI);
    uint64_t r = rs.rbr_reads;
    CHECK_EQ(iir(), IIR_THRI);
    CHECK_EQ(rs.ier, 0);
    CHECK_EQ(iir(), IIR_NONE);
    CHECK_EQ(rs.rbr_reads, r);
    reg_write(UART_IER, RX_IER);
    CHECK_EQ(rs.ier, 0);
    /* Received data outranks THRE; THRE holds the line after it. */
    now_ns = arrival(start, 8);
    fire_rx();
    CHECK_EQ(rs.ier, UART_IER_THRI);
    reg_write(UART_IER, RX_IER | UART_IER_THRI);
    CHECK_EQ(iir(), IIR_RDI);
    for (unsigned i = 0; i < 8; i++)
        CHECK_EQ(rbr(), pattern_at(4, i));
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(iir(), IIR_THRI);
    CHECK_EQ(rs.ier, 0);
    CHECK_EQ(iir(), IIR_NONE);
    reg_write(UART_IER, RX_IER);
    reg_write(UART_IER, RX_IER | UART_IER_THRI);
    CHECK_EQ(rs.ier, UART_IER_THRI);
    wire_peer_stop();
    CHECK_EQ(rs.ier, RX_IER | UART_IER_THRI);
}

/* A timeout already due: the timer firing again and again at that now
 * (and later) never re-arms it for now or before; a timer that fires
 * before its event re-arms for the event, not for now. */
void test_no_storm(void)
{
    setup(115200, 16, stream, RX_IER, 8);
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(3, 1, start), 0);
    uint64_t due = arrival(start, 3) + chars_ns(4);
    run_timer_until(due);
    CHECK_EQ(iir(), IIR_CTI);
    uint64_t arms = rs.arms;
    for (int i = 0; i < 5; i++) {
        fire_rx();
        CHECK(!rs.armed || rs.armed_at > now_ns);
    }
    CHECK_EQ(iir(), IIR_CTI);
    now_ns += 12345;
    for (int i = 0; i < 3; i++)
        fire_rx();
    CHECK_EQ(iir(), IIR_CTI);
    CHECK_EQ(rs.arms, arms);
    CHECK(!rs.armed);
    CHECK_EQ(rs.stale_arms, 0);

    /* Early fires: at byte 6 the trigger (byte 8) is the next event; at
     * byte 3 the timeout byte 3 would see if nothing followed (byte 4
     * follows: the timer fires then, finds nothing, re-arms for byte 8). */
    setup(115200, 16, stream, RX_IER, 8);
    start = now_ns;
    CHECK_EQ(wire_peer_start(20, 1, start), 0);
    CHECK_EQ(rs.armed_at, arrival(start, 8));
    now_ns = arrival(start, 6);
    for (int i = 0; i < 3; i++) {
        fire_rx();
        CHECK(rs.armed);
        CHECK_EQ(rs.armed_at, arrival(start, 8));
    }
    setup(115200, 16, stream, RX_IER, 8);
    start = now_ns;
    CHECK_EQ(wire_peer_start(20, 1, start), 0);
    now_ns = arrival(start, 3);
    fire_rx();
    CHECK_EQ(rs.armed_at, arrival(start, 3) + chars_ns(4));
    CHECK(rs.armed_at < arrival(start, 8));
    run_timer_until(arrival(start, 8) - 1);
    CHECK_EQ(iir(), IIR_NONE);
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, arrival(start, 8));
    CHECK_EQ(rs.stale_arms, 0);
}

/* A stream after a stopped one, no register store between: the RX timer
 * is armed for its first byte, and the line rises when it fires. */
void test_restart_arms(void)
{
    setup(115200, 16, stream, RX_IER, 1);
    uint64_t start = now_ns;
    CHECK_EQ(wire_peer_start(3, 1, start), 0);
    for (unsigned k = 1; k <= 3; k++) {
        run_timer_until(arrival(start, k));
        CHECK_EQ(rs.ier, UART_IER_THRI);
        CHECK_EQ(iir(), IIR_RDI);
        CHECK_EQ(rbr(), pattern_at(1, k - 1));
        CHECK_EQ(rs.ier, 0);
    }
    run_timer_until(now_ns + 1000000);
    wire_peer_stop();
    now_ns += 1000000;
    start = now_ns;
    CHECK_EQ(wire_peer_start(4, 2, start), 0);
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, arrival(start, 1));
    run_timer_until(arrival(start, 1));
    CHECK_EQ(rs.ier, UART_IER_THRI);
    CHECK_EQ(iir(), IIR_RDI);
}

/* main(): this file's failed checks. */
int wire_rx_line_failures(void) { return check_failures; }
