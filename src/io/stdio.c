/* picolibc stdio on the UART: stdout, stderr and stdin share one stream;
 * '\n' goes out as "\r\n" like a terminal with ONLCR. */
#include <stdio.h>
#include "board_info.h"

/* Task context: one character of printf output. */
static int stdio_put(char c, FILE *f)
{
    (void)f;
    if (c == '\n')
        uart_putc_polled(&board.uart, '\r');
    uart_putc_polled(&board.uart, c);
    return (unsigned char)c;
}

static FILE stdio_stream = FDEV_SETUP_STREAM(stdio_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &stdio_stream;
FILE *const stdout = &stdio_stream;
FILE *const stderr = &stdio_stream;

/* Any context: push out what stdio holds (kernel_exit, section ends). */
void console_flush(void)
{
}
