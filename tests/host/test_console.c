/* The kernel's console sink (src/kernel/console.c): nothing goes out
 * before a driver registers, then every byte in order with '\n' as
 * "\r\n" through the driver's polled output; the sink's line figures and
 * the exit hook are the registered ones. */
#include <string.h>
#include "check.h"
#include "console.h"

static char out[64];
static size_t out_len;
static int hook_runs;

/* The fake driver's polled output: the byte recorded. */
static void fake_putc(char c)
{
    if (out_len < sizeof out)
        out[out_len++] = c;
}

static void fake_flush(void) {}
static size_t fake_pending(void) { return 0; }
static bool fake_idle(void) { return true; }

/* The fake stdio's at-exit flush. */
static void fake_hook(void)
{
    hook_runs++;
}

static const struct console_sink fake_sink = {
    .putc_polled = fake_putc, .flush_polled = fake_flush,
    .tx_pending = fake_pending, .tx_idle = fake_idle,
};

int main(void)
{
    /* Before a driver: no sink, no output, no line, no hook. */
    CHECK(console_sink() == NULL);
    console_write_polled("lost\n", 5);
    CHECK_EQ(out_len, 0);
    CHECK_EQ(console_char_ns(), 0);
    console_run_at_exit();
    CHECK_EQ(hook_runs, 0);

    console_register(&fake_sink, 86806, 16);
    CHECK(console_sink() == &fake_sink);
    CHECK_EQ(console_char_ns(), 86806);
    CHECK_EQ(console_fifo_depth(), 16);

    static const char msg[] = "\nPANIC: x\r\n\n";
    static const char want[] = "\r\nPANIC: x\r\r\n\r\n";
    console_write_polled(msg, sizeof msg - 1);
    CHECK_EQ(out_len, sizeof want - 1);
    CHECK(memcmp(out, want, sizeof want - 1) == 0);

    console_at_exit(fake_hook);
    console_run_at_exit();
    console_run_at_exit();
    CHECK_EQ(hook_runs, 2);
    return check_exit("console");
}
