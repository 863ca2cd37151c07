/* S13: writev of 4 x 64 B with OPOST|ONLCR on, drained each iteration.
 * The payload holds '\n' bytes, so the mapping is exercised: each goes
 * out as "\r\n". The witness covers the bytes on the wire (mapped), the
 * line rate counts wire bytes; user_bytes are what write() returned. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "clock.h"
#include "posix_io.h"
#include "params.h"
#include "tx_common.h"

#define S13_SEED      13
#define S13_SIZE      (S13_FRAGMENTS * S13_FRAGMENT)
#define S13_NL_AT     31U   /* a '\n' in the middle of each fragment ... */
#define S13_NL_END    (S13_FRAGMENT - 1U)   /* ... and at the end of the first */

static uint8_t user[S13_SIZE], wire[2 * S13_SIZE];

/* s13_writev: the user payload and its wire image; wire length. */
static size_t make_payload(void)
{
    memcpy(user, bench_payload(S13_SIZE, S13_SEED), S13_SIZE);
    for (unsigned f = 0; f < S13_FRAGMENTS; f++)
        user[f * S13_FRAGMENT + S13_NL_AT] = '\n';
    user[S13_NL_END] = '\n';
    size_t n = 0;
    for (size_t i = 0; i < S13_SIZE; i++) {
        if (user[i] == '\n')
            wire[n++] = '\r';
        wire[n++] = user[i];
    }
    return n;
}

/* s13_writev: wire bytes of the first k user bytes of the payload. */
static size_t wire_of(size_t k)
{
    size_t n = k;
    for (size_t i = 0; i < k; i++)
        n += user[i] == '\n';
    return n;
}

/* s13_writev, section task: iters x (writev + the rest of a short one +
 * drain); stops at the first error. */
static void writev_loop(struct tx_run *r, const struct iovec *iov)
{
    uint64_t start = clock_now_ns();
    for (unsigned k = 0; k < bench.iters; k++) {
        ssize_t n = writev(bench.fd, iov, S13_FRAGMENTS);
        if (n <= 0) {
            r->tx.err = n < 0 ? errno : BENCH_NO_PROGRESS;
            break;
        }
        r->tx.written += (uint64_t)n;
        if ((size_t)n < S13_SIZE) {
            r->tx.short_writes++;
            if (bench_write_full(user + n, S13_SIZE - (size_t)n, &r->tx))
                break;
        }
        bench_drain(&r->drain);
    }
    if (r->tx.err)
        bench_drain(&r->drain);
    r->elapsed_ns = clock_now_ns() - start;
}

/* Section task. */
enum bench_status s13_writev(void)
{
    static struct tx_run r;
    struct termios t, saved;
    struct iovec iov[S13_FRAGMENTS];
    char extra[160];
    size_t wire_len = make_payload();

    if (tcgetattr(bench.fd, &saved) != 0) {
        printf("  diag=s13-tcgetattr errno=%d\n", errno);
        return bench_fail("tcgetattr-errno-%d", errno);
    }
    t = saved;
    t.c_oflag |= OPOST | ONLCR;
    int onlcr_rc = tcsetattr(bench.fd, TCSANOW, &t);
    int onlcr_errno = onlcr_rc ? errno : 0;
    for (int i = 0; i < S13_FRAGMENTS; i++)
        iov[i] = (struct iovec){ user + (size_t)i * S13_FRAGMENT, S13_FRAGMENT };
    r = (struct tx_run){ .size = (unsigned)S13_SIZE, .iters = bench.iters };
    bench_payload_begin("s13-writev");
    writev_loop(&r, iov);
    uint64_t full = r.tx.written / S13_SIZE, part = r.tx.written % S13_SIZE;
    r.bytes = full * wire_len + wire_of((size_t)part);
    r.crc = tx_crc_repeat(0, wire, wire_len, r.bytes);   /* outside the timed loop */
    bench_payload_end("s13-writev", r.bytes, r.crc);
    tcsetattr(bench.fd, TCSANOW, &saved);
    printf("  s13-onlcr tcsetattr_rc=%d oflag=0x%lx\n", onlcr_rc, (unsigned long)t.c_oflag);
    snprintf(extra, sizeof extra, "fragments=%d fragment_size=%u total_size=%u user_bytes=%llu "
             "newlines_per_write=%u wire_bytes_per_write=%u ", S13_FRAGMENTS,
             (unsigned)S13_FRAGMENT, (unsigned)S13_SIZE, (unsigned long long)r.tx.written,
             (unsigned)(wire_len - S13_SIZE), (unsigned)wire_len);
    tx_print_policy("writev-drain-each", &r, extra);
    if (onlcr_rc)
        return bench_fail("tcsetattr-errno-%d", onlcr_errno);
    return bench_tx_status(&r.tx, &r.drain);
}
