/* libFuzzer target fuzz_posix (fuzz_posix.c): what its files share.
 * fuzz_posix_input.c decodes the input into call arguments,
 * fuzz_posix_model.c is the reference model and its checks,
 * fuzz_posix_io.c and fuzz_posix_ctl.c make the calls, fuzz_posix.c runs
 * one input. */
#ifndef FUZZ_POSIX_H
#define FUZZ_POSIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

extern unsigned op_no;
extern const char *op_name;
extern bool failed;          /* the last call reported an error */

/* ---- input (fuzz_posix_input.c) ----------------------------------------- */

extern const uint8_t *in_p;
extern size_t in_n;

uint8_t take8(void);
uint32_t take32(void);
uint64_t take64(void);
int gen_fd(void);
int gen_flags(void);
size_t gen_len(size_t max, bool *huge);
uint8_t *gen_bytes(size_t n);
struct timespec gen_ts(void);
clockid_t gen_clock(void);

/* ---- reference model (fuzz_posix_model.c) -------------------------------- */

struct model {
    bool open[POSIX_FD_MAX];
    int flags[POSIX_FD_MAX];
    tcflag_t oflag;
    cc_t vmin, vtime;              /* the device's read timing */
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
};
extern struct model m;

/* What an error must leave alone (a cheap copy; checked by compare()). */
struct snap {
    int flags[POSIX_FD_MAX];
    tcflag_t oflag;
    size_t tx_len, rx_left, sleeps;
    uint64_t now;
    int loopback;
};

void model_reset_fake(void);
void model_reset(void);
bool fd_ok(int fd);
void take_snap(struct snap *s);
void check_state(void);
int model_drain(void);
long model_output(const uint8_t *u, size_t n, bool nonblock, int *err);
int model_sleep(clockid_t id, int flags, const struct timespec *req);
void check_result(long r, long want_r, int err, int want_err);

/* ---- the calls (fuzz_posix_io.c, fuzz_posix_ctl.c) ------------------------ */

void do_open(void);
void do_close(void);
void do_read(void);
void do_write(void);
void do_writev(void);
void do_fcntl(void);
void do_ioctl(void);
void do_tcdrain(void);
void do_tcgetattr(void);
void do_tcsetattr(void);
void do_clock_gettime(void);
void do_sleep(bool posix_nanosleep);

#endif
