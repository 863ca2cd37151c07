/* S50's RX phase: the modelled far end sends one pattern stream; a
 * reader on hart 1 blocks in read() (its wakes come from the UART
 * interrupt on hart 0, through hart 1's inbox), a reader on hart 0 polls
 * with non-blocking reads and sleeps; they share the one RX ring. The
 * hart-0 reader stops RX_RESERVE bytes short of the end, so the blocking
 * reader always has bytes to come (it alone takes the last ones). Each
 * reader keeps its chunks; merged, in each reader's own order, they must
 * be the stream: every byte once, in order. SKIPPED without the far end. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "clock.h"
#include "kernel.h"
#include "pattern.h"
#include "posix_io.h"
#include "s50_smp.h"
#include "waitq.h"
#include "wire_model.h"

#define RX_BYTES   2048U
#define RX_READ    32U
#define RX_RESERVE (4 * RX_READ)    /* more than two reads in flight */
#define RX_SEED    0x50U
#define RX_LEAD_NS 200000ULL
#define U(x)       ((unsigned long long)(x))

struct reader {
    uint8_t buf[RX_BYTES];
    uint16_t len[RX_BYTES];         /* chunk lengths, in read order */
    uint32_t got, chunks;
};

static struct reader rd[2];
static volatile uint32_t total;     /* bytes read by both */
static int reader_err, nb_fd;       /* nb_fd: hart 0's reader's, non-blocking */

/* Reader task on hart h (0: non-blocking, 1: blocking); other harts idle. */
static void reader(void *arg)
{
    unsigned h = (unsigned)(uintptr_t)arg;
    struct reader *r = &rd[h < 2 ? h : 0];

    while (h < 2) {
        uint32_t seen = __atomic_load_n(&total, __ATOMIC_ACQUIRE);
        if (h == 0 ? seen + RX_RESERVE >= RX_BYTES : seen >= RX_BYTES)
            break;
        if (h == 1) {
            struct wire_rx_stats w;
            int avail = 1;
            wire_peer_stats(&w);
            if (w.sent == w.total && !w.fifo_level)
                (void)ioctl(bench.fd, FIONREAD, &avail);
            if (!avail)
                break;                       /* all arrived, all read: lost bytes */
        }
        s50_maybe_yield(h);
        ssize_t k = read(h == 0 ? nb_fd : bench.fd, r->buf + r->got, RX_READ);
        if (h == 0 && k <= 0) {
            sleep_for(4 * bench.char_ns);
            continue;
        }
        if (k <= 0) {
            reader_err = k < 0 ? errno : EIO;
            break;
        }
        r->len[r->chunks++] = (uint16_t)k;
        r->got += (uint32_t)k;
        __atomic_fetch_add(&total, (uint32_t)k, __ATOMIC_ACQ_REL);
        s50.hart[h].reads++;
        s50.hart[h].read_bytes += (uint64_t)k;
    }
    s50_task_done();
}

/* A point of the merge: the stream offset, each reader's byte and chunk. */
struct cut {
    uint32_t off, at[2], ci[2];
};

static struct cut alts[2 * RX_BYTES];   /* points where both readers' chunks fit */

/* merge: does reader i's next chunk hold the stream's bytes at c->off? */
static bool fits(const struct cut *c, unsigned i)
{
    uint8_t want[RX_READ];
    if (c->ci[i] == rd[i].chunks)
        return false;
    uint32_t n = rd[i].len[c->ci[i]];
    pattern_fill(want, n, RX_SEED, c->off);
    return n <= RX_READ && !memcmp(want, rd[i].buf + c->at[i], n);
}

/* merge: reader i's next chunk taken. */
static void take(struct cut *c, unsigned i)
{
    uint32_t n = rd[i].len[c->ci[i]++];
    c->off += n, c->at[i] += n;
}

/* Section task: merge the readers' chunks, each reader's in its order,
 * into the stream (a search: where both fit, reader 0's first, reader
 * 1's if that leads nowhere); the bytes merged, 0 if no merge is the
 * stream. */
static uint32_t merge(void)
{
    struct cut c = { 0 };
    unsigned n = 0;

    for (;;) {
        if (c.ci[0] == rd[0].chunks && c.ci[1] == rd[1].chunks)
            return c.off;
        bool f0 = fits(&c, 0), f1 = fits(&c, 1);
        if (f0 && f1 && n < sizeof alts / sizeof alts[0])
            alts[n++] = c;
        if (f0 || f1) {
            take(&c, f0 ? 0 : 1);
            continue;
        }
        if (!n)
            return 0;
        c = alts[--n];
        take(&c, 1);
    }
}

/* Section task (see s50_smp.h). */
int s50_rx_phase(void)
{
    struct wire_rx_stats w;
    memset(rd, 0, sizeof rd);
    total = 0, reader_err = 0;
    console_flush();
    tcdrain(bench.fd);
    int rc = wire_peer_start(RX_BYTES, RX_SEED, clock_now_ns() + RX_LEAD_NS);
    if (rc) {
        printf("  diag=s50-rx status=SKIPPED reason=%s\n",
               rc == -ENODEV ? "no-wire-model" : rc == -ENOTCONN ? "peer-off" : "peer-busy");
        return -1;
    }
    bench_rx_flush();
    bench_rx_own_begin();
    nb_fd = open("/dev/console", O_RDONLY | O_NONBLOCK);
    bool ran = s50_run_phase("rx", reader);
    close(nb_fd);
    wire_peer_stats(&w);
    bench_rx_own_end(total);
    wire_peer_stop();
    uint32_t merged = merge();
    bool ok = ran && !reader_err && merged == RX_BYTES && total == RX_BYTES && !w.lost;
    printf("  diag=s50-rx status=%s bytes=%u read=%u merged=%u reader0_chunks=%u "
           "reader1_chunks=%u stream_sent=%llu stream_lost=%llu err=%d watchdog=%d\n",
           ok ? "PASS" : "FAIL", RX_BYTES, (unsigned)total, (unsigned)merged, rd[0].chunks,
           rd[1].chunks, U(w.sent), U(w.lost), reader_err, !ran);
    s50_print_harts("rx");
    return ok ? 1 : 0;
}
