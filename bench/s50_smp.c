/* S50: the driver under callers on several harts (SKIPPED with one).
 * A task per online hart, one phase at a time:
 *  writers  loopback on: each hart writes tagged chunks (a tag byte, then
 *           its own pattern) and collects what comes back; every chunk
 *           must arrive once, whole, and each tag's in order;
 *  thre     the same with a tcdrain after every write: writes and drains
 *           on all harts turn the TX interrupt on and off at once; every
 *           drain returns 0, the bytes arrive as above, and afterwards
 *           IER holds what the driver's shadow says;
 *  drain    hart 0 queues a payload (the log's witness), the other harts
 *           tcdrain it: none returns before the payload's line time, nor
 *           with bytes still pending;
 *  rx       readers on two harts share one modelled far-end stream
 *           (s50_rx.c).
 * The TX counters must add up to what the tasks did. A lost wake-up
 * shows as a phase's watchdog. Boot argument s50_yield_seed=N adds
 * seeded yields between the tasks' calls (the stress variant). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bootarg_key.h"
#include "clock.h"
#include "crc32.h"
#include "kernel.h"
#include "pattern.h"
#include "posix_io.h"
#include "s50_smp.h"
#include "spinlock.h"
#include "waitq.h"
#include "wire_model.h"

#define CHUNKS      48U                  /* writes per hart, writers phase */
#define THRE_ITERS  16U                  /* write + tcdrain per hart, thre phase */
#define THRE_CHUNK  4U
#define DRAIN_BYTES 256U
#define RX_LOG_MAX  4096U
#define TAG(h)      ((uint8_t)('A' + (h)))
#define SEED(h)     (50U + (h))
#define U(x)        ((unsigned long long)(x))
#define QUIESCE_POLL_NS 100000ULL        /* between two looks at the model's timers */

struct s50_run s50;
static uint8_t rx_log[RX_LOG_MAX];       /* what came back, in arrival order */
static uint32_t rx_len;
static struct spinlock log_lock;         /* a read and its append, together */
static int nb_fd;                        /* non-blocking, for the collection */
static unsigned chunk, per_hart;         /* the running loopback phase's shape */
static bool drain_each;
static uint64_t drain_t0, drain_line_ns;
static volatile unsigned drain_go;
static unsigned drain_bad;
static uint32_t written;                 /* loopback bytes written by all harts */
static unsigned quiesce_bad;             /* harts whose model timers stayed wanted */

/* A phase task: whatever has come back, appended to the log. */
static void collect(unsigned h)
{
    unsigned long f = spin_lock_irqsave(&log_lock);
    ssize_t k = read(nb_fd, rx_log + rx_len, RX_LOG_MAX - rx_len);
    if (k > 0) {
        rx_len += (uint32_t)k;
        s50.hart[h].reads++;
        s50.hart[h].read_bytes += (uint64_t)k;
    }
    spin_unlock_irqrestore(&log_lock, f);
}

/* writer, before a write: until what all harts wrote has come back (at
 * most a FIFO's worth is then in flight: the harts' next chunks), or 64
 * characters' time. A design whose TX task spins while RX waits (the
 * copier) overruns the RX FIFO with more. */
static void pace(unsigned h)
{
    uint64_t end = clock_now_ns() + 64 * bench.char_ns;
    while (__atomic_load_n(&written, __ATOMIC_ACQUIRE) !=
               __atomic_load_n(&rx_len, __ATOMIC_ACQUIRE) && clock_now_ns() < end) {
        collect(h);
        sleep_for(bench.char_ns);
    }
}

/* Writer task on hart h (writers and thre phases): per_hart chunks of
 * `chunk` bytes, each a write of its own (with a tcdrain after it in the
 * thre phase), collecting after each. */
static void writer(void *arg)
{
    unsigned h = (unsigned)(uintptr_t)arg;
    uint8_t buf[16];

    for (unsigned s = 0; s < per_hart; s++) {
        buf[0] = TAG(h);
        pattern_fill(buf + 1, chunk - 1, SEED(h), (uint64_t)s * (chunk - 1));
        pace(h);
        s50_maybe_yield(h);
        if (write(bench.fd, buf, chunk) == (ssize_t)chunk) {
            __atomic_fetch_add(&written, chunk, __ATOMIC_ACQ_REL);
            s50.hart[h].writes++;
            s50.hart[h].bytes += chunk;
        }
        if (drain_each) {
            s50.hart[h].drains++;
            s50.hart[h].drain_errors += tcdrain(bench.fd) != 0;
        }
        collect(h);
    }
    s50_task_done();
}

/* Section task: the log, cut into chunks: each starts with a tag and
 * holds the next piece of that tag's pattern. Returns the bad chunks. */
static unsigned check_log(unsigned *missing)
{
    unsigned next[HARTS_MAX] = { 0 }, bad = 0;
    uint8_t want[16];

    for (uint32_t i = 0; i + chunk <= rx_len; i += chunk) {
        unsigned t = (unsigned)(rx_log[i] - TAG(0));
        if (t >= s50.nharts) {
            bad++;
            continue;
        }
        pattern_fill(want, chunk - 1, SEED(t), (uint64_t)next[t] * (chunk - 1));
        if (memcmp(want, rx_log + i + 1, chunk - 1) != 0 || next[t] >= per_hart)
            bad++;
        else
            next[t]++;
    }
    *missing = 0;
    for (unsigned t = 0; t < s50.nharts; t++)
        *missing += per_hart - next[t];
    return bad + (rx_len % chunk != 0);
}

/* Section task: a loopback phase (writers or thre): run it, collect the
 * rest, check. The counters' deltas over the phase must be its writes,
 * bytes and drains (nothing else writes meanwhile). */
static bool loopback_phase(const char *name, unsigned ch, unsigned n, bool with_drain)
{
    struct uart_counters c0, c1;
    int one = 1, zero = 0;
    chunk = ch, per_hart = n, drain_each = with_drain, rx_len = 0, written = 0;
    uint32_t total = s50.nharts * ch * n;

    console_flush();
    tcdrain(bench.fd);
    bench_rx_flush();
    bench_rx_own_begin();
    bool counters = ioctl(bench.fd, UART_IOC_GET_COUNTERS, &c0) == 0;
    if (ioctl(bench.fd, UART_IOC_LOOPBACK, &one) != 0) {
        bench_rx_own_end(0);
        printf("  diag=s50-%s status=SKIPPED reason=no-loopback\n", name);
        return true;
    }
    bool ran = s50_run_phase(name, writer);
    uint64_t end = clock_now_ns() + bench_line_ns(total) + 100 * bench.char_ns;
    while (rx_len < total && clock_now_ns() < end) {
        collect(0);
        sleep_for(bench.char_ns);
    }
    tcdrain(bench.fd);
    collect(0);
    bool c_ok = !counters || ioctl(bench.fd, UART_IOC_GET_COUNTERS, &c1) == 0;
    ioctl(bench.fd, UART_IOC_LOOPBACK, &zero);
    bench_rx_own_end(rx_len);
    unsigned missing, bad = check_log(&missing);
    uint64_t writes = 0, bytes = 0, drains = 0, errs = 0;
    for (unsigned h = 0; h < s50.nharts; h++) {
        writes += s50.hart[h].writes, bytes += s50.hart[h].bytes;
        drains += s50.hart[h].drains, errs += s50.hart[h].drain_errors;
    }
    bool ok = ran && !bad && !missing && rx_len == total && !errs;
    printf("  diag=s50-%s status=%s harts=%u chunk=%u chunks_per_hart=%u bytes=%u received=%u "
           "bad_chunks=%u missing_chunks=%u drains=%llu drain_errors=%llu watchdog=%d\n", name,
           ok ? "PASS" : "FAIL", s50.nharts, ch, n, total, rx_len, bad, missing, U(drains),
           U(errs), !ran);
    if (counters && c_ok) {
        uint64_t calls = c1.user_calls - c0.user_calls, acc = c1.user_acc - c0.user_acc;
        uint64_t dc = c1.drain_calls - c0.drain_calls;
        bool cok = calls == writes && acc == bytes && dc == drains + 1;  /* + the section's */
        printf("  diag=s50-counters phase=%s status=%s user_calls=%llu writes=%llu "
               "user_acc=%llu bytes=%llu drain_calls=%llu drains=%llu\n", name,
               cok ? "PASS" : "FAIL", U(calls), U(writes), U(acc), U(bytes), U(dc),
               U(drains + 1));
        ok &= cok;
    }
    s50_print_harts(name);
    return ok;
}

/* Drainer task on hart h >= 1 (drain phase): wait for hart 0's payload to
 * be queued, tcdrain it, check that nothing is pending and that the
 * payload's line time has passed. */
static void drainer(void *arg)
{
    unsigned h = (unsigned)(uintptr_t)arg;
    int pending = -1;

    while (!__atomic_load_n(&drain_go, __ATOMIC_ACQUIRE))
        sleep_for(bench.char_ns);
    s50_maybe_yield(h);
    s50.hart[h].drains++;
    int rc = tcdrain(bench.fd);
    uint64_t t = clock_now_ns();
    ioctl(bench.fd, TIOCOUTQ, &pending);
    bool bad = rc != 0 || pending != 0 || t - drain_t0 < drain_line_ns;
    s50.hart[h].drain_errors += bad;
    __atomic_fetch_add(&drain_bad, bad, __ATOMIC_RELAXED);
    s50_task_done();
}

/* Section task: the drain phase: the other harts' drainers start, then
 * this task (hart 0) writes the payload they drain. */
static bool drain_phase(void)
{
    const uint8_t *pl = bench_payload(DRAIN_BYTES, 50);
    drain_go = 0, drain_bad = 0;
    drain_line_ns = bench.line_timed ? bench_line_ns(DRAIN_BYTES) : 0;   /* instant: none */
    bench_payload_begin("s50-drain");
    s50_phase_start("s50-drainer", drainer, 1);   /* hart 0's part is this task's */
    drain_t0 = clock_now_ns();
    ssize_t k = write(bench.fd, pl, DRAIN_BYTES);
    __atomic_store_n(&drain_go, 1, __ATOMIC_RELEASE);
    bool ran = s50_phase_wait();
    bench_payload_end("s50-drain", DRAIN_BYTES, crc32_update(0, pl, DRAIN_BYTES));
    bool ok = ran && k == DRAIN_BYTES && !drain_bad;
    printf("  diag=s50-drain status=%s bytes=%u drainers=%u bad_drains=%u line_ns=%llu "
           "watchdog=%d\n", ok ? "PASS" : "FAIL", DRAIN_BYTES, s50.nharts - 1, drain_bad,
           U(drain_line_ns), !ran);
    s50_print_harts("drain");
    return ok;
}

/* The quiesce phase's task on hart h >= 1: the model's timers on it off
 * once the line wants nothing of them (hart 0 keeps its own: it stays
 * the driver's caller). */
static void quiescer(void *arg)
{
    (void)arg;
    bool ok;
    while (!(ok = wire_model_hart_quiesce()) && clock_now_ns() < s50.deadline)
        sleep_for(QUIESCE_POLL_NS);
    if (!ok)
        __atomic_fetch_add(&quiesce_bad, 1, __ATOMIC_RELAXED);
    s50_task_done();
}

/* Section task, after the last phase: the other harts' tasks have ended;
 * once each has cancelled the model's timers on it, the driver is hart
 * 0's alone again (harts_share(false)) and the one-hart sections after
 * S50 take no lock. Left shared (locks still taken) after a watchdog. */
static bool unshare(void)
{
    quiesce_bad = 0;
    bool ok = !s50.stuck;
    if (ok) {
        s50_phase_start("s50-quiesce", quiescer, 1);
        ok = s50_phase_wait() && quiesce_bad == 0;
    }
    if (ok)
        harts_share(false);
    printf("  diag=s50-quiesce status=%s harts=%u not_quiet=%u shared=%d\n", ok ? "PASS" : "FAIL",
           s50.nharts, quiesce_bad, harts_many());
    return ok;
}

/* Section task: IER as the driver's shadow says, and the locks' waits. */
static bool print_state(void)
{
    struct uart_irq_state s;
    struct spinlock_stats port, wire;
    bool ier_ok = uart_be_irq_state(&s) == 0 && s.ier_reg == s.ier_shadow;
    uart_be_lock_stats(&port);
    wire_model_lock_stats(&wire);
    printf("  diag=s50-ier status=%s ier_shadow=0x%02x ier_reg=0x%02x tx_irq_on=%d\n",
           ier_ok ? "PASS" : "FAIL", (unsigned)s.ier_shadow, (unsigned)s.ier_reg, s.tx_on);
    printf("  diag=s50-locks port_acquired=%llu port_contended=%llu port_wait_cycles=%llu "
           "wire_acquired=%llu wire_contended=%llu wire_wait_cycles=%llu\n", U(port.acquired),
           U(port.contended), U(port.wait_cycles), U(wire.acquired), U(wire.contended),
           U(wire.wait_cycles));
    for (unsigned h = 0; h < s50.nharts; h++) {
        struct spinlock_stats in;
        sched_inbox_stats(h, &in);
        printf("  diag=s50-inbox hart=%u acquired=%llu contended=%llu wait_cycles=%llu\n", h,
               U(in.acquired), U(in.contended), U(in.wait_cycles));
    }
    return ier_ok;
}

/* bootargs_check (boot): s50_yield_seed=, a 32-bit seed (0: no yields). */
static const char *yield_seed_forms(const char *value)
{
    return bootarg_uint(value, 0xffffffffUL) ? NULL : "0..4294967295 (0: no yields)";
}
BOOTARG_KEY(s50_yield_seed, yield_seed_forms);

/* Section task. */
enum bench_status s50_smp(void)
{
    char arg[16];
    s50.nharts = harts_online();
    printf("  diag=s50-harts harts=%u platform_harts=%u\n", s50.nharts, harts_count());
    if (s50.nharts < 2)
        return bench_skip("one-hart");
    s50.phase = 0;
    s50.stuck = false;
    s50.main = waker_current();
    s50.yield_seed = bootarg("s50_yield_seed", arg, sizeof arg) ? (uint32_t)strtoul(arg, NULL, 10) : 0;
    printf("  diag=s50-stress yield_seed=%u\n", s50.yield_seed);
    nb_fd = open("/dev/console", O_RDWR | O_NONBLOCK);
    unsigned ch = 16 / s50.nharts < 2 ? 2 : 16 / s50.nharts;   /* all in one RX FIFO */
    bool ok = loopback_phase("writers", ch, CHUNKS, false);
    ok &= loopback_phase("thre", THRE_CHUNK * s50.nharts <= 16 ? THRE_CHUNK : ch, THRE_ITERS,
                         true);
    ok &= drain_phase();
    int rx = s50_rx_phase();
    ok &= rx != 0;
    ok &= print_state();
    ok &= unshare();
    close(nb_fd);
    bench_rx_mark("s50-rx-window");
    return ok ? BENCH_PASS : bench_fail("s50-check");
}
