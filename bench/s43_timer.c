/* S43: timer wake-up overshoot. A sampler task sleeps with
 * clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to deadlines every 5 ms
 * from a base and records clock_gettime() - deadline. Idle phase: the
 * section task only waits. Loaded phase: the section task writes a 4096 B
 * burst and drains it while the sampler runs (a polling backend spins in
 * write() and the sampler cannot run until it returns: its late wake-ups
 * are the truthful result). A platform may add idle phases after these
 * (bench_s43_extra_idle: Linux at a timer slack of 1 ns), each phase's
 * line ending with its timer settings (bench_s43_print_timer). Every
 * sample is printed (`samples` lines, one series per phase) with a 1 us
 * histogram per phase. Where clock_nanosleep is missing (ENOSYS: a small
 * kernel under the hosted build) the section is SKIPPED; where no second
 * task can run beside the section's (bench_threads_missing) the sampler
 * runs alone, so the idle phases are measured and the loaded one is
 * SKIPPED (its phase line says so, and has no groups). */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "clock.h"
#include "crc32.h"
#include "kernel.h"
#include "params.h"
#include "posix_io.h"
#include "scheduler.h"
#include "stats.h"

#define S43_SEED        43
#define S43_GROUPS_MAX  5
#define S43_SAMPLES_MAX 50
#define S43_SERIES_MAX  (S43_GROUPS_MAX * S43_SAMPLES_MAX)
#define S43_EXTRA_MAX   2           /* further idle phases a platform may add */
#define S43_STACK_WORDS 1024
#define S43_HIST_BUCKETS 1000U
#define S43_HIST_NS     1000ULL
#define NS_PER_S        1000000000ULL
#define U(x)            ((unsigned long long)(x))

struct s43_sampler {
    uint64_t base_ns, first_run_ns, last_ns;
    uint64_t *out;                  /* valid samples are appended here */
    unsigned want, collected, errors, valid;
    struct waker waiter;
    volatile bool done;
};

struct s43_phase {
    const char *name;               /* "idle", "loaded", a platform's further ones */
    uint64_t v[S43_SERIES_MAX];     /* every valid sample, groups in order */
    unsigned n, valid_groups;
};

static struct task sampler_task;
static uint64_t sampler_stack[S43_STACK_WORDS];
static struct s43_sampler smp;
static struct s43_phase idle = { .name = "idle" }, loaded = { .name = "loaded" };
static struct s43_phase extra[S43_EXTRA_MAX];
static uint64_t tmp[S43_SERIES_MAX];

/* Sampler task (spawned by start_sampler): want absolute sleeps on the
 * 5 ms grid from base_ns, each overshoot appended to out. */
static void sampler_main(void *arg)
{
    struct s43_sampler *s = arg;
    uint64_t deadline = s->base_ns;

    s->first_run_ns = clock_now_ns();
    for (unsigned i = 0; i < s->want; i++) {
        struct timespec ts, now;
        deadline += S43_INTERVAL_NS;
        ts.tv_sec = (time_t)(deadline / NS_PER_S);
        ts.tv_nsec = (long)(deadline % NS_PER_S);
        int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, 0);
        int grc = clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t t = (uint64_t)now.tv_sec * NS_PER_S + (uint64_t)now.tv_nsec;
        s->collected++;
        if (rc || grc || t < deadline)
            s->errors++;
        else
            s->out[s->valid++] = t - deadline;
    }
    s->last_ns = clock_now_ns();
    s->done = true;
    waker_wake(&s->waiter);
}

/* Section task: spawn the sampler with its grid starting now. */
static void start_sampler(uint64_t *out, unsigned want)
{
    smp = (struct s43_sampler){ .base_ns = clock_now_ns(), .out = out, .want = want };
    task_spawn(&sampler_task, "s43-sampler", sampler_main, &smp, sampler_stack,
               S43_STACK_WORDS);
}

/* Section task: block until the sampler is done (waker set only here). */
static void wait_sampler(void)
{
    smp.waiter = waker_current();
    while (!smp.done)
        sched_block();
}

/* Section task: ` sample[0]= sample[1]= sample[2]=` of a group, newline. */
static void print_first3(const uint64_t *v, unsigned n)
{
    for (unsigned i = 0; i < 3 && i < n; i++)
        printf(" sample[%u]=%llu", i, U(v[i]));
    printf("\n");
}

/* Section task: `s43-<phase>-group-summary` of v[0..n) (copied, unsorted). */
static void print_group_summary(const char *phase, const uint64_t *v, unsigned n, unsigned errors)
{
    struct stats_summary s;
    memcpy(tmp, v, n * sizeof *v);
    stats_summarize(tmp, n, &s);
    printf("  s43-%s-group-summary n=%u errors=%u p50_ns=%llu p95_ns=%llu p99_ns=%llu "
           "max_ns=%llu min_ns=%llu avg_ns=%llu\n", phase, n, errors, U(s.p50), U(s.p95),
           U(s.p99), U(s.max), U(s.min), U(s.avg));
}

/* Section task: one group of idle phase ph; true if every sample was
 * valid. */
static bool idle_group(struct s43_phase *ph, unsigned g, unsigned want)
{
    char dur[24];
    uint64_t *out = ph->v + ph->n;

    console_flush();
    tcdrain(bench.fd);              /* the line is quiet while sampling */
    start_sampler(out, want);
    wait_sampler();
    bool ok = smp.valid == want;
    printf("  diag=s43-%s-group group=%u status=%s collected=%u errors=%u valid=%u "
           "duration_ms=%s first_run_delay_ns=%llu", ph->name, g, ok ? "PASS" : "FAIL",
           smp.collected,
           smp.errors, smp.valid, bench_milli(dur, sizeof dur, (smp.last_ns - smp.base_ns) / 1000),
           U(smp.first_run_ns - smp.base_ns));
    print_first3(out, smp.valid);
    print_group_summary(ph->name, out, smp.valid, smp.errors);
    ph->n += smp.valid;
    return ok;
}

/* Section task: the groups of idle phase ph, after its line; true if
 * every group was valid. */
static bool idle_phase(struct s43_phase *ph, unsigned groups, unsigned want)
{
    bool ok = true;

    printf("  s43-phase=%s groups=%u samples=%u interval_us=%llu", ph->name, groups, want,
           U(S43_INTERVAL_NS / 1000));
    bench_s43_print_timer();
    printf("\n");
    for (unsigned g = 1; g <= groups; g++) {
        bool gok = idle_group(ph, g, want);
        if (!gok)
            bench_fail("samples-invalid");
        ph->valid_groups += gok;
        ok = ok && gok;
    }
    return ok;
}

/* Section task: one loaded group (burst + drain while sampling). */
static bool loaded_group(unsigned g, unsigned want)
{
    const uint8_t *p = bench_payload(S43_BURST, S43_SEED);
    uint64_t *out = loaded.v + loaded.n;
    struct bench_drain d = { 0 };
    struct bench_tx tx = { 0 };
    char tag[24], sd[24], dm[24];

    snprintf(tag, sizeof tag, "s43-loaded-%u", g);
    struct uart_counters rx0 = { 0 };
    int reset_rc = ioctl(bench.fd, UART_IOC_RESET_COUNTERS);
    ioctl(bench.fd, UART_IOC_GET_COUNTERS, &rx0);    /* RX counts since boot */
    bench_payload_begin(tag);
    start_sampler(out, want);
    uint64_t t0 = clock_now_ns();
    int wrc = bench_write_full(p, S43_BURST, &tx);
    uint64_t t1 = clock_now_ns();
    bench_drain(&d);
    uint64_t t2 = clock_now_ns();
    wait_sampler();
    unsigned written = (unsigned)tx.written;
    bench_payload_end(tag, written, crc32_update(0, p, written));
    bool ok = smp.valid == want && !wrc && !d.errors;
    if (!ok && bench_tx_status(&tx, &d) == BENCH_PASS)
        bench_fail("samples-invalid");
    printf("  diag=s43-loaded-group group=%u status=%s reset_rc=%d burst_written=%u expected=%u "
           "write_dur_ns=%llu short_writes=%lu collected=%u errors=%u valid=%u "
           "sample_duration_ms=%s drain_ms=%s drain_errors=%lu first_run_delay_ns=%llu "
           "rx_bytes_at_reset=%llu rx_dropped_at_reset=%llu rx_breaks_at_reset=%llu "
           "rx_overruns_at_reset=%llu", g,
           ok ? "PASS" : "FAIL", reset_rc, written, S43_BURST, U(t1 - t0), (unsigned long)tx.short_writes,
           smp.collected, smp.errors, smp.valid,
           bench_milli(sd, sizeof sd, (smp.last_ns - smp.base_ns) / 1000),
           bench_milli(dm, sizeof dm, (t2 - t1) / 1000), (unsigned long)d.errors,
           U(smp.first_run_ns - smp.base_ns), U(rx0.rx_bytes), U(rx0.rx_dropped),
           U(rx0.rx_breaks), U(rx0.rx_overruns));
    print_first3(out, smp.valid);
    print_group_summary("loaded", out, smp.valid, smp.errors);
    loaded.n += smp.valid;
    return ok;
}

/* Section task: `diag=s43-<phase>-aggregate` over the phase's series. */
static void print_aggregate(const struct s43_phase *ph)
{
    struct stats_summary s;
    memcpy(tmp, ph->v, ph->n * sizeof *tmp);
    stats_summarize(tmp, ph->n, &s);
    printf("  diag=s43-%s-aggregate n=%u valid_groups=%u p50_ns=%llu p95_ns=%llu p99_ns=%llu "
           "max_ns=%llu min_ns=%llu avg_ns=%llu\n", ph->name, ph->n, ph->valid_groups, U(s.p50),
           U(s.p95), U(s.p99), U(s.max), U(s.min), U(s.avg));
}

/* Section task: raw series and sparse 1 us histogram of one phase. */
static void print_series(const struct s43_phase *ph)
{
    static uint32_t counts[S43_HIST_BUCKETS];
    struct hist h;
    char tag[24];
    bool first = true;

    snprintf(tag, sizeof tag, "s43-%s", ph->name);
    bench_print_samples(tag, "ns", ph->v, ph->n);
    hist_init(&h, counts, S43_HIST_BUCKETS, S43_HIST_NS);
    for (unsigned i = 0; i < ph->n; i++)
        hist_add(&h, ph->v[i]);
    printf("  hist tag=%s bucket_ns=%llu nbuckets=%u overflow=%lu counts=", tag, U(S43_HIST_NS),
           S43_HIST_BUCKETS, (unsigned long)h.overflow);
    for (unsigned i = 0; i < S43_HIST_BUCKETS; i++) {
        if (!counts[i])
            continue;
        printf(first ? "%u:%lu" : ",%u:%lu", i, (unsigned long)counts[i]);
        first = false;
    }
    printf("\n");
}

/* s43_timer: whether clock_nanosleep sleeps at all (a deadline in the
 * past returns at once; a kernel without it says ENOSYS). */
static bool nanosleep_missing(void)
{
    struct timespec past = { 0, 0 };
    return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &past, 0) == ENOSYS;
}

/* s43_timer: the loaded phase's groups; true if every one was valid, or
 * when skipped (no second task: its line says why, no groups follow). */
static bool loaded_phase(unsigned groups, unsigned want)
{
    const char *no_threads = bench_threads_missing();
    bool ok = true;

    printf("  s43-phase=loaded groups=%u burst_bytes=%u theoretical_line_time_ns=%llu "
           "samples=%u interval_us=%llu", no_threads ? 0 : groups, S43_BURST,
           U(bench_line_ns(S43_BURST)), want, U(S43_INTERVAL_NS / 1000));
    bench_s43_print_timer();
    if (no_threads) {
        printf(" status=SKIPPED reason=no-threads threads=%s\n", no_threads);
        return true;
    }
    printf("\n");
    for (unsigned g = 1; g <= groups; g++) {
        bool gok = loaded_group(g, want);
        loaded.valid_groups += gok;
        ok = ok && gok;
    }
    return ok;
}

/* Runner, section task. */
enum bench_status s43_timer(void)
{
    unsigned groups = bench.groups, want = bench.samples;
    bool ok = groups <= S43_GROUPS_MAX && want <= S43_SAMPLES_MAX;

    if (nanosleep_missing()) {
        printf("  diag=s43-skip reason=no-clock-nanosleep errno=ENOSYS\n");
        return bench_skip("no-clock-nanosleep");
    }

    if (groups > S43_GROUPS_MAX)     /* if, not ?: (cppcheck 2.10 false positive) */
        groups = S43_GROUPS_MAX;
    if (want > S43_SAMPLES_MAX)
        want = S43_SAMPLES_MAX;

    idle.n = idle.valid_groups = loaded.n = loaded.valid_groups = 0;
    ok = idle_phase(&idle, groups, want) && ok;
    ok = loaded_phase(groups, want) && ok;
    unsigned extras = 0;
    for (unsigned k = 0;; k++) {    /* to the NULL, which restores the platform's setting */
        const char *name = bench_s43_extra_idle(k);
        if (!name)
            break;
        if (extras == S43_EXTRA_MAX)
            continue;
        extra[extras] = (struct s43_phase){ .name = name };
        ok = idle_phase(&extra[extras++], groups, want) && ok;
    }
    bool loaded_ran = !bench_threads_missing();
    if (loaded_ran)
        print_aggregate(&loaded);
    print_aggregate(&idle);
    for (unsigned k = 0; k < extras; k++)
        print_aggregate(&extra[k]);
    print_series(&idle);
    if (loaded_ran)
        print_series(&loaded);
    for (unsigned k = 0; k < extras; k++)
        print_series(&extra[k]);
    return ok ? BENCH_PASS : bench_fail("section-limits");
}
