/* The end of a run from the kernel's side: from a task with interrupts
 * on, stdio's partial line and what the driver has queued go out first,
 * within a bound; then power_off (power.c), which ends the run polled. */
#include "clock.h"
#include "console.h"
#include "csr.h"
#include "kernel.h"
#include "waitq.h"

#define EXIT_DRAIN_SLACK_NS 1000000ULL   /* beyond the queued bytes' line time */

/* kernel_exit, a task with interrupts on: let the driver send what it
 * has queued (its interrupt or its task does), a character time at a
 * time while bytes are pending, for at most twice their line time plus
 * slack. Not tcdrain: a design's drain may have no bound of its own (the
 * copier's, as StarryOS's), and a line that never reports empty
 * (fault=temt-stuck) must not hang the exit. */
static void drain_bounded(const struct console_sink *s)
{
    uint64_t char_ns = console_char_ns();
    uint64_t end = clock_now_ns() + EXIT_DRAIN_SLACK_NS +
                   2 * char_ns * (s->tx_pending() + console_fifo_depth() + 1U);
    while (s->tx_pending() && clock_now_ns() < end)
        sleep_for(char_ns);
}

/* Any context: end the run. From a task with interrupts on, buffered
 * output (stdio's) goes to the console and drains normally, within a
 * bound; otherwise (a caller with interrupts masked) power_off flushes
 * the console's queue polled. */
void kernel_exit(int code)
{
    const struct console_sink *s = console_sink();
    if (irq_enabled()) {
        console_run_at_exit();
        if (s)
            drain_bounded(s);
    }
    power_off(code);
}
