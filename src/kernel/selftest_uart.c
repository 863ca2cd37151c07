/* UART self-tests (boot argument selftest=loopback): every byte written
 * comes back in order through the UART's internal loopback (MCR.LOOP),
 * 64 KiB of patterned data, CRC-32 checked on both sides. */
#include <stdio.h>
#include "clock.h"
#include "crc32.h"
#include "kernel.h"
#include "pattern.h"
#include "scheduler.h"
#include "timer.h"
#include "uart_backend.h"

#define LB_BYTES      (64U * 1024U)
#define LB_CHUNK      16U         /* one FIFO: the RX FIFO never overruns */
#define LB_TIMEOUT_NS 30000000000ULL   /* 64 KiB at 115200 takes 5.7 s */
#define LB_SEED       5

/* Main task: write a chunk, read it back, until 64 KiB went round. */
int selftest_loopback(void)
{
    uint8_t out[LB_CHUNK], in[LB_CHUNK];
    uint32_t crc_tx = 0, crc_rx = 0;
    uint64_t deadline = clock_now_ns() + LB_TIMEOUT_NS;
    uint32_t moved = 0, mismatched = 0;
    struct uart_counters c0 = { 0 }, c1 = { 0 };
    int have_ctr = uart_be_counters(&c0) == 0;

    console_flush();
    uart_be_drain();
    uart_be_set_loopback(true);
    while (moved < LB_BYTES && clock_now_ns() < deadline) {
        pattern_fill(out, LB_CHUNK, LB_SEED, moved);
        crc_tx = crc32_update(crc_tx, out, LB_CHUNK);
        uart_be_write(out, LB_CHUNK, false);
        for (uint32_t got = 0; got < LB_CHUNK;) {
            ssize_t k = uart_be_read(in + got, LB_CHUNK - got, false);  /* blocking */
            got += k > 0 ? (uint32_t)k : 0;
        }
        for (uint32_t i = 0; i < LB_CHUNK; i++)
            mismatched += in[i] != out[i];
        crc_rx = crc32_update(crc_rx, in, LB_CHUNK);
        moved += LB_CHUNK;
    }
    uart_be_drain();
    uart_be_set_loopback(false);
    if (have_ctr)
        uart_be_counters(&c1);
    printf("selftest=loopback backend=%s bytes=%lu crc_tx=0x%08lx crc_rx=0x%08lx mismatched=%lu "
           "rx_dropped=%llu rx_overruns=%llu\n", uart_be_name, (unsigned long)moved,
           (unsigned long)crc_tx, (unsigned long)crc_rx, (unsigned long)mismatched,
           (unsigned long long)(c1.rx_dropped - c0.rx_dropped),
           (unsigned long long)(c1.rx_overruns - c0.rx_overruns));
    return moved == LB_BYTES && crc_tx == crc_rx && mismatched == 0;
}
