/* The CPU as Linux user space sees it (cpu_acct.h, csr.h): the process
 * pinned to the CPU it started on, so that its threads share one CPU as
 * the kernel's tasks share one hart; the process's instructions and
 * cycles from perf events (PERF_COUNT_HW_INSTRUCTIONS, _CPU_CYCLES; all
 * its threads: inherited by every thread started later), with the kernel
 * side counted where Linux allows it (perf_event_paranoid <= 1 or root),
 * else user space only, else not at all (the errno's name says why);
 * its CPU time (CLOCK_PROCESS_CPUTIME_ID) and the CPU's (/proc/stat). */
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
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

struct counter {
    int fd;
    const char *missing;        /* errno name, NULL when it counts */
    const char *scope;          /* "user+kernel", "user" */
};

unsigned cpu_instret_shift;
bool cpu_instret_exact;
static struct counter instret = { -1, "not-opened", "none" }, cycles = { -1, "not-opened", "none" };
static int pinned = -1;
static const char *pin_error = "not-tried";

/* hosted_cpu_init: open one counter of the process, the kernel side too
 * if Linux allows it. */
static void counter_open(struct counter *c, uint64_t config)
{
    for (int user_only = 0; user_only < 2; user_only++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_HARDWARE;
        a.config = config;
        a.inherit = 1;
        a.exclude_hv = 1;
        a.exclude_kernel = (unsigned)user_only;
        long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd >= 0) {
            *c = (struct counter){ (int)fd, 0, user_only ? "user" : "user+kernel" };
            return;
        }
        if (errno != EACCES && errno != EPERM)
            break;              /* no such counter: kernel side or not */
    }
    const char *name = strerrorname_np(errno);
    *c = (struct counter){ -1, name ? name : "unknown-errno", "none" };
}

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
    cpu_instret_exact = !instret.missing;
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

/* Any thread: a counter's value (0 when it does not count). */
static uint64_t counter_read(const struct counter *c)
{
    uint64_t v = 0;
    if (c->fd >= 0 && read(c->fd, &v, sizeof v) != (ssize_t)sizeof v)
        v = 0;
    return v;
}

/* Any thread. */
uint64_t rdinstret(void)
{
    return counter_read(&instret);
}

/* Any thread. */
uint64_t rdcycle(void)
{
    return counter_read(&cycles);
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
