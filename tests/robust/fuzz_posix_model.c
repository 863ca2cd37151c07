/* libFuzzer target fuzz_posix: the reference model written from
 * posix_io.h (fd table, c_oflag, the "\r sent" state, the mock's state),
 * the snapshot an error must leave alone, and the checks of the layer and
 * the mock against the model (fuzz_posix.h). */
#include <errno.h>
#include <string.h>

#include "fake_backend.h"
#include "fuzz_posix.h"

/* ---- reference model ---------------------------------------------------- */

struct model m;

void model_reset_fake(void)
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

void model_reset(void)
{
    posix_io_init();
    model_reset_fake();
    for (int fd = 0; fd < POSIX_FD_MAX; fd++) {
        m.open[fd] = fd < 3;
        m.flags[fd] = O_RDWR;
    }
    m.oflag = 0;
    m.vmin = 1;
    m.vtime = 0;
    m.cr_sent = false;
    m.drain_eio = 0;
}

bool fd_ok(int fd) { return fd >= 0 && fd < POSIX_FD_MAX && m.open[fd]; }

void take_snap(struct snap *s)
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
void check_state(void)
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
int model_drain(void)
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
long model_output(const uint8_t *u, size_t n, bool nonblock, int *err)
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

/* Model of clock_nanosleep: 0 or the error number. */
int model_sleep(clockid_t id, int flags, const struct timespec *req)
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

/* ---- call results -------------------------------------------------------------- */

void check_result(long r, long want_r, int err, int want_err)
{
    failed = r == -1;
    if (failed && err == 0)
        FAIL("returned -1 without setting errno");
    if (r != want_r || (want_r == -1 && err != want_err))
        FAIL("returned %ld errno %d, model %ld errno %d", r, err, want_r, want_err);
}
