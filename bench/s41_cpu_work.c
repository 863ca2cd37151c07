/* S41: CPU work of a transmission. Per size, bench.rounds rounds of
 * bench.iters writes and one final drain, each round between two
 * snapshots of rdinstret/rdcycle, the clock, the CPU accounting (task /
 * ISR / idle) and the wire model's own cost. instret_* count retired
 * instructions outside the idle account (rdinstret minus idle instret)
 * and the RX account (foreign RX traffic, printed as rx_instret); the raw
 * delta is printed as rdinstret_delta. The model is simulation overhead,
 * so `_excl_model` figures subtract it. One payload witness per size
 * covers all its rounds; the round lines are printed after it. Where a
 * counter does not count (cpu_counter_missing: Linux refusing a perf
 * event), the figures from it print `not-available`. Where the platform
 * keeps TX counters of its own (StarryOS's, bench_txdbg_snapshot), each
 * size ends with them: its last round's, since that round's reset. */
#include <stdio.h>
#include "bench.h"
#include "clock.h"
#include "cpu_acct.h"
#include "params.h"
#include "posix_io.h"
#include "stats.h"
#include "tx_common.h"
#include "uart_backend.h"
#include "wire_model.h"

#define S41_SEED       41
#define S41_ROUNDS_MAX 8
#define S41_PHASES_MAX 10
#define U(x)           ((unsigned long long)(x))

struct s41_snap {
    uint64_t instret, cycles, ns;
    struct cpu_totals acct;
    struct wire_stats wire;
    struct uart_phase phase[S41_PHASES_MAX];   /* the design's sub-accounts */
    unsigned phases;
};

struct s41_round {
    struct s41_snap a, b;
    uint64_t completed;
    struct bench_tx tx;
    struct bench_drain drain;
    uint32_t writes;
    int reset_rc, drain_rc;
};

/* s41_cpu_work, before and after a round: everything the round needs,
 * with interrupts masked (an ISR between the accounts and the counters
 * would charge an account outside the counters' window). What runs
 * between the accounts' read and the counters' is in the accounts and
 * not in the counters' delta, so only cheap reads go there: the clock
 * too where it is cheap, else outside (bench_clock_outside_accounts: a
 * clock read that traps to the firmware, as rdtime on sifive_u, is
 * hundreds of instructions). */
static void snap_begin(struct s41_snap *s)
{
    bool outside = bench_clock_outside_accounts();
    unsigned long f = irq_save();
    if (outside)
        s->ns = clock_now_ns();
    s->phases = uart_be_phases(s->phase, S41_PHASES_MAX);
    wire_model_stats(&s->wire);
    cpu_acct_read(&s->acct);
    if (!outside)
        s->ns = clock_now_ns();
    s->cycles = rdcycle();
    s->instret = rdinstret();
    irq_restore(f);
}

/* s41_cpu_work, the end snapshot: the counters first, in reverse order,
 * interrupts masked. */
static void snap_end(struct s41_snap *s)
{
    bool outside = bench_clock_outside_accounts();
    unsigned long f = irq_save();
    s->instret = rdinstret();
    s->cycles = rdcycle();
    if (!outside)
        s->ns = clock_now_ns();
    cpu_acct_read(&s->acct);
    wire_model_stats(&s->wire);
    s->phases = uart_be_phases(s->phase, S41_PHASES_MAX);
    if (outside)
        s->ns = clock_now_ns();
    irq_restore(f);
}

/* Printing helpers (section task): a / b with two decimals, "x.yy". */
static const char *div2(char *buf, size_t n, uint64_t a, uint64_t b)
{
    uint64_t r = b ? a * 100 / b : 0;
    snprintf(buf, n, "%llu.%02llu", U(r / 100), U(r % 100));
    return buf;
}

/* Section task (figures, print_round): instructions retired up to
 * snapshot s outside the idle account and outside the RX account
 * (foreign RX traffic is not the TX's work). */
static uint64_t busy_counts(const struct s41_snap *s)
{
    return s->instret - s->acct.idle.instret - s->acct.rx.instret;
}

/* Section task: instructions of an account between the snapshots. */
#define ACCT_INSNS(r, field) ((r)->b.field.instret - (r)->a.field.instret)

/* Figures of one round: per-byte and percent figures in hundredths
 * (x100), instructions per write whole. */
struct s41_fig {
    uint64_t ipb, ipw, cpb, util, ipb_excl;
};

/* Section task: the figures of round r (bytes = completed). */
static struct s41_fig figures(const struct s41_round *r)
{
    uint64_t di = (busy_counts(&r->b) - busy_counts(&r->a));
    uint64_t dc = r->b.cycles - r->a.cycles;
    uint64_t model = r->b.wire.instret - r->a.wire.instret, bytes = r->completed;
    struct s41_fig f = { 0 };
    if (bytes) {
        f.ipb = di * 100 / bytes;
        f.cpb = dc * 100 / bytes;
        f.ipb_excl = (di > model ? di - model : 0) * 100 / bytes;
    }
    f.ipw = r->writes ? di / r->writes : 0;
    f.util = cpu_busy_ppm(&r->a.acct, &r->b.acct, dc) / 100;
    return f;
}

/* Section task: a whole figure v of counter c, or `not-available` where
 * that counter does not count (cpu_counter_missing). */
static const char *cnt(char *buf, size_t n, enum cpu_counter c, uint64_t v)
{
    if (cpu_counter_missing(c))
        return "not-available";
    snprintf(buf, n, "%llu", U(v));
    return buf;
}

/* Section task: the same for a figure in hundredths, "x.yy". */
static const char *cnt2(char *buf, size_t n, enum cpu_counter c, uint64_t v)
{
    return cpu_counter_missing(c) ? "not-available" : div2(buf, n, v, 100);
}

/* Section task: one `diag=s41-valid` line, with the platform's further
 * CPU figures of the round (cpu_print_window) at its end. V(i): the i-th
 * field's buffer. */
#define V(i) v[i], sizeof v[i]
static void print_round(unsigned size, unsigned round, uint64_t expected,
                        const struct s41_round *r)
{
    const enum cpu_counter I = CPU_COUNTER_INSTRET, C = CPU_COUNTER_CYCLES;
    struct s41_fig f = figures(r);
    char v[16][24], util[24], dur[24];
    uint64_t di = (busy_counts(&r->b) - busy_counts(&r->a));

    printf("  diag=s41-valid size=%u round=%u completed=%llu expected=%llu reset_rc=%d "
           "instret_begin=%s instret_end=%s instret_delta=%s instructions_per_byte=%s "
           "instructions_per_write=%s rdinstret_delta=%s cycles_delta=%s "
           "cycles_per_byte=%s drain_rc=%d drain_errors=%lu logical_writes=%lu "
           "short_writes=%lu write_rc=%d duration_ms=%s cpu_util_pct=%s task_instret=%s "
           "isr_instret=%s idle_instret=%s idle_cycles=%s wire_model_instret=%s "
           "wire_model_cycles=%s instructions_per_byte_excl_model=%s rx_instret=%s "
           "wire_model_calls=%llu",
           size, round, U(r->completed), U(expected), r->reset_rc,
           cnt(V(0), I, (busy_counts(&r->a))),
           cnt(V(1), I, (busy_counts(&r->b))), cnt(V(2), I, di),
           cnt2(V(3), I, f.ipb), cnt(V(4), I, f.ipw),
           cnt(V(5), I, r->b.instret - r->a.instret),
           cnt(V(6), C, r->b.cycles - r->a.cycles),
           cnt2(V(7), C, f.cpb), r->drain_rc, (unsigned long)r->drain.errors,
           (unsigned long)r->writes, (unsigned long)r->tx.short_writes, r->tx.err,
           bench_milli(dur, sizeof dur, (r->b.ns - r->a.ns) / 1000),
           div2(util, sizeof util, f.util, 100), cnt(V(8), I, ACCT_INSNS(r, acct.tasks)),
           cnt(V(9), I, ACCT_INSNS(r, acct.isr)), cnt(V(10), I, ACCT_INSNS(r, acct.idle)),
           cnt(V(11), C, r->b.acct.idle.cycles - r->a.acct.idle.cycles),
           cnt(V(12), I, r->b.wire.instret - r->a.wire.instret),
           cnt(V(13), C, r->b.wire.cycles - r->a.wire.cycles),
           cnt2(V(14), I, f.ipb_excl), cnt(V(15), I, ACCT_INSNS(r, acct.rx)),
           U(r->b.wire.calls - r->a.wire.calls));
    cpu_print_window(&r->a.acct, &r->b.acct, r->completed);
    printf("\n");
}
#undef V

/* Section task: where round r's instructions went, for a design with CPU
 * sub-accounts (uart_be_phases): each of them, the interrupt handlers,
 * and the tasks' work outside them (other_tasks: the section, the POSIX
 * layer, the core); with the model's own (wire_model) they add up to
 * instructions_delta. */
static void print_phases(unsigned size, unsigned round, const struct s41_round *r)
{
    const struct s41_snap *a = &r->a;
    uint64_t in_phases = 0;

    if (a->phases == 0)
        return;
    printf("  diag=s41-phases size=%u round=%u unit=instructions", size, round);
    for (unsigned i = 0; i < a->phases && i < S41_PHASES_MAX; i++) {
        uint64_t d = r->b.phase[i].instructions - r->a.phase[i].instructions;
        in_phases += d;
        printf(" %s=%llu", r->a.phase[i].name, U(d));
    }
    uint64_t tasks = ACCT_INSNS(r, acct.tasks);
    printf(" isr=%llu other_tasks=%llu wire_model=%llu\n", U(ACCT_INSNS(r, acct.isr)),
           U(tasks > in_phases ? tasks - in_phases : 0), U(r->b.wire.instret - r->a.wire.instret));
}

/* Section task: median figures over the valid rounds. */
static void print_summary(unsigned size, const struct s41_round *r, const bool *valid, unsigned n)
{
    uint64_t v[5][S41_ROUNDS_MAX], m[5];
    unsigned k = 0;
    char a[24], w[24], c[24], u[24], e[24];

    for (unsigned i = 0; i < n; i++) {
        if (!valid[i])
            continue;
        struct s41_fig f = figures(&r[i]);
        v[0][k] = f.ipb;
        v[1][k] = f.ipw;
        v[2][k] = f.cpb;
        v[3][k] = f.util;
        v[4][k] = f.ipb_excl;
        k++;
    }
    for (int j = 0; j < 5; j++)
        m[j] = stats_median(v[j], k);
    printf("  diag=s41-summary size=%u valid_rounds=%u median_instructions_per_byte=%s "
           "median_instructions_per_write=%s median_cycles_per_byte=%s median_cpu_util_pct=%s "
           "median_instructions_per_byte_excl_model=%s median_rule=mean-of-middle-pair\n",
           size, k, cnt2(a, sizeof a, CPU_COUNTER_INSTRET, m[0]),
           cnt(w, sizeof w, CPU_COUNTER_INSTRET, m[1]), cnt2(c, sizeof c, CPU_COUNTER_CYCLES, m[2]),
           div2(u, sizeof u, m[3], 100), cnt2(e, sizeof e, CPU_COUNTER_INSTRET, m[4]));
}

/* Section task: all rounds of one size; true if every round was valid. */
static bool run_size(unsigned size)
{
    static struct s41_round r[S41_ROUNDS_MAX];
    bool valid[S41_ROUNDS_MAX];
    unsigned rounds = bench.rounds;
    uint64_t expected = (uint64_t)size * bench.iters, total = 0;
    const uint8_t *p = bench_payload(size, S41_SEED);
    uint32_t crc = 0;
    char tag[24];
    bool all = rounds <= S41_ROUNDS_MAX;

    if (!all)                        /* if, not ?: (cppcheck 2.10 false positive) */
        rounds = S41_ROUNDS_MAX;

    printf("  s41-size=%u expected_bytes=%llu iters=%u rounds=%u\n", size, U(expected),
           bench.iters, rounds);
    snprintf(tag, sizeof tag, "s41-size-%u", size);
    bench_payload_begin(tag);
    for (unsigned k = 0; k < rounds; k++) {
        struct s41_round *x = &r[k];
        *x = (struct s41_round){ 0 };
        x->reset_rc = ioctl(bench.fd, UART_IOC_RESET_COUNTERS);
        snap_begin(&x->a);
        for (unsigned i = 0; i < bench.iters && !x->tx.err; i++) {
            x->writes++;
            if (!bench_write_full(p, size, &x->tx))
                x->completed += size;
        }
        x->drain_rc = bench_drain(&x->drain);
        snap_end(&x->b);
        crc = tx_crc_repeat(crc, p, size, x->tx.written);
        total += x->tx.written;
    }
    bench_payload_end(tag, total, crc);
    for (unsigned k = 0; k < rounds; k++) {
        valid[k] = r[k].completed == expected && !r[k].drain_rc && !r[k].tx.err;
        if (!valid[k])
            bench_tx_status(&r[k].tx, &r[k].drain);
        all = all && valid[k];
        print_round(size, k + 1, expected, &r[k]);
        print_phases(size, k + 1, &r[k]);
    }
    print_summary(size, r, valid, rounds);
    struct uart_counters t;
    if (bench_txdbg_snapshot(&t) == 0) {      /* the platform's own, the last round's */
        printf("  diag=s41-txdbg size=%u ioctl_rc=0", size);
        bench_print_txdbg_fields(&t);
    }
    return all;
}

/* Runner, section task. */
enum bench_status s41_cpu_work(void)
{
    bool ok = true;

    printf("  s41-method instret=%s cycles=%s cpu_util=%s excl_model=minus-wire-model-instret "
           "instret_scale=%u\n", CPU_INSTRET_METHOD, CPU_CYCLES_METHOD, CPU_UTIL_METHOD,
           1U);
    for (unsigned i = 0; i < BENCH_NELEM(bench_tx_sizes); i++)
        ok = run_size(bench_tx_sizes[i]) && ok;
    return ok ? BENCH_PASS : bench_fail("round-invalid");
}
