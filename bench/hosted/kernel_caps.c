/* What the kernel under the shim gives of what the sections' tasks and
 * sleeps need (hosted.h), probed once before any thread: threads
 * (pthread_create: clone3 or clone) and clock_nanosleep. Without threads
 * a task runs to its end in the thread that spawns it (tasks.c), so a
 * section's second task cannot run beside it (bench_threads_missing);
 * without clock_nanosleep the shim's sleeps wait in ppoll. (futex cannot
 * be missing: glibc aborts in its own start-up and exit paths without
 * it, a program that uses no thread too.) */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "bench.h"
#include "hosted.h"

const char *hosted_no_threads, *hosted_no_nanosleep;

/* hosted_caps_probe's thread: nothing to do. */
static void *probe_main(void *arg)
{
    return arg;
}

/* hosted_caps_probe: `<call>-<errno name>` into buf. */
static const char *why(char *buf, size_t n, const char *call, int err)
{
    const char *name = strerrorname_np(err);
    snprintf(buf, n, "%s-%s", call, name ? name : "unknown-errno");
    return buf;
}

/* main, before any thread: a thread started and joined, and a sleep to
 * a deadline in the past (it returns at once where clock_nanosleep is). */
void hosted_caps_probe(void)
{
    pthread_t th;
    struct timespec past = { 0, 0 };

    int rc = pthread_create(&th, NULL, probe_main, NULL);
    if (rc) {
        static char threads[40];
        hosted_no_threads = why(threads, sizeof threads, "clone", rc);
    } else {
        pthread_join(th, NULL);
    }
    rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &past, NULL);
    if (rc == ENOSYS) {
        static char sleeps[40];
        hosted_no_nanosleep = why(sleeps, sizeof sleeps, "clock_nanosleep", rc);
    }
}

/* Section task (bench.h: S42, S43). */
const char *bench_threads_missing(void)
{
    return hosted_no_threads;
}
