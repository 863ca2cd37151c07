/* The tty under test: opened and set to raw 8N1 at the run's baud (and
 * refused when it does not take it), the POSIX calls the shim answers
 * itself (posix_io.h: open of "/dev/console", the benchmark's ioctls; a
 * counter reset is StarryOS's UART_TXDBG_RESET where its kernel has it),
 * and the UART backend's entry points the sections call (uart_backend.h)
 * as Linux can answer them. */
#include <errno.h>
#include <fcntl.h>
#include <linux/serial.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>
#include "hosted.h"
#include "posix_io.h"
#include "uart_backend.h"
#undef open                     /* from here on, the C library's */
#undef ioctl

#define PTY_SLAVE_MAJOR_FIRST 136   /* Unix98 pty slaves: majors 136..143 */
#define PTY_SLAVE_MAJOR_LAST  143
#define PTY_BSD_SLAVE_MAJOR   3     /* legacy /dev/ttyp* */
#ifndef TIOCM_LOOP
#define TIOCM_LOOP 0x8000           /* Linux's asm-generic/termios.h (not in glibc's) */
#endif

struct hosted_tty hosted_tty = { .fd = -1, .serial_type = -1 };
const char uart_be_name[] = "linux-tty";
static struct uart_cfg cfg;

/* termios' speeds: the baud a B constant stands for. */
static const struct { unsigned baud; speed_t code; } speeds[] = {
    { 50, B50 }, { 75, B75 }, { 110, B110 }, { 134, B134 }, { 150, B150 }, { 200, B200 },
    { 300, B300 }, { 600, B600 }, { 1200, B1200 }, { 1800, B1800 }, { 2400, B2400 },
    { 4800, B4800 }, { 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 },
    { 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 },
    { 500000, B500000 }, { 576000, B576000 }, { 921600, B921600 }, { 1000000, B1000000 },
    { 1152000, B1152000 }, { 1500000, B1500000 }, { 2000000, B2000000 },
    { 2500000, B2500000 }, { 3000000, B3000000 }, { 3500000, B3500000 },
    { 4000000, B4000000 },
};
#define NSPEEDS (sizeof speeds / sizeof speeds[0])

/* hosted_tty_open: the B constant of baud (0: none). */
static speed_t speed_code(unsigned baud)
{
    for (size_t i = 0; i < NSPEEDS; i++)
        if (speeds[i].baud == baud)
            return speeds[i].code;
    return 0;
}

/* hosted_tty_open: the baud of a B constant (0: none). */
static unsigned speed_baud(speed_t code)
{
    for (size_t i = 0; i < NSPEEDS; i++)
        if (speeds[i].code == code)
            return speeds[i].baud;
    return 0;
}

/* hosted_tty_open: the reason for a refusal, into err; returns status. */
static int refuse(int status, char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    if (hosted_tty.fd >= 0)
        close(hosted_tty.fd);
    hosted_tty.fd = -1;
    return status;
}

/* hosted_tty_open: what Linux tells of the port (a pty: nothing). */
static void probe(int fd)
{
    struct stat st;
    struct serial_struct ss;

    if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode)) {
        unsigned maj = major(st.st_rdev);
        hosted_tty.pty = (maj >= PTY_SLAVE_MAJOR_FIRST && maj <= PTY_SLAVE_MAJOR_LAST) ||
                         maj == PTY_BSD_SLAVE_MAJOR;
    }
    if (ioctl(fd, TIOCGSERIAL, &ss) == 0) {
        hosted_tty.serial_type = ss.type;
        hosted_tty.fifo_depth = ss.xmit_fifo_size > 0 ? (unsigned)ss.xmit_fifo_size : 0;
    }
}

/* main. Opened without blocking (a modem line would wait for its
 * carrier), raw, 8N1, no flow control, CLOCAL; the settings are read
 * back and a speed or frame the tty did not take refuses the run. */
int hosted_tty_open(const char *path, unsigned baud, char *err, size_t n)
{
    struct termios t, back;
    speed_t code = speed_code(baud);

    hosted_tty.path = path;
    if (!code) {
        char valid[400] = "";
        for (size_t i = 0; i < NSPEEDS; i++)
            snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%u", i ? "," : "",
                     speeds[i].baud);
        return refuse(HOSTED_EXIT_USAGE, err, n, "--baud %u: not a speed of termios; valid "
                      "values: %s", baud, valid);
    }
    hosted_tty.fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (hosted_tty.fd < 0)
        return refuse(HOSTED_EXIT_TTY, err, n, "%s: cannot open: %s (%s)%s", path, strerror(errno),
                      strerrorname_np(errno), errno == EACCES ? "; is the user in the tty's group "
                      "(e.g. dialout)?" : "");
    if (!isatty(hosted_tty.fd))
        return refuse(HOSTED_EXIT_TTY, err, n, "%s: not a tty (%s)", path, strerrorname_np(errno));
    if (tcgetattr(hosted_tty.fd, &t) != 0)
        return refuse(HOSTED_EXIT_TTY, err, n, "%s: tcgetattr: %s", path, strerror(errno));
    cfmakeraw(&t);
    t.c_cflag &= ~(tcflag_t)(CSIZE | PARENB | CSTOPB | CRTSCTS);
    t.c_cflag |= CS8 | CREAD | CLOCAL;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    cfsetispeed(&t, code);
    cfsetospeed(&t, code);
    if (tcsetattr(hosted_tty.fd, TCSANOW, &t) != 0 || tcgetattr(hosted_tty.fd, &back) != 0)
        return refuse(HOSTED_EXIT_USAGE, err, n, "%s: the tty refuses raw 8N1 at %u baud: %s",
                      path, baud, strerror(errno));
    unsigned got = speed_baud(cfgetospeed(&back)), got_in = speed_baud(cfgetispeed(&back));
    if (got != baud || got_in != baud)
        return refuse(HOSTED_EXIT_USAGE, err, n, "%s: the tty does not take %u baud (it reports "
                      "%u out, %u in)", path, baud, got, got_in);
    if ((back.c_cflag & (CSIZE | PARENB | CSTOPB)) != CS8)
        return refuse(HOSTED_EXIT_USAGE, err, n, "%s: the tty does not take 8N1 (c_cflag 0x%x)",
                      path, (unsigned)back.c_cflag);
    int fl = fcntl(hosted_tty.fd, F_GETFL);
    if (fl < 0 || fcntl(hosted_tty.fd, F_SETFL, fl & ~O_NONBLOCK) != 0)
        return refuse(HOSTED_EXIT_TTY, err, n, "%s: fcntl: %s", path, strerror(errno));
    tcflush(hosted_tty.fd, TCIOFLUSH);      /* what came before the run is no section's */
    hosted_tty.baud = got;
    probe(hosted_tty.fd);
    cfg = (struct uart_cfg){ .baud = got, .clock_hz = 16 * got, .fifo_depth =
                             (uint16_t)hosted_tty.fifo_depth, .rx_trigger = 1 };
    return 0;
}

/* Any task (posix_io.h): "/dev/console" is the tty under test. */
int hosted_open(const char *path, int flags, ...)
{
    mode_t mode = 0;

    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    if (strcmp(path, "/dev/console") == 0)
        return open(hosted_tty.path, flags | O_NOCTTY | O_CLOEXEC);
    return open(path, flags, mode);
}

/* hosted_ioctl: UART_IOC_LOOPBACK as the modem control line TIOCM_LOOP
 * (the 8250's MCR.LOOP); ENOTTY where the tty has none (a pty: no modem
 * lines; a driver that drops the bit: it does not read back). */
static int loopback(int fd, int on)
{
    int m;

    if (ioctl(fd, TIOCMGET, &m) != 0)
        return errno == EINVAL ? (errno = ENOTTY, -1) : -1;
    int want = on ? m | TIOCM_LOOP : m & ~TIOCM_LOOP;
    if (ioctl(fd, TIOCMSET, &want) != 0 || ioctl(fd, TIOCMGET, &m) != 0)
        return -1;
    if (!!(m & TIOCM_LOOP) != !!on) {
        want &= ~TIOCM_LOOP;
        ioctl(fd, TIOCMSET, &want);
        errno = ENOTTY;
        return -1;
    }
    return 0;
}

/* Any task (posix_io.h). */
int hosted_ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    void *arg;

    if (request == UART_IOC_GET_COUNTERS) {
        errno = ENOTTY;         /* no design's counters: the console's answer */
        return -1;
    }
    if (request == UART_IOC_RESET_COUNTERS)
        return hosted_txdbg_reset(fd);  /* StarryOS's, where its driver keeps them */
    va_start(ap, request);
    arg = va_arg(ap, void *);
    va_end(ap);
    if (request == UART_IOC_LOOPBACK)
        return loopback(fd, *(const int *)arg);
    return ioctl(fd, request, arg);
}

/* Any task: the line as the runner and the manifest see it. */
void uart_be_info(struct uart_info *out)
{
    *out = (struct uart_info){
        .ip = hosted_tty.pty ? "pty" : "linux-serial", .engine = uart_be_name,
        .fifo_depth = hosted_tty.fifo_depth,
        .fifo_source = hosted_tty.fifo_depth ? "tiocgserial" : "unknown",
        .char_ns = uart_char_ns(&cfg), .cfg = &cfg,
        .divisor = uart_divisor(&cfg), .baud_milli = uart_real_baud_milli(&cfg),
    };
}

/* Any task: Linux keeps no TX counters (the console's answer). */
int uart_be_counters(struct uart_counters *out)
{
    (void)out;
    return -ENOTTY;
}

/* Any task: the overruns the serial driver counted (TIOCGICOUNT; a pty: 0). */
uint64_t uart_be_overruns(void)
{
    struct serial_icounter_struct c;

    if (ioctl(hosted_tty.fd, TIOCGICOUNT, &c) != 0)
        return 0;
    return (uint64_t)c.overrun + (uint64_t)c.buf_overrun;
}

/* Any task: no CPU sub-accounts. */
unsigned uart_be_phases(struct uart_phase *out, unsigned max)
{
    (void)out;
    (void)max;
    return 0;
}

/* hosted.h. */
void hosted_write_all(int fd, const void *p, size_t n)
{
    const char *b = p;
    while (n) {
        ssize_t k = write(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;
        b += k;
        n -= (size_t)k;
    }
}
