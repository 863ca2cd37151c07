/* UART self-tests: selftest=loopback, 64 KiB of patterned data through
 * the UART's internal loopback, in order, CRC-32 checked; selftest=
 * rx-overrun, more than the RX FIFO holds looped back with nobody
 * servicing RX: the FIFO overruns, the driver counts it. */
#include <stdio.h>
#include "kernel.h"
#include "posix_io.h"
#include "uart_backend.h"
#include "uart_loopback.h"

#define LB_BYTES (64U * 1024U)
#define LB_SEED  5
#define OVERRUN_BYTES 48U   /* three 16-byte FIFOs */
#define OVERRUN_SEED  6

/* Main task (selftest=loopback). */
int selftest_loopback(void)
{
    struct uart_loopback_result r;

    console_flush();
    tcdrain(1);
    int rc = uart_loopback_run(LB_BYTES, LB_SEED, &r);
    printf("selftest=loopback backend=%s bytes=%lu crc_tx=0x%08lx crc_rx=0x%08lx mismatched=%lu "
           "rx_dropped=%llu rx_overruns=%llu\n", uart_be_name, (unsigned long)r.received,
           (unsigned long)r.crc_tx, (unsigned long)r.crc_rx, (unsigned long)r.mismatched,
           (unsigned long long)r.rx_dropped, (unsigned long long)r.rx_overruns);
    return rc == 0;
}

/* Main task (selftest=rx-overrun). */
int selftest_rx_overrun(void)
{
    struct uart_loopback_result r;

    console_flush();
    tcdrain(1);
    int rc = uart_loopback_overrun(OVERRUN_BYTES, OVERRUN_SEED, &r);
    printf("selftest=rx-overrun backend=%s sent=%lu received=%lu crc_tx=0x%08lx "
           "crc_rx=0x%08lx mismatched=%lu rx_overruns=%llu rx_dropped=%llu\n", uart_be_name,
           (unsigned long)r.sent, (unsigned long)r.received, (unsigned long)r.crc_tx,
           (unsigned long)r.crc_rx, (unsigned long)r.mismatched,
           (unsigned long long)r.rx_overruns, (unsigned long long)r.rx_dropped);
    return rc == 0;
}
