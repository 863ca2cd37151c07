/* Self-test selftest=writers: two tasks write tagged chunks to the console
 * at once while two tasks tcdrain it over and over, through the POSIX
 * layer. The writers' 64-byte chunks, `<` writer seq `:` filler `>`, go
 * out between the lines `selftest=writers begin` and `selftest=writers
 * end`, one write each; a write that returns short (POSIX allows it, the
 * copier does at its ring's wrap) is followed by one for the rest, and
 * counted (short_writes). The host (tests/qemu/check_writers.py) checks
 * that every writer's bytes arrived once and in order, whole chunks where
 * no write was short. More than the TX ring holds is written, so writers
 * also wait for ring space together. The guest checks that every call
 * returned (the run ends: no wake-up lost, within a bound), no write
 * failed or took nothing, the drains without error, and that the TX
 * counters add up. */
#include <stdio.h>
#include "clock.h"
#include "kernel.h"
#include "posix_io.h"
#include "scheduler.h"
#include "uart_backend.h"
#include "waitq.h"

#define WR_TASKS      2U               /* writers, and as many drainers */
#define WR_CHUNK      64U
#define WR_STACK      1024
#define WR_BOUND_NS   (60ULL * 1000000000ULL)   /* all of it, at any line rate */

static struct task tasks[2 * WR_TASKS];
static uint64_t stacks[2 * WR_TASKS][WR_STACK];
static volatile unsigned writers_done, drainers_done;
static unsigned chunks_per_writer, drains[WR_TASKS], drain_errors[WR_TASKS], write_errors;
static unsigned short_writes;

/* Writer task and host: filler byte i of writer w's chunk seq. */
static char filler(unsigned w, unsigned seq, unsigned i)
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    return set[(seq * 7U + i * 3U + w * 11U) % (sizeof set - 1)];
}

/* Writer task w: its chunks, in order, one write each and one more for
 * the rest after a short one; a yield now and then, so the writers take
 * turns in the middle of each other's runs. */
static void writer(void *arg)
{
    unsigned w = (unsigned)(uintptr_t)arg;
    char c[WR_CHUNK];

    for (unsigned seq = 0; seq < chunks_per_writer; seq++) {
        int k = snprintf(c, sizeof c, "<%c%05u:", 'A' + w, seq);
        for (unsigned i = (unsigned)k; i < WR_CHUNK - 1; i++)
            c[i] = filler(w, seq, i);
        c[WR_CHUNK - 1] = '>';
        for (size_t done = 0; done < WR_CHUNK;) {
            ssize_t took = write(1, c + done, WR_CHUNK - done);
            if (took <= 0) {
                write_errors++;
                break;
            }
            done += (size_t)took;
            short_writes += done < WR_CHUNK;
        }
        if (seq % 5 == w)
            sched_yield();
    }
    writers_done++;
}

/* Drainer task d: tcdrain until both writers are done, then once more;
 * a yield after each (a drain of the polling console that finds the line
 * idle returns at once, and the scheduler is cooperative). */
static void drainer(void *arg)
{
    unsigned d = (unsigned)(uintptr_t)arg;
    for (bool last = false; !last;) {
        last = writers_done == WR_TASKS;
        if (tcdrain(1) == 0)
            drains[d]++;
        else
            drain_errors[d]++;
        sched_yield();
    }
    drainers_done++;
}

/* Main task (selftest=writers). */
int selftest_writers(void)
{
    struct uart_counters c;
    uint64_t end = clock_now_ns() + WR_BOUND_NS, acc_begin = 0;

    chunks_per_writer = 600;                 /* 2 x 37.5 KiB: more than the 64 KiB ring */
    console_flush();
    tcdrain(1);
    printf("selftest=writers begin backend=%s writers=%u chunk=%u chunks=%u\n", uart_be_name,
           WR_TASKS, WR_CHUNK, chunks_per_writer);
    console_flush();
    if (ioctl(1, UART_IOC_GET_COUNTERS, &c) == 0)
        acc_begin = c.user_acc;              /* bytes taken before the first chunk */
    for (unsigned i = 0; i < WR_TASKS; i++) {
        task_spawn(&tasks[i], "writer", writer, (void *)(uintptr_t)i, stacks[i], WR_STACK);
        task_spawn(&tasks[WR_TASKS + i], "drainer", drainer, (void *)(uintptr_t)i,
                   stacks[WR_TASKS + i], WR_STACK);
    }
    while ((writers_done < WR_TASKS || drainers_done < WR_TASKS) && clock_now_ns() < end)
        sleep_for(1000000);
    bool counted = ioctl(1, UART_IOC_GET_COUNTERS, &c) == 0;
    bool sums = !counted || c.user_acc + c.queued_at_reset == c.ring_pop_bytes + c.staged_bytes;
    printf("\nselftest=writers end writers_done=%u drainers_done=%u write_errors=%u "
           "short_writes=%u drains=%u,%u drain_errors=%u,%u counters=%s sums=%d "
           "user_acc_begin=%llu\n", writers_done, drainers_done, write_errors, short_writes,
           drains[0], drains[1], drain_errors[0], drain_errors[1], counted ? "yes" : "none",
           sums, (unsigned long long)acc_begin);
    return writers_done == WR_TASKS && drainers_done == WR_TASKS && !write_errors &&
           drains[0] && drains[1] && !drain_errors[0] && !drain_errors[1] && sums;
}
