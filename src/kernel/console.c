/* The console sink: one driver's polled output, registered at bring-up,
 * and the hook that pushes buffered output into it at exit. */
#include "console.h"

static const struct console_sink *sink;
static uint64_t sink_char_ns;
static uint32_t sink_fifo_depth;
static void (*at_exit)(void);

/* Boot, interrupts masked (the driver's bring-up). */
void console_register(const struct console_sink *s, uint64_t char_ns, uint32_t fifo_depth)
{
    sink = s;
    sink_char_ns = char_ns;
    sink_fifo_depth = fifo_depth;
}

/* Any context. */
const struct console_sink *console_sink(void)
{
    return sink;
}

/* Any context. */
uint64_t console_char_ns(void)
{
    return sink_char_ns;
}

/* Any context. */
uint32_t console_fifo_depth(void)
{
    return sink_fifo_depth;
}

/* Any context, interrupts masked included (panic, early boot). */
void console_write_polled(const char *s, size_t n)
{
    if (!sink)
        return;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            sink->putc_polled('\r');
        sink->putc_polled(s[i]);
    }
}

/* Boot (stdio's bring-up). */
void console_at_exit(void (*fn)(void))
{
    at_exit = fn;
}

/* kernel_exit, a task with interrupts on. */
void console_run_at_exit(void)
{
    if (at_exit)
        at_exit();
}
