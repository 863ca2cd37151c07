/* The pinned CPU's instructions and cycles (hosted.h, cpu_acct.h): perf
 * events of the CPU the process is pinned to (pid -1, pinned), which
 * count every task and interrupt on it and its idle task, where Linux
 * allows them (root or perf_event_paranoid <= 0; else the errno's name
 * says why). On riscv64 they also start the user-mode counter CSRs:
 * Linux 6.1's SBI PMU lets user mode read cycle and instret, which are
 * frozen until a pinned CPU-wide event holds the counter and then count
 * every mode, idle included; when a CSR's delta agrees with its event's
 * over a window the process sleeps in, the CSR is read instead of the
 * read syscall (source=csr). Either way every value is less the read
 * syscalls taken before it (perf_counter.h). S41 prints the figures of
 * each round beside the process's (cpu_print_window). */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "bench.h"
#include "cpu_acct.h"
#include "hosted.h"
#include "perf_counter.h"

#define CHECK_SLEEP_NS 200000L  /* the window the CSR check sleeps in */
#define CHECK_LOOP     100000UL
#define CHECK_TOLERANCE 32      /* agree: within 1/32 of the event's delta */
#define U(x) ((unsigned long long)(x))

struct wide {
    struct counter c;
    int cpu;
    bool csr;                   /* the CSR is this counter's source */
    const char *csr_verdict;    /* "agrees", "frozen", "disagrees", "sigill", "none" */
};

static struct wide wide[2] = {
    [CPU_COUNTER_INSTRET] = { COUNTER_NOT_OPENED, -1, false, "none" },
    [CPU_COUNTER_CYCLES] = { COUNTER_NOT_OPENED, -1, false, "none" },
};

#if defined(__riscv)
static sigjmp_buf csr_trap;

/* SIGILL while csr_check reads a CSR user mode may not read. */
static void on_sigill(int sig)
{
    (void)sig;
    siglongjmp(csr_trap, 1);
}

/* Any thread: the user-mode counter CSR of counter c. */
static uint64_t csr_read(enum cpu_counter c)
{
    uint64_t v;

    if (c == CPU_COUNTER_INSTRET)
        __asm__ volatile("rdinstret %0" : "=r"(v));
    else
        __asm__ volatile("rdcycle %0" : "=r"(v));
    return v;
}

/* hosted_cpu_wide_calibrate: does w's CSR count what its event counts?
 * Both read around a loop and a sleep (a process's own counter would stop
 * in it, the CPU's does not): "agrees" when the CSR's delta is the
 * event's plus one read syscall, within 1/CHECK_TOLERANCE. */
static const char *csr_check(struct wide *w, enum cpu_counter c)
{
    struct sigaction sa, old;
    const char *verdict;
    const struct timespec nap = { 0, CHECK_SLEEP_NS };

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigill;
    sigaction(SIGILL, &sa, &old);
    if (sigsetjmp(csr_trap, 1) != 0) {
        verdict = "sigill";
    } else {
        uint64_t a = csr_read(c), pa = counter_read(&w->c);
        nanosleep(&nap, NULL);
        for (volatile unsigned long i = 0; i < CHECK_LOOP; i++)
            ;
        uint64_t pb = counter_read(&w->c), b = csr_read(c);
        uint64_t d = b - a, want = pb - pa + w->c.read_cost, tol = want / CHECK_TOLERANCE;
        verdict = d == 0 ? "frozen" : d + tol >= want && d <= want + tol ? "agrees" : "disagrees";
    }
    sigaction(SIGILL, &old, NULL);
    return verdict;
}
#else
/* hosted_cpu_wide_calibrate: no user-mode counter CSR to try. */
static uint64_t csr_read(enum cpu_counter c)
{
    (void)c;
    return 0;
}

/* hosted_cpu_wide_calibrate. */
static const char *csr_check(struct wide *w, enum cpu_counter c)
{
    (void)w;
    (void)c;
    return "none";
}
#endif

/* Any thread: counter c's value, less the read syscalls before it. */
static uint64_t wide_value(enum cpu_counter c)
{
    struct wide *w = &wide[c];
    return w->csr ? counter_correct(&w->c, csr_read(c)) : counter_value(&w->c);
}

/* hosted_cpu_init, before the process's counters (so that on riscv64 the
 * CPU's events take the fixed counters the CSRs read). */
void hosted_cpu_wide_open(int cpu, const char *why)
{
    for (int c = 0; c < 2; c++) {
        if (cpu < 0)
            wide[c].c.missing = why;    /* not pinned: no one CPU to count */
        else
            counter_open(&wide[c].c, counter_event[c], cpu);
        wide[c].cpu = cpu;
    }
}

/* hosted_cpu_init. */
const char *hosted_cpu_wide_missing(enum cpu_counter c)
{
    return wide[c].c.missing;
}

/* hosted_cpu_init (share_counters). */
void hosted_cpu_wide_close(enum cpu_counter c, const char *why)
{
    counter_close(&wide[c].c, why);
}

/* hosted_cpu_init (the unit measurement). */
uint64_t hosted_cpu_wide_raw(enum cpu_counter c)
{
    return wide[c].csr ? csr_read(c) : counter_read(&wide[c].c);
}

/* hosted_cpu_init, after the process's counters are open. */
void hosted_cpu_wide_calibrate(void)
{
    for (int c = 0; c < 2; c++) {
        struct wide *w = &wide[c];
        if (w->c.missing)
            continue;
        counter_calibrate(&w->c);
        w->csr_verdict = csr_check(w, (enum cpu_counter)c);
        w->csr = strcmp(w->csr_verdict, "agrees") == 0;
        uint64_t a = wide_value((enum cpu_counter)c);
        w->c.null_delta = wide_value((enum cpu_counter)c) - a;
    }
}

/* manifest. */
void hosted_cpu_wide_info(enum cpu_counter c, struct hosted_counter_info *out)
{
    const struct wide *w = &wide[c];
    *out = (struct hosted_counter_info){ w->c.missing, w->c.scope, w->cpu,
                                         w->csr ? "csr" : "read-syscall", w->csr_verdict,
                                         w->c.read_cost, w->c.null_delta, w->c.source,
                                         0, 0, 0 };
}

/* cpu_acct_read (any thread): the CPU's counts so far, 0 where refused. */
void hosted_cpu_wide_read(uint64_t *instret, uint64_t *cycles)
{
    *instret = wide[CPU_COUNTER_INSTRET].c.missing ? 0 : wide_value(CPU_COUNTER_INSTRET);
    *cycles = wide[CPU_COUNTER_CYCLES].c.missing ? 0 : wide_value(CPU_COUNTER_CYCLES);
}

/* hosted_cpu_wide_print: "x.yy" of a / b into buf. */
static const char *per(char *buf, size_t n, uint64_t a, uint64_t b)
{
    uint64_t r = b ? (uint64_t)((unsigned __int128)a * 100 / b) : 0;
    snprintf(buf, n, "%llu.%02llu", U(r / 100), U(r % 100));
    return buf;
}

/* cpu_print_window (section task, S41's round line): the CPU's
 * instructions and cycles over the window and per byte, that its idle
 * task is in them (cpuwide_idle=included: under QEMU's -icount idle wfi
 * time counts as virtual ns, as if it were instructions), and the
 * process's share of the CPU's instruction count. */
void hosted_cpu_wide_print(const struct cpu_totals *a, const struct cpu_totals *b, uint64_t bytes)
{
    const char *na = "not-available";
    char v[5][32];
    bool i = !wide[CPU_COUNTER_INSTRET].c.missing, c = !wide[CPU_COUNTER_CYCLES].c.missing;
    uint64_t di = b->wide_instret[0] - a->wide_instret[1];
    uint64_t dc = b->wide_cycles[0] - a->wide_cycles[1];
    uint64_t dp = b->tasks.instret - a->tasks.instret;

    snprintf(v[0], sizeof v[0], "%llu", U(di));
    snprintf(v[2], sizeof v[2], "%llu", U(dc));
    if (!cpu_counter_missing(CPU_COUNTER_INSTRET) && di)
        bench_milli(v[4], sizeof v[4], dp * 100000 / di);
    else
        snprintf(v[4], sizeof v[4], "na");
    printf(" cpuwide_instret_delta=%s cpuwide_instructions_per_byte=%s cpuwide_cycles_delta=%s "
           "cpuwide_cycles_per_byte=%s cpuwide_idle=included cpuwide_process_pct=%s",
           i ? v[0] : na, i ? per(v[1], sizeof v[1], di, bytes) : na, c ? v[2] : na,
           c ? per(v[3], sizeof v[3], dc, bytes) : na, i ? v[4] : na);
}
