/* Output processing: ONLCR, '\n' out as "\r\n", the one place it is done.
 * write and writev use it when the device's termios asks for it
 * (OPOST|ONLCR); stdio's lines always, since the log is read as a
 * terminal's (the kernel's polled console sink does its own). */
#include <stdbool.h>
#include "posix_io.h"

/* An inserted '\r' went out without its '\n' (a write was cut between);
 * the device's state, read and changed by the writer turn's holder. */
static bool cr_sent;
static tcflag_t oflag;            /* the device's termios c_oflag, 0 at boot */

/* Boot or host test (posix_files_init): no '\r' pending. */
void posix_onlcr_reset(void)
{
    cr_sent = false;
}

/* Any task (tcgetattr): the device's output flags. */
tcflag_t posix_oflag(void)
{
    return oflag;
}

/* Any task (tcsetattr, posix_io_init): set them; the caller checked the
 * flags (OPOST and ONLCR only). */
void posix_oflag_set(tcflag_t f)
{
    oflag = f;
}

/* Any task (write path): is '\n' -> "\r\n" on? (ONLCR needs OPOST.) */
bool posix_tty_onlcr(void)
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
ssize_t posix_be_put(const void *p, size_t n, bool nonblock)
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
ssize_t posix_out_onlcr(const struct iovec *iov, int cnt, bool nonblock)
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
        ssize_t r = posix_be_put(buf, len, nonblock);
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
