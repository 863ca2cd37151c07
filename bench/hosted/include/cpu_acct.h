/* The kernel's CPU accounting (include/cpu_acct.h) as Linux user space
 * has it (bench/hosted/cpu.c). The process's perf counters (csr.h) are
 * the tasks' account: they stop while the process is off the CPU, so
 * there is no idle account to subtract (idle, isr, rx and sim stay 0).
 * A window's CPU share is the process's CPU time
 * (CLOCK_PROCESS_CPUTIME_ID) over its wall time; the system's
 * (/proc/stat, every thread and interrupt on the process's CPU) is
 * printed beside it (cpu_print_window). The include guard is the
 * kernel's. */
#ifndef CPU_ACCT_H
#define CPU_ACCT_H

#include <stdbool.h>
#include <stdint.h>
#include "csr.h"
#include "scheduler.h"

struct cpu_totals {
    struct cpu_acct tasks;      /* the process: perf cycles and instructions */
    struct cpu_acct isr, rx, idle, sim;   /* no such accounts: 0 */
    uint64_t wall_ns;           /* CLOCK_MONOTONIC */
    uint64_t cpu_ns;            /* CLOCK_PROCESS_CPUTIME_ID */
    uint64_t sys_busy, sys_all; /* /proc/stat ticks of the process's CPU */
    /* the pinned CPU's counts (cpu_wide.c) when cpu_acct_read starts and
     * ends: a window runs from a's end to b's start, its reads left out */
    uint64_t wide_instret[2], wide_cycles[2];
};

/* Whether the instruction counter counts retired instructions (one per
 * instruction: a core, the project's QEMU), and under QEMU's -icount the
 * CPU clock's shift (a cycle takes 2^cpu_clock_shift ns). */
extern bool cpu_instret_exact;
extern unsigned cpu_clock_shift;

/* Any thread (S20, S21): the process's instruction counter (no idle,
 * RX or simulation account to leave out). */
static inline uint64_t cpu_busy_counts(void)
{
    return rdinstret();
}

/* Any thread (S32, S33: around a read of the far end's ground truth):
 * nothing to take out, 0. A process cannot mask interrupts, so what the
 * counters gained over the read could hold the 8250's interrupt (and
 * with counters=cpuwide, any work of the CPU's): the read stays in the
 * window's count. */
static inline void cpu_counted_masked(uint64_t *insns, uint64_t *cycles, bool end)
{
    (void)end;
    *insns = 0;
    *cycles = 0;
}

/* What S41's figures come from (its s41-method line): the process's perf
 * event, or the hart's /proc/instret where a small kernel has no perf
 * events (cpu.c). */
const char *hosted_instret_method(void);
#define CPU_INSTRET_METHOD hosted_instret_method()
#define CPU_CYCLES_METHOD  "perf-cycles-of-the-process"
#define CPU_UTIL_METHOD    "process-cputime/wall"

enum cpu_counter { CPU_COUNTER_INSTRET, CPU_COUNTER_CYCLES };

/* Any thread: why Linux refused counter c (an errno name: its figures
 * print `not-available`), or NULL when it counts. */
const char *cpu_counter_missing(enum cpu_counter c);
/* Any thread: totals since the counters were opened, up to now. */
void cpu_acct_read(struct cpu_totals *out);
/* Any task (S41, S42): the process's CPU time over the window's wall
 * time, in millionths (at most a million: one CPU), from the totals a at
 * its start and b at its end (cycles, the window's rdcycle delta, is not
 * used). */
uint64_t cpu_busy_ppm(const struct cpu_totals *a, const struct cpu_totals *b, uint64_t cycles);
/* Any task (S41, S42): ` system_cpu_pct= system_busy_ticks= system_ticks=`
 * of the window (/proc/stat of the process's CPU, `na` when no tick
 * passed), at the end of the caller's line; for a window of bytes > 0
 * payload bytes (S41's rounds) the pinned CPU's counts too (`cpuwide_*`,
 * cpu_wide.c). */
void cpu_print_window(const struct cpu_totals *a, const struct cpu_totals *b, uint64_t bytes);

#endif
