/* The shim's counters (perf_counter.h): one perf_event_open rule for the
 * process's counters and the CPU-wide ones, one read for a perf event or
 * a text file's count (text_counter.c), and every read's own work taken
 * out of every value. */
#include <errno.h>
#include <stdbool.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "perf_counter.h"

#define READ_COST_TRIES 8

static _Atomic uint64_t reads;      /* counted reads so far, by any thread, of any counter */

const uint64_t counter_event[2] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES };
static const char *const counter_source[2] = { "perf-hw-instructions", "perf-hw-cpu-cycles" };

/* counter_open: one perf_event_open try with the given exclusions; the
 * fd or -1 with errno set. */
static long open_try(uint64_t config, int cpu, bool exclude_kernel, bool exclude_hv)
{
    struct perf_event_attr a;

    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = config;
    a.exclude_hv = exclude_hv;
    a.exclude_kernel = exclude_kernel;
    if (cpu == COUNTER_PROCESS) {
        a.inherit = 1;
        return syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    }
    a.pinned = 1;
    return syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* hosted_cpu_init, hosted_cpu_wide_init: the kernel side too if Linux
 * allows it (else user space only); a PMU that cannot exclude a mode
 * (PERF_PMU_CAP_NO_EXCLUDE: RISC-V's SBI PMU without the Sscofpmf
 * extension, QEMU 7.2's) refuses any exclude_* bit with EINVAL and is
 * opened without them: it counts every mode, the SBI firmware's too. */
void counter_open(struct counter *c, uint64_t config, int cpu)
{
    static const struct { bool kernel, hv; const char *scope; } tries[] = {
        { false, true, "user+kernel" }, { true, true, "user" }, { false, false, "all" },
    };
    int err = 0;

    for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++) {
        long fd = open_try(config, cpu, tries[t].kernel, tries[t].hv);
        if (fd >= 0) {
            *c = (struct counter){ .fd = (int)fd, .scope = tries[t].scope,
                                   .source = counter_source[config == counter_event[1]] };
            return;
        }
        err = errno;
        if (t == 0 && errno != EACCES && errno != EPERM && errno != EINVAL)
            break;              /* no such counter, whatever the modes */
        if (t == 0 && errno == EINVAL)
            t++;                /* no exclusion at all: the last try */
    }
    const char *name = strerrorname_np(err);
    *c = (struct counter){ .fd = -1, .missing = name ? name : "unknown-errno", .scope = "none" };
}

/* Any thread. */
uint64_t counter_read(const struct counter *c)
{
    uint64_t v = 0;
    if (c->missing)
        return 0;
    if (c->path)
        return text_counter_read(c);
    if (read(c->fd, &v, sizeof v) != (ssize_t)sizeof v)
        v = 0;
    return v;
}

/* Any thread. */
uint64_t counter_value(const struct counter *c)
{
    if (c->missing)
        return 0;               /* no read syscall: nothing to count */
    uint64_t n = reads++;
    return counter_read(c) - n * c->read_cost;
}

/* Any thread (cpu_wide.c's CSR reads). */
uint64_t counter_correct(const struct counter *c, uint64_t raw)
{
    return raw - reads * c->read_cost;
}

/* hosted_cpu_init, hosted_cpu_wide_init: the read's own work (a read
 * syscall; a text file's open, read and close: StarryOS's benchmark's
 * instret_read_overhead, the delta of two reads back to back), which a
 * kernel's rdinstret has not; the least of a few tries. */
void counter_calibrate(struct counter *c)
{
    uint64_t least = UINT64_MAX;

    if (c->missing)
        return;
    for (int t = 0; t < READ_COST_TRIES; t++) {
        uint64_t a = counter_read(c), b = counter_read(c);
        if (b - a < least)
            least = b - a;
    }
    c->read_cost = least;
    uint64_t a = counter_value(c);
    c->null_delta = counter_value(c) - a;       /* what the manifest shows is left */
}

/* hosted_cpu_init (a counter conflict). */
void counter_close(struct counter *c, const char *why)
{
    if (c->fd >= 0)
        close(c->fd);
    *c = (struct counter){ .fd = -1, .missing = why, .scope = "none" };
}
