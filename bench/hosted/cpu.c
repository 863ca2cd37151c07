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
 * and the CPU's (/proc/stat). Where the kernel has no hardware perf
 * events (a small kernel: StarryOS), the instruction count is the hart's
 * from /proc/instret, its read's cost taken out the same way. The
 * counters themselves are perf_counter.c's and text_counter.c's; the
 * CPU-wide ones, opened first, cpu_wide.c's. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include "bench.h"
#include "clock.h"
#include "cpu_acct.h"
#include "hosted.h"
#include "instret_unit.h"
#include "perf_counter.h"

#define NS_PER_S 1000000000ULL
#define PPM      1000000ULL
#define UNIT_SHORT 1000UL       /* iterations of the two-instruction loop */
#define UNIT_LONG  101000UL
#define UNIT_TRIES 3
#define SHIFT_MAX  10           /* QEMU's -icount shift=0..10 */
#define SHARE_LOOP 10000UL      /* iterations a counting counter cannot miss */
#define PROC_INSTRET "/proc/instret"    /* StarryOS: the hart's retired instructions */

bool cpu_instret_exact;
unsigned cpu_clock_shift;
static struct counter instret = COUNTER_NOT_OPENED, cycles = COUNTER_NOT_OPENED;
static int pinned = -1;
static const char *pin_error = "not-tried";
const char *hosted_counter_priority = "process";
static int measured_shift = -1;     /* instret counts per instruction, log2; -1: unknown */
static int clock_shift = -1;        /* ns per cycle under -icount, log2; -1: unknown */

#if defined(__riscv)
/* measure_shift: n iterations (n > 0) of a loop of two instructions. */
static void loop2(unsigned long n)
{
    __asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
}

/* hosted_cpu_init: log2 of the instruction counter's counts per
 * instruction (1 on a core and the project's QEMU; a QEMU whose instret
 * counts virtual ns gives 2^shift), from its deltas over a short and a
 * long loop (the read's own cost cancels out); -1 when the difference is
 * no power of two times the instructions within an eighth (QEMU without
 * -icount: host ticks). */
static int measure_shift(uint64_t (*read)(void))
{
    const uint64_t insns = 2 * (UNIT_LONG - UNIT_SHORT);

    for (int t = 0; t < UNIT_TRIES; t++) {
        uint64_t a = read();
        loop2(UNIT_SHORT);
        uint64_t b = read();
        loop2(UNIT_LONG);
        uint64_t c = read();
        uint64_t d = (c - b) - (b - a);
        for (int s = 0; s <= SHIFT_MAX; s++) {
            uint64_t want = insns << s;
            if (d >= want - want / 8 && d <= want + want / 8)
                return s;
        }
    }
    return -1;
}

/* hosted_cpu_init: log2 of the ns a cycle takes, from the cycle counter
 * and CLOCK_MONOTONIC around a long loop (under QEMU's -icount 2^shift);
 * -1 when that is no power of two (a core's own clock, host ticks). */
static int measure_clock_shift(uint64_t (*read)(void))
{
    for (int t = 0; t < UNIT_TRIES; t++) {
        uint64_t t0 = clock_now_ns(), c0 = read();
        loop2(UNIT_LONG);
        uint64_t c1 = read(), t1 = clock_now_ns();
        int s = clock_shift_of(t1 - t0, c1 - c0);
        if (s >= 0)
            return s;
    }
    return -1;
}
#else
/* hosted_cpu_init: a real core's counter counts instructions. */
static int measure_shift(uint64_t (*read)(void))
{
    (void)read;
    return 0;
}

/* hosted_cpu_init: no QEMU clock off RISC-V. */
static int measure_clock_shift(uint64_t (*read)(void))
{
    (void)read;
    return -1;
}
#endif

/* measure_shift's counter: the process's instructions, raw. */
static uint64_t process_instret(void)
{
    return counter_read(&instret);
}

/* measure_shift's counter when the CPU's has the PMU's: the CPU's. */
static uint64_t wide_instret(void)
{
    return hosted_cpu_wide_raw(CPU_COUNTER_INSTRET);
}

/* measure_clock_shift's counters: the process's cycles, or the CPU's. */
static uint64_t process_cycles(void)
{
    return counter_read(&cycles);
}
static uint64_t wide_cycles(void)
{
    return hosted_cpu_wide_raw(CPU_COUNTER_CYCLES);
}

/* share_counters: whether the process's counter c advances over a loop. */
static bool counts(const struct counter *c)
{
    uint64_t a = counter_read(c);
    for (volatile unsigned long i = 0; i < SHARE_LOOP; i++)
        ;
    return counter_read(c) != a;
}

/* hosted_cpu_init, both kinds of counter open: a PMU with one counter per
 * event (QEMU 7.2's SBI PMU without Sscofpmf: the fixed cycle and instret
 * counters only) gives it to the pinned CPU-wide event, and the
 * process's then never runs (it reads the same value for ever). On such
 * a conflict the kind without priority is closed, both events of each
 * kind (reason EBUSY); the process's, when they have priority, are
 * opened afresh and take the freed counters. */
static void share_counters(bool wide_first)
{
    struct counter *mine[2] = { [CPU_COUNTER_INSTRET] = &instret, [CPU_COUNTER_CYCLES] = &cycles };
    bool both[2], conflict = false;

    for (int c = 0; c < 2; c++) {
        both[c] = !mine[c]->missing && !hosted_cpu_wide_missing((enum cpu_counter)c);
        conflict |= both[c] && !counts(mine[c]);
    }
    if (!conflict)
        return;
    for (int c = 0; c < 2; c++) {
        if (!both[c])
            continue;
        if (wide_first)
            counter_close(mine[c], "EBUSY");
        else
            hosted_cpu_wide_close((enum cpu_counter)c, "EBUSY");
    }
    for (int c = 0; c < 2 && !wide_first; c++) {    /* afresh: they take the freed counters */
        if (mine[c]->missing)
            continue;
        counter_close(mine[c], "not-opened");
        counter_open(mine[c], counter_event[c], COUNTER_PROCESS);
    }
    for (int c = 0; c < 2; c++) {
        if (!mine[c]->missing && !counts(mine[c]))      /* not the CPU-wide events' doing */
            counter_close(mine[c], "EBUSY");
    }
}

/* main, before any thread. */
void hosted_cpu_init(bool wide_first)
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
    hosted_cpu_wide_open(pinned, pin_error);   /* first: the CSRs become its counters */
    counter_open(&instret, counter_event[CPU_COUNTER_INSTRET], COUNTER_PROCESS);
    counter_open(&cycles, counter_event[CPU_COUNTER_CYCLES], COUNTER_PROCESS);
    share_counters(wide_first);
    if (instret.missing)        /* a small kernel's own count instead */
        counter_open_text(&instret, PROC_INSTRET, "proc-instret", "hart");
    counter_calibrate(&instret);
    counter_calibrate(&cycles);
    hosted_cpu_wide_calibrate();
    if (!instret.missing)
        measured_shift = measure_shift(process_instret);
    else if (!hosted_cpu_wide_missing(CPU_COUNTER_INSTRET))
        measured_shift = measure_shift(wide_instret);
    cpu_instret_exact = measured_shift == 0;
    if (!cycles.missing)
        clock_shift = measure_clock_shift(process_cycles);
    else if (!hosted_cpu_wide_missing(CPU_COUNTER_CYCLES))
        clock_shift = measure_clock_shift(wide_cycles);
}

/* main, after hosted_cpu_init: check what the counters count against
 * the run's icount_shift= (arg, or NULL); 0, or -1 with why in err. An
 * instruction counter counting 2^shift per instruction is a QEMU that is
 * not the project's. */
int hosted_cpu_shift(const char *arg, char *err, size_t n)
{
    int want = arg ? atoi(arg) : -1;
    bool counting = !instret.missing || !hosted_cpu_wide_missing(CPU_COUNTER_INSTRET);

    if (counting && measured_shift > 0) {
        snprintf(err, n, "the instruction counter counts %u per instruction: this QEMU is not "
                 "the project's (its instret counts virtual ns); run the one scripts/qemu/build "
                 "makes", 1U << measured_shift);
        return -1;
    }
    if (want >= 0 && counting && clock_shift != want) {
        if (clock_shift >= 0)
            snprintf(err, n, "icount_shift=%d, but a cycle takes %u ns (QEMU runs with "
                     "-icount shift=%d)", want, 1U << clock_shift, clock_shift);
        else
            snprintf(err, n, "icount_shift=%d, but a cycle takes no power of two of ns "
                     "(QEMU without -icount?)", want);
        return -1;
    }
    cpu_clock_shift = (unsigned)(clock_shift >= 0 ? clock_shift : want >= 0 ? want : 0);
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
void hosted_counter_info(enum cpu_counter c, struct hosted_counter_info *out)
{
    const struct counter *k = c == CPU_COUNTER_INSTRET ? &instret : &cycles;
    *out = (struct hosted_counter_info){ .missing = k->missing, .scope = k->scope, .cpu = -1,
                                         .read_cost = k->read_cost, .null_delta = k->null_delta,
                                         .event = k->source, .path = k->path,
                                         .path_missing = k->path_missing,
                                         .perf_missing = k->perf_missing };
}

/* s41_cpu_work (section task): what S41's instruction figures count. */
const char *hosted_instret_method(void)
{
    return instret.path ? "proc-instret-of-the-hart" : "perf-instructions-of-the-process";
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
    hosted_cpu_wide_read(&out->wide_instret[0], &out->wide_cycles[0]);
    out->tasks.instret = rdinstret();
    out->tasks.cycles = rdcycle();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    out->cpu_ns = (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
    out->wall_ns = clock_now_ns();
    proc_stat(&out->sys_busy, &out->sys_all);
    hosted_cpu_wide_read(&out->wide_instret[1], &out->wide_cycles[1]);
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
void cpu_print_window(const struct cpu_totals *a, const struct cpu_totals *b, uint64_t bytes)
{
    uint64_t busy = b->sys_busy - a->sys_busy, all = b->sys_all - a->sys_all;
    char pct[24] = "na";

    if (all)
        bench_milli(pct, sizeof pct, busy * 100000 / all);
    printf(" system_cpu_pct=%s system_busy_ticks=%llu system_ticks=%llu", pct,
           (unsigned long long)busy, (unsigned long long)all);
    if (bytes)
        hosted_cpu_wide_print(a, b, bytes);
}
