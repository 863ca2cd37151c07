/* File descriptors on the UART terminal: open, close, read, write, writev,
 * fcntl. Output processing (ONLCR) is onlcr.c's, termios and ioctl
 * posix_tty.c's; posix_io.h has the semantics. */
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include "posix_io.h"

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


/* Any task: set errno, return -1. */
static int fail(int err)
{
    errno = err;
    return -1;
}

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

/* Any task (posix_tty.c): is fd open? */
bool posix_fd_valid(int fd)
{
    return file_get(fd) != NULL;
}

static int posix_fault_after = -1;   /* write calls left before the injected failure */
static int fault_err;

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

/* Boot or host test (posix_io_init): the boot state of the fd table, the
 * write fault disarmed. */
void posix_files_init(void)
{
    posix_fault_after = -1;
    posix_onlcr_reset();
    for (int fd = 0; fd < POSIX_FD_MAX; fd++)
        files[fd] = (struct posix_file){ fd < STDIO_FDS, O_RDWR };
}

/* Any task: open the console (path "/dev/console" or "/dev/ttyS0"). */
int POSIX_NAME(open)(const char *path, int flags, ...)
{
    bool known = false;
    if (!path)
        return fail(EFAULT);
    if ((flags & ~OPEN_FLAGS_OK) || (flags & O_ACCMODE) == O_ACCMODE)
        return fail(EINVAL);
    for (size_t i = 0; i < sizeof dev_names / sizeof dev_names[0]; i++)
        known |= strcmp(path, dev_names[i]) == 0;
    if (!known)
        return fail(ENOENT);
    for (int fd = 0; fd < POSIX_FD_MAX; fd++) {
        if (!files[fd].open) {
            files[fd] = (struct posix_file){ true, flags & (O_ACCMODE | O_NONBLOCK) };
            return fd;
        }
    }
    return fail(EMFILE);
}

/* Any task: release fd (the device stays as it is). */
int POSIX_NAME(close)(int fd)
{
    struct posix_file *f = file_get(fd);
    if (!f)
        return fail(EBADF);
    f->open = false;
    return 0;
}

/* read, write (any task): the open fd for this direction (the access
 * mode it must not have is denied) and a buffer for n > 0 bytes; NULL
 * with *r the call's result otherwise (0 for n == 0, or -1 and errno). */
static struct posix_file *io_file(int fd, int denied, const void *buf, size_t n, ssize_t *r)
{
    struct posix_file *f = file_for(fd, denied);
    *r = !f ? fail(EBADF) : n == 0 ? 0 : !buf ? fail(EFAULT) : 1;
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
    return r < 0 ? fail((int)-r) : r;
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
        ssize_t r = posix_be_put(p, len, nonblock);
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
        return err ? fail(err) : 0;
    if (uart_be_turn_take(nonblock))
        return fail(EAGAIN);
    ssize_t r = posix_tty_onlcr() ? posix_out_onlcr(iov, cnt, nonblock)
                : cnt == 1        ? posix_be_put(iov->iov_base, iov->iov_len, nonblock)
                                  : out_raw(iov, cnt, nonblock);
    uart_be_turn_give();
    return r < 0 ? fail((int)-r) : r;
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
        return fail(EBADF);
    if (iovcnt <= 0 || iovcnt > POSIX_IO_IOV_MAX)
        return fail(EINVAL);
    if (!iov)
        return fail(EFAULT);
    for (int i = 0; i < iovcnt; i++) {
        if (iov[i].iov_len && !iov[i].iov_base)
            return fail(EFAULT);
        if (iov[i].iov_len > IO_SSIZE_MAX - total)
            return fail(EINVAL);
        total += iov[i].iov_len;
    }
    return total ? out(f, iov, iovcnt) : 0;
}

/* Any task: F_GETFL, F_SETFL (O_NONBLOCK of this fd). */
int POSIX_NAME(fcntl)(int fd, int cmd, ...)
{
    struct posix_file *f = file_get(fd);
    if (!f)
        return fail(EBADF);
    if (cmd == F_GETFL)
        return f->flags;
    if (cmd != F_SETFL)
        return fail(EINVAL);
    va_list ap;
    va_start(ap, cmd);
    int fl = va_arg(ap, int);
    va_end(ap);
    if (fl & ~SETFL_FLAGS_OK)
        return fail(EINVAL);
    f->flags = (f->flags & O_ACCMODE) | (fl & O_NONBLOCK);
    return 0;
}

/* Any task (ioctl FIONBIO): set or clear O_NONBLOCK of an open fd. */
void posix_fd_set_nonblock(int fd, bool on)
{
    struct posix_file *f = file_get(fd);
    if (f)
        f->flags = on ? f->flags | O_NONBLOCK : f->flags & ~O_NONBLOCK;
}
