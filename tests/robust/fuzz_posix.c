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
#include <string.h>

#include "fake_backend.h"
#include "fuzz_posix.h"

unsigned op_no;
const char *op_name = "";
bool failed;          /* the last call reported an error */

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
        struct termios t = { .c_oflag = OPOST | ONLCR, .c_cc[VMIN] = 1 };
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
