/* The engines' state is per port (src/drivers/uart/uart_port.h: p->eng,
 * the port's slot in the engine's per-port array): built with
 * UART_PORTS=2, a second port beside the console's (port 0, brought up as
 * the image brings it up) gets its own engine state and TX ring, and what
 * is written on one leaves the other's state as it was. Both ports drive
 * the one fake UART, so port 1 only writes what the FIFO takes at once.
 * host.uart_ports_<engine>.<lower>, for the designs with engine state
 * (async, copier). */
#include <string.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_async.h"
#include "uart_port.h"

int main(void)
{
    static const uint8_t a[40] = "port 0: through the POSIX-facing entry";
    static const uint8_t b[5] = "port1";

    setup(16);
    struct uart_port p1 = { .hw = uart_port.hw, .timing = uart_port.timing, .index = 1 };
    static uint8_t rx1[256];                 /* (the core's part of port 1: its RX ring) */
    ring_init(&p1.rx, rx1, sizeof rx1);
    uart_engine.init(&p1);
    CHECK(uart_port.eng != p1.eng || uart_port.eng == NULL);   /* (the console has none) */
    CHECK(uart_port.tx.buf != p1.tx.buf || ring_capacity(&p1.tx) == 0);
    CHECK_EQ(ring_capacity(&p1.tx), ring_capacity(&uart_port.tx));

    write_all(a, sizeof a);                  /* port 0: more than the FIFO takes */
    CHECK_EQ(uart_engine.queued(&p1), 0);
    CHECK_EQ(p1.ctr.user_acc, 0);
    struct uart_counters c1 = p1.ctr;        /* port 1's engine state: idle */
    uart_engine.counters(&p1, &c1);
    CHECK(!c1.copier_active && c1.staged_bytes == 0 && c1.ring_empty);
    struct uart_counters c0 = counters();    /* port 0's: busy with its bytes */
    CHECK(c0.copier_active || c0.staged_bytes > 0 || !c0.ring_empty);
    drain_checked("port 0");

    size_t k = uart_engine.write(&p1, b, sizeof b, true);   /* port 1: the FIFO is empty */
    CHECK_EQ(k, sizeof b);
    expect_add(b, sizeof b);
    CHECK_EQ(p1.ctr.user_acc, sizeof b);
    CHECK_EQ(counters().user_acc, sizeof a);                /* port 0's, unchanged */
    CHECK_EQ(uart_engine.queued(&uart_port), 0);
    fk_idle_until(fu_now() + 10 * (sizeof b + 1) * char_ns());
    check_output("ports");
    check_failures += uart_async_util_failures();   /* (the helpers' own checks) */
    return check_exit(LOWER_SUITE("uart_ports_" TEST_ENGINE));
}
