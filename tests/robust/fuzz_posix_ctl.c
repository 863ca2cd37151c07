/* libFuzzer target fuzz_posix: the control calls, i.e. fcntl, ioctl,
 * tcdrain, tcgetattr, tcsetattr, clock_gettime, clock_nanosleep and
 * nanosleep, each with fuzzer-chosen arguments and checked against the
 * reference model (fuzz_posix.h). */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "fake_backend.h"
#include "fuzz_posix.h"

/* ---- the calls ---------------------------------------------------------------- */

void do_fcntl(void)
{
    int fd = gen_fd();
    uint8_t s = take8();
    static const int cmds[] = { F_GETFL, F_SETFL, F_GETFD, F_SETFD, F_DUPFD };
    int cmd = s < 0xF0 ? cmds[s % 5] : (int)take32();
    int arg = gen_flags();
    long want;
    int werr = 0;
    if (!fd_ok(fd))
        want = -1, werr = EBADF;
    else if (cmd == F_GETFL)
        want = m.flags[fd];
    else if (cmd != F_SETFL || (arg & ~SETFL_FLAGS_OK))
        want = -1, werr = EINVAL;
    else {
        want = 0;
        m.flags[fd] = (m.flags[fd] & O_ACCMODE) | (arg & O_NONBLOCK);
    }
    op_name = "fcntl";
    errno = 0;
    long r = kposix_fcntl(fd, cmd, arg);
    check_result(r, want, errno, werr);
}

void do_ioctl(void)
{
    static const unsigned long reqs[] = { TCSBRK, FIONBIO, FIONREAD, TIOCOUTQ,
        UART_IOC_GET_COUNTERS, UART_IOC_RESET_COUNTERS, UART_IOC_LOOPBACK,
        0, 0x5400, 0x5503, TCSBRK + 1, ULONG_MAX };
    int fd = gen_fd();
    uint8_t s = take8();
    unsigned long req = s < 0xF0 ? reqs[s % 12] : (unsigned long)take64();
    bool null = take8() < 0x20;
    int ival = (int)take32();
    if (take8() < 0xC0)
        ival = (int)(ival & 3) - 1;    /* -1, 0, 1, 2 mostly */
    long want = 0;
    int werr = 0, out_want = 0;
    bool out_check = false;
    int *ip = NULL;
    struct uart_counters *cp = NULL;

    op_name = "ioctl";
    if (req == TCSBRK) {
        if (!fd_ok(fd))
            werr = EBADF;
        else if (ival == 0)
            werr = EINVAL;
        else
            werr = model_drain();
        want = werr ? -1 : 0;
        errno = 0;
        long r = kposix_ioctl(fd, req, ival);
        check_result(r, want, errno, werr);
        return;
    }
    if (req == UART_IOC_RESET_COUNTERS) {
        if (!fd_ok(fd))
            werr = EBADF;
        else {
            m.counter_resets++;
            werr = m.counters_result ? -m.counters_result : 0;
        }
        want = werr ? -1 : 0;
        errno = 0;
        long r = kposix_ioctl(fd, req);
        check_result(r, want, errno, werr);
        return;
    }
    if (req == UART_IOC_GET_COUNTERS) {
        cp = null ? NULL : malloc(sizeof *cp);
        if (cp)
            memset(cp, 0xA5, sizeof *cp);
    } else {
        ip = null ? NULL : malloc(sizeof *ip);
        if (ip)
            *ip = ival;
    }
    void *arg = cp ? (void *)cp : (void *)ip;
    bool ptr_req = req == FIONBIO || req == FIONREAD || req == TIOCOUTQ ||
                   req == UART_IOC_GET_COUNTERS || req == UART_IOC_LOOPBACK;
    if (!fd_ok(fd))
        werr = EBADF;
    else if (!ptr_req)
        werr = ENOTTY;
    else if (!arg)
        werr = EFAULT;
    else if (req == FIONBIO) {
        m.flags[fd] = ival ? m.flags[fd] | O_NONBLOCK : m.flags[fd] & ~O_NONBLOCK;
    } else if (req == FIONREAD) {
        out_check = true;
        out_want = m.rx_len > INT_MAX ? INT_MAX : (int)m.rx_len;
    } else if (req == TIOCOUTQ) {
        out_check = true;
        out_want = m.tx_pending > INT_MAX ? INT_MAX : (int)m.tx_pending;
    } else if (req == UART_IOC_GET_COUNTERS) {
        werr = m.counters_result ? -m.counters_result : 0;
    } else {                            /* LOOPBACK */
        if (ival != 0 && ival != 1)
            werr = EINVAL;
        else
            m.loopback = ival;
    }
    want = werr ? -1 : 0;
    errno = 0;
    long r = kposix_ioctl(fd, req, arg);
    check_result(r, want, errno, werr);
    if (out_check && *ip != out_want)
        FAIL("ioctl %#lx stored %d, model %d", req, *ip, out_want);
    if (req == UART_IOC_GET_COUNTERS && cp && !werr && cp->user_calls != FAKE_COUNTER_MARK)
        FAIL("GET_COUNTERS did not copy the snapshot");
    if (req == UART_IOC_GET_COUNTERS && cp && werr) {
        struct uart_counters pat;
        memset(&pat, 0xA5, sizeof pat);
        if (memcmp(cp, &pat, sizeof pat) != 0)
            FAIL("GET_COUNTERS failed but wrote the output");
    }
    free(ip);
    free(cp);
}

void do_tcdrain(void)
{
    int fd = gen_fd();
    int werr = fd_ok(fd) ? model_drain() : EBADF;
    op_name = "tcdrain";
    errno = 0;
    long r = kposix_tcdrain(fd);
    check_result(r, werr ? -1 : 0, errno, werr);
}

void do_tcgetattr(void)
{
    int fd = gen_fd();
    bool null = take8() < 0x20;
    struct termios *t = null ? NULL : malloc(sizeof *t);
    int werr = !fd_ok(fd) ? EBADF : null ? EFAULT : 0;
    if (t)
        memset(t, 0xA5, sizeof *t);
    op_name = "tcgetattr";
    errno = 0;
    long r = kposix_tcgetattr(fd, t);
    check_result(r, werr ? -1 : 0, errno, werr);
    if (!werr) {
        struct termios z;
        memset(&z, 0, sizeof z);
        z.c_oflag = m.oflag;
        z.c_cc[VMIN] = m.vmin;
        z.c_cc[VTIME] = m.vtime;
        if (memcmp(t, &z, sizeof z) != 0)
            FAIL("tcgetattr: not zero apart from c_oflag %#x, VMIN %u, VTIME %u",
                 (unsigned)m.oflag, (unsigned)m.vmin, (unsigned)m.vtime);
    }
    free(t);
}

void do_tcsetattr(void)
{
    int fd = gen_fd();
    uint8_t s = take8();
    int act = s < 0xE0 ? (int)(s % 4) : (int)take32();
    bool null = take8() < 0x20;
    struct termios *t = null ? NULL : malloc(sizeof *t);
    int werr = 0;
    if (t) {
        memset(t, 0, sizeof *t);
        uint8_t f = take8();
        t->c_oflag = f < 0xC0 ? (tcflag_t)(f & (OPOST | ONLCR)) : (tcflag_t)take32();
        if (f & 0x10)
            t->c_iflag = (tcflag_t)take32();
        if (f & 0x20)
            t->c_lflag = (tcflag_t)take32();
        t->c_cflag = (tcflag_t)take32();   /* ignored by the layer */
        t->c_cc[take8() % NCCS] = take8();
        uint8_t c = take8();               /* mostly a valid VMIN, VTIME pair */
        if (c < 0xC0) {
            t->c_cc[VMIN] = c & 1;
            t->c_cc[VTIME] = c & 1 ? 0 : take8();
        }
    }
    if (!fd_ok(fd))
        werr = EBADF;
    else if (!t)
        werr = EFAULT;
    else if (act != TCSANOW && act != TCSADRAIN && act != TCSAFLUSH)
        werr = EINVAL;
    else if ((t->c_oflag & ~(tcflag_t)(OPOST | ONLCR)) || t->c_iflag || t->c_lflag)
        werr = EINVAL;
    else if (t->c_cc[VMIN] > 1 || (t->c_cc[VMIN] == 1 && t->c_cc[VTIME]))
        werr = EINVAL;
    else {
        if (act != TCSANOW)
            werr = model_drain();
        if (!werr) {
            if (act == TCSAFLUSH)
                m.rx_len = 0;
            m.oflag = t->c_oflag;
            m.vmin = t->c_cc[VMIN];
            m.vtime = t->c_cc[VTIME];
        }
    }
    op_name = "tcsetattr";
    errno = 0;
    long r = kposix_tcsetattr(fd, act, t);
    check_result(r, werr ? -1 : 0, errno, werr);
    free(t);
}

void do_clock_gettime(void)
{
    clockid_t id = gen_clock();
    bool null = take8() < 0x20;
    struct timespec *ts = null ? NULL : malloc(sizeof *ts);
    bool ok_id = id == CLOCK_MONOTONIC || id == CLOCK_REALTIME;
    int werr = !ok_id ? EINVAL : null ? EFAULT : 0;
    op_name = "clock_gettime";
    errno = 0;
    long r = kposix_clock_gettime(id, ts);
    check_result(r, werr ? -1 : 0, errno, werr);
    if (!werr && ((uint64_t)ts->tv_sec != m.now / NS_PER_S ||
                  (uint64_t)ts->tv_nsec != m.now % NS_PER_S))
        FAIL("clock_gettime %lld.%09ld, model now %llu ns", (long long)ts->tv_sec,
             ts->tv_nsec, (unsigned long long)m.now);
    free(ts);
}

void do_sleep(bool posix_nanosleep)
{
    clockid_t id = posix_nanosleep ? CLOCK_MONOTONIC : gen_clock();
    uint8_t s = take8();
    int flags = posix_nanosleep ? 0 : s < 0xC0 ? (s & 1 ? TIMER_ABSTIME : 0) : (int)take32();
    bool null = take8() < 0x20;
    struct timespec *req = null ? NULL : malloc(sizeof *req);
    struct timespec *rem = malloc(sizeof *rem), rem_before;
    if (req)
        *req = gen_ts();
    memset(rem, 0x5A, sizeof *rem);
    rem_before = *rem;
    int werr = model_sleep(id, flags, req);
    if (posix_nanosleep) {
        op_name = "nanosleep";
        errno = 0;
        long r = kposix_nanosleep(req, rem);
        check_result(r, werr ? -1 : 0, errno, werr);
    } else {
        op_name = "clock_nanosleep";
        errno = ERRNO_SENTINEL;
        int r = kposix_clock_nanosleep(id, flags, req, rem);
        failed = r != 0;
        if (r != werr || errno != ERRNO_SENTINEL)
            FAIL("returned %d errno %d, model %d (errno must stay)", r, errno, werr);
    }
    if (memcmp(rem, &rem_before, sizeof *rem) != 0)
        FAIL("*rem written");
    free(req);
    free(rem);
}
