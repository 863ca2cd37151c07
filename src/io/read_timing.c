/* Non-canonical read timing, the device's termios c_cc[VMIN] and
 * c_cc[VTIME]: VMIN 1 (the boot state) waits for the first byte; VMIN 0
 * waits for it at most VTIME tenths of a second from the call, then
 * returns 0 (VTIME 0: not at all). A read returns what has arrived, so
 * VMIN above 1 is refused (posix_io.h). */
#include "clock.h"
#include "posix_io.h"

#define NS_PER_VTIME 100000000ULL   /* a tenth of a second */

static cc_t vmin = 1, vtime;       /* the device's, shared by every fd */

/* Any task (tcsetattr): whether t's VMIN and VTIME can be had. */
bool posix_read_timing_ok(const struct termios *t)
{
    return t->c_cc[VMIN] == 1 ? t->c_cc[VTIME] == 0 : t->c_cc[VMIN] == 0;
}

/* Any task (tcgetattr): the device's VMIN and VTIME into *t. */
void posix_read_timing_get(struct termios *t)
{
    t->c_cc[VMIN] = vmin;
    t->c_cc[VTIME] = vtime;
}

/* Any task (tcsetattr, after posix_read_timing_ok), boot (posix_io_init,
 * t NULL: VMIN 1, VTIME 0): set them. */
void posix_read_timing_set(const struct termios *t)
{
    vmin = t ? t->c_cc[VMIN] : 1;
    vtime = t ? t->c_cc[VTIME] : 0;
}

/* Any task (read): up to n bytes from the driver, as the fd's O_NONBLOCK
 * and the device's VMIN and VTIME say. */
ssize_t posix_be_read(void *buf, size_t n, bool nonblock)
{
    if (nonblock || vmin)
        return uart_be_read(buf, n, nonblock);
    return uart_be_read_until(buf, n, clock_now_ns() + vtime * NS_PER_VTIME);
}
