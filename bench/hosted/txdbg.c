/* StarryOS's TX telemetry (bench.h's bench_txdbg_snapshot): its kernel
 * answers two ioctls on any fd (kernel/src/syscall/fs/ctl.rs of
 * daivy2333/StarryOS): UART_TXDBG_SNAPSHOT copies its async UART driver's
 * TX counters, sixteen u64 in the order below (`repr(C)`
 * UartTxDebugSnapshot, 128 bytes), to the pointer argument;
 * UART_TXDBG_RESET zeroes them. Linux answers neither (ENOTTY); a kernel
 * that does not know them may say EINVAL, ENOSYS or EOPNOTSUPP: each is
 * "no such counters", as the shim's answer was before (ENOTTY). */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include "bench.h"
#include "hosted.h"
#include "uart_backend.h"

#define UART_TXDBG_SNAPSHOT 0x54584431U /* "TXD1" */
#define UART_TXDBG_RESET    0x54584432U /* "TXD2" */

/* StarryOS's UartTxDebugSnapshot, field for field. */
struct starry_txdbg {
    uint64_t user_push_calls, user_push_requested_bytes, user_push_accepted_bytes;
    uint64_t ring_pop_calls, ring_pop_bytes;
    uint64_t hw_send_calls, hw_send_bytes, hw_send_zero, hw_send_max_chunk;
    uint64_t no_progress_budget_exhausted, slow_poll_exhausted, yield_retries_exhausted;
    uint64_t ring_empty, copier_active, staged_bytes, transmitter_empty;
};
_Static_assert(sizeof(struct starry_txdbg) == 128, "StarryOS's snapshot: sixteen u64");
_Static_assert(offsetof(struct starry_txdbg, transmitter_empty) == 120, "in StarryOS's order");

/* hosted_txdbg_reset, bench_txdbg_snapshot: -1 with errno; a kernel's
 * way of saying it has no such ioctl becomes ENOTTY. */
static int refused(void)
{
    if (errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP)
        errno = ENOTTY;
    return -1;
}

/* hosted_ioctl (UART_IOC_RESET_COUNTERS, any task): StarryOS's counters
 * zeroed; 0, or -1 with errno (ENOTTY: none). */
int hosted_txdbg_reset(int fd)
{
    return ioctl(fd, UART_TXDBG_RESET, 0) == 0 ? 0 : refused();
}

/* Section task (bench.h). */
int bench_txdbg_snapshot(struct uart_counters *out)
{
    struct starry_txdbg s;

    memset(&s, 0, sizeof s);
    if (ioctl(bench.fd, UART_TXDBG_SNAPSHOT, &s) != 0)
        return refused();
    *out = (struct uart_counters){
        .user_calls = s.user_push_calls, .user_req = s.user_push_requested_bytes,
        .user_acc = s.user_push_accepted_bytes, .ring_pop_calls = s.ring_pop_calls,
        .ring_pop_bytes = s.ring_pop_bytes, .hw_send_calls = s.hw_send_calls,
        .hw_send_bytes = s.hw_send_bytes, .hw_send_zero = s.hw_send_zero,
        .hw_send_max_chunk = s.hw_send_max_chunk,
        .no_progress_budget = s.no_progress_budget_exhausted,
        .slow_poll_exh = s.slow_poll_exhausted, .yield_exh = s.yield_retries_exhausted,
        .ring_empty = s.ring_empty, .copier_active = s.copier_active,
        .staged_bytes = s.staged_bytes, .transmitter_empty = s.transmitter_empty,
    };
    return 0;
}
