/* UART self-test (boot argument selftest=loopback): 64 KiB of patterned
 * data through the UART's internal loopback, in order, CRC-32 checked. */
#include <stdio.h>
#include "kernel.h"
#include "uart_backend.h"
#include "uart_loopback.h"

#define LB_BYTES (64U * 1024U)
#define LB_SEED  5

/* Main task. */
int selftest_loopback(void)
{
    struct uart_loopback_result r;

    console_flush();
    uart_be_drain();
    int rc = uart_loopback_run(LB_BYTES, LB_SEED, &r);
    printf("selftest=loopback backend=%s bytes=%lu crc_tx=0x%08lx crc_rx=0x%08lx mismatched=%lu "
           "rx_dropped=%llu rx_overruns=%llu\n", uart_be_name, (unsigned long)r.received,
           (unsigned long)r.crc_tx, (unsigned long)r.crc_rx, (unsigned long)r.mismatched,
           (unsigned long long)r.rx_dropped, (unsigned long long)r.rx_overruns);
    return rc == 0;
}
