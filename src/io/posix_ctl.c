/* Terminal control of the UART terminal's file interface: termios
 * (c_oflag's OPOST|ONLCR, VMIN, VTIME) and ioctl, on posix.c's fds, drain
 * and c_oflag (posix_priv.h); posix_io.h has the semantics. */
#include <stdarg.h>
#include <stdbool.h>
#include <limits.h>
#include <string.h>
#include "posix_io.h"
#include "posix_priv.h"

#define OFLAG_OK       (OPOST | ONLCR)
#define FLUSH_SCRATCH  64          /* TCSAFLUSH: bytes discarded per read */

/* Any task (TCSAFLUSH): discard input received but not read. */
static void tty_discard_input(void)
{
    char scratch[FLUSH_SCRATCH];
    while (uart_be_read(scratch, sizeof scratch, true) > 0)
        ;
}

/* Any task: the device's termios; c_oflag, VMIN and VTIME carry state. */
int POSIX_NAME(tcgetattr)(int fd, struct termios *t)
{
    if (!posix_fd_valid(fd))
        return posix_fail(EBADF);
    if (!t)
        return posix_fail(EFAULT);
    memset(t, 0, sizeof *t);
    t->c_oflag = posix_oflag();
    posix_read_timing_get(t);
    return 0;
}

/* Any task: set c_oflag (OPOST|ONLCR), VMIN and VTIME now, after a drain
 * (TCSADRAIN), or after a drain and discarding unread input (TCSAFLUSH). */
int POSIX_NAME(tcsetattr)(int fd, int actions, const struct termios *t)
{
    if (!posix_fd_valid(fd))
        return posix_fail(EBADF);
    if (!t)
        return posix_fail(EFAULT);
    if (actions != TCSANOW && actions != TCSADRAIN && actions != TCSAFLUSH)
        return posix_fail(EINVAL);
    if ((t->c_oflag & ~(tcflag_t)OFLAG_OK) || t->c_iflag || t->c_lflag ||
        !posix_read_timing_ok(t))
        return posix_fail(EINVAL);
    if (actions != TCSANOW) {
        int r = posix_tty_drain();
        if (r < 0)
            return posix_fail(-r);
        if (actions == TCSAFLUSH)
            tty_discard_input();
    }
    posix_oflag_set(t->c_oflag);
    posix_read_timing_set(t);
    return 0;
}

/* Any task (ioctl): store a byte count as an int, saturating. */
static void put_count(int *out, size_t n)
{
    *out = n > INT_MAX ? INT_MAX : (int)n;
}

/* Any task (ioctl): the requests that take a pointer; 0 or -errno. */
static int ioctl_ptr(int fd, unsigned long request, void *arg)
{
    int *iarg = arg;
    if (!arg)
        return -EFAULT;
    switch (request) {
    case FIONBIO:
        posix_fd_set_nonblock(fd, *iarg != 0);
        return 0;
    case FIONREAD:
        put_count(iarg, uart_be_rx_available());
        return 0;
    case TIOCOUTQ:
        put_count(iarg, uart_be_tx_pending());
        return 0;
    case UART_IOC_GET_COUNTERS:
        return uart_be_counters(arg);
    case UART_IOC_LOOPBACK:
        if (*iarg != 0 && *iarg != 1)
            return -EINVAL;
        return uart_be_set_loopback(*iarg == 1);
    default:
        return -ENOTTY;
    }
}

/* Any task: terminal and UART requests (posix_io.h lists them). The third
 * argument is read only for requests that take one. */
int POSIX_NAME(ioctl)(int fd, unsigned long request, ...)
{
    va_list ap;
    int r;
    if (!posix_fd_valid(fd))
        return posix_fail(EBADF);
    va_start(ap, request);
    switch (request) {
    case UART_IOC_RESET_COUNTERS:
        r = uart_be_counters_reset();
        break;
    case TCSBRK:
        r = va_arg(ap, int) ? posix_tty_drain() : -EINVAL;
        break;
    case FIONBIO:
    case FIONREAD:
    case TIOCOUTQ:
    case UART_IOC_GET_COUNTERS:
    case UART_IOC_LOOPBACK:
        r = ioctl_ptr(fd, request, va_arg(ap, void *));
        break;
    default:
        r = -ENOTTY;
        break;
    }
    va_end(ap);
    return r < 0 ? posix_fail(-r) : 0;
}
