/* Control of the mock UART backend, clock and timer (fake_backend.c) used
 * by the POSIX layer's host tests: scripted results in, recorded calls out. */
#ifndef FAKE_BACKEND_H
#define FAKE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAKE_COUNTER_MARK 42   /* user_calls of a successful counter snapshot */

/* Forget everything: unlimited TX room, every call succeeds, time 0. */
void fake_reset(void);

/* Scripted results. tx_room: bytes non-blocking writes still take before
 * -EAGAIN (SIZE_MAX: no limit; blocking writes take everything). */
void fake_set_tx_room(size_t room);
/* Every write, blocking or not, takes at most max bytes (SIZE_MAX: no
 * limit), as a design that returns short (the copier near its ring's
 * wrap). */
void fake_set_write_max(size_t max);
void fake_set_write_error(int err);      /* the next write returns -err */
void fake_set_drain_result(int r);
void fake_set_counters_result(int r);    /* get and reset */
void fake_set_tx_pending(size_t n);
void fake_set_now(uint64_t ns);
void fake_set_rx(const char *data, size_t n);
void fake_set_turn_busy(bool busy);      /* another writer holds the turn */

/* Recorded calls. */
size_t fake_calls(void);                 /* every uart_be_* call */
size_t fake_writes(void);
size_t fake_write_len(size_t i);         /* bytes requested by write i */
bool fake_write_nonblock(size_t i);
const char *fake_tx(size_t *len);        /* every byte accepted so far */
bool fake_tx_is(const char *s);          /* accepted bytes are exactly s */
size_t fake_rx_left(void);
size_t fake_reads(void);
bool fake_read_nonblock(void);           /* flag of the last read */
uint64_t fake_read_deadline(void);       /* of the last read if timed, else 0 */
size_t fake_drains(void);
size_t fake_counter_resets(void);
int fake_loopback(void);                 /* -1 until set, then 0 or 1 */
size_t fake_sleeps(void);
uint64_t fake_sleep_deadline(void);      /* of the last sleep_until */
uint64_t fake_now(void);
size_t fake_turns(void);                 /* writer turns taken */
size_t fake_unturned_writes(void);       /* held writes without the turn, or a turn misused */
bool fake_turn_held(void);

#endif
