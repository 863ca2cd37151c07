/* Mock UART backend, clock and timer for the POSIX layer's host test:
 * records every call (bytes, non-blocking flag, drains) and returns
 * scripted results. fake_backend.h declares the control functions. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "clock.h"
#include "fake_backend.h"
#include "uart_backend.h"
#include "waitq.h"

#define FAKE_CALLS  64      /* write calls recorded */
#define FAKE_BYTES  8192    /* accepted bytes recorded */
#define FAKE_RX     256     /* bytes waiting to be read */

static struct {
    size_t calls;                       /* every uart_be_* call */
    size_t writes;
    size_t write_len[FAKE_CALLS];
    bool write_nb[FAKE_CALLS];
    char tx[FAKE_BYTES];
    size_t tx_len;
    size_t tx_room;                     /* non-blocking: bytes still accepted */
    size_t write_max;                   /* any write: at most this many */
    int write_err;                      /* next write returns -write_err */
    char rx[FAKE_RX];
    size_t rx_len, reads;
    bool read_nb;
    uint64_t read_deadline;       /* of the last timed read; 0: the last was untimed */
    int drain_result, counters_result;
    size_t drains, counter_resets;
    int loopback;
    size_t tx_pending;
    uint64_t now, sleep_deadline;
    size_t sleeps;
    bool turn_held, turn_busy;          /* the writer turn: ours; another's */
    size_t turns, unturned;             /* turns taken; held writes without one */
} fk;

/* Test: forget everything, unlimited TX room, all calls succeed. */
void fake_reset(void)
{
    memset(&fk, 0, sizeof fk);
    fk.tx_room = SIZE_MAX;
    fk.write_max = SIZE_MAX;
    fk.loopback = -1;
}

/* Test: scripted results and state. */
void fake_set_tx_room(size_t room) { fk.tx_room = room; }
void fake_set_write_max(size_t max) { fk.write_max = max; }
void fake_set_write_error(int err) { fk.write_err = err; }
void fake_set_drain_result(int r) { fk.drain_result = r; }
void fake_set_counters_result(int r) { fk.counters_result = r; }
void fake_set_tx_pending(size_t n) { fk.tx_pending = n; }
void fake_set_now(uint64_t ns) { fk.now = ns; }

/* Test: n received bytes waiting to be read. */
void fake_set_rx(const char *data, size_t n)
{
    memcpy(fk.rx, data, n);
    fk.rx_len = n;
}

/* Test: what was recorded. */
size_t fake_calls(void) { return fk.calls; }
size_t fake_writes(void) { return fk.writes; }
size_t fake_write_len(size_t i) { return i < fk.writes ? fk.write_len[i] : 0; }
bool fake_write_nonblock(size_t i) { return i < fk.writes && fk.write_nb[i]; }
const char *fake_tx(size_t *len) { *len = fk.tx_len; return fk.tx; }
bool fake_tx_is(const char *s) { return fk.tx_len == strlen(s) && !memcmp(fk.tx, s, fk.tx_len); }
size_t fake_rx_left(void) { return fk.rx_len; }
size_t fake_reads(void) { return fk.reads; }
bool fake_read_nonblock(void) { return fk.read_nb; }
uint64_t fake_read_deadline(void) { return fk.read_deadline; }
size_t fake_drains(void) { return fk.drains; }
size_t fake_counter_resets(void) { return fk.counter_resets; }
int fake_loopback(void) { return fk.loopback; }
size_t fake_sleeps(void) { return fk.sleeps; }
uint64_t fake_sleep_deadline(void) { return fk.sleep_deadline; }
uint64_t fake_now(void) { return fk.now; }

/* Test: another writer holds the turn (a non-blocking take fails; a
 * blocking one, which would wait, is counted as taken). */
void fake_set_turn_busy(bool busy) { fk.turn_busy = busy; }
size_t fake_turns(void) { return fk.turns; }
size_t fake_unturned_writes(void) { return fk.unturned; }
bool fake_turn_held(void) { return fk.turn_held; }

/* Backend: the writer turn, taken and given back (not counted as calls). */
int uart_be_turn_take(bool nonblock)
{
    if (fk.turn_busy && nonblock)
        return -EAGAIN;
    if (fk.turn_held)
        fk.unturned++;                  /* taken twice: no turn is recursive */
    fk.turn_held = true;
    fk.turns++;
    return 0;
}

void uart_be_turn_give(void)
{
    if (!fk.turn_held)
        fk.unturned++;
    fk.turn_held = false;
}

/* Backend, the turn held: blocking writes take everything (the real one
 * waits for ring space); non-blocking ones take what tx_room allows,
 * -EAGAIN for none; either at most write_max. */
ssize_t uart_be_write_held(const void *buf, size_t n, bool nonblock)
{
    size_t k = n < fk.write_max ? n : fk.write_max;
    fk.calls++;
    fk.unturned += !fk.turn_held;
    if (fk.writes < FAKE_CALLS) {
        fk.write_len[fk.writes] = n;
        fk.write_nb[fk.writes] = nonblock;
    }
    fk.writes++;
    if (fk.write_err) {
        int e = fk.write_err;
        fk.write_err = 0;
        return -e;
    }
    if (nonblock) {
        k = k < fk.tx_room ? k : fk.tx_room;
        if (k == 0)
            return -EAGAIN;
        if (fk.tx_room != SIZE_MAX)
            fk.tx_room -= k;
    }
    if (k > FAKE_BYTES - fk.tx_len)
        return -ENOSPC;   /* the test wrote more than it can check */
    memcpy(fk.tx + fk.tx_len, buf, k);
    fk.tx_len += k;
    return (ssize_t)k;
}

/* uart_be_read, uart_be_read_until: up to n scripted RX bytes. */
static ssize_t rx_take(void *buf, size_t n)
{
    size_t k = n < fk.rx_len ? n : fk.rx_len;
    memcpy(buf, fk.rx, k);
    memmove(fk.rx, fk.rx + k, fk.rx_len - k);
    fk.rx_len -= k;
    return (ssize_t)k;
}

/* Backend: the scripted RX bytes; an empty RX would block: -EDEADLK. */
ssize_t uart_be_read(void *buf, size_t n, bool nonblock)
{
    fk.calls++;
    fk.reads++;
    fk.read_nb = nonblock;
    fk.read_deadline = 0;
    if (fk.rx_len == 0)
        return nonblock ? -EAGAIN : -EDEADLK;
    return rx_take(buf, n);
}

/* Backend: the same, timed: an empty RX is its deadline passed, 0. */
ssize_t uart_be_read_until(void *buf, size_t n, uint64_t deadline_ns)
{
    fk.calls++;
    fk.reads++;
    fk.read_nb = false;
    fk.read_deadline = deadline_ns;
    return rx_take(buf, n);
}

/* Backend: drain counts the call and returns the scripted result. */
int uart_be_drain(void)
{
    fk.calls++;
    fk.drains++;
    return fk.drain_result;
}

/* Backend: bytes waiting to be read, and the scripted TX backlog. */
size_t uart_be_rx_available(void) { fk.calls++; return fk.rx_len; }
size_t uart_be_tx_pending(void) { fk.calls++; return fk.tx_pending; }

/* Backend: snapshot with a recognisable mark, or the scripted error. */
int uart_be_counters(struct uart_counters *out)
{
    fk.calls++;
    if (fk.counters_result)
        return fk.counters_result;
    memset(out, 0, sizeof *out);
    out->user_calls = FAKE_COUNTER_MARK;
    return 0;
}

/* Backend: reset counts the call; the scripted result (0 or -ENOTTY). */
int uart_be_counters_reset(void)
{
    fk.calls++;
    fk.counter_resets++;
    return fk.counters_result;
}

/* Backend: remember the loopback setting (-1 until first set). */
int uart_be_set_loopback(bool on)
{
    fk.calls++;
    fk.loopback = on;
    return 0;
}

/* Clock: the scripted time. */
uint64_t clock_now_ns(void) { return fk.now; }

/* Timer: record the deadline and let the time reach it. */
void sleep_until(uint64_t deadline_ns)
{
    fk.sleeps++;
    fk.sleep_deadline = deadline_ns;
    if (deadline_ns > fk.now)
        fk.now = deadline_ns;
}
