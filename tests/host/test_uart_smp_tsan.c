/* The UART driver on four harts, each a thread, under ThreadSanitizer
 * (host.uart_smp_tsan: the async engine; _console, _copier: the others),
 * entered at the POSIX layer (write, read, tcdrain, ioctl on the console
 * with ONLCR on), with the NS16550A register fake behind a bus mutex and
 * the threaded fake kernel (fake_kernel_threads.h). Hart 0 writes and
 * takes the UART interrupt (at its interrupt points and in its idle
 * thread); harts 1 and 2 write (2 non-blocking) and tcdrain; harts 1-3
 * read non-blocking what hart 3 injects as the far end; hart 3 takes
 * counter and IER snapshots, resets the counters once and tcdrains. Any
 * race TSan sees fails the test (its exit status). Checked: each writer's
 * bytes reach the fake's line exactly once and in order; a tcdrain that
 * returns 0 does so after the caller's last byte left the shifter; each
 * '\n' of writer 0 (its byte 10 of every 64) reaches the line as "\r\n",
 * the two together; the received bytes are the injected ones; the counters
 * add up, at every snapshot and at the end; no task hangs (a watchdog
 * names the ones that do). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "clock.h"
#include "fake_kernel_threads.h"
#include "fake_uart.h"
#include "posix_io.h"
#include "uart_port.h"
#include "waitq.h"

#define IRQ 10
#define DEPTH 16
#define WRITERS 3                /* harts 0, 1, 2 */
#define W_BYTES 12000U           /* each writer's bytes */
#define MAX_WRITE 600U           /* bytes per write call, at most */
#define RX_BYTES 3000U           /* bytes the far end sends */
#define RX_BURST DEPTH           /* bytes the far end sends at line rate once all are read */
#define WATCHDOG_NS (90ULL * 1000000000ULL)
#define FD_BLOCK 1               /* stdout */
#define FD_NONBLOCK 3            /* /dev/console opened O_NONBLOCK */

struct writer {
    unsigned id;
    bool nonblock;               /* non-blocking writes (hart 2) */
    bool reads;                  /* reads between writes */
    uint64_t rng;
    uint32_t written;            /* bytes accepted */
    size_t cursor, seen;         /* drain check: out index scanned, its bytes there */
};

static struct writer wr[WRITERS];
static int writers_left = WRITERS;                /* atomic */
static uint32_t drains, drains_ok, drain_timeouts;   /* atomic */
static uint32_t rx_injected, rx_read;             /* atomic */
static uint32_t rx_hist[256];                     /* atomic: bytes read per value */
static bool has_counters;
static bool did_reset;                            /* far end: the counters reset mid-run */

/* Any task: the writer's next pseudo-random number. */
static uint32_t rnd(struct writer *w)
{
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 7;
    w->rng ^= w->rng << 17;
    return (uint32_t)(w->rng >> 16);
}

/* Writer's byte k: its tag and k's low bits. */
static uint8_t tagged(unsigned w, uint32_t k) { return (uint8_t)(w << 6 | (k & 63U)); }

/* The '\r' ONLCR puts on the line before writer w's byte `next`. */
static bool inserted_cr(unsigned w, uint8_t b, uint32_t next)
{
    return b == '\r' && tagged(w, next) == '\n';
}

/* The user bytes of W_BYTES that are '\n' (writer 0's): its CRs. */
static uint32_t newlines(void)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < W_BYTES; k++)
        n += tagged(0, k) == '\n';
    return n;
}

/* A task on hart 1, 2 or 3: take a few bytes of what the RX ring holds
 * (non-blocking; a few, so that both readers take from one interrupt's
 * bytes), each read's bytes consecutive as injected. */
static void read_some(unsigned max)
{
    uint8_t b[4];
    ssize_t n = kposix_read(FD_NONBLOCK, b, max < sizeof b ? max : sizeof b);
    if (n < 0 && errno == EAGAIN)
        return;
    CHECK(n > 0);
    for (ssize_t i = 0; i < n; i++) {
        if (i)
            CHECK_EQ(b[i], (uint8_t)(b[i - 1] + 1));
        __atomic_fetch_add(&rx_hist[b[i]], 1, __ATOMIC_RELAXED);
    }
    __atomic_fetch_add(&rx_read, (uint32_t)n, __ATOMIC_RELAXED);
}

/* A writer's task, after a tcdrain that returned 0 at t: its last byte
 * has left the shifter by t (the fake's line record). */
static void check_drained(struct writer *w, uint64_t t)
{
    ft_bus_lock();
    const struct fu_out *o = fu_out_buf();
    size_t n = fu_out_count();
    for (; w->seen < w->written && w->cursor < n; w->cursor++) {
        uint8_t b = o[w->cursor].b;
        if (b >> 6 == w->id && !inserted_cr(w->id, b, w->seen) && ++w->seen == w->written)
            CHECK(o[w->cursor].t_ns <= t);
    }
    bool out = w->seen == w->written;
    ft_bus_unlock();
    if (!out)
        fprintf(stderr, "writer %u: tcdrain returned with %u of its %u bytes on the line\n",
                w->id, (unsigned)w->seen, (unsigned)w->written);
    CHECK(out);
}

/* Any task: tcdrain, counted, again after a timeout if `until_done` (a
 * line slower than the driver's bound: the threads share the CPUs); a
 * writer's own bytes checked. */
static void drain(struct writer *w, bool until_done)
{
    int rc;
    uint64_t t;
    do {
        ft_step("tcdrain");
        __atomic_fetch_add(&drains, 1, __ATOMIC_RELAXED);
        rc = kposix_tcdrain(FD_BLOCK) ? -errno : 0;
        t = clock_now_ns();
        if (rc == -EIO)                    /* the backend's timeout */
            __atomic_fetch_add(&drain_timeouts, 1, __ATOMIC_RELAXED);
    } while (rc == -EIO && until_done);
    if (rc == -EIO)
        return;
    CHECK_EQ(rc, 0);
    __atomic_fetch_add(&drains_ok, 1, __ATOMIC_RELAXED);
    if (w)
        check_drained(w, t);
}

/* Task of hart 0, 1 or 2: W_BYTES tagged bytes in writes of random
 * length, a tcdrain every few, and one at the end. */
static void writer(void *arg)
{
    struct writer *w = arg;
    uint8_t buf[MAX_WRITE];
    unsigned calls = 0;

    while (w->written < W_BYTES) {
        uint32_t len = 1 + rnd(w) % MAX_WRITE, left = W_BYTES - w->written;
        len = len < left ? len : left;
        for (uint32_t k = 0; k < len; k++)
            buf[k] = tagged(w->id, w->written + k);
        ft_step(w->nonblock ? "write (non-blocking)" : "write");
        ssize_t n = kposix_write(w->nonblock ? FD_NONBLOCK : FD_BLOCK, buf, len);
        if (n < 0 && errno == EAGAIN && w->nonblock) {
            sleep_for(DEPTH * uart_port.timing.char_ns);
            continue;
        }
        CHECK(n > 0 && n <= (ssize_t)len);
        if (!w->nonblock && strcmp(uart_engine.name, "copier") != 0)   /* (it takes a run) */
            CHECK_EQ(n, len);
        if (n <= 0)
            break;
        w->written += (uint32_t)n;
        for (unsigned k = 0; w->reads && k < 8; k++)
            read_some(1 + rnd(w) % 4);
        if (++calls % 3 == 0)
            drain(w, false);
    }
    drain(w, true);                        /* the last one's: every byte out */
    __atomic_fetch_sub(&writers_left, 1, __ATOMIC_RELAXED);
}

/* Hart 3's snapshot: the counters add up (async: bytes accepted are in
 * the ring or went to THR, a write's worth at most not yet counted), and
 * they only grow; IER's shadow is the register. */
static void snapshot(struct uart_counters *last)
{
    struct uart_counters c;
    struct uart_irq_state irq;
    ft_step("snapshot");
    CHECK_EQ(uart_be_irq_state(&irq), 0);
    CHECK_EQ(irq.ier_shadow, irq.ier_reg);
    if (!has_counters) {
        CHECK_EQ(uart_be_counters(&c), -ENOTTY);
        return;
    }
    CHECK_EQ(uart_be_counters(&c), 0);
    if (strcmp(uart_engine.name, "async") == 0) {   /* (a write across a reset: both) */
        uint64_t pushed = c.ring_pop_bytes + c.staged_bytes, acc = c.user_acc + c.queued_at_reset;
        CHECK(acc <= pushed + MAX_WRITE && pushed <= acc + MAX_WRITE);
    }
    CHECK(c.hw_send_bytes >= last->hw_send_bytes && c.user_acc >= last->user_acc &&
          c.tx_irqs >= last->tx_irqs && c.rx_bytes >= last->rx_bytes);
    *last = c;
}

/* Task of hart 3: the far end (RX bytes into the fake, a few ahead of the
 * readers), reads, snapshots, tcdrains, until the writers are done and
 * every byte sent is read. */
static void far_end(void *arg)
{
    (void)arg;
    struct uart_counters last = { 0 };
    uint64_t give_up = 0;
    for (unsigned i = 0;; i++) {
        uint32_t sent = __atomic_load_n(&rx_injected, __ATOMIC_RELAXED);
        if (sent < RX_BYTES && sent == __atomic_load_n(&rx_read, __ATOMIC_RELAXED)) {
            uint32_t n = RX_BYTES - sent < RX_BURST ? RX_BYTES - sent : RX_BURST;
            ft_bus_lock();
            for (uint32_t k = 0; k < n; k++)
                fu_rx_inject_at(fu_now() + k * uart_port.timing.char_ns, (uint8_t)(sent + k), 0);
            ft_bus_unlock();
            __atomic_store_n(&rx_injected, sent + n, __ATOMIC_RELAXED);
        }
        ft_step("read");
        read_some(1 + i % 4);
        if (i % 16 == 0)
            snapshot(&last);
        if (i == 300 && has_counters) {
            ft_step("counters reset");
            CHECK_EQ(uart_be_counters_reset(), 0);
            last = (struct uart_counters){ .rx_bytes = last.rx_bytes };
            did_reset = true;
        }
        if (i % 16 == 8)
            drain(NULL, false);
        int q;
        CHECK_EQ(kposix_ioctl(FD_BLOCK, TIOCOUTQ, &q), 0);
        CHECK_EQ(kposix_ioctl(FD_BLOCK, FIONREAD, &q), 0);
        bool rx_done = __atomic_load_n(&rx_read, __ATOMIC_RELAXED) == RX_BYTES;
        if (!__atomic_load_n(&writers_left, __ATOMIC_RELAXED)) {
            if (rx_done)
                break;
            if (!give_up)
                give_up = clock_now_ns() + 2000000000ULL;
            else if (clock_now_ns() > give_up) {
                fprintf(stderr, "far end: %u of %u RX bytes read\n",
                        (unsigned)rx_read, (unsigned)RX_BYTES);
                CHECK(rx_done);
                break;
            }
        }
        sleep_for(2 * uart_port.timing.char_ns);
    }
    snapshot(&last);
}

/* main, after the tasks: the line carried each writer's bytes once, in
 * order; the counters add up; the RX bytes are the injected ones. */
static void check_end(void)
{
    uint32_t seq[WRITERS] = { 0 }, bad = 0, crs = 0;
    ft_bus_lock();
    const struct fu_out *o = fu_out_buf();
    size_t n = fu_out_count();
    for (size_t i = 0; i < n; i++) {
        unsigned w = o[i].b >> 6;
        if (w < WRITERS && inserted_cr(w, o[i].b, seq[w])) {
            if (i + 1 < n && o[i + 1].b == '\n')
                crs++;
            else if (bad++ < 5)
                fprintf(stderr, "line byte %zu: ONLCR's '\\r' without its '\\n'\n", i);
            continue;
        }
        if (w >= WRITERS || (o[i].b & 63U) != (seq[w] & 63U)) {
            if (bad++ < 5)
                fprintf(stderr, "line byte %zu: %#x, expected writer %u's next (%u)\n", i,
                        o[i].b, w, w < WRITERS ? (unsigned)seq[w] : 0U);
            continue;
        }
        seq[w]++;
    }
    unsigned lost = (unsigned)fu_stats()->lost_stores, rx_lost = (unsigned)fu_stats()->rx_lost;
    ft_bus_unlock();
    CHECK_EQ(bad, 0);
    CHECK_EQ(crs, newlines());
    CHECK_EQ(lost, 0);
    for (unsigned w = 0; w < WRITERS; w++) {
        CHECK_EQ(wr[w].written, W_BYTES);
        CHECK_EQ(seq[w], wr[w].written);
    }
    CHECK_EQ(rx_read, RX_BYTES);
    CHECK_EQ(rx_lost, 0);
    for (unsigned v = 0; v < 256; v++)
        CHECK_EQ(rx_hist[v], RX_BYTES / 256 + (v < RX_BYTES % 256));
    printf("line %zu bytes, drains %u (ok %u, timed out %u), rx %u\n", n, (unsigned)drains,
           (unsigned)drains_ok, (unsigned)drain_timeouts, (unsigned)rx_read);
    if (!has_counters)
        return;
    struct uart_counters c;
    CHECK_EQ(uart_be_counters(&c), 0);
    CHECK_EQ(c.staged_bytes, 0);
    if (!did_reset) {
        CHECK_EQ(c.user_acc, WRITERS * W_BYTES + newlines());
        CHECK_EQ(c.hw_send_bytes, c.user_acc);
        CHECK_EQ(c.drain_calls, drains);
        CHECK_EQ(c.drain_timeouts, drain_timeouts);
    } else {   /* since the reset; a write across it counted in both */
        uint64_t acc = c.user_acc + c.queued_at_reset;
        if (!(acc >= c.hw_send_bytes && acc - c.hw_send_bytes <= MAX_WRITE))
            fprintf(stderr, "DIAG user_acc %llu queued_at_reset %llu hw_send_bytes %llu\n",
                    (unsigned long long)c.user_acc, (unsigned long long)c.queued_at_reset,
                    (unsigned long long)c.hw_send_bytes);
        CHECK(acc >= c.hw_send_bytes && acc - c.hw_send_bytes <= MAX_WRITE);
        CHECK(c.user_acc < WRITERS * W_BYTES + newlines() && c.drain_calls <= drains);
    }
    CHECK_EQ(c.rx_bytes, RX_BYTES);
    CHECK_EQ(c.rx_dropped, 0);
    printf("counters%s: user_calls %llu tx_irqs %llu hw_send_calls %llu writer_blocks %llu "
           "rx_irqs %llu rx_deferred %llu\n", did_reset ? " (since the reset)" : "",
           (unsigned long long)c.user_calls, (unsigned long long)c.tx_irqs,
           (unsigned long long)c.hw_send_calls, (unsigned long long)c.writer_blocks,
           (unsigned long long)c.rx_irqs, (unsigned long long)c.rx_deferred);
}

/* The watchdog (main thread, the tasks stuck, reads unsynchronised):
 * the driver's state, what a drain waits for. */
static void dump_driver(void)
{
    struct uart_port *p = &uart_port;
    struct drain_view v;
    uart_engine.drain_view(p, &v);
    fprintf(stderr, "  driver: tx_in %llu, out %llu, busy %d, ring %u, queued %zu, "
            "lsr %#x, fifo %u, ier %#x\n",
            (unsigned long long)port_tx_in(p), (unsigned long long)v.out, v.busy,
            ring_used(&p->tx), uart_engine.queued(p), fu_lsr_peek(), fu_tx_level(),
            fu_reg_ier());
    fprintf(stderr, "  counters: tx_irqs %llu, hw_send_calls %llu, hw_send_zero %llu, "
            "no_progress %llu, slow_poll_exh %llu, yield_exh %llu, drain_timer_waits %llu\n",
            (unsigned long long)p->ctr.tx_irqs, (unsigned long long)p->ctr.hw_send_calls,
            (unsigned long long)p->ctr.hw_send_zero,
            (unsigned long long)p->ctr.no_progress_budget,
            (unsigned long long)p->ctr.slow_poll_exh, (unsigned long long)p->ctr.yield_exh,
            (unsigned long long)p->ctr.drain_timer_waits);
}

/* The test: boot on hart 0, the four harts' tasks, the checks. */
int main(void)
{
    /* 500 kbaud (20 us a character) from an 8 MHz clock: divisor 1. */
    static const struct uart_cfg cfg = { .base = 0x10000000, .reg_shift = 0, .io_width = 1,
                                         .clock_hz = 8000000, .baud = 500000,
                                         .fifo_depth = DEPTH, .rx_trigger = 8 };
    struct fu_config f = { .base = cfg.base, .reg_shift = 0, .width = 1, .fifo_depth = DEPTH,
                           .char_ns = uart_char_ns(&cfg) };
    ft_init();
    fu_init(&f);
    CHECK_EQ(uart_be_hw_init(&cfg), 0);
    CHECK_EQ(uart_be_init(IRQ), 0);
    has_counters = uart_engine.flags & ENGINE_COUNTERS;
    posix_io_init();
    struct termios tio;
    CHECK_EQ(kposix_tcgetattr(FD_BLOCK, &tio), 0);
    tio.c_oflag = OPOST | ONLCR;
    CHECK_EQ(kposix_tcsetattr(FD_BLOCK, TCSANOW, &tio), 0);
    CHECK_EQ(kposix_open("/dev/console", O_RDWR | O_NONBLOCK), FD_NONBLOCK);
    for (unsigned i = 0; i < WRITERS; i++) {
        wr[i] = (struct writer){ .id = i, .nonblock = i == 2, .reads = i != 0,
                                 .rng = 0x9E3779B97F4A7C15ULL * (i + 1) };
        static const char *names[WRITERS] = { "writer0", "writer1", "writer2" };
        ft_spawn(i, names[i], writer, &wr[i]);
    }
    ft_spawn(3, "far-end", far_end, NULL);
    ft_watchdog_more(dump_driver);
    uint64_t t = clock_now_ns();
    ft_go();
    ft_join(WATCHDOG_NS);
    printf("%s: %.2f s\n", uart_engine.name, (double)(clock_now_ns() - t) / 1e9);
    check_end();
    return check_exit("host.uart_smp_tsan");
}
