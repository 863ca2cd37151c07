/* libFuzzer target fuzz_posix: the data path calls, i.e. open, close,
 * read, write and writev, each with fuzzer-chosen arguments and checked
 * against the reference model (fuzz_posix.h). */
#include <errno.h>
#include <string.h>

#include "fake_backend.h"
#include "fuzz_posix.h"

/* ---- the calls ---------------------------------------------------------------- */

void do_open(void)
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

void do_close(void)
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

void do_read(void)
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
    else if (m.rx_len == 0 && !(m.flags[fd] & O_NONBLOCK) && !m.vmin)
        want = 0;                          /* VTIME passed with none */
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
    bool timed = want >= 0 && n && !(m.flags[fd] & O_NONBLOCK) && !m.vmin;
    if (timed && fake_read_deadline() != fake_now() + m.vtime * 100000000ULL)
        FAIL("read: deadline %llu, want now %llu + VTIME %u tenths",
             (unsigned long long)fake_read_deadline(), (unsigned long long)fake_now(),
             (unsigned)m.vtime);
    memmove(m.rx, m.rx + k, m.rx_len - k);
    m.rx_len -= k;
    free(buf);
}

void do_write(void)
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

void do_writev(void)
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
