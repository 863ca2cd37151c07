/* picolibc stdio on the console: stdout, stderr and stdin share one
 * stream; output is collected per line, in a buffer per hart, and handed
 * to the POSIX layer's console output in one go ('\n' goes out as "\r\n"
 * there, like a terminal with ONLCR). Before the driver is up, output goes
 * polled to the kernel's console sink. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "console.h"
#include "harts.h"
#include "kernel.h"
#include "posix_io.h"
#include "uart_backend.h"

#define STDIO_LINE_MAX 256

/* This hart's line: only its tasks append, one at a time (a task is
 * switched out only where it blocks, and that is after the copy). */
static HART_LOCAL char line[STDIO_LINE_MAX];
static HART_LOCAL unsigned line_len;
static bool backend_up;

/* Task context: hand the collected line to the backend (or poll it out).
 * The line is copied and emptied first: another task of this hart may
 * append while the writer turn or the ring blocks this one. */
static void line_flush(void)
{
    char out[STDIO_LINE_MAX];
    unsigned n = line_len;
    memcpy(out, line, n);
    line_len = 0;
    if (backend_up)
        posix_console_out(out, n);
    else
        console_write_polled(out, n);
}

/* Task context: one character of printf output. */
static int stdio_put(char c, FILE *f)
{
    (void)f;
    line[line_len++] = c;
    if (c == '\n' || line_len == STDIO_LINE_MAX)
        line_flush();
    return (unsigned char)c;
}

static FILE stdio_stream = FDEV_SETUP_STREAM(stdio_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &stdio_stream;
FILE *const stdout = &stdio_stream;
FILE *const stderr = &stdio_stream;

/* Boot task: from now on stdout goes through the backend; a partial
 * line is pushed out at exit. */
void stdio_use_backend(void)
{
    line_flush();
    backend_up = true;
    console_at_exit(console_flush);
}

/* Any context, interrupts masked (the exit path, the RX-overrun test):
 * what the console has queued, out through the polled path. */
void console_flush_polled(void)
{
    uart_be_flush_polled();
}

/* Task context: push out a partial line (section ends, exit). */
void console_flush(void)
{
    if (line_len)
        line_flush();
}
