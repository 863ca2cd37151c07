/* The kernel's console sink (as Linux's register_console): the polled
 * output a UART driver registers at bring-up, through which the kernel
 * prints its own messages (panic) and ends a run (exit's last flush). The
 * kernel calls nothing of the driver but these. */
#ifndef CONSOLE_H
#define CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct console_sink {
    /* Any context, interrupts masked: one byte out, polling. */
    void (*putc_polled)(char c);
    /* Any context, interrupts masked: what the driver has queued, polled. */
    void (*flush_polled)(void);
    /* Task: bytes queued in the driver or still in the hardware. */
    size_t (*tx_pending)(void);
    /* Any context: the last stop bit has left the transmitter. */
    bool (*tx_idle)(void);
};

/* Boot, interrupts masked (the driver's bring-up): s is the console from
 * now on, its line char_ns per character with a fifo_depth-byte FIFO. */
void console_register(const struct console_sink *s, uint64_t char_ns, uint32_t fifo_depth);
/* Any context: the registered sink, or NULL before any. */
const struct console_sink *console_sink(void);
/* Any context: the sink's character time and FIFO depth (0 before any). */
uint64_t console_char_ns(void);
uint32_t console_fifo_depth(void);
/* Any context, interrupts masked included: n bytes out polled, '\n' as
 * "\r\n" (the log is read as a terminal's); nothing before a sink. */
void console_write_polled(const char *s, size_t n);
/* Boot (stdio's bring-up): fn pushes buffered console output into the
 * driver; kernel_exit calls it from a task before the drain. One hook. */
void console_at_exit(void (*fn)(void));
/* kernel_exit, a task with interrupts on: run the at-exit hook, if any. */
void console_run_at_exit(void);

#endif
