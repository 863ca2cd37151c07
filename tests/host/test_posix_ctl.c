/* POSIX layer (src/io) against the mock backend (fake_backend.c): every
 * errno case from a table, each followed by a "nothing changed" check;
 * then ioctl, termios, clocks and sleeps. Data paths: test_posix.c. */
#include <string.h>
#include "check.h"
#include "fake_backend.h"
#include "posix_io.h"

#define BAD_IOCTL   0x1234UL
#define BAD_CLOCK   ((clockid_t)99)
#define FD_RO       3   /* opened O_RDONLY by the error setup */
#define FD_WO       4   /* opened O_WRONLY */
#define FD_NB       5   /* opened O_RDWR | O_NONBLOCK */
#define FD_CLOSED   6
#define BAD_FD      77
#define OFLAG_UNSUPPORTED 0x100  /* neither OPOST nor ONLCR */
#define TX_BACKLOG  77           /* the fake's TIOCOUTQ answer */

static char buf[64];
static struct uart_counters cnt_out;
static struct termios tio_out;
static struct timespec ts_out;
static const char *const console = "/dev/console";

/* Test: boot state for both sides. */
static void reset(void)
{
    posix_io_init();
    fake_reset();
}

enum op { OPEN, CLOSE, READ, WRITE, WRITEV, FCNTL, IOCTL, TCDRAIN, TCGET, TCSET,
          GETTIME, NANOSLEEP };
enum setup { NONE, FULL_TABLE, TX_FULL, TX_EIO, DRAIN_TIMEOUT, NO_COUNTERS };

struct err_case {
    const char *what;
    enum op op;
    int fd;          /* fd; open: flags; gettime: clock */
    long arg;        /* count, iovcnt, cmd, request, actions */
    const void *p;   /* path, buffer, iov, ioctl pointer, termios, timespec */
    long extra;      /* fcntl/TCSBRK int argument */
    enum setup setup;
    int err;
};

static int int_one = 1, int_two = 2;
static struct iovec iov_null_base[2] = { { buf, 1 }, { NULL, 1 } };
static struct iovec iov_huge[2] = { { buf, PTRDIFF_MAX }, { buf, 1 } };
static struct iovec iov_many[POSIX_IO_IOV_MAX + 1];
static struct termios tio_bad_oflag = { .c_oflag = OPOST | ONLCR | OFLAG_UNSUPPORTED };
static struct termios tio_lflag = { .c_lflag = 1 };
static struct termios tio_onlcr = { .c_oflag = OPOST | ONLCR };
static struct termios tio_vmin2 = { .c_cc[VMIN] = 2 };
static struct termios tio_vmin1_vtime = { .c_cc[VMIN] = 1, .c_cc[VTIME] = 1 };
static struct timespec ts_bad_nsec = { 0, 1000000000L };

static const struct err_case err_cases[] = {
    { "open NULL path", OPEN, O_RDWR, 0, NULL, 0, NONE, EFAULT },
    { "open unknown path", OPEN, O_RDWR, 0, "/dev/null", 0, NONE, ENOENT },
    { "open O_CREAT", OPEN, O_RDWR | O_CREAT, 0, "/dev/console", 0, NONE, EINVAL },
    { "open O_APPEND", OPEN, O_WRONLY | O_APPEND, 0, "/dev/ttyS0", 0, NONE, EINVAL },
    { "open access mode 3", OPEN, O_ACCMODE, 0, "/dev/console", 0, NONE, EINVAL },
    { "open table full", OPEN, O_RDWR, 0, "/dev/console", 0, FULL_TABLE, EMFILE },
    { "close -1", CLOSE, -1, 0, NULL, 0, NONE, EBADF },
    { "close closed", CLOSE, FD_CLOSED, 0, NULL, 0, NONE, EBADF },
    { "close past table", CLOSE, POSIX_FD_MAX, 0, NULL, 0, NONE, EBADF },
    { "read bad fd", READ, BAD_FD, 1, buf, 0, NONE, EBADF },
    { "read closed fd", READ, FD_CLOSED, 1, buf, 0, NONE, EBADF },
    { "read write-only fd", READ, FD_WO, 1, buf, 0, NONE, EBADF },
    { "read NULL buffer", READ, 0, 1, NULL, 0, NONE, EFAULT },
    { "read would block", READ, FD_NB, 1, buf, 0, NONE, EAGAIN },
    { "write bad fd", WRITE, -3, 1, "x", 0, NONE, EBADF },
    { "write read-only fd", WRITE, FD_RO, 1, "x", 0, NONE, EBADF },
    { "write NULL buffer", WRITE, 1, 1, NULL, 0, NONE, EFAULT },
    { "write would block", WRITE, FD_NB, 1, "x", 0, TX_FULL, EAGAIN },
    { "write backend error", WRITE, 1, 1, "x", 0, TX_EIO, EIO },
    { "writev bad fd", WRITEV, FD_CLOSED, 1, iov_null_base, 0, NONE, EBADF },
    { "writev read-only fd", WRITEV, FD_RO, 1, iov_null_base, 0, NONE, EBADF },
    { "writev iovcnt 0", WRITEV, 1, 0, iov_null_base, 0, NONE, EINVAL },
    { "writev iovcnt -1", WRITEV, 1, -1, iov_null_base, 0, NONE, EINVAL },
    { "writev iovcnt > max", WRITEV, 1, POSIX_IO_IOV_MAX + 1, iov_many, 0, NONE, EINVAL },
    { "writev NULL iov", WRITEV, 1, 1, NULL, 0, NONE, EFAULT },
    { "writev NULL base", WRITEV, 1, 2, iov_null_base, 0, NONE, EFAULT },
    { "writev sum overflow", WRITEV, 1, 2, iov_huge, 0, NONE, EINVAL },
    { "writev would block", WRITEV, FD_NB, 1, iov_null_base, 0, TX_FULL, EAGAIN },
    { "fcntl bad fd", FCNTL, FD_CLOSED, F_GETFL, NULL, 0, NONE, EBADF },
    { "fcntl F_GETFD", FCNTL, 1, F_GETFD, NULL, 0, NONE, EINVAL },
    { "fcntl F_SETFL O_APPEND", FCNTL, 1, F_SETFL, NULL, O_NONBLOCK | O_APPEND, NONE, EINVAL },
    { "ioctl bad fd", IOCTL, FD_CLOSED, FIONREAD, &int_one, 0, NONE, EBADF },
    { "ioctl unknown", IOCTL, 1, BAD_IOCTL, &int_one, 0, NONE, ENOTTY },
    { "FIONBIO NULL", IOCTL, 1, FIONBIO, NULL, 0, NONE, EFAULT },
    { "FIONREAD NULL", IOCTL, 1, FIONREAD, NULL, 0, NONE, EFAULT },
    { "TIOCOUTQ NULL", IOCTL, 1, TIOCOUTQ, NULL, 0, NONE, EFAULT },
    { "TCSBRK 0 (break)", IOCTL, 1, TCSBRK, NULL, 0, NONE, EINVAL },
    { "TCSBRK timeout", IOCTL, 1, TCSBRK, NULL, 1, DRAIN_TIMEOUT, EIO },
    { "GET_COUNTERS NULL", IOCTL, 1, UART_IOC_GET_COUNTERS, NULL, 0, NONE, EFAULT },
    { "GET_COUNTERS console", IOCTL, 1, UART_IOC_GET_COUNTERS, &cnt_out, 0, NO_COUNTERS, ENOTTY },
    { "RESET_COUNTERS console", IOCTL, 1, UART_IOC_RESET_COUNTERS, NULL, 0, NO_COUNTERS, ENOTTY },
    { "LOOPBACK NULL", IOCTL, 1, UART_IOC_LOOPBACK, NULL, 0, NONE, EFAULT },
    { "LOOPBACK 2", IOCTL, 1, UART_IOC_LOOPBACK, &int_two, 0, NONE, EINVAL },
    { "tcdrain bad fd", TCDRAIN, FD_CLOSED, 0, NULL, 0, NONE, EBADF },
    { "tcdrain timeout", TCDRAIN, 1, 0, NULL, 0, DRAIN_TIMEOUT, EIO },
    { "tcgetattr bad fd", TCGET, FD_CLOSED, 0, &tio_out, 0, NONE, EBADF },
    { "tcgetattr NULL", TCGET, 1, 0, NULL, 0, NONE, EFAULT },
    { "tcsetattr bad fd", TCSET, 9, TCSANOW, &tio_onlcr, 0, NONE, EBADF },
    { "tcsetattr NULL", TCSET, 1, TCSANOW, NULL, 0, NONE, EFAULT },
    { "tcsetattr bad action", TCSET, 1, 7, &tio_onlcr, 0, NONE, EINVAL },
    { "tcsetattr bad oflag", TCSET, 1, TCSANOW, &tio_bad_oflag, 0, NONE, EINVAL },
    { "tcsetattr lflag", TCSET, 1, TCSANOW, &tio_lflag, 0, NONE, EINVAL },
    { "tcsetattr VMIN 2", TCSET, 1, TCSANOW, &tio_vmin2, 0, NONE, EINVAL },
    { "tcsetattr VMIN 1 VTIME 1", TCSET, 1, TCSANOW, &tio_vmin1_vtime, 0, NONE, EINVAL },
    { "tcsetattr drain fails", TCSET, 1, TCSADRAIN, &tio_onlcr, 0, DRAIN_TIMEOUT, EIO },
    { "clock_gettime bad clock", GETTIME, BAD_CLOCK, 0, &ts_out, 0, NONE, EINVAL },
    { "clock_gettime NULL", GETTIME, CLOCK_MONOTONIC, 0, NULL, 0, NONE, EFAULT },
    { "nanosleep bad nsec", NANOSLEEP, 0, 0, &ts_bad_nsec, 0, NONE, EINVAL },
    { "nanosleep NULL", NANOSLEEP, 0, 0, NULL, 0, NONE, EFAULT },
};

/* Test: one call of the table. */
static long run(const struct err_case *c)
{
    void *p = (void *)(uintptr_t)c->p;
    switch (c->op) {
    case OPEN: return kposix_open(c->p, c->fd);
    case CLOSE: return kposix_close(c->fd);
    case READ: return kposix_read(c->fd, p, (size_t)c->arg);
    case WRITE: return kposix_write(c->fd, c->p, (size_t)c->arg);
    case WRITEV: return kposix_writev(c->fd, c->p, (int)c->arg);
    case FCNTL:
        return c->arg == F_SETFL ? kposix_fcntl(c->fd, F_SETFL, (int)c->extra)
                                 : kposix_fcntl(c->fd, (int)c->arg);
    case IOCTL:
        if (c->arg == TCSBRK)
            return kposix_ioctl(c->fd, TCSBRK, (int)c->extra);
        if (c->arg == UART_IOC_RESET_COUNTERS)
            return kposix_ioctl(c->fd, UART_IOC_RESET_COUNTERS);
        return kposix_ioctl(c->fd, (unsigned long)c->arg, p);
    case TCDRAIN: return kposix_tcdrain(c->fd);
    case TCGET: return kposix_tcgetattr(c->fd, p);
    case TCSET: return kposix_tcsetattr(c->fd, (int)c->arg, c->p);
    case GETTIME: return kposix_clock_gettime((clockid_t)c->fd, p);
    case NANOSLEEP: return kposix_nanosleep(c->p, NULL);
    }
    return 0;
}

/* Test: the state an error must not change. */
struct snapshot {
    int flags[POSIX_FD_MAX];
    tcflag_t oflag;
    cc_t vmin, vtime;
    size_t tx_len, rx_left, sleeps;
    uint64_t now;
};

static void snap(struct snapshot *s)
{
    struct termios t;
    memset(s, 0, sizeof *s);
    for (int fd = 0; fd < POSIX_FD_MAX; fd++)
        s->flags[fd] = kposix_fcntl(fd, F_GETFL);
    CHECK_EQ(kposix_tcgetattr(0, &t), 0);
    s->oflag = t.c_oflag;
    s->vmin = t.c_cc[VMIN];
    s->vtime = t.c_cc[VTIME];
    fake_tx(&s->tx_len);
    s->rx_left = fake_rx_left();
    s->sleeps = fake_sleeps();
    s->now = fake_now();
}

/* Test: every errno case; -1, errno, and no state change. */
static void test_errors(void)
{
    for (size_t i = 0; i < sizeof err_cases / sizeof err_cases[0]; i++) {
        const struct err_case *c = &err_cases[i];
        struct snapshot before, after;
        reset();
        CHECK_EQ(kposix_open(console, O_RDONLY), FD_RO);
        CHECK_EQ(kposix_open(console, O_WRONLY), FD_WO);
        CHECK_EQ(kposix_open(console, O_RDWR | O_NONBLOCK), FD_NB);
        if (c->setup == FULL_TABLE)
            while (kposix_open(console, O_RDWR) >= 0)
                ;
        fake_set_tx_room(c->setup == TX_FULL ? 0 : SIZE_MAX);
        fake_set_write_error(c->setup == TX_EIO ? EIO : 0);
        fake_set_drain_result(c->setup == DRAIN_TIMEOUT ? -ETIMEDOUT : 0);
        fake_set_counters_result(c->setup == NO_COUNTERS ? -ENOTTY : 0);
        snap(&before);
        errno = 0;
        long r = run(c);
        int err = errno;
        snap(&after);
        if (r != -1 || err != c->err)
            fprintf(stderr, "case '%s': r=%ld errno=%d\n", c->what, r, err);
        CHECK_EQ(r, -1);
        CHECK_EQ(err, c->err);
        CHECK(memcmp(&before, &after, sizeof before) == 0);
    }
}

/* Test: ioctl and termios normal paths. */
static void test_ioctl_termios(void)
{
    int n = -1, on = 1, off = 0;
    struct uart_counters cnt;
    struct posix_io_stats st;
    struct termios t;
    reset();
    fake_set_tx_pending(TX_BACKLOG);
    CHECK_EQ(kposix_ioctl(1, TIOCOUTQ, &n), 0);
    CHECK_EQ(n, TX_BACKLOG);
    CHECK_EQ(kposix_ioctl(1, UART_IOC_GET_COUNTERS, &cnt), 0);
    CHECK_EQ(cnt.user_calls, FAKE_COUNTER_MARK);
    CHECK_EQ(kposix_ioctl(1, UART_IOC_RESET_COUNTERS), 0);
    CHECK_EQ(fake_counter_resets(), 1);
    CHECK_EQ(kposix_ioctl(1, UART_IOC_LOOPBACK, &on), 0);
    CHECK_EQ(fake_loopback(), 1);
    CHECK_EQ(kposix_ioctl(1, UART_IOC_LOOPBACK, &off), 0);
    CHECK_EQ(fake_loopback(), 0);
    CHECK_EQ(kposix_ioctl(1, TCSBRK, 1), 0);
    CHECK_EQ(kposix_tcdrain(1), 0);
    CHECK_EQ(fake_drains(), 2);
    fake_set_drain_result(-ETIMEDOUT);
    CHECK_EQ(kposix_tcdrain(1), -1);
    CHECK_EQ(kposix_ioctl(1, TCSBRK, 1), -1);
    posix_io_get_stats(&st);
    CHECK_EQ(st.drain_eio, 2);
    fake_set_drain_result(0);

    t = (struct termios){ .c_oflag = OPOST | ONLCR, .c_cflag = 0xffff };
    CHECK_EQ(kposix_tcsetattr(0, TCSANOW, &t), 0);
    CHECK_EQ(fake_drains(), 4);
    t.c_oflag = OPOST;
    CHECK_EQ(kposix_tcsetattr(2, TCSADRAIN, &t), 0);
    CHECK_EQ(fake_drains(), 5);
    CHECK_EQ(kposix_tcgetattr(1, &t), 0);
    CHECK_EQ(t.c_oflag, OPOST);
    fake_set_rx("junk", 4);
    t.c_oflag = 0;
    CHECK_EQ(kposix_tcsetattr(1, TCSAFLUSH, &t), 0);
    CHECK_EQ(fake_drains(), 6);
    CHECK_EQ(fake_rx_left(), 0);
}

/* Test: read timing, VMIN and VTIME: blocking at boot, a deadline VTIME
 * tenths from the call with VMIN 0, O_NONBLOCK first. */
static void test_read_timing(void)
{
    struct termios t;
    char c[4];
    reset();
    CHECK_EQ(kposix_tcgetattr(0, &t), 0);
    CHECK(t.c_cc[VMIN] == 1 && t.c_cc[VTIME] == 0);
    CHECK_EQ(kposix_read(0, c, sizeof c), -1);      /* the fake: it would block */
    CHECK_EQ(errno, EDEADLK);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 3;
    CHECK_EQ(kposix_tcsetattr(0, TCSANOW, &t), 0);
    CHECK_EQ(kposix_tcgetattr(2, &t), 0);            /* the device's, every fd's */
    CHECK(t.c_cc[VMIN] == 0 && t.c_cc[VTIME] == 3);
    fake_set_now(7000);
    CHECK_EQ(kposix_read(1, c, sizeof c), 0);
    CHECK_EQ(fake_read_deadline(), 7000 + 300000000ULL);
    fake_set_rx("ab", 2);
    CHECK_EQ(kposix_read(1, c, sizeof c), 2);
    CHECK(memcmp(c, "ab", 2) == 0);
    int nb = kposix_open(console, O_RDWR | O_NONBLOCK);
    CHECK_EQ(kposix_read(nb, c, sizeof c), -1);
    CHECK_EQ(errno, EAGAIN);
    CHECK(fake_read_nonblock());
    t.c_cc[VTIME] = 0;
    CHECK_EQ(kposix_tcsetattr(0, TCSANOW, &t), 0);
    CHECK_EQ(kposix_read(0, c, sizeof c), 0);
    CHECK_EQ(fake_read_deadline(), 7000);
    t.c_cc[VMIN] = 1;
    CHECK_EQ(kposix_tcsetattr(0, TCSANOW, &t), 0);
    CHECK_EQ(kposix_read(0, c, sizeof c), -1);
    CHECK_EQ(errno, EDEADLK);
    posix_io_init();
    CHECK_EQ(kposix_tcgetattr(0, &t), 0);
    CHECK(t.c_cc[VMIN] == 1 && t.c_cc[VTIME] == 0);
}

/* Test: clock_gettime and the sleeps. */
static void test_time(void)
{
    struct timespec ts = { -1, -1 };
    reset();
    fake_set_now(5123456789ULL);
    CHECK_EQ(kposix_clock_gettime(CLOCK_MONOTONIC, &ts), 0);
    CHECK(ts.tv_sec == 5 && ts.tv_nsec == 123456789);
    CHECK_EQ(kposix_clock_gettime(CLOCK_REALTIME, &ts), 0);
    CHECK(ts.tv_sec == 5 && ts.tv_nsec == 123456789);

    static const struct { clockid_t clk; int flags; long sec, nsec; int err; } bad[] = {
        { BAD_CLOCK, 0, 0, 1, EINVAL },
        { CLOCK_MONOTONIC, TIMER_ABSTIME << 1, 0, 1, EINVAL },
        { CLOCK_MONOTONIC, TIMER_ABSTIME | (TIMER_ABSTIME << 1), 0, 1, EINVAL },
        { CLOCK_MONOTONIC, 0, 0, -1, EINVAL },
        { CLOCK_MONOTONIC, 0, 0, 1000000000L, EINVAL },
        { CLOCK_MONOTONIC, TIMER_ABSTIME, -1, 0, EINVAL },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct timespec req = { bad[i].sec, bad[i].nsec };
        errno = 0;
        CHECK_EQ(kposix_clock_nanosleep(bad[i].clk, bad[i].flags, &req, NULL), bad[i].err);
        CHECK_EQ(errno, 0);
    }
    CHECK_EQ(kposix_clock_nanosleep(CLOCK_MONOTONIC, 0, NULL, NULL), EFAULT);
    CHECK_EQ(fake_sleeps(), 0);

    struct timespec rel = { 1, 500 }, rem = { 7, 7 };
    CHECK_EQ(kposix_clock_nanosleep(CLOCK_MONOTONIC, 0, &rel, &rem), 0);
    CHECK_EQ(fake_sleep_deadline(), 5123456789ULL + 1000000500ULL);
    CHECK(rem.tv_sec == 7 && rem.tv_nsec == 7);
    struct timespec past = { 1, 0 }, zero = { 0, 0 }, at = { 10, 5 };
    CHECK_EQ(kposix_clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &past, NULL), 0);
    CHECK_EQ(kposix_clock_nanosleep(CLOCK_REALTIME, 0, &zero, NULL), 0);
    CHECK_EQ(fake_sleeps(), 1);
    CHECK_EQ(kposix_clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL), 0);
    CHECK_EQ(fake_sleep_deadline(), 10000000005ULL);
    struct timespec huge = { INT64_MAX, 999999999L };
    CHECK_EQ(kposix_clock_nanosleep(CLOCK_MONOTONIC, 0, &huge, NULL), 0);
    CHECK(fake_sleep_deadline() == UINT64_MAX);
    fake_set_now(1000);
    CHECK_EQ(kposix_nanosleep(&rel, NULL), 0);
    CHECK_EQ(fake_sleep_deadline(), 1000 + 1000000500ULL);
    CHECK_EQ(fake_sleeps(), 4);
}

int main(void)
{
    test_errors();
    test_ioctl_termios();
    test_read_timing();
    test_time();
    return check_exit("posix_ctl");
}
