/* The POSIX subset of the kernel: one terminal device on the UART backend
 * (uart_backend.h), file descriptors, termios output processing and the
 * monotonic clock. Benchmark sections call these functions directly; there
 * is no system-call boundary.
 *
 * Device: "/dev/console", alias "/dev/ttyS0". fds 0, 1, 2 are open on it
 * (O_RDWR, blocking) at boot; open() returns the lowest free fd of
 * POSIX_FD_MAX. O_NONBLOCK belongs to each open file (fcntl F_SETFL,
 * FIONBIO). The termios state belongs to the device, shared by all fds.
 *
 * Output processing: c_oflag OPOST|ONLCR only, both off by default so
 * payload bytes reach the wire unchanged. With both on, '\n' goes out as
 * "\r\n" and write() counts user bytes, never the inserted '\r'. When a
 * non-blocking write is cut between an inserted '\r' and its '\n', the
 * '\r' is remembered as sent and the next write starting with that '\n'
 * sends the '\n' alone: the wire carries each pair exactly once.
 *
 * tcsetattr: c_oflag bits other than OPOST|ONLCR and any c_iflag or c_lflag
 * bit give EINVAL (no input processing, echo or canonical mode exists);
 * c_cflag, the speeds and c_cc other than VMIN and VTIME are ignored (the
 * board fixes the line).
 *
 * Reads are non-canonical. VMIN 1, VTIME 0 (the boot state): a blocking
 * read waits for the first byte. VMIN 0: it waits at most VTIME tenths
 * of a second from the call and returns 0 if none came (VTIME 0: at
 * once). Any other pair gives EINVAL: a read returns what has arrived,
 * never waits for more than one byte. O_NONBLOCK wins over both (EAGAIN).
 * TCSAFLUSH drains output and discards unread input.
 *
 * tcdrain and TCSBRK: a backend timeout (-ETIMEDOUT, the transmitter did
 * not empty in time) becomes EIO, the error POSIX lists for tcdrain, and
 * is counted in posix_io_stats.drain_eio.
 *
 * writev: at most POSIX_IO_IOV_MAX vectors (picolibc's IOV_MAX says 1024:
 * ours is smaller). Consecutive vectors that fit in POSIX_IO_CHUNK bytes
 * go to the backend as one write (with ONLCR: POSIX_IO_CHUNK user bytes,
 * up to twice that after translation).
 *
 * Clocks: CLOCK_MONOTONIC and CLOCK_REALTIME both read clock_now_ns()
 * (time since reset). clock_nanosleep never writes *rem: nothing can
 * interrupt a sleep (no signals), so EINTR never happens. */
#ifndef POSIX_IO_H
#define POSIX_IO_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include "uart_backend.h"

/* Host builds (HOST_TEST) rename our functions to kposix_read etc. so the
 * C library's read/write/open stay in place; the target uses the POSIX
 * names, matching picolibc's declarations. */
#if defined(HOST_TEST) && !defined(POSIX_PREFIX)
#define POSIX_PREFIX 1
#endif
#ifdef POSIX_PREFIX
#define POSIX_NAME(name) kposix_##name
#else
#define POSIX_NAME(name) name
#endif

#define POSIX_FD_MAX      8     /* file descriptors, 0..7 */
#define POSIX_IO_IOV_MAX  16    /* writev: more vectors -> EINVAL */
#define POSIX_IO_CHUNK    256   /* bytes gathered per backend write (stack buffer) */

/* picolibc 1.8's <termios.h> includes a <sys/termios.h> it does not ship. */
#if defined(__has_include)
#if __has_include(<sys/termios.h>)
#define POSIX_IO_SYS_TERMIOS 1
#endif
#if __has_include(<sys/uio.h>)
#define POSIX_IO_SYS_UIO 1
#endif
#endif

#ifdef POSIX_IO_SYS_TERMIOS
#include <termios.h>
#else
typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
typedef unsigned int speed_t;
#ifndef NCCS
#define NCCS 32
#endif
struct termios {
    tcflag_t c_iflag;
    tcflag_t c_oflag;
    tcflag_t c_cflag;
    tcflag_t c_lflag;
    cc_t c_cc[NCCS];
    speed_t c_ispeed;
    speed_t c_ospeed;
};
#endif
/* Linux values where the C library has none. */
#ifndef OPOST
#define OPOST     0x0001
#endif
#ifndef ONLCR
#define ONLCR     0x0004
#endif
#ifndef VTIME
#define VTIME     5
#endif
#ifndef VMIN
#define VMIN      6
#endif
#ifndef TCSANOW
#define TCSANOW   0
#endif
#ifndef TCSADRAIN
#define TCSADRAIN 1
#endif
#ifndef TCSAFLUSH
#define TCSAFLUSH 2
#endif

#ifdef POSIX_IO_SYS_UIO
#include <sys/uio.h>
#else
struct iovec {
    void *iov_base;
    size_t iov_len;
};
#endif

/* picolibc declares these clock names only for some systems. */
#ifndef CLOCK_MONOTONIC
#define CLOCK_MONOTONIC ((clockid_t)4)
#endif
#ifndef TIMER_ABSTIME
#define TIMER_ABSTIME 4
#endif

/* ioctl requests: Linux numbers for the standard ones (no <sys/ioctl.h>
 * in picolibc), 0x55xx for the UART benchmark's own. */
#ifndef TCSBRK
#define TCSBRK   0x5409      /* int arg: != 0 drain like tcdrain, 0 (break) EINVAL */
#endif
#ifndef TIOCOUTQ
#define TIOCOUTQ 0x5411      /* int *out: bytes not yet sent (uart_be_tx_pending) */
#endif
#ifndef FIONREAD
#define FIONREAD 0x541B      /* int *out: bytes ready to read (uart_be_rx_available) */
#endif
#ifndef FIONBIO
#define FIONBIO  0x5421      /* int *arg: != 0 sets O_NONBLOCK on this fd, 0 clears */
#endif
#define UART_IOC_GET_COUNTERS   0x5500  /* struct uart_counters *out */
#define UART_IOC_RESET_COUNTERS 0x5501  /* no arg */
#define UART_IOC_LOOPBACK       0x5502  /* int *arg: 1 on, 0 off */

/* Statistics of the POSIX layer itself. */
struct posix_io_stats {
    uint64_t drain_eio;   /* tcdrain/TCSBRK/tcsetattr drains failed -> EIO */
};

/* Any task: errors set errno and return -1, as POSIX says. */
int POSIX_NAME(open)(const char *path, int flags, ...);
int POSIX_NAME(close)(int fd);
ssize_t POSIX_NAME(read)(int fd, void *buf, size_t n);
ssize_t POSIX_NAME(write)(int fd, const void *buf, size_t n);
ssize_t POSIX_NAME(writev)(int fd, const struct iovec *iov, int iovcnt);
int POSIX_NAME(fcntl)(int fd, int cmd, ...);
int POSIX_NAME(ioctl)(int fd, unsigned long request, ...);
int POSIX_NAME(tcdrain)(int fd);
int POSIX_NAME(tcgetattr)(int fd, struct termios *t);
int POSIX_NAME(tcsetattr)(int fd, int actions, const struct termios *t);
int POSIX_NAME(clock_gettime)(clockid_t clock_id, struct timespec *ts);
int POSIX_NAME(nanosleep)(const struct timespec *req, struct timespec *rem);
/* Any task: returns 0 or the error number; errno is left alone. */
int POSIX_NAME(clock_nanosleep)(clockid_t clock_id, int flags,
                                const struct timespec *req, struct timespec *rem);

/* Boot (before any task uses an fd) or host test: fds 0-2 open on the
 * console, the others closed, termios and statistics back to defaults. */
void posix_io_init(void);
/* Boot task, after posix_io_init (src/io/stdio.c): stdio's output from
 * the boot's polled path to the driver's buffered one. */
void stdio_use_backend(void);
/* Any task: copy of the statistics. */
void posix_io_get_stats(struct posix_io_stats *out);
/* Any task, a test hook (fault injection): after `after` more write or
 * writev calls that reach the device, the next one fails with errno err
 * (err 0: it returns 0, taking nothing), once; after < 0 disarms it.
 * posix_io_init disarms it. */
void posix_io_fault_write(int after, int err);

/* Task (stdio's lines): n bytes with '\n' as "\r\n" whatever the
 * device's termios (the log is read as a terminal's), through the
 * driver, blocking. */
void posix_console_out(const char *s, size_t n);

/* Internal to src/io (posix.c and read_timing.c), not for callers. */
bool posix_read_timing_ok(const struct termios *t);
void posix_read_timing_get(struct termios *t);
void posix_read_timing_set(const struct termios *t);
ssize_t posix_be_read(void *buf, size_t n, bool nonblock);

#endif
