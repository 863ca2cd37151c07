/* libFuzzer target: the POSIX layer (src/io/posix*.c) against the mock
 * backend, clock and timer (tests/host/fake_backend.c).
 *
 * Each input is a sequence of calls with fuzzer-chosen arguments (fds in
 * and out of range, open flags, NULL pointers, lengths up to SIZE_MAX,
 * iovec arrays, fcntl commands, ioctl requests and arguments, termios
 * fields, clock ids, timespecs) interleaved with changes to the mock's
 * scripted results (TX room, a write error, drain and counter results,
 * RX bytes, the time).
 *
 * Invariants after every call:
 *  - an error is -1 with errno set (clock_nanosleep: the error number
 *    returned, errno untouched) and changes nothing: fd table, termios,
 *    bytes on the wire, input, sleeps, time, loopback. The one documented
 *    exception: a non-blocking ONLCR write cut right after an inserted
 *    '\r' sends that '\r' and fails with EAGAIN (posix_io.h);
 *  - results, errno values and effects equal a reference model written
 *    from posix_io.h (fd table, c_oflag, the "\r sent" state, the mock's
 *    state): e.g. open returns the lowest free fd, a write's bytes on the
 *    wire are the ONLCR translation of its user bytes, cut where the
 *    mock's room ends, and it returns the user bytes fully sent;
 *  - every buffer passed is malloc'ed with exactly the size the call may
 *    touch, so AddressSanitizer reports any access outside it.
 * A mismatch prints the call and aborts. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_backend.h"
#include "posix_io.h"

#define FAKE_RX_MAX     256     /* fake_backend.c: FAKE_RX */
#define TX_RESET_AT     1024    /* reset the mock before its 8 KiB TX log fills */
#define MAX_LEN         600     /* write(): more than two ONLCR chunks */
#define MAX_IOV_LEN     200     /* writev: 16 x 200 x 2 stays within the TX log */
#define NS_PER_S        1000000000LL
#define OPEN_FLAGS_OK   (O_ACCMODE | O_NONBLOCK | O_NOCTTY)
#define SETFL_FLAGS_OK  (O_ACCMODE | O_NONBLOCK)
#define ERRNO_SENTINEL  12345

#define FAIL(...) do { fprintf(stderr, "fuzz_posix: op %u (%s): ", op_no, op_name); \
                       fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

static unsigned op_no;
static const char *op_name = "";
static bool failed;          /* the last call reported an error */

/* ---- input ------------------------------------------------------------ */

static const uint8_t *in_p;
static size_t in_n;

static uint8_t take8(void)
{
    if (!in_n)
        return 0;
    in_n--;
    return *in_p++;
}

static uint32_t take32(void)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | take8();
    return v;
}

static uint64_t take64(void)
{
    uint64_t hi = take32();
    return hi << 32 | take32();
}

/* ---- reference model ---------------------------------------------------- */

static struct {
    bool open[POSIX_FD_MAX];
    int flags[POSIX_FD_MAX];
    tcflag_t oflag;
    bool cr_sent;
    uint64_t drain_eio;
    /* the mock */
    size_t tx_room;
    int write_err, drain_result, counters_result;
    size_t tx_pending;
    uint8_t rx[FAKE_RX_MAX];
    size_t rx_len;
    uint64_t now, sleep_deadline;
    size_t sleeps, drains, counter_resets;
    int loopback;
    uint8_t tx[8192];
    size_t tx_len;
} m;

static void model_reset_fake(void)
{
    fake_reset();
    m.tx_room = SIZE_MAX;
    m.write_err = m.drain_result = m.counters_result = 0;
    m.tx_pending = 0;
    m.rx_len = 0;
    m.now = m.sleep_deadline = 0;
    m.sleeps = m.drains = m.counter_resets = 0;
    m.loopback = -1;
    m.tx_len = 0;
}

static void model_reset(void)
{
    posix_io_init();
    model_reset_fake();
    for (int fd = 0; fd < POSIX_FD_MAX; fd++) {
        m.open[fd] = fd < 3;
        m.flags[fd] = O_RDWR;
    }
    m.oflag = 0;
    m.cr_sent = false;
    m.drain_eio = 0;
}

static bool fd_ok(int fd) { return fd >= 0 && fd < POSIX_FD_MAX && m.open[fd]; }

/* What an error must leave alone (a cheap copy; checked by compare()). */
struct snap {
    int flags[POSIX_FD_MAX];
    tcflag_t oflag;
    size_t tx_len, rx_left, sleeps;
    uint64_t now;
    int loopback;
};

static void take_snap(struct snap *s)
{
    memset(s, 0, sizeof *s);
    for (int fd = 0; fd < POSIX_FD_MAX; fd++) {
        int saved = errno;
        s->flags[fd] = kposix_fcntl(fd, F_GETFL);
        errno = saved;
    }
    for (int fd = 0; fd < POSIX_FD_MAX; fd++) {
        struct termios t;
        if (s->flags[fd] >= 0 && kposix_tcgetattr(fd, &t) == 0) {
            s->oflag = t.c_oflag;
            break;
        }
    }
    fake_tx(&s->tx_len);
    s->rx_left = fake_rx_left();
    s->sleeps = fake_sleeps();
    s->now = fake_now();
    s->loopback = fake_loopback();
}

/* The layer's and the mock's state equal the model. */
static void check_state(void)
{
    for (int fd = 0; fd < POSIX_FD_MAX; fd++) {
        errno = 0;
        int fl = kposix_fcntl(fd, F_GETFL);
        int want = m.open[fd] ? m.flags[fd] : -1;
        if (fl != want || (!m.open[fd] && errno != EBADF))
            FAIL("fd %d: F_GETFL %d errno %d, model %d", fd, fl, errno, want);
    }
    for (int fd = 0; fd < POSIX_FD_MAX; fd++) {
        if (!m.open[fd])
            continue;
        struct termios t;
        if (kposix_tcgetattr(fd, &t) != 0 || t.c_oflag != m.oflag)
            FAIL("c_oflag %#x, model %#x", (unsigned)t.c_oflag, (unsigned)m.oflag);
        break;
    }
    size_t len;
    const char *tx = fake_tx(&len);
    if (len != m.tx_len || memcmp(tx, m.tx, len) != 0)
        FAIL("wire has %zu bytes, model %zu (or they differ)", len, m.tx_len);
    if (fake_rx_left() != m.rx_len || fake_sleeps() != m.sleeps ||
        fake_now() != m.now || fake_drains() != m.drains ||
        fake_counter_resets() != m.counter_resets || fake_loopback() != m.loopback)
        FAIL("mock state: rx %zu/%zu sleeps %zu/%zu now %llu/%llu drains %zu/%zu "
             "resets %zu/%zu loopback %d/%d", fake_rx_left(), m.rx_len,
             fake_sleeps(), m.sleeps, (unsigned long long)fake_now(),
             (unsigned long long)m.now, fake_drains(), m.drains,
             fake_counter_resets(), m.counter_resets, fake_loopback(), m.loopback);
    if (m.sleeps && fake_sleep_deadline() != m.sleep_deadline)
        FAIL("sleep deadline %llu, model %llu",
             (unsigned long long)fake_sleep_deadline(), (unsigned long long)m.sleep_deadline);
    struct posix_io_stats st;
    posix_io_get_stats(&st);
    if (st.drain_eio != m.drain_eio)
        FAIL("drain_eio %llu, model %llu", (unsigned long long)st.drain_eio,
             (unsigned long long)m.drain_eio);
}

/* Model of a backend drain (tcdrain, TCSBRK, tcsetattr): 0 or EIO. */
static int model_drain(void)
{
    m.drains++;
    if (m.drain_result < 0) {
        m.drain_eio++;
        return EIO;
    }
    return 0;
}

/* Model of the output path for user bytes u[0..n): returns the call's
 * result (user bytes or -1) and sets *err. The mock takes every byte of a
 * blocking write and at most tx_room bytes of non-blocking ones; the
 * scripted error fails the first backend write; the layer stops at the
 * first short write. */
static long model_output(const uint8_t *u, size_t n, bool nonblock, int *err)
{
    static uint8_t t[2 * 16 * MAX_IOV_LEN + 2 * MAX_LEN];
    static bool ins[sizeof t];     /* t[i] is an inserted '\r' */
    static size_t end_of[16 * MAX_IOV_LEN + MAX_LEN];   /* user byte -> end in t */
    size_t tl = 0;
    bool onlcr = (m.oflag & (OPOST | ONLCR)) == (OPOST | ONLCR);

    for (size_t i = 0; i < n; i++) {
        if (onlcr && u[i] == '\n' && !(i == 0 && m.cr_sent)) {
            ins[tl] = true;
            t[tl++] = '\r';
        }
        ins[tl] = false;
        t[tl++] = u[i];
        end_of[i] = tl;
    }
    if (m.write_err) {
        *err = m.write_err;
        m.write_err = 0;
        return -1;
    }
    size_t a = nonblock && m.tx_room < tl ? m.tx_room : tl;
    if (a == 0) {
        *err = EAGAIN;
        return -1;
    }
    if (nonblock && m.tx_room != SIZE_MAX)
        m.tx_room -= a;
    memcpy(m.tx + m.tx_len, t, a);
    m.tx_len += a;
    size_t user = 0;
    while (user < n && end_of[user] <= a)
        user++;
    if (onlcr)
        m.cr_sent = a < tl && ins[a - 1];
    if (user == 0) {
        *err = EAGAIN;               /* only an inserted '\r' went out */
        return -1;
    }
    return (long)user;
}

/* ---- argument generators -------------------------------------------------- */

static int gen_fd(void)
{
    uint8_t s = take8();
    if (s < 0xC0)
        return s % POSIX_FD_MAX;
    static const int odd[] = { -1, POSIX_FD_MAX, 77, INT_MAX, INT_MIN, -POSIX_FD_MAX };
    return odd[s % (sizeof odd / sizeof odd[0])];
}

static int gen_flags(void)
{
    uint8_t s = take8();
    static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR, O_ACCMODE };
    if (s < 0xA0)
        return acc[s & 3] | (s & 4 ? O_NONBLOCK : 0) | (s & 8 ? O_NOCTTY : 0);
    if (s < 0xE0) {
        static const int bad[] = { O_CREAT, O_APPEND, O_TRUNC, O_EXCL, O_SYNC, O_CLOEXEC };
        return acc[s & 3] | bad[(s >> 2) % 6];
    }
    return (int)take32();
}

/* A length: mostly small, sometimes just over a chunk, sometimes huge
 * (*huge set: only with a NULL buffer, never dereferenced then). */
static size_t gen_len(size_t max, bool *huge)
{
    uint8_t s = take8();
    *huge = false;
    if (s < 0x40)
        return s & 0x0F;
    if (s < 0xC0)
        return (size_t)take8() % (max + 1);
    if (s < 0xE0)
        return max;
    *huge = true;
    static const size_t big[] = { SIZE_MAX, (size_t)PTRDIFF_MAX, (size_t)PTRDIFF_MAX + 1 };
    return big[s % 3];
}

/* A buffer of exactly n fuzzer bytes ('\n' frequent), n >= 1 allocated. */
static uint8_t *gen_bytes(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p)
        abort();
    for (size_t i = 0; i < n; i++) {
        uint8_t b = take8();
        p[i] = b < 0x40 ? '\n' : b < 0x50 ? '\r' : b;
    }
    return p;
}

static struct timespec gen_ts(void)
{
    static const long long secs[] = { 0, 1, -1, 3, LLONG_MAX, 18446744073LL, 9223372036LL };
    static const long nsecs[] = { 0, 1, 999999999L, 1000000000L, -1, 500000000L, LONG_MAX };
    struct timespec ts;
    uint8_t s = take8();
    ts.tv_sec = s & 0x80 ? (time_t)take64() : (time_t)secs[s % 7];
    ts.tv_nsec = s & 0x40 ? (long)take64() : nsecs[(s >> 3) % 7];
    return ts;
}

static clockid_t gen_clock(void)
{
    uint8_t s = take8();
    static const clockid_t ids[] = { CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_PROCESS_CPUTIME_ID,
                                     (clockid_t)-1, (clockid_t)99 };
    return s < 0xF0 ? ids[s % 5] : (clockid_t)take32();
}

/* ---- the calls ---------------------------------------------------------------- */

static void check_result(long r, long want_r, int err, int want_err)
{
    failed = r == -1;
    if (failed && err == 0)
        FAIL("returned -1 without setting errno");
    if (r != want_r || (want_r == -1 && err != want_err))
        FAIL("returned %ld errno %d, model %ld errno %d", r, err, want_r, want_err);
}

static void do_open(void)
{
    static const char *const paths[] = { "/dev/console", "/dev/ttyS0", "/dev/null",
                                         "/dev/console/", "/dev/consol", "", "/dev/ttyS0x" };
    uint8_t s = take8();
    char *path = NULL;
    if (s >= 0x20 && s < 0xE0) {
        path = strdup(paths[s % 7]);
    } else if (s >= 0xE0) {           /* fuzzer string, NUL-terminated */
        size_t n = take8() % 16;
        uint8_t *b = gen_bytes(n);
        path = malloc(n + 1);
        memcpy(path, b, n);
        path[n] = 0;
        free(b);
    }
    int flags = gen_flags();
    int want = -1, werr = 0;
    if (!path)
        werr = EFAULT;
    else if ((flags & ~OPEN_FLAGS_OK) || (flags & O_ACCMODE) == O_ACCMODE)
        werr = EINVAL;
    else if (strcmp(path, "/dev/console") && strcmp(path, "/dev/ttyS0"))
        werr = ENOENT;
    else {
        for (int fd = 0; fd < POSIX_FD_MAX && want < 0; fd++)
            if (!m.open[fd])
                want = fd;
        if (want < 0)
            werr = EMFILE;
        else {
            m.open[want] = true;
            m.flags[want] = flags & (O_ACCMODE | O_NONBLOCK);
        }
    }
    op_name = "open";
    errno = 0;
    int r = kposix_open(path, flags);
    check_result(r, want, errno, werr);
    free(path);
}

static void do_close(void)
{
    int fd = gen_fd();
    int want = fd_ok(fd) ? 0 : -1;
    if (want == 0)
        m.open[fd] = false;
    op_name = "close";
    errno = 0;
    int r = kposix_close(fd);
    check_result(r, want, errno, EBADF);
}

static void do_read(void)
{
    int fd = gen_fd();
    bool huge;
    size_t n = gen_len(FAKE_RX_MAX + 8, &huge);
    bool null = huge || take8() < 0x20;
    uint8_t *buf = null ? NULL : malloc(n ? n : 1);
    long want;
    int werr = 0;
    size_t k = 0;
    if (!fd_ok(fd) || (m.flags[fd] & O_ACCMODE) == O_WRONLY)
        want = -1, werr = EBADF;
    else if (n == 0)
        want = 0;
    else if (!buf)
        want = -1, werr = EFAULT;
    else if (m.rx_len == 0)
        want = -1, werr = m.flags[fd] & O_NONBLOCK ? EAGAIN : EDEADLK;
    else
        want = (long)(k = n < m.rx_len ? n : m.rx_len);
    op_name = "read";
    errno = 0;
    long r = kposix_read(fd, buf, n);
    check_result(r, want, errno, werr);
    if (k && memcmp(buf, m.rx, k) != 0)
        FAIL("read bytes differ from the input");
    memmove(m.rx, m.rx + k, m.rx_len - k);
    m.rx_len -= k;
    free(buf);
}

static void do_write(void)
{
    int fd = gen_fd();
    bool huge;
    size_t n = gen_len(MAX_LEN, &huge);
    bool null = huge || take8() < 0x10;
    uint8_t *buf = null ? NULL : gen_bytes(n);
    long want;
    int werr = 0;
    if (!fd_ok(fd) || (m.flags[fd] & O_ACCMODE) == O_RDONLY)
        want = -1, werr = EBADF;
    else if (n == 0)
        want = 0;
    else if (!buf)
        want = -1, werr = EFAULT;
    else
        want = model_output(buf, n, m.flags[fd] & O_NONBLOCK, &werr);
    op_name = "write";
    errno = 0;
    long r = kposix_write(fd, buf, n);
    check_result(r, want, errno, werr);
    free(buf);
}

static void do_writev(void)
{
    int fd = gen_fd();
    uint8_t s = take8();
    int cnt = s < 0xE0 ? s % (POSIX_IO_IOV_MAX + 2) : (int)take32();
    bool null_iov = take8() < 0x08;
    int alloc = cnt > 0 && cnt <= POSIX_IO_IOV_MAX ? cnt : 1;
    struct iovec *iov = null_iov ? NULL : calloc((size_t)alloc, sizeof *iov);
    uint8_t *user = malloc(16 * MAX_IOV_LEN + 1);
    size_t total = 0;
    bool any_huge = false, overflow = false, null_base = false, call = true;
    long want;
    int werr = 0;

    for (int i = 0; iov && i < alloc; i++) {
        bool huge;
        size_t len = gen_len(MAX_IOV_LEN, &huge);
        bool nb = take8() < 0x10;
        iov[i].iov_len = len;
        iov[i].iov_base = nb ? NULL : huge ? malloc(1) : gen_bytes(len);
        any_huge |= huge;
    }
    /* The layer's checks, in its order: vector by vector. */
    if (!fd_ok(fd) || (m.flags[fd] & O_ACCMODE) == O_RDONLY)
        want = -1, werr = EBADF;
    else if (cnt <= 0 || cnt > POSIX_IO_IOV_MAX)
        want = -1, werr = EINVAL;
    else if (!iov)
        want = -1, werr = EFAULT;
    else {
        want = 0;
        for (int i = 0; i < cnt; i++) {
            if (iov[i].iov_len && !iov[i].iov_base) {
                null_base = true;
                want = -1, werr = EFAULT;
                break;
            }
            if (iov[i].iov_len > (size_t)PTRDIFF_MAX - total) {
                overflow = true;
                want = -1, werr = EINVAL;
                break;
            }
            total += iov[i].iov_len;
        }
        if (!null_base && !overflow && any_huge)
            call = false;    /* would read a huge vector: the caller's bug */
        else if (want == 0 && total) {
            size_t at = 0;
            for (int i = 0; i < cnt; i++) {
                if (iov[i].iov_len)
                    memcpy(user + at, iov[i].iov_base, iov[i].iov_len);
                at += iov[i].iov_len;
            }
            want = model_output(user, total, m.flags[fd] & O_NONBLOCK, &werr);
        }
    }
    op_name = "writev";
    failed = false;
    if (call) {
        errno = 0;
        long r = kposix_writev(fd, iov, cnt);
        check_result(r, want, errno, werr);
    }
    for (int i = 0; iov && i < alloc; i++)
        free(iov[i].iov_base);
    free(iov);
    free(user);
}

static void do_fcntl(void)
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

static void do_ioctl(void)
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

static void do_tcdrain(void)
{
    int fd = gen_fd();
    int werr = fd_ok(fd) ? model_drain() : EBADF;
    op_name = "tcdrain";
    errno = 0;
    long r = kposix_tcdrain(fd);
    check_result(r, werr ? -1 : 0, errno, werr);
}

static void do_tcgetattr(void)
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
        if (memcmp(t, &z, sizeof z) != 0)
            FAIL("tcgetattr: not zero apart from c_oflag %#x", (unsigned)m.oflag);
    }
    free(t);
}

static void do_tcsetattr(void)
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
    }
    if (!fd_ok(fd))
        werr = EBADF;
    else if (!t)
        werr = EFAULT;
    else if (act != TCSANOW && act != TCSADRAIN && act != TCSAFLUSH)
        werr = EINVAL;
    else if ((t->c_oflag & ~(tcflag_t)(OPOST | ONLCR)) || t->c_iflag || t->c_lflag)
        werr = EINVAL;
    else {
        if (act != TCSANOW)
            werr = model_drain();
        if (!werr) {
            if (act == TCSAFLUSH)
                m.rx_len = 0;
            m.oflag = t->c_oflag;
        }
    }
    op_name = "tcsetattr";
    errno = 0;
    long r = kposix_tcsetattr(fd, act, t);
    check_result(r, werr ? -1 : 0, errno, werr);
    free(t);
}

static void do_clock_gettime(void)
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

/* Model of clock_nanosleep: 0 or the error number. */
static int model_sleep(clockid_t id, int flags, const struct timespec *req)
{
    if ((id != CLOCK_MONOTONIC && id != CLOCK_REALTIME) || (flags & ~TIMER_ABSTIME))
        return EINVAL;
    if (!req)
        return EFAULT;
    if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec >= NS_PER_S)
        return EINVAL;
    uint64_t s = (uint64_t)req->tv_sec, ns = (uint64_t)req->tv_nsec, t, deadline;
    t = s > (UINT64_MAX - ns) / NS_PER_S ? UINT64_MAX : s * NS_PER_S + ns;
    if (flags & TIMER_ABSTIME)
        deadline = t;
    else
        deadline = t > UINT64_MAX - m.now ? UINT64_MAX : m.now + t;
    if (deadline > m.now) {
        m.sleeps++;
        m.sleep_deadline = deadline;
        m.now = deadline;
    }
    return 0;
}

static void do_sleep(bool posix_nanosleep)
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

/* Scripted results of the mock (not a call of the layer). */
static void do_script(void)
{
    uint8_t s = take8();
    op_name = "script";
    failed = false;
    switch (s % 8) {
    case 0: {
        uint8_t r = take8();
        m.tx_room = r == 0xFF ? SIZE_MAX : r % 0x80;
        fake_set_tx_room(m.tx_room);
        break;
    }
    case 1: {
        static const int errs[] = { EIO, EAGAIN, ENOSPC, EINTR };
        m.write_err = errs[take8() % 4];
        fake_set_write_error(m.write_err);
        break;
    }
    case 2:
        m.drain_result = take8() & 1 ? -ETIMEDOUT : 0;
        fake_set_drain_result(m.drain_result);
        break;
    case 3:
        m.counters_result = take8() & 1 ? -ENOTTY : 0;
        fake_set_counters_result(m.counters_result);
        break;
    case 4: {
        uint8_t k = take8();
        m.tx_pending = k == 0xFF ? SIZE_MAX : k == 0xFE ? (size_t)INT_MAX + 1 : k;
        fake_set_tx_pending(m.tx_pending);
        break;
    }
    case 5: {
        size_t n = take8() % (FAKE_RX_MAX + 1);
        uint8_t *b = gen_bytes(n);
        memcpy(m.rx, b, n);
        m.rx_len = n;
        fake_set_rx((const char *)b, n);
        free(b);
        break;
    }
    case 6: {
        uint8_t k = take8();
        m.now = k < 0x80 ? k * 1000000ULL : k < 0xF0 ? take64() : UINT64_MAX - (k & 0xF);
        fake_set_now(m.now);
        break;
    }
    default:
        model_reset_fake();
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in_p = data;
    in_n = size;
    op_no = 0;
    model_reset();
    /* A head start into the deeper states: ONLCR on, fds 0-2 non-blocking
     * and a small TX room, each if the first byte says so. */
    uint8_t setup = take8();
    if (setup & 1) {
        struct termios t = { .c_oflag = OPOST | ONLCR };
        if (kposix_tcsetattr(1, TCSANOW, &t) != 0)
            FAIL("setup: tcsetattr ONLCR failed");
        m.oflag = t.c_oflag;
    }
    if (setup & 2)
        for (int fd = 0; fd < 3; fd++) {
            if (kposix_fcntl(fd, F_SETFL, O_NONBLOCK) != 0)
                FAIL("setup: F_SETFL O_NONBLOCK failed");
            m.flags[fd] |= O_NONBLOCK;
        }
    if ((setup >> 2) != 0x3F) {
        m.tx_room = setup >> 2;
        fake_set_tx_room(m.tx_room);
    }
    check_state();
    while (in_n) {
        struct snap before, after;
        uint8_t op = take8();
        op_no++;
        if (m.tx_len > TX_RESET_AT)
            model_reset_fake();
        take_snap(&before);
        size_t tx_before = m.tx_len;
        switch (op % 14) {
        case 0: do_open(); break;
        case 1: do_close(); break;
        case 2: do_read(); break;
        case 3: do_write(); break;
        case 4: do_writev(); break;
        case 5: do_fcntl(); break;
        case 6: do_ioctl(); break;
        case 7: do_tcdrain(); break;
        case 8: do_tcgetattr(); break;
        case 9: do_tcsetattr(); break;
        case 10: do_clock_gettime(); break;
        case 11: do_sleep(false); break;
        case 12: do_sleep(true); break;
        default: do_script(); continue;
        }
        int err = errno;
        check_state();
        if (!failed)
            continue;
        /* An error changes nothing (independent of the model). The one
         * exception: a cut ONLCR write sent an inserted '\r' (EAGAIN). */
        take_snap(&after);
        if (after.tx_len == before.tx_len + 1 && err == EAGAIN && m.cr_sent &&
            m.tx_len == tx_before + 1 && m.tx[tx_before] == '\r')
            after.tx_len = before.tx_len;
        if (memcmp(&before, &after, sizeof before) != 0)
            FAIL("failed with errno %d but changed the state", err);
    }
    return 0;
}
