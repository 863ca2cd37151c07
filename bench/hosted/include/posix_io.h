/* The kernel's POSIX subset (include/posix_io.h) as the sections see it
 * on Linux: the C library's own calls on a real tty, but for two, which
 * the shim answers (bench/hosted/tty.c): open("/dev/console") opens the
 * tty under test (--tty), as the kernel's /dev/console is its UART, and
 * ioctl answers the benchmark's own requests (UART_IOC_*: no counters on
 * Linux, ENOTTY; the loopback through TIOCM_LOOP where the tty has it)
 * and passes every other request to Linux. Both are renamed to the
 * shim's by macros, after the C library's headers. Errno numbers are
 * Linux's. The include guard is the kernel's. */
#ifndef POSIX_IO_H
#define POSIX_IO_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "uart_backend.h"

#define UART_IOC_GET_COUNTERS   0x5500  /* struct uart_counters *out: ENOTTY */
#define UART_IOC_RESET_COUNTERS 0x5501  /* no arg: ENOTTY */
#define UART_IOC_LOOPBACK       0x5502  /* int *arg: 1 on, 0 off (TIOCM_LOOP) */

/* Any task: open(2), with "/dev/console" the tty under test. */
int hosted_open(const char *path, int flags, ...);
/* Any task: ioctl(2), the benchmark's own requests answered here. */
int hosted_ioctl(int fd, unsigned long request, ...);
#define open hosted_open
#define ioctl hosted_ioctl

/* Runner: the kernel's write-fault test hook; the shim has no fault
 * injection (only after < 0, disarm, ever comes). */
void posix_io_fault_write(int after, int err);

#endif
