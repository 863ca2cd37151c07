/* Section runner: the table of sections, each run in its own task under a
 * deadline derived from its line time, one status line per section (with
 * the foreign RX traffic of its window), and the closing summary. A
 * section that overruns is marked TIMEOUT: if it is blocked it is killed;
 * if it spins, the watchdog interrupt redirects it to task_exit(). The
 * run goes on either way. The log output drained before each section is
 * drained under a deadline too, in a task of its own (a design whose
 * tcdrain has no bound, the copier's, would otherwise hang the run there
 * on a stuck line). A section whose result depends on RX is INVALID when
 * foreign bytes arrived in its window. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "board_info.h"
#include "clock.h"
#include "kernel.h"
#include "oppoint.h"
#include "posix_io.h"
#include "scheduler.h"
#include "timer.h"
#include "waitq.h"
#include "wire_model.h"

#define SECTION_STACK_WORDS 2048        /* 16 KiB per section task */
#define DRAIN_STACK_WORDS   1024        /* 8 KiB per pre-section drain task */
#define DEADLINE_SLACK_MS   5000ULL
#define DRAIN_SLACK_MS      1000ULL     /* pre-section drain: beyond 3 x its line time */
#define NS_PER_MS           1000000ULL

/* Section table: order, wire bytes at full scale, non-wire time, whether
 * the result depends on received bytes. */
static const struct bench_section sections[] = {
    { "S00", "Benchmark Manifest", s00_manifest, 0, 0, false },
    { "S05", "Ring Buffer and Driver Internals at Boot", s05_internals, 4096, 2000, true },
    { "S06", "Kernel Primitives", s06_kernel, 0, 2000, false },
    { "S10", "TX Throughput Baseline (write + tcdrain each iteration)", s10_throughput, 134400, 0, false },
    { "S11", "TX Enqueue Cost (write loop, final drain outside timing)", s11_enqueue, 134400, 0, false },
    { "S12", "TX Batch Drain (write N iterations, then tcdrain)", s12_batch, 134400, 0, false },
    { "S13", "TX writev Fragments (fragment aggregation witness)", s13_writev, 26100, 0, false },
    { "S14", "TX Small Packet Break-even (64/128/256 drain-each)", s14_break_even, 44800, 0, false },
    { "S20", "TX Latency (single byte + tcdrain)", s20_latency, 100, 0, false },
    { "S21", "TX Latency FIFO Boundary Matrix", s21_fifo_matrix, 24200, 0, false },
    { "S30", "RX Empty Non-blocking Read (FIONBIO)", s30_nonblock, 0, 0, true },
    { "S31", "RX Fixed Payload Witness", s31_rx_fixed, 4096, 0, true },
    { "S32", "RX Sustained (modelled far end, full line rate)", s32_rx_sustained, 65536, 0, true },
    { "S33", "Full Duplex (TX burst + RX stream at once)", s33_full_duplex, 8192, 0, true },
    { "S41", "TX CPU Work (instret: write start -> final TEMT drain, 5 rounds)", s41_cpu_work, 672000, 0, false },
    { "S42", "TX Compute Overlap (64B x 100, fixed window, 5 sample rounds)", s42_overlap, 38400, 7000, false },
    { "S43", "Timer Wakeup Overshoot (5 idle groups + 5 loaded groups)", s43_timer, 20480, 3000, false },
    { "S40", "TX Counter Proxy Summary", s40_counters, 0, 0, false },
    { "S50", "SMP Correctness (writers, drains, THRE and readers on several harts)", s50_smp, 8192, 3000, true },
};
#define NSECTIONS (sizeof sections / sizeof sections[0])

static const char *const status_names[] = {
    [BENCH_PASS] = "PASS", [BENCH_FAIL] = "FAIL", [BENCH_TIMEOUT] = "TIMEOUT",
    [BENCH_SKIPPED] = "SKIPPED", [BENCH_INVALID] = "INVALID",
};
#define NSTATUS (sizeof status_names / sizeof status_names[0])

struct section_run {
    const struct bench_section *s;
    struct task task;
    struct waker runner;
    struct timer watchdog;
    volatile bool done;
    enum bench_status status;
};

/* A pre-section drain: its task, the runner to wake, tcdrain's result. */
struct drain_run {
    struct task task;
    struct waker runner;
    volatile bool done;
    int rc, err;
};

static uint64_t stacks[NSECTIONS][SECTION_STACK_WORDS];
static struct section_run *running;
/* One per section, never reused: a killed drain's wait-queue entry and
 * timer stay linked from its stack and name its task. */
static uint64_t drain_stacks[NSECTIONS][DRAIN_STACK_WORDS];
static struct drain_run drain_runs[NSECTIONS];

/* Any task: the section table. */
const struct bench_section *bench_sections(unsigned *n)
{
    *n = NSECTIONS;
    return sections;
}

/* Any task (select_sections, the runner's boot argument checks in
 * runner_args.c): the index of the section whose id is the len
 * characters at id, or NSECTIONS. */
unsigned bench_section_find(const char *id, size_t len)
{
    unsigned i = 0;
    while (i < NSECTIONS &&
           (strlen(sections[i].id) != len || strncmp(sections[i].id, id, len) != 0))
        i++;
    return i;
}

/* The runner (main task) and write_fault='s check (runner_args.c): value
 * as <Sxx>:<n>[:<errno>], the section's index, n and errno (EIO
 * without); false when it is not of that form. */
bool bench_write_fault_parse(const char *value, unsigned *section, int *after, int *err)
{
    const char *colon = strchr(value, ':');
    char *end;
    if (!colon || colon[1] < '0' || colon[1] > '9' ||
        (*section = bench_section_find(value, (size_t)(colon - value))) == NSECTIONS)
        return false;
    long n = strtol(colon + 1, &end, 10), e = EIO;
    if (*end == ':') {
        if (end[1] < '0' || end[1] > '9')
            return false;
        e = strtol(end + 1, &end, 10);
    }
    if (*end || n > 1000000 || e > 4095)
        return false;
    *after = (int)n;
    *err = (int)e;
    return true;
}

/* Boot task: the sections the boot argument sections=Sxx,Syy,... selects
 * (S00 always: it labels the run); all without it. A name that is not a
 * section stops the run before any section with EXIT_BOOTARG, naming the
 * valid ones. */
static uint32_t select_sections(void)
{
    char arg[8 * NSECTIONS], valid[5 * NSECTIONS] = "";
    uint32_t sel = 1;

    _Static_assert(NSECTIONS <= 32, "selection mask");
    if (!bootarg("sections", arg, sizeof arg))
        return (1U << NSECTIONS) - 1;
    for (char *p = arg, *q; *p; p = q) {
        size_t len = strcspn(p, ",");
        q = p + len + (p[len] == ',');
        p[len] = 0;
        unsigned i = bench_section_find(p, len);
        if (i == NSECTIONS) {
            for (unsigned k = 0; k < NSECTIONS; k++)
                snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
                         k ? "," : "", sections[k].id);
            printf("bad boot argument sections=: '%s' is not a section; valid values: %s\n",
                   p, valid);
            kernel_exit(EXIT_BOOTARG);
        }
        sel |= 1U << i;
    }
    return sel;
}

/* Section task: the boot argument stall=<Sxx>:<spin|block> makes that
 * section hang (a spin with interrupts on, or a block nobody wakes), so
 * tests can prove the deadline path: TIMEOUT, and the run goes on. */
static void maybe_stall(const struct bench_section *s)
{
    char arg[16];
    size_t n = strlen(s->id);
    if (!bootarg("stall", arg, sizeof arg) || strncmp(arg, s->id, n) != 0 || arg[n] != ':')
        return;
    printf("  stall=%s\n", arg);
    console_flush();
    if (strcmp(arg + n + 1, "spin") == 0)
        for (volatile int spin = 1; spin;)
            ;
    for (;;)
        sched_block();
}

/* Section task body. */
static void section_main(void *arg)
{
    struct section_run *r = arg;
    maybe_stall(r->s);
    r->status = r->s->run();
    console_flush();
    r->done = true;
    waker_wake(&r->runner);
}

/* Timer ISR, the section overran: its task ends (a spinning one when the
 * interrupt returns). */
static void watchdog_fire(struct timer *t)
{
    (void)t;
    if (running)
        task_abort_from_isr(&running->task);
}

/* Main task: the section's deadline from its share of line time. */
static uint64_t section_deadline_ns(const struct bench_section *s)
{
    uint64_t wire = s->wire_bytes;
    if (bench.quick)
        wire = wire / 10 + 1;
    return 3 * bench_line_ns(wire) + (s->extra_ms + DEADLINE_SLACK_MS) * NS_PER_MS;
}

/* Main task: entry(arg) as task t on stack[words] until it sets *done
 * (and wakes the main task) or deadline passes; a task still running then
 * is killed. Whether it finished. */
static bool run_bounded(struct task *t, const char *name, void (*entry)(void *), void *arg,
                        uint64_t *stack, size_t words, const volatile bool *done, uint64_t deadline)
{
    task_spawn(t, name, entry, arg, stack, words);
    while (!*done && clock_now_ns() < deadline)
        sched_block_until(deadline);
    if (!*done)
        task_kill(t);
    return *done;
}

/* Main task: run one section to completion or deadline. */
static enum bench_status run_section(unsigned i)
{
    static struct section_run r;
    const struct bench_section *s = &sections[i];
    uint64_t t0 = clock_now_ns(), deadline = t0 + section_deadline_ns(s);

    r = (struct section_run){ .s = s, .runner = waker_current() };
    r.watchdog.fire = watchdog_fire;
    running = &r;
    timer_arm(&r.watchdog, deadline, waker_current());
    bool done = run_bounded(&r.task, s->id, section_main, &r, stacks[i], SECTION_STACK_WORDS,
                            &r.done, deadline);
    timer_cancel(&r.watchdog);
    running = 0;
    if (!done) {
        console_flush();
        printf("\n  section=%s timeout_ms=%llu\n", s->id,
               (unsigned long long)((deadline - t0) / NS_PER_MS));
        return BENCH_TIMEOUT;
    }
    return r.status;
}

/* Pre-section drain task body (pre_section_drain). */
static void drain_main(void *arg)
{
    struct drain_run *d = arg;
    d->rc = tcdrain(bench.fd);
    d->err = d->rc ? errno : 0;
    d->done = true;
    waker_wake(&d->runner);
}

/* Main task, before section i: tcdrain of the log output so far, in a
 * task under a deadline of three times the queued bytes' line time plus
 * DRAIN_SLACK_MS; a drain still waiting then is killed (ETIMEDOUT). 0, or
 * -1 with *err the errno. */
static int pre_section_drain(unsigned i, int *err)
{
    struct drain_run *d = &drain_runs[i];
    int queued = 0;

    (void)ioctl(bench.fd, TIOCOUTQ, &queued);
    uint64_t deadline = clock_now_ns() + 3 * bench_line_ns((uint64_t)queued) +
                        DRAIN_SLACK_MS * NS_PER_MS;
    *d = (struct drain_run){ .runner = waker_current() };
    if (!run_bounded(&d->task, "pre-drain", drain_main, d, drain_stacks[i], DRAIN_STACK_WORDS,
                     &d->done, deadline)) {
        *err = ETIMEDOUT;
        return -1;
    }
    *err = d->err;
    return d->rc;
}

/* Main task: the line the sections measure against. */
static void bench_env_init(void)
{
    struct wire_stats w;
    wire_model_stats(&w);
    bench.fd = open("/dev/console", O_RDWR);
    struct uart_info info;
    uart_be_info(&info);
    bench.baud_milli = w.baud ? w.baud * 1000 : info.baud_milli;
    bench.char_ns = bench_line_ns(1);
    bench.line_timed = bench_line_timed();
#if BENCH_QUICK
    bench.quick = true;
#endif
    bench.iters = bench.quick ? 10 : 100;
    bench.rounds = bench.quick ? 2 : 5;
    bench.groups = bench.quick ? 1 : 5;
    bench.samples = bench.quick ? 10 : 50;
    struct uart_counters c;
    bench.async = uart_be_counters(&c) == 0;
    bench.selected = select_sections();
    bench_peer_init();
}

/* Boot task: start on the next whole millisecond, so that every later
 * event has the same phase whatever boot cost (firmware, harts parked):
 * under icount the run's timing figures are then the same for 1 or 4
 * harts, not only its results. */
static void align_start(void)
{
    sleep_until((clock_now_ns() / NS_PER_MS + 1) * NS_PER_MS);
}

/* Main task, before section s: the boot argument
 * write_fault=<Sxx>:<n>[:<errno>] makes the (n+1)-th POSIX write of that
 * section fail with errno (default EIO; 0: the write returns 0, no
 * progress), so tests can prove that a failed write FAILs the section
 * with its reason and the run goes on. */
static void maybe_write_fault(const struct bench_section *s)
{
    char arg[24];
    unsigned i;
    int after, err;
    if (!bootarg("write_fault", arg, sizeof arg) ||
        !bench_write_fault_parse(arg, &i, &after, &err) || &sections[i] != s)
        return;
    printf("  write_fault=%s\n", arg);
    posix_io_fault_write(after, err);
}

/* Main task: a section whose window saw foreign RX bytes reports INVALID
 * instead of PASS (its figures were taken on a noisy line), and so does a
 * section that depends on RX instead of FAIL (the bytes it compared were
 * not only its own). A TX section's FAIL stays a FAIL: noise must not make
 * one fail (the RX budget sees to it), so one that does is a fault; a
 * TIMEOUT stays a TIMEOUT. */
static enum bench_status final_status(const struct bench_section *s, enum bench_status st,
                                      const struct bench_foreign *f)
{
    if (f->bytes && (st == BENCH_PASS || (s->rx && st == BENCH_FAIL)))
        return BENCH_INVALID;
    return st;
}

/* Main task: `  section=Sxx status= [reason=] elapsed_ms= foreign_rx_*=`
 * (a SKIPPED section's reason when it gave one, bench_skip). */
static void print_status(const struct bench_section *s, enum bench_status st, uint64_t dt,
                         const struct bench_foreign *f)
{
    const char *reason = st == BENCH_FAIL      ? (bench.reason[0] ? bench.reason : "unspecified")
                         : st == BENCH_TIMEOUT ? "deadline"
                         : st == BENCH_INVALID ? "foreign-rx"
                         : st == BENCH_SKIPPED && bench.reason[0] ? bench.reason
                                               : 0;
    printf("  section=%s status=%s%s%s elapsed_ms=%llu.%03llu foreign_rx_bytes=%llu", s->id,
           status_names[st], reason ? " reason=" : "", reason ? reason : "",
           (unsigned long long)(dt / NS_PER_MS), (unsigned long long)(dt / 1000 % 1000),
           (unsigned long long)f->bytes);
    if (f->irqs_known)
        printf(" foreign_rx_irqs=%llu foreign_rx_instructions=%llu\n\n",
               (unsigned long long)f->irqs, (unsigned long long)f->insns);
    else
        printf(" foreign_rx_irqs=na foreign_rx_instructions=na\n\n");
}

/* Boot task. */
int bench_run_all(void)
{
    unsigned count[NSTATUS] = { 0 }, run = 0;

    bench_env_init();
    align_start();
    for (unsigned i = 0; i < NSECTIONS; i++) {
        const struct bench_section *s = &sections[i];
        struct bench_foreign f;
        if (!(bench.selected >> i & 1))
            continue;
        run++;
        printf("=== [%s] %s ===\n", s->id, s->title);
        uint64_t d0 = clock_now_ns();
        console_flush();
        int derr, drc = pre_section_drain(i, &derr);
        printf("  diag=%s pre_section_stdout_drain_ms=%llu drain_errors=%d last_errno=%d\n",
               s->id, (unsigned long long)((clock_now_ns() - d0) / NS_PER_MS), drc ? 1 : 0,
               derr);
        maybe_write_fault(s);
        bench.reason[0] = 0;
        bench_rx_window_begin();
        uint64_t t0 = clock_now_ns();
        enum bench_status st = run_section(i);
        uint64_t dt = clock_now_ns() - t0;
        posix_io_fault_write(-1, 0);
        bench_rx_window_end(&f);
        st = final_status(s, st, &f);
        print_status(s, st, dt, &f);
        count[st]++;
    }
    unsigned failed = count[BENCH_FAIL] + count[BENCH_TIMEOUT];
    printf("Done. sections=%u passed=%u failed=%u invalid=%u skipped=%u timeout=%u\n", run,
           count[BENCH_PASS], failed, count[BENCH_INVALID], count[BENCH_SKIPPED],
           count[BENCH_TIMEOUT]);
    return (int)failed;
}
