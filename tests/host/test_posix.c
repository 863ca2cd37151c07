/* POSIX layer (src/io) against the mock backend (fake_backend.c): the
 * data paths. fds, per-fd O_NONBLOCK, reads, partial writes, ONLCR with
 * short writes, writev gathering. Errors and control: test_posix_ctl.c. */
#include <string.h>
#include "check.h"
#include "fake_backend.h"
#include "posix_io.h"

#define SEG 64   /* writev segment size */

static char buf[2 * POSIX_IO_CHUNK + 64];
static struct iovec iov_many[POSIX_IO_IOV_MAX];
static const char *const console = "/dev/console";

/* Test: boot state for both sides. */
static void reset(void)
{
    posix_io_init();
    fake_reset();
}

/* Test: termios c_oflag of the device. */
static void set_oflag(tcflag_t oflag)
{
    struct termios t;
    CHECK_EQ(kposix_tcgetattr(1, &t), 0);
    t.c_oflag = oflag;
    CHECK_EQ(kposix_tcsetattr(1, TCSANOW, &t), 0);
}

/* Test: fd table, lowest free fd, aliases, close and reopen. */
static void test_fds(void)
{
    reset();
    CHECK_EQ(kposix_write(1, "hi\n", 3), 3);
    CHECK(fake_tx_is("hi\n"));
    CHECK_EQ(fake_writes(), 1);
    CHECK(!fake_write_nonblock(0));
    CHECK_EQ(kposix_fcntl(2, F_GETFL), O_RDWR);
    CHECK_EQ(kposix_open("/dev/console", O_RDWR | O_NOCTTY), 3);
    CHECK_EQ(kposix_open("/dev/ttyS0", O_WRONLY), 4);
    CHECK_EQ(kposix_close(3), 0);
    CHECK_EQ(kposix_close(3), -1);
    CHECK_EQ(kposix_close(0), 0);
    CHECK_EQ(kposix_open("/dev/console", O_RDONLY), 0);
    CHECK_EQ(kposix_open("/dev/console", O_RDONLY), 3);
    for (int fd = 5; fd < POSIX_FD_MAX; fd++)
        CHECK_EQ(kposix_open("/dev/console", O_RDWR), fd);
    errno = 0;
    CHECK_EQ(kposix_open("/dev/console", O_RDWR), -1);
    CHECK_EQ(errno, EMFILE);
}

/* Test: O_NONBLOCK belongs to each fd (open, F_SETFL, FIONBIO). */
static void test_nonblock(void)
{
    int on = 1, off = 0;
    reset();
    int a = kposix_open(console, O_RDWR);
    int b = kposix_open(console, O_RDWR | O_NONBLOCK);
    CHECK_EQ(kposix_write(a, "a", 1), 1);
    CHECK_EQ(kposix_write(b, "b", 1), 1);
    CHECK(!fake_write_nonblock(0));
    CHECK(fake_write_nonblock(1));
    CHECK_EQ(kposix_fcntl(b, F_GETFL), O_RDWR | O_NONBLOCK);
    CHECK_EQ(kposix_fcntl(a, F_SETFL, kposix_fcntl(a, F_GETFL) | O_NONBLOCK), 0);
    CHECK_EQ(kposix_fcntl(a, F_GETFL), O_RDWR | O_NONBLOCK);
    CHECK_EQ(kposix_ioctl(b, FIONBIO, &off), 0);
    CHECK_EQ(kposix_fcntl(b, F_GETFL), O_RDWR);
    CHECK_EQ(kposix_fcntl(a, F_GETFL), O_RDWR | O_NONBLOCK);
    CHECK_EQ(kposix_fcntl(1, F_GETFL), O_RDWR);
    CHECK_EQ(kposix_ioctl(1, FIONBIO, &on), 0);
    CHECK_EQ(kposix_write(1, "c", 1), 1);
    CHECK(fake_write_nonblock(2));
    CHECK_EQ(kposix_fcntl(0, F_GETFL), O_RDWR);
    fake_set_rx("z", 1);
    CHECK_EQ(kposix_read(a, buf, 1), 1);
    CHECK(fake_read_nonblock());
    fake_set_rx("z", 1);
    CHECK_EQ(kposix_read(b, buf, 1), 1);
    CHECK(!fake_read_nonblock());
}

/* Test: reads, zero-length calls, partial non-blocking writes. */
static void test_read_write(void)
{
    int n = -1;
    reset();
    fake_set_rx("abc", 3);
    CHECK_EQ(kposix_ioctl(0, FIONREAD, &n), 0);
    CHECK_EQ(n, 3);
    CHECK_EQ(kposix_read(0, buf, sizeof buf), 3);
    CHECK(memcmp(buf, "abc", 3) == 0);
    CHECK_EQ(kposix_read(0, NULL, 0), 0);
    CHECK_EQ(kposix_write(1, NULL, 0), 0);
    struct iovec empty[2] = { { NULL, 0 }, { buf, 0 } };
    CHECK_EQ(kposix_writev(1, empty, 2), 0);
    CHECK_EQ(fake_reads(), 1);
    CHECK_EQ(fake_writes(), 0);
    int nb = kposix_open(console, O_WRONLY | O_NONBLOCK);
    fake_set_tx_room(5);
    CHECK_EQ(kposix_write(nb, "0123456789", 10), 5);
    errno = 0;
    CHECK_EQ(kposix_write(nb, "56789", 5), -1);
    CHECK_EQ(errno, EAGAIN);
    CHECK(fake_tx_is("01234"));
}

/* Test: ONLCR on the wire, OPOST required, counts in user bytes. */
static void test_onlcr(void)
{
    struct termios t;
    reset();
    CHECK_EQ(kposix_tcgetattr(1, &t), 0);
    CHECK_EQ(t.c_oflag, 0);
    CHECK_EQ(kposix_write(1, "a\nb", 3), 3);
    set_oflag(ONLCR);                      /* without OPOST: no mapping */
    CHECK_EQ(kposix_write(1, "\n", 1), 1);
    set_oflag(OPOST | ONLCR);
    CHECK_EQ(kposix_write(1, "c\n\r\n", 4), 4);
    CHECK(fake_tx_is("a\nb\nc\r\n\r\r\n"));
    CHECK_EQ(fake_writes(), 3);

    /* Long output: chunks never split a pair, every byte accounted. */
    reset();
    set_oflag(OPOST | ONLCR);
    memset(buf, 'x', sizeof buf);
    buf[POSIX_IO_CHUNK - 1] = '\n';
    CHECK_EQ(kposix_write(1, buf, POSIX_IO_CHUNK + 10), POSIX_IO_CHUNK + 10);
    size_t len;
    const char *tx = fake_tx(&len);
    CHECK_EQ(len, POSIX_IO_CHUNK + 11);
    CHECK(tx[POSIX_IO_CHUNK - 1] == '\r' && tx[POSIX_IO_CHUNK] == '\n');
    CHECK_EQ(fake_writes(), 2);
    CHECK_EQ(fake_write_len(0), POSIX_IO_CHUNK + 1);
}

/* Test: stdio's console lines map NL to CR NL whatever the termios say,
 * in one write per line. */
static void test_console(void)
{
    static const char line[] = "0123456789abcdef\n\n\r\n";  /* > 16 after mapping */
    static const char want[] = "0123456789abcdef\r\n\r\n\r\r\n";
    reset();
    posix_console_out(line, sizeof line - 1);
    CHECK(fake_tx_is(want));
    CHECK_EQ(fake_writes(), 1);
}

/* Test: the kernel's console through a design whose writes come back
 * short (the copier's, near its ring's wrap): the rest of each line is
 * written, every byte once and in order with its CR, each write asking
 * for all that is left of its translated chunk. */
static void test_console_short(void)
{
    static const char line[] = "short writes\n\nget the rest\r\n";
    static const char want[] = "short writes\r\n\r\nget the rest\r\r\n";
    reset();
    fake_set_write_max(5);
    posix_console_out(line, sizeof line - 1);
    CHECK(fake_tx_is(want));
    size_t len = sizeof want - 1, n = (len + 4) / 5;
    CHECK_EQ(fake_writes(), n);
    for (size_t i = 0; i < n; i++)
        CHECK_EQ(fake_write_len(i), len - 5 * i);

    /* A line longer than one translated chunk (2 x POSIX_IO_CHUNK). */
    static char in[3 * POSIX_IO_CHUNK], out[4 * POSIX_IO_CHUNK];
    size_t m = 0;
    for (size_t i = 0; i < sizeof in; i++) {
        in[i] = i % 50 == 49 ? '\n' : (char)('a' + i % 26);
        if (in[i] == '\n')
            out[m++] = '\r';
        out[m++] = in[i];
    }
    reset();
    fake_set_write_max(7);
    posix_console_out(in, sizeof in);
    size_t got;
    const char *tx = fake_tx(&got);
    CHECK_EQ(got, m);
    CHECK(got == m && memcmp(tx, out, m) == 0);
}

/* Test: short writes in ONLCR mode count user bytes and keep each pair. */
static void test_onlcr_partial(void)
{
    static const struct { size_t room; const char *in; long ret; const char *tx; } cases[] = {
        { 1, "a\nb", 1, "a" },
        { 2, "a\nb", 1, "a\r" },      /* '\r' out, '\n' not: not counted */
        { 3, "a\nb", 2, "a\r\n" },
        { 2, "\r\n", 1, "\r\r" },     /* user '\r', then the inserted one */
        { 1, "\n", -1, "\r" },        /* no user byte taken: EAGAIN */
        { 2, "a\nb\n", 1, "a\r" },     /* only the first '\n' skips its '\r' */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        reset();
        set_oflag(OPOST | ONLCR);
        int fd = kposix_open(console, O_WRONLY | O_NONBLOCK);
        fake_set_tx_room(cases[i].room);
        errno = 0;
        long r = kposix_write(fd, cases[i].in, strlen(cases[i].in));
        CHECK_EQ(r, cases[i].ret);
        CHECK_EQ(errno, r < 0 ? EAGAIN : 0);
        CHECK(fake_tx_is(cases[i].tx));
        /* The rest, blocking: the wire must carry the translation once. */
        fake_set_tx_room(SIZE_MAX);
        const char *rest = cases[i].in + (r < 0 ? 0 : r);
        CHECK_EQ(kposix_write(1, rest, strlen(rest)), (long)strlen(rest));
        char want[16] = "";
        for (const char *s = cases[i].in; *s; s++)
            strcat(want, *s == '\n' ? "\r\n" : (char[2]){ *s, 0 });
        if (!fake_tx_is(want))
            fprintf(stderr, "onlcr partial case %zu\n", i);
        CHECK(fake_tx_is(want));
    }
    /* A pending '\r' is forgotten once other bytes went out. */
    reset();
    set_oflag(OPOST | ONLCR);
    int fd = kposix_open(console, O_WRONLY | O_NONBLOCK);
    fake_set_tx_room(2);
    CHECK_EQ(kposix_write(fd, "a\n", 2), 1);
    fake_set_tx_room(SIZE_MAX);
    CHECK_EQ(kposix_write(fd, "x", 1), 1);
    CHECK_EQ(kposix_write(fd, "\n", 1), 1);
    CHECK(fake_tx_is("a\rx\r\n"));
}

/* Test: writev gathers, stops at a short write, maps newlines. */
static void test_writev(void)
{
    struct iovec v[5];
    for (int i = 0; i < 5; i++) {
        memset(buf + i * SEG, 'A' + i, SEG);
        v[i] = (struct iovec){ buf + i * SEG, SEG };
    }
    reset();
    CHECK_EQ(kposix_writev(1, v, 4), 4 * SEG);
    CHECK_EQ(fake_writes(), 1);
    CHECK_EQ(fake_write_len(0), 4 * SEG);
    size_t len;
    const char *tx = fake_tx(&len);
    CHECK(len == 4 * SEG && memcmp(tx, buf, len) == 0);

    reset();
    CHECK_EQ(kposix_writev(1, v, 5), 5 * SEG);
    CHECK_EQ(fake_writes(), 2);
    tx = fake_tx(&len);
    CHECK(len == 5 * SEG && memcmp(tx, buf, len) == 0);

    reset();
    int nb = kposix_open(console, O_WRONLY | O_NONBLOCK);
    fake_set_tx_room(100);
    CHECK_EQ(kposix_writev(nb, v, 4), 100);
    tx = fake_tx(&len);
    CHECK(len == 100 && memcmp(tx, buf, len) == 0);

    reset();
    for (int i = 0; i < POSIX_IO_IOV_MAX; i++)
        iov_many[i] = (struct iovec){ buf, 1 };
    CHECK_EQ(kposix_writev(1, iov_many, POSIX_IO_IOV_MAX), POSIX_IO_IOV_MAX);

    reset();
    set_oflag(OPOST | ONLCR);
    struct iovec lines[3] = { { "a\n", 2 }, { NULL, 0 }, { "b\n", 2 } };
    CHECK_EQ(kposix_writev(1, lines, 3), 4);
    CHECK(fake_tx_is("a\r\nb\r\n"));
    CHECK_EQ(fake_writes(), 1);

    /* 4 x 64 newlines with ONLCR: still one backend write, of 512 B. */
    reset();
    set_oflag(OPOST | ONLCR);
    memset(buf, '\n', 4 * SEG);
    CHECK_EQ(kposix_writev(1, v, 4), 4 * SEG);
    CHECK_EQ(fake_writes(), 1);
    CHECK_EQ(fake_write_len(0), 8 * SEG);
    tx = fake_tx(&len);
    CHECK(len == 8 * SEG && tx[0] == '\r' && tx[1] == '\n' && tx[len - 1] == '\n');
}

/* Test: each write, writev and stdio line is one writer turn, every
 * backend write inside it (ONLCR's state is the turn's); a non-blocking
 * write that finds the turn taken by another writer fails with EAGAIN
 * and writes nothing. */
static void test_turn(void)
{
    reset();
    set_oflag(OPOST | ONLCR);
    memset(buf, '\n', sizeof buf);
    CHECK_EQ(kposix_write(1, buf, POSIX_IO_CHUNK + 10), POSIX_IO_CHUNK + 10);
    CHECK(fake_writes() > 1);              /* chunks, all in one turn */
    CHECK_EQ(fake_turns(), 1);
    set_oflag(0);
    struct iovec v[3] = { { buf, 4 }, { buf, POSIX_IO_CHUNK }, { buf, 4 } };
    CHECK_EQ(kposix_writev(1, v, 3), POSIX_IO_CHUNK + 8);
    CHECK_EQ(fake_turns(), 2);
    posix_console_out(buf, POSIX_IO_CHUNK + 3);
    CHECK_EQ(fake_turns(), 3);
    CHECK_EQ(fake_unturned_writes(), 0);
    CHECK(!fake_turn_held());

    reset();
    int fd = kposix_open(console, O_WRONLY | O_NONBLOCK);
    fake_set_turn_busy(true);
    errno = 0;
    CHECK_EQ(kposix_write(fd, "a", 1), -1);
    CHECK_EQ(errno, EAGAIN);
    CHECK_EQ(fake_writes(), 0);
    CHECK_EQ(kposix_write(1, "b", 1), 1);  /* blocking: waits its turn */
    CHECK(fake_tx_is("b") && !fake_turn_held());
}

int main(void)
{
    test_fds();
    test_nonblock();
    test_read_write();
    test_onlcr();
    test_onlcr_partial();
    test_console();
    test_console_short();
    test_writev();
    test_turn();
    return check_exit("posix");
}
