/* The CPU as Linux user space sees it (cpu_acct.h, csr.h): the process
 * pinned to the CPU it started on, so that its threads share one CPU as
 * the kernel's tasks share one hart; the process's instructions and
 * cycles from perf events (PERF_COUNT_HW_INSTRUCTIONS, _CPU_CYCLES; all
 * its threads: inherited by every thread started later), with the kernel
 * side counted where Linux allows it (perf_event_paranoid <= 1 or root),
 * else user space only, else not at all (the errno's name says why);
 * every delta of them less the read syscalls' own work (measured at
 * start), and their unit (2^shift counts per instruction under QEMU's
 * -icount, measured on riscv64); its CPU time (CLOCK_PROCESS_CPUTIME_ID)
 * and the CPU's (/proc/stat). */
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"
#include "clock.h"
#include "cpu_acct.h"
#include "hosted.h"

#define NS_PER_S 1000000000ULL
#define PPM      1000000ULL
#define UNIT_SHORT 1000UL       /* iterations of the two-instruction loop */
#define UNIT_LONG  101000UL
#define UNIT_TRIES 3
#define SHIFT_MAX  10           /* QEMU's -icount shift=0..10 */
#define READ_COST_TRIES 8

struct counter {
    int fd;
    const char *missing;        /* errno name, NULL when it counts */
    const char *scope;          /* "user+kernel", "user", "all" */
    uint64_t read_cost;         /* counts one read of a counter adds (a read syscall) */
    uint64_t null_delta;        /* a delta of two reads back to back, corrected */
};

unsigned cpu_instret_shift;
bool cpu_instret_exact;
static struct counter instret = { -1, "not-opened", "none", 0, 0 },
                      cycles = { -1, "not-opened", "none", 0, 0 };
static int pinned = -1;
static const char *pin_error = "not-tried";
static int measured_shift = -1;     /* -1: not measured, or no power of two */
static _Atomic uint64_t reads;      /* counter reads so far, by any thread */

/* hosted_cpu_init: open one counter of the process, the kernel side too
 * if Linux allows it (else user space only); a PMU that cannot exclude a
 * mode (PERF_PMU_CAP_NO_EXCLUDE: RISC-V's SBI PMU without the Sscofpmf
 * extension, QEMU 7.2's) refuses any exclude_* bit with EINVAL and is
 * opened without them: it counts every mode, the SBI firmware's too. */
static void counter_open(struct counter *c, uint64_t config)
{
    static const struct { bool kernel, hv; const char *scope; } tries[] = {
        { false, true, "user+kernel" }, { true, true, "user" }, { false, false, "all" },
    };
    int err = 0;

    for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_HARDWARE;
        a.config = config;
        a.inherit = 1;
        a.exclude_hv = tries[t].hv;
        a.exclude_kernel = tries[t].kernel;
        long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd >= 0) {
            *c = (struct counter){ (int)fd, 0, tries[t].scope, 0, 0 };
            return;
        }
        err = errno;
        if (t == 0 && errno != EACCES && errno != EPERM && errno != EINVAL)
            break;              /* no such counter, whatever the modes */
        if (t == 0 && errno == EINVAL)
            t++;                /* no exclusion at all: the last try */
    }
    const char *name = strerrorname_np(err);
    *c = (struct counter){ -1, name ? name : "unknown-errno", "none", 0, 0 };
}

/* Any thread: a counter's raw value (0 when it does not count). */
static uint64_t counter_read(const struct counter *c)
{
    uint64_t v = 0;
    if (c->fd >= 0 && read(c->fd, &v, sizeof v) != (ssize_t)sizeof v)
        v = 0;
    return v;
}

/* hosted_cpu_init: what one read adds to counter c, the least delta of
 * back-to-back reads (the read syscall's own work, which a kernel's
 * rdinstret does not have). */
static uint64_t read_cost(const struct counter *c)
{
    uint64_t least = UINT64_MAX;

    for (int t = 0; t < READ_COST_TRIES && c->fd >= 0; t++) {
        uint64_t a = counter_read(c), b = counter_read(c);
        if (b - a < least)
            least = b - a;
    }
    return c->fd >= 0 ? least : 0;
}

/* rdinstret, rdcycle (any thread): counter c's value less the cost of
 * every counter read before this one, so that a delta between two reads
 * holds none of the reads' own work. */
static uint64_t counter_value(const struct counter *c)
{
    uint64_t n = reads++;
    return counter_read(c) - n * c->read_cost;
}

#if defined(__riscv)
/* measure_shift: n iterations (n > 0) of a loop of two instructions. */
static void loop2(unsigned long n)
{
    __asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
}

/* hosted_cpu_init: log2 of the instruction counter's counts per
 * instruction (under QEMU's -icount it counts virtual ns, 2^shift per
 * instruction), from its deltas over a short and a long loop (the read's
 * own cost cancels out); -1 when the difference is no power of two times
 * the instructions within an eighth (QEMU without -icount: host ticks). */
static int measure_shift(void)
{
    const uint64_t insns = 2 * (UNIT_LONG - UNIT_SHORT);

    for (int t = 0; t < UNIT_TRIES; t++) {
        uint64_t a = counter_read(&instret);
        loop2(UNIT_SHORT);
        uint64_t b = counter_read(&instret);
        loop2(UNIT_LONG);
        uint64_t c = counter_read(&instret);
        uint64_t d = (c - b) - (b - a);
        for (int s = 0; s <= SHIFT_MAX; s++) {
            uint64_t want = insns << s;
            if (d >= want - want / 8 && d <= want + want / 8)
                return s;
        }
    }
    return -1;
}
#else
/* hosted_cpu_init: a real core's counter counts instructions. */
static int measure_shift(void)
{
    return 0;
}
#endif

/* main, before any thread. */
void hosted_cpu_init(void)
{
    cpu_set_t set;
    int cpu = sched_getcpu();

    CPU_ZERO(&set);
    if (cpu < 0) {
        pin_error = strerrorname_np(errno);
    } else {
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) == 0)
            pinned = cpu;
        else
            pin_error = strerrorname_np(errno);
    }
    counter_open(&instret, PERF_COUNT_HW_INSTRUCTIONS);
    counter_open(&cycles, PERF_COUNT_HW_CPU_CYCLES);
    instret.read_cost = read_cost(&instret);
    cycles.read_cost = read_cost(&cycles);
    for (struct counter *c = &instret; c; c = c == &instret ? &cycles : 0) {
        uint64_t a = counter_value(c);
        c->null_delta = counter_value(c) - a;   /* what the manifest shows is left */
    }
    if (!instret.missing)
        measured_shift = measure_shift();
    cpu_instret_exact = measured_shift >= 0;
}

/* main, after hosted_cpu_init. */
int hosted_cpu_shift(const char *arg, char *err, size_t n)
{
    int want = arg ? atoi(arg) : -1;

    if (want >= 0 && !instret.missing && measured_shift != want) {
        if (measured_shift >= 0)
            snprintf(err, n, "icount_shift=%d, but the instruction counter counts %u per "
                     "instruction (QEMU runs with -icount shift=%d)", want, 1U << measured_shift,
                     measured_shift);
        else
            snprintf(err, n, "icount_shift=%d, but the instruction counter counts no power of "
                     "two per instruction (QEMU without -icount?)", want);
        return -1;
    }
    cpu_instret_shift = (unsigned)(measured_shift >= 0 ? measured_shift : want >= 0 ? want : 0);
    return 0;
}

/* manifest. */
int hosted_cpu_pinned(void)
{
    return pinned;
}

/* manifest. */
const char *hosted_pin_error(void)
{
    return pin_error ? pin_error : "unknown-errno";
}

/* manifest. */
const char *hosted_counter_scope(enum cpu_counter c)
{
    return c == CPU_COUNTER_INSTRET ? instret.scope : cycles.scope;
}

/* manifest. */
uint64_t hosted_counter_read_cost(enum cpu_counter c, uint64_t *null_delta)
{
    const struct counter *k = c == CPU_COUNTER_INSTRET ? &instret : &cycles;
    *null_delta = k->null_delta;
    return k->read_cost;
}

/* Any thread. */
uint64_t rdinstret(void)
{
    return counter_value(&instret);
}

/* Any thread. */
uint64_t rdcycle(void)
{
    return counter_value(&cycles);
}

/* Any thread. */
const char *cpu_counter_missing(enum cpu_counter c)
{
    return c == CPU_COUNTER_INSTRET ? instret.missing : cycles.missing;
}

/* cpu_acct_read: busy and all ticks of the pinned CPU's /proc/stat line
 * ("cpu" for all CPUs when not pinned); 0, 0 when unreadable. */
static void proc_stat(uint64_t *busy, uint64_t *all)
{
    char want[16], line[256];
    unsigned long long v[8] = { 0 };
    FILE *f = fopen("/proc/stat", "r");

    *busy = *all = 0;
    if (!f)
        return;
    snprintf(want, sizeof want, pinned >= 0 ? "cpu%d " : "cpu ", pinned);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, want, strlen(want)) != 0)
            continue;
        /* user nice system idle iowait irq softirq steal */
        if (sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 4) {
            *busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
            *all = *busy + v[3] + v[4];
        }
        break;
    }
    fclose(f);
}

/* Any thread. */
void cpu_acct_read(struct cpu_totals *out)
{
    struct timespec ts;

    *out = (struct cpu_totals){ 0 };
    out->tasks.instret = rdinstret();
    out->tasks.cycles = rdcycle();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    out->cpu_ns = (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
    out->wall_ns = clock_now_ns();
    proc_stat(&out->sys_busy, &out->sys_all);
}

/* Any task. The two clocks are read one after the other, so a window
 * the process was on the CPU for throughout may read a little over its
 * wall time: one CPU's share is at most all of it. */
uint64_t cpu_busy_ppm(const struct cpu_totals *a, const struct cpu_totals *b, uint64_t cycles_delta)
{
    uint64_t wall = b->wall_ns - a->wall_ns, cpu = b->cpu_ns - a->cpu_ns;

    (void)cycles_delta;
    if (!wall)
        return 0;
    uint64_t ppm = (uint64_t)((unsigned __int128)cpu * PPM / wall);
    return ppm < PPM ? ppm : PPM;
}

/* Any task. */
void cpu_print_window(const struct cpu_totals *a, const struct cpu_totals *b)
{
    uint64_t busy = b->sys_busy - a->sys_busy, all = b->sys_all - a->sys_all;
    char pct[24] = "na";

    if (all)
        bench_milli(pct, sizeof pct, busy * 100000 / all);
    printf(" system_cpu_pct=%s system_busy_ticks=%llu system_ticks=%llu", pct,
           (unsigned long long)busy, (unsigned long long)all);
}
