/* S42: compute overlap. A compute task runs a fixed integer kernel in
 * chunks (yielding between chunks) until a window of one payload line
 * time ends. Calibration: the kernel alone for one window (idle_iters).
 * Rounds: the same window while the section task writes 64 B x iters and
 * drains; efficiency = useful_iters / idle_iters. A polling backend that
 * spins in write() leaves the kernel nothing: efficiency near 0 is then
 * the truthful result, not a failure. Where no second task can run
 * beside the section's (bench_threads_missing: a kernel without threads
 * under the hosted build) there is no overlap to measure: SKIPPED. */
#include <stdio.h>
#include "bench.h"
#include "clock.h"
#include "cpu_acct.h"
#include "kernel.h"
#include "params.h"
#include "posix_io.h"
#include "scheduler.h"
#include "stats.h"
#include "tx_common.h"

#define S42_SEED        42
#define S42_CHUNK       1000U         /* kernel iterations between yields */
#define S42_STACK_WORDS 1024
#define S42_ROUNDS_MAX  8
#define U(x)            ((unsigned long long)(x))

struct s42_work {
    uint64_t end_ns, start_ns, stop_ns, iters, state;
    struct waker waiter;
    volatile bool done;
};

struct s42_round {
    uint64_t completed, write_ns, drain_ns, total_ns, iters, cycles, busy_ppm;
    struct cpu_totals a, b;           /* the CPU accounts at the round's ends */
    struct bench_tx tx;
    struct bench_drain drain;
};

static struct task compute;
static uint64_t compute_stack[S42_STACK_WORDS];
static struct s42_work work;

/* Compute task (spawned by start_compute): xorshift64 steps in chunks of
 * S42_CHUNK until the window ends; counts only whole chunks begun in it. */
static void compute_main(void *arg)
{
    struct s42_work *w = arg;
    uint64_t x = w->state, n = 0;

    w->start_ns = clock_now_ns();
    while (clock_now_ns() < w->end_ns) {
        for (unsigned i = 0; i < S42_CHUNK; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        n += S42_CHUNK;
        sched_yield();
    }
    w->stop_ns = clock_now_ns();
    w->iters = n;
    w->state = x;
    w->done = true;
    waker_wake(&w->waiter);
}

/* Section task: spawn the compute task for the window [now, end_ns). */
static void start_compute(uint64_t end_ns)
{
    uint64_t seed = work.state ? work.state : 0x9E3779B97F4A7C15ULL;
    work = (struct s42_work){ .end_ns = end_ns, .state = seed };
    task_spawn(&compute, "s42-compute", compute_main, &work, compute_stack, S42_STACK_WORDS);
}

/* Section task: block until the compute task has finished its window
 * (the waker is registered only here, so it cannot cut short a drain). */
static void wait_compute(void)
{
    work.waiter = waker_current();
    while (!work.done)
        sched_block();
}

/* Section task: "x.yyyy" of a / b. */
static const char *div4(char *buf, size_t n, uint64_t a, uint64_t b)
{
    uint64_t r = b ? a * 10000 / b : 0;
    snprintf(buf, n, "%llu.%04llu", U(r / 10000), U(r % 10000));
    return buf;
}

/* Section task: one round: compute window + writes + drain + wait. */
static void run_round(struct s42_round *r, uint64_t window, const uint8_t *p, uint32_t *crc)
{
    *r = (struct s42_round){ 0 };
    unsigned long f = irq_save();   /* the accounts and the counters in one window */
    cpu_acct_read(&r->a);
    uint64_t c0 = rdcycle(), t0 = clock_now_ns();
    irq_restore(f);
    start_compute(t0 + window);
    for (unsigned i = 0; i < bench.iters && !bench_write_full(p, S42_PAYLOAD, &r->tx); i++)
        r->completed += S42_PAYLOAD;
    uint64_t t1 = clock_now_ns();
    bench_drain(&r->drain);
    uint64_t t2 = clock_now_ns();
    wait_compute();
    f = irq_save();
    uint64_t t3 = clock_now_ns(), c1 = rdcycle();
    cpu_acct_read(&r->b);
    irq_restore(f);
    r->write_ns = t1 - t0;
    r->drain_ns = t2 - t1;
    r->total_ns = t3 - t0;
    r->iters = work.iters;
    r->cycles = c1 - c0;
    r->busy_ppm = cpu_busy_ppm(&r->a, &r->b, r->cycles);
    *crc = tx_crc_repeat(*crc, p, S42_PAYLOAD, r->tx.written);
}

/* Section task: `diag=<tag>` line of one round, with the platform's
 * further CPU figures (cpu_print_window) at its end; true if it completed. */
static bool print_round(const char *tag, unsigned round, const struct s42_round *r,
                        uint64_t idle_iters, uint64_t line_ns)
{
    uint64_t expected = (uint64_t)S42_PAYLOAD * bench.iters;
    bool byte_ok = r->completed == expected && !r->tx.err, drain_ok = !r->drain.errors;
    char wr[24], fd[24], tot[24], ratio[24], eff[24], util[24];

    printf("  diag=%s round=%u completion=%s byte_ok=%d drain_ok=%d completed=%llu expected=%llu "
           "write_return_us=%s useful_iters=%llu final_drain_ms=%s total_duration_ms=%s "
           "total_over_line_ratio=%s overlap_efficiency=%s drain_errors=%lu cpu_util_pct=%s "
           "write_rc=%d useful_work_per_ms=%llu",
           tag, round, byte_ok && drain_ok ? "PASS" : "FAIL", byte_ok, drain_ok,
           U(r->completed), U(expected), bench_milli(wr, sizeof wr, r->write_ns),
           U(r->iters), bench_milli(fd, sizeof fd, r->drain_ns / 1000),
           bench_milli(tot, sizeof tot, r->total_ns / 1000),
           bench_milli(ratio, sizeof ratio, line_ns ? r->total_ns * 1000 / line_ns : 0),
           div4(eff, sizeof eff, r->iters, idle_iters), (unsigned long)r->drain.errors,
           bench_milli(util, sizeof util, r->busy_ppm / 10), r->tx.err,
           U(r->total_ns ? r->iters * 1000000 / r->total_ns : 0));
    cpu_print_window(&r->a, &r->b, 0);
    printf("\n");
    return byte_ok && drain_ok;
}

/* Runner, section task. */
enum bench_status s42_overlap(void)
{
    static struct s42_round r[S42_ROUNDS_MAX + 1];
    unsigned rounds = bench.rounds < S42_ROUNDS_MAX ? bench.rounds : S42_ROUNDS_MAX;
    uint64_t window = bench_line_ns((uint64_t)S42_PAYLOAD * bench.iters);
    uint64_t it[S42_ROUNDS_MAX], tot[S42_ROUNDS_MAX], eff[S42_ROUNDS_MAX];
    const uint8_t *p = bench_payload(S42_PAYLOAD, S42_SEED);
    char a[24], b[24], c[24];
    uint32_t crc = 0;
    unsigned valid = 0;
    const char *no_threads = bench_threads_missing();

    if (no_threads) {
        printf("  diag=s42-skip reason=no-threads threads=%s\n", no_threads);
        return bench_skip("no-threads");
    }
    console_flush();
    tcdrain(bench.fd);
    start_compute(clock_now_ns() + window);
    wait_compute();
    uint64_t idle_iters = work.iters, idle_dur = work.stop_ns - work.start_ns;
    printf("  idle window_ms=%s window_ns=%llu iters=%llu duration_ms=%s iters_per_sec=%llu "
           "chunk=%u kernel=xorshift64\n", bench_milli(a, sizeof a, window / 1000), U(window),
           U(idle_iters), bench_milli(b, sizeof b, idle_dur / 1000),
           U(idle_dur ? idle_iters * 1000000000ULL / idle_dur : 0), S42_CHUNK);
    printf("  overlap payload=%u iters=%u warmup=1 sample_rounds=%u theoretical_line_time_ms=%s\n",
           S42_PAYLOAD, bench.iters, rounds, bench_milli(c, sizeof c, window / 1000));
    bench_payload_begin("s42-overlap");
    for (unsigned k = 0; k <= rounds; k++)
        run_round(&r[k], window, p, &crc);
    uint64_t bytes = 0;
    for (unsigned k = 0; k <= rounds; k++)
        bytes += r[k].tx.written;
    bench_payload_end("s42-overlap", bytes, crc);
    print_round("s42-warmup", 0, &r[0], idle_iters, window);
    for (unsigned k = 1; k <= rounds; k++) {
        if (!print_round("s42-sample", k, &r[k], idle_iters, window)) {
            bench_tx_status(&r[k].tx, &r[k].drain);
            continue;
        }
        it[valid] = r[k].iters;
        tot[valid] = r[k].total_ns;
        eff[valid] = idle_iters ? r[k].iters * 10000 / idle_iters : 0;
        valid++;
    }
    uint64_t mi = stats_median(it, valid), mt = stats_median(tot, valid), me = stats_median(eff, valid);
    printf("  diag=s42-summary valid_rounds=%u median_useful_iters=%llu "
           "median_total_duration_ms=%s median_overlap_efficiency=%llu.%04llu "
           "median_rule=mean-of-middle-pair\n", valid, U(mi), bench_milli(a, sizeof a, mt / 1000),
           U(me / 10000), U(me % 10000));
    if (!idle_iters)
        return bench_fail("no-idle-work");
    return valid == bench.rounds ? BENCH_PASS : bench_fail("round-invalid");
}
