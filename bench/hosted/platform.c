/* The rest of what the sections call of the kernel, as a Linux program
 * has it: the clock (CLOCK_MONOTONIC), the log (stdout) and the exit,
 * the boot arguments (sections=, far_end=), the CPU count,
 * S43's timer slack (its idle groups run a
 * second time at 1 ns) and the kernel-only sections (S05: the driver's
 * ring, S06: the kernel's primitives), which report SKIPPED. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"
#include "clock.h"
#include "harts.h"
#include "hosted.h"
#include "kernel.h"
#include "posix_io.h"

#define NS_PER_S 1000000000ULL

const char *hosted_sections;

/* Any thread: CLOCK_MONOTONIC itself, the clock of clock_nanosleep. */
uint64_t clock_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* Any task: the log so far out to stdout. */
void console_flush(void)
{
    fflush(stdout);
}

/* Any thread (uart_loopback_overrun, a kernel self-test): the same. */
void console_flush_polled(void)
{
    fflush(stdout);
}

/* Any thread: the log flushed, the run ends with code (as /init: the
 * machine powers off, hosted_finish). */
void kernel_exit(int code)
{
    hosted_finish(code);
}

/* Any thread: the message on the log and on stderr, status EXIT_PANIC. */
void panic(const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    printf("\nPANIC: %s\n", msg);
    fflush(stdout);
    fprintf(stderr, "uartbench-hosted: panic: %s\n", msg);
    _exit(EXIT_PANIC);
}

/* Any task: the boot arguments a hosted run has: sections= (from
 * --sections), far_end=external (--far-end external, checked by main). */
const char *bootarg(const char *key, char *buf, size_t n)
{
    const char *v = strcmp(key, "sections") == 0 ? hosted_sections :
                    strcmp(key, "far_end") == 0 && hosted_far_external ? "external" : NULL;
    if (!v || !n)
        return 0;
    snprintf(buf, n, "%s", v);
    return buf;
}

/* Any task: the CPUs online. */
unsigned harts_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* Runner: nothing to arm (posix_io.h). */
void posix_io_fault_write(int after, int err)
{
    (void)after;
    (void)err;
}

/* S43 (section task): the thread's timer slack, which the sampler's
 * thread (started by this one) inherits. */
void bench_s43_print_timer(void)
{
    printf(" timer_slack_ns=%d", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
}

/* S43 (section task): k = 0: the idle groups again at a timer slack of
 * 1 ns, the least (PR_SET_TIMERSLACK 1; 0 would restore the default);
 * after them, none: the slack it had restored. */
const char *bench_s43_extra_idle(unsigned k)
{
    static int saved = -1;

    if (k == 0) {
        saved = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
        if (saved >= 0 && prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) == 0)
            return "idle-slack1";
    }
    if (saved >= 0)
        prctl(PR_SET_TIMERSLACK, (unsigned long)saved, 0, 0, 0);
    saved = -1;
    return 0;
}

/* Section task: a kernel-only section's skip line and status. */
static enum bench_status kernel_only(const char *tag)
{
    printf("  diag=%s-skip reason=kernel-only\n", tag);
    return bench_skip("kernel-only");
}

/* Section task: S05 measures the kernel driver's ring and its loopback. */
enum bench_status s05_internals(void)
{
    return kernel_only("s05");
}

/* Section task: S50 runs the kernel driver's tasks on several harts. */
enum bench_status s50_smp(void)
{
    return kernel_only("s50");
}

/* Section task: S06 measures the kernel's task switch, wakers, timers. */
enum bench_status s06_kernel(void)
{
    return kernel_only("s06");
}
