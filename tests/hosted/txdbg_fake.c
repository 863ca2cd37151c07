/* txdbg_fake.so: StarryOS's TX telemetry ioctls answered inside a
 * process, for check_txdbg.py (LD_PRELOAD): an ioctl that takes
 * UART_TXDBG_RESET (0x54584432) and UART_TXDBG_SNAPSHOT (0x54584431) as
 * StarryOS's kernel does on any fd, and passes every other request on.
 * A reset zeroes the snapshot count n; snapshot n (1, 2, ... since the
 * last reset) is the sixteen u64 of StarryOS's UartTxDebugSnapshot: the
 * counts (the first twelve but hw_send_max_chunk) n times BASE's, the
 * largest chunk and the states (the last four) BASE's: counters that grow
 * and add up as a driver's would (every byte accepted sent, in chunks of
 * at most 16). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#define SNAPSHOT 0x54584431UL
#define RESET    0x54584432UL
#define COUNTS   12           /* the first twelve count; the others are states */
#define MAX_CHUNK 8           /* hw_send_max_chunk: a largest, not a count */

/* user_calls user_req user_acc ring_pop_calls ring_pop_bytes hw_send_calls
 * hw_send_bytes hw_send_zero hw_send_max_chunk no_progress_budget
 * slow_poll_exh yield_exh | ring_empty copier_active staged_bytes
 * transmitter_empty (check_txdbg.py holds the same table) */
static const uint64_t BASE[16] = { 3, 4096, 4096, 2, 4096, 257, 4096, 1, 16, 5, 6, 7,
                                   1, 0, 0, 1 };
static uint64_t n;

/* Any caller of ioctl in the process (the benchmark's sections, glibc's
 * termios calls): StarryOS's two requests here, the rest to the C
 * library's ioctl (RTLD_NEXT). */
int ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (request == RESET) {
        n = 0;
        return 0;
    }
    if (request == SNAPSHOT) {
        uint64_t v[16];
        n++;
        for (int i = 0; i < 16; i++)
            v[i] = i < COUNTS && i != MAX_CHUNK ? BASE[i] * n : BASE[i];
        memcpy(arg, v, sizeof v);
        return 0;
    }
    int (*next)(int, unsigned long, ...) = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT,
                                                                                   "ioctl");
    return next(fd, request, arg);
}
