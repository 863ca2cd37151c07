/* The shim's counters (cpu.c: the process's; cpu_wide.c: the pinned
 * CPU's): one hardware perf event opened with the widest privilege scope
 * Linux grants, read through the read syscall; or, where a small kernel
 * has no hardware perf events, a count it keeps as a text file
 * (StarryOS's /proc/instret, text_counter.c). Each value is less the work
 * of every counted read taken before it (measured at start, so a delta
 * between two values holds none of the reads' own work). */
#ifndef HOSTED_PERF_COUNTER_H
#define HOSTED_PERF_COUNTER_H

#include <stddef.h>
#include <stdint.h>

struct counter {
    int fd;                     /* the perf event, -1 without */
    const char *missing;        /* errno name, NULL when it counts */
    const char *scope;          /* "user+kernel", "user", "all"; a text file's: "hart" */
    uint64_t read_cost;         /* counts one read of a counter adds (a read syscall) */
    uint64_t null_delta;        /* a delta of two reads back to back, corrected */
    const char *source;         /* what counts: "perf-hw-instructions", "proc-instret", ... */
    const char *path;           /* a text file read for each value (NULL: the perf event) */
    const char *path_missing;   /* why the text file could not count (NULL: not tried) */
    const char *perf_missing;   /* a text file's counter: why the perf event was refused */
};

#define COUNTER_NOT_OPENED { -1, "not-opened", "none", 0, 0, 0, 0, 0, 0 }

/* The hardware event (PERF_COUNT_HW_*) of each counter, by enum
 * cpu_counter: instructions, cycles. */
extern const uint64_t counter_event[2];
#define COUNTER_PROCESS    (-1) /* counter_open's cpu: the process, every thread */

/* hosted_cpu_init, hosted_cpu_wide_init (before any thread): open
 * hardware event config (PERF_COUNT_HW_*) into c, of the process (cpu
 * COUNTER_PROCESS: pid 0, inherited by every thread started later) or
 * of CPU cpu (pid -1, pinned: it holds its counter whatever runs); else
 * c->missing names the errno. */
void counter_open(struct counter *c, uint64_t config, int cpu);
/* hosted_cpu_init, before any thread, for a counter Linux refused: c
 * counts from the text file at path (source and scope: what the manifest
 * calls it) when one read of it gives a count; else c->path_missing
 * names why and c stays refused (text_counter.c). */
void counter_open_text(struct counter *c, const char *path, const char *source, const char *scope);
/* counter_read (any thread): the text file's count now, 0 when it fails. */
uint64_t text_counter_read(const struct counter *c);
/* text_counter.c and the host unit test: the count of a text buf[0..n)
 * (decimal digits, then at most a line end); 0, or -1 when it is none. */
int text_count_parse(const char *buf, size_t n, uint64_t *out);
/* hosted_cpu_init (a counter conflict): close c, which then does not
 * count, for reason why (an errno name). */
void counter_close(struct counter *c, const char *why);
/* hosted_cpu_init, hosted_cpu_wide_init: measure c's read_cost (the
 * least delta of back-to-back reads) and null_delta (what is left of it
 * in two corrected values back to back). */
void counter_calibrate(struct counter *c);
/* Any thread: c's raw value through the read syscall (0 when it does not
 * count); the read is not counted (calibration, unit measurement). */
uint64_t counter_read(const struct counter *c);
/* Any thread: c's value less the cost of every counted read before this
 * one (of any counter: each read syscall adds work to every counter). */
uint64_t counter_value(const struct counter *c);
/* Any thread: raw, a value of c read otherwise (a counter CSR), less the
 * cost of every counted read before it. */
uint64_t counter_correct(const struct counter *c, uint64_t raw);

#endif
