/* The UART terminal's file interface: file descriptors (open, close,
 * read, write, writev, fcntl), output processing (ONLCR: '\n' out as
 * "\r\n", the one place it is done), tcdrain, and the layer's state, init
 * and statistics. The termios state belongs to the device, shared by every
 * fd; termios and ioctl are posix_ctl.c's, on what posix_priv.h exports;
 * read timing (VMIN, VTIME) is read_timing.c's; posix_io.h has the
 * semantics. */
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include "posix_io.h"
#include "posix_priv.h"

#define OPEN_FLAGS_OK  (O_ACCMODE | O_NONBLOCK | O_NOCTTY)
/* F_SETFL ignores the access mode bits, as POSIX says (F_GETFL returns them). */
#define SETFL_FLAGS_OK (O_ACCMODE | O_NONBLOCK)
#define STDIO_FDS      3                       /* 0, 1, 2 pre-opened */
#define IO_SSIZE_MAX   ((size_t)PTRDIFF_MAX)   /* largest count a call returns */

_Static_assert(sizeof(ssize_t) == sizeof(ptrdiff_t), "ssize_t width");

/* One open file: access mode | O_NONBLOCK, valid while open. */
struct posix_file {
    bool open;
    int flags;
};

static struct posix_file files[POSIX_FD_MAX] = {
    { true, O_RDWR }, { true, O_RDWR }, { true, O_RDWR },
};

static const char *const dev_names[] = { "/dev/console", "/dev/ttyS0" };

static struct posix_io_stats stats;

/* An inserted '\r' went out without its '\n' (a write was cut between);
 * the device's state, read and changed by the writer turn's holder. */
static bool cr_sent;
static tcflag_t oflag;            /* the device's termios c_oflag, 0 at boot */

static int posix_fault_after = -1;   /* write calls left before the injected failure */
static int fault_err;

/* Any task (here and posix_ctl.c): set errno, return -1. */
int posix_fail(int err)
{
    errno = err;
    return -1;
}

/* ---- file descriptors ---------------------------------------------------- */

/* Any task: the open file behind fd, NULL if fd is not open. */
static struct posix_file *file_get(int fd)
{
    if (fd < 0 || fd >= POSIX_FD_MAX || !files[fd].open)
        return NULL;
    return &files[fd];
}

/* Any task: the open file behind fd unless it is open only for the
 * other direction (denied: O_WRONLY for reads, O_RDONLY for writes). */
static struct posix_file *file_for(int fd, int denied)
{
    struct posix_file *f = file_get(fd);
    return f && (f->flags & O_ACCMODE) != denied ? f : NULL;
}

/* Any task (tcdrain; termios and ioctl, posix_ctl.c): is fd open? */
bool posix_fd_valid(int fd)
{
    return file_get(fd) != NULL;
}

/* Any task (test hook): arm or (after < 0) disarm the write fault. */
void posix_io_fault_write(int after, int err)
{
    posix_fault_after = after;
    fault_err = err;
}

/* out, any task (write, writev, after their argument checks, when
 * armed): whether this call is the one the fault fails; *err its errno
 * (0: no progress). */
static bool fault_write_due(int *err)
{
    if (posix_fault_after-- > 0)
        return false;
    *err = fault_err;
    return true;
}

/* Any task: open the console (path "/dev/console" or "/dev/ttyS0"). */
int POSIX_NAME(open)(const char *path, int flags, ...)
{
    bool known = false;
    if (!path)
        return posix_fail(EFAULT);
    if ((flags & ~OPEN_FLAGS_OK) || (flags & O_ACCMODE) == O_ACCMODE)
        return posix_fail(EINVAL);
    for (size_t i = 0; i < sizeof dev_names / sizeof dev_names[0]; i++)
        known |= strcmp(path, dev_names[i]) == 0;
    if (!known)
        return posix_fail(ENOENT);
    for (int fd = 0; fd < POSIX_FD_MAX; fd++) {
        if (!files[fd].open) {
            files[fd] = (struct posix_file){ true, flags & (O_ACCMODE | O_NONBLOCK) };
            return fd;
        }
    }
    return posix_fail(EMFILE);
}

/* Any task: release fd (the device stays as it is). */
int POSIX_NAME(close)(int fd)
{
    struct posix_file *f = file_get(fd);
    if (!f)
        return posix_fail(EBADF);
    f->open = false;
    return 0;
}

/* read, write (any task): the open fd for this direction (the access
 * mode it must not have is denied) and a buffer for n > 0 bytes; NULL
 * with *r the call's result otherwise (0 for n == 0, or -1 and errno). */
static struct posix_file *io_file(int fd, int denied, const void *buf, size_t n, ssize_t *r)
{
    struct posix_file *f = file_for(fd, denied);
    *r = !f ? posix_fail(EBADF) : n == 0 ? 0 : !buf ? posix_fail(EFAULT) : 1;
    return *r == 1 ? f : NULL;
}

/* Any task: received bytes; blocking fds wait for at least one (or, with
 * VMIN 0, until VTIME passes). */
ssize_t POSIX_NAME(read)(int fd, void *buf, size_t n)
{
    ssize_t r;
    struct posix_file *f = io_file(fd, O_WRONLY, buf, n, &r);
    if (!f)
        return r;
    r = posix_be_read(buf, n < IO_SSIZE_MAX ? n : IO_SSIZE_MAX, f->flags & O_NONBLOCK);
    return r < 0 ? posix_fail((int)-r) : r;
}

/* Any task: F_GETFL, F_SETFL (O_NONBLOCK of this fd). */
int POSIX_NAME(fcntl)(int fd, int cmd, ...)
{
    struct posix_file *f = file_get(fd);
    if (!f)
        return posix_fail(EBADF);
    if (cmd == F_GETFL)
        return f->flags;
    if (cmd != F_SETFL)
        return posix_fail(EINVAL);
    va_list ap;
    va_start(ap, cmd);
    int fl = va_arg(ap, int);
    va_end(ap);
    if (fl & ~SETFL_FLAGS_OK)
        return posix_fail(EINVAL);
    f->flags = (f->flags & O_ACCMODE) | (fl & O_NONBLOCK);
    return 0;
}

/* Any task (ioctl FIONBIO, posix_ctl.c): set or clear O_NONBLOCK of an
 * open fd. */
void posix_fd_set_nonblock(int fd, bool on)
{
    struct posix_file *f = file_get(fd);
    if (f)
        f->flags = on ? f->flags | O_NONBLOCK : f->flags & ~O_NONBLOCK;
}

/* ---- output: ONLCR, write, writev -------------------------------------- */

/* Any task (write path): is '\n' -> "\r\n" on? (ONLCR needs OPOST.) */
static bool onlcr_on(void)
{
    return (oflag & (OPOST | ONLCR)) == (OPOST | ONLCR);
}

/* Any context: translate user bytes src[0..n) into dst (room for cap
 * bytes), '\n' as "\r\n" but the first when *skip_cr (its '\r' went out
 * already); stops when dst cannot take the next byte's translation.
 * Returns the bytes put in dst; *taken the user bytes they hold. */
static size_t onlcr_fill(const char *src, size_t n, char *dst, size_t cap, bool *skip_cr,
                         size_t *taken)
{
    size_t len = 0, k = 0;
    for (; k < n && len + 2 <= cap; k++) {
        if (src[k] == '\n' && !*skip_cr)
            dst[len++] = '\r';
        *skip_cr = false;
        dst[len++] = src[k];
    }
    *taken = k;
    return len;
}

/* Any task (write path): user bytes a short write of acc of the len
 * translated bytes in buf consumed. An inserted '\r' is the one right
 * before a '\n'; if acc ends between the two, the '\r' is marked sent. */
static size_t onlcr_consumed(const char *buf, size_t len, size_t acc)
{
    size_t user = 0;
    for (size_t p = 0; p < acc; p++, user++) {
        if (buf[p] == '\r' && p + 1 < len && buf[p + 1] == '\n') {
            if (p + 1 == acc) {
                cr_sent = true;
                break;
            }
            p++;
        }
    }
    return user;
}

/* Any task (write path), the writer turn held: one backend write; a taken
 * byte ends any pending "\r sent" state. Bytes accepted or -errno. */
static ssize_t be_put(const void *p, size_t n, bool nonblock)
{
    ssize_t r = uart_be_write_held(p, n, nonblock);
    if (r > 0)
        cr_sent = false;
    return r;
}

/* Any task (write path), the writer turn held: ONLCR output,
 * POSIX_IO_CHUNK user bytes at a time translated into a stack buffer with
 * room for "\r\n" for each, so a gathered chunk is one backend write
 * whatever its newlines; stops at the first short write. User bytes or
 * -errno. */
static ssize_t out_onlcr(const struct iovec *iov, int cnt, bool nonblock)
{
    char buf[2 * POSIX_IO_CHUNK];
    bool skip_cr = cr_sent;
    size_t done = 0, off = 0;
    int i = 0;
    while (i < cnt) {
        size_t len = 0, taken = 0, k;
        while (i < cnt && taken < POSIX_IO_CHUNK) {
            if (off == iov[i].iov_len) {
                i++, off = 0;
                continue;
            }
            size_t want = iov[i].iov_len - off;
            if (want > POSIX_IO_CHUNK - taken)
                want = POSIX_IO_CHUNK - taken;
            len += onlcr_fill((const char *)iov[i].iov_base + off, want, buf + len,
                              sizeof buf - len, &skip_cr, &k);
            off += k, taken += k;
        }
        if (len == 0)
            break;
        ssize_t r = be_put(buf, len, nonblock);
        if (r < 0)
            return done ? (ssize_t)done : r;
        if ((size_t)r < len) {
            done += onlcr_consumed(buf, len, (size_t)r);
            /* At most an inserted '\r' went out: no user byte, EAGAIN. */
            return done ? (ssize_t)done : -EAGAIN;
        }
        done += taken;
    }
    return (ssize_t)done;
}

/* Any task (writev), the writer turn held: raw output. Runs of two or
 * more vectors that fit in one chunk are gathered into one backend write;
 * a lone vector goes straight from the caller's memory. Stops at the first
 * short write. Out of line: inlined, its registers were saved on every
 * write (+17 instructions per 64-byte write in S41). */
static __attribute__((noinline)) ssize_t out_raw(const struct iovec *iov, int cnt, bool nonblock)
{
    char buf[POSIX_IO_CHUNK];
    size_t done = 0;
    int i = 0;
    while (i < cnt) {
        const void *p = iov[i].iov_base;
        size_t len = 0;
        int j = i;
        while (j < cnt && len + iov[j].iov_len <= sizeof buf)
            len += iov[j++].iov_len;
        if (j - i > 1) {
            for (size_t at = 0; i < j; at += iov[i++].iov_len)
                if (iov[i].iov_len)
                    memcpy(buf + at, iov[i].iov_base, iov[i].iov_len);
            p = buf;
        } else {
            len = iov[i++].iov_len;
        }
        if (len == 0)
            continue;
        ssize_t r = be_put(p, len, nonblock);
        if (r < 0)
            return done ? (ssize_t)done : r;
        done += (size_t)r;
        if ((size_t)r < len)
            break;
    }
    return (ssize_t)done;
}

/* Any task (write, writev): checked vectors of total > 0 bytes out (one
 * raw vector straight to the backend), in one writer turn: the call's
 * chunks go out together, and ONLCR's state is the turn's. */
static ssize_t out(const struct posix_file *f, const struct iovec *iov, int cnt)
{
    bool nonblock = f->flags & O_NONBLOCK;
    int err;
    if (posix_fault_after >= 0 && fault_write_due(&err))
        return err ? posix_fail(err) : 0;
    if (uart_be_turn_take(nonblock))
        return posix_fail(EAGAIN);
    ssize_t r = onlcr_on() ? out_onlcr(iov, cnt, nonblock)
                : cnt == 1        ? be_put(iov->iov_base, iov->iov_len, nonblock)
                                  : out_raw(iov, cnt, nonblock);
    uart_be_turn_give();
    return r < 0 ? posix_fail((int)-r) : r;
}

/* Any task: queue bytes for the UART (blocking fds: all of them). */
ssize_t POSIX_NAME(write)(int fd, const void *buf, size_t n)
{
    ssize_t r;
    struct posix_file *f = io_file(fd, O_RDONLY, buf, n, &r);
    if (!f)
        return r;
    struct iovec v = { (void *)buf, n < IO_SSIZE_MAX ? n : IO_SSIZE_MAX };
    return out(f, &v, 1);
}

/* Any task: gather-write iovcnt vectors. */
ssize_t POSIX_NAME(writev)(int fd, const struct iovec *iov, int iovcnt)
{
    struct posix_file *f = file_for(fd, O_RDONLY);
    size_t total = 0;
    if (!f)
        return posix_fail(EBADF);
    if (iovcnt <= 0 || iovcnt > POSIX_IO_IOV_MAX)
        return posix_fail(EINVAL);
    if (!iov)
        return posix_fail(EFAULT);
    for (int i = 0; i < iovcnt; i++) {
        if (iov[i].iov_len && !iov[i].iov_base)
            return posix_fail(EFAULT);
        if (iov[i].iov_len > IO_SSIZE_MAX - total)
            return posix_fail(EINVAL);
        total += iov[i].iov_len;
    }
    return total ? out(f, iov, iovcnt) : 0;
}

/* Task (stdio's lines): n bytes with ONLCR through the driver's blocking
 * write in one writer turn, a line in one write where the design takes it
 * whole (one that returns short, as the copier's near its ring's wrap,
 * gets the rest). */
void posix_console_out(const char *s, size_t n)
{
    char buf[2 * POSIX_IO_CHUNK];
    bool skip_cr = false;
    uart_be_turn_take(false);
    while (n) {
        size_t k, len = onlcr_fill(s, n, buf, sizeof buf, &skip_cr, &k);
        for (size_t off = 0; off < len;) {
            ssize_t r = uart_be_write_held(buf + off, len - off, false);
            if (r <= 0)
                break;                   /* nothing to wait for: the line is lost */
            off += (size_t)r;
        }
        s += k, n -= k;
    }
    uart_be_turn_give();
}

/* ---- the layer's state, tcdrain (termios and ioctl: posix_ctl.c) ------- */

/* Boot (kernel init) or host test: back to the boot state: fds 0-2 open,
 * the others closed, no '\r' pending, termios and statistics at their
 * defaults, the write fault disarmed. */
void posix_io_init(void)
{
    posix_fault_after = -1;
    for (int fd = 0; fd < POSIX_FD_MAX; fd++)
        files[fd] = (struct posix_file){ fd < STDIO_FDS, O_RDWR };
    cr_sent = false;
    oflag = 0;
    posix_read_timing_set(NULL);
    memset(&stats, 0, sizeof stats);
}

/* Any task: copy of the statistics. */
void posix_io_get_stats(struct posix_io_stats *out)
{
    *out = stats;
}

/* Any task (tcdrain; TCSBRK and tcsetattr, posix_ctl.c): wait until the
 * wire is idle; 0 or -EIO (backend timeout, counted). */
int posix_tty_drain(void)
{
    if (uart_be_drain() < 0) {
        __atomic_fetch_add(&stats.drain_eio, 1, __ATOMIC_RELAXED);   /* drainers on any hart */
        return -EIO;
    }
    return 0;
}

/* Any task: wait until every byte written has left the wire. */
int POSIX_NAME(tcdrain)(int fd)
{
    if (!posix_fd_valid(fd))
        return posix_fail(EBADF);
    int r = posix_tty_drain();
    return r < 0 ? posix_fail(-r) : 0;
}

/* Any task (tcgetattr, posix_ctl.c): the device's c_oflag. */
tcflag_t posix_oflag(void)
{
    return oflag;
}

/* Any task (tcsetattr, posix_ctl.c, after its drain): the device's
 * c_oflag from now on. */
void posix_oflag_set(tcflag_t f)
{
    oflag = f;
}
