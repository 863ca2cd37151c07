/* Host test of the async TX engine (test_uart_async.c): the drain's wait
 * for the last stop bit, woken early by the lead sleep_lead_measure
 * takes from the fake kernel's wake-up cost (fk_set_wake_ns). */
#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_async.h"
#include "waitq.h"

/* The drain's wait wakes early by the lead measured at boot: with
 * wake-ups as slow as at the measure, its look at TEMT comes as the
 * stop bit ends; with faster ones the look comes early, finds the
 * shifter busy, and the drain looks again at the stop bit. */
void test_drain_lead(unsigned depth)
{
    const uint64_t wake = 3 * ACCESS_NS;
    uint8_t b = 0x5A;

    setup(depth);
    fk_set_wake_ns(wake);
    sleep_lead_measure();
    CHECK_EQ(sleep_lead_ns(), wake);
    write_all(&b, 1);                    /* the transmitter idle: the store anchors */
    uint64_t reads = fu_stats()->reads;
    drain_checked("lead");
    CHECK_EQ(fu_stats()->reads - reads, 2U);
    CHECK_EQ(fu_now() - fu_out_buf()[fu_out_count() - 1].t_ns, ACCESS_NS);
    fk_set_wake_ns(wake / 3);
    write_all(&b, 1);
    reads = fu_stats()->reads;
    drain_checked("lead: faster wake-ups");
    CHECK_EQ(fu_stats()->reads - reads, 3U);
    CHECK_EQ(fu_now() - fu_out_buf()[fu_out_count() - 1].t_ns, wake / 3 + ACCESS_NS);
    fk_set_wake_ns(0);
    sleep_lead_measure();                /* no lead for the tests after */
    CHECK_EQ(sleep_lead_ns(), 0U);
    check_output("drain lead");
}

/* main (test_uart_async.c): this file's failed checks. */
int uart_async_lead_failures(void) { return check_failures; }
