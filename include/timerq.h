/* Tickless timer queue: a list of entries ordered by absolute deadline
 * (nanoseconds), entries with equal deadlines in insertion order. The
 * queue does no hardware access; the kernel embeds struct timerq_entry in
 * its own objects (container_of) and keeps the timer compare register at
 * timerq_next_deadline().
 *
 * Locking: every call that takes a struct timerq is made with interrupts
 * masked (or from the timer interrupt handler itself), so the queue is
 * never seen half-updated. Insertion and cancellation walk the list:
 * O(number of armed entries). */
#ifndef TIMERQ_H
#define TIMERQ_H

#include <stdbool.h>
#include <stdint.h>

struct timerq_entry {
    uint64_t deadline;         /* absolute time, ns */
    struct timerq_entry *next; /* next later entry while armed */
    bool armed;                /* true while linked in a queue */
};

struct timerq {
    struct timerq_entry *head; /* earliest entry, NULL when empty */
};

/* Empties the queue. */
void timerq_init(struct timerq *q);

/* Marks an entry unarmed before first use (a zero-initialised entry is
 * already unarmed). */
void timerq_entry_init(struct timerq_entry *e);

/* Arms e at deadline, after any entries with the same deadline. An armed
 * e (in this queue) is first removed, so this also re-arms. Returns true
 * if e is now the earliest entry: the caller reprograms the hardware. */
bool timerq_insert(struct timerq *q, struct timerq_entry *e,
                   uint64_t deadline);

/* Disarms e. Returns true if it was armed in q; cancelling an unarmed
 * entry is a harmless no-op returning false. The hardware may still fire
 * for a cancelled head; timerq_pop_expired then finds nothing. */
bool timerq_cancel(struct timerq *q, struct timerq_entry *e);

/* Removes and disarms the earliest entry if its deadline is <= now and
 * returns it; NULL if nothing has expired. */
struct timerq_entry *timerq_pop_expired(struct timerq *q, uint64_t now);

/* Earliest deadline, or UINT64_MAX when the queue is empty.
 * A NULL queue or entry is refused everywhere: insert and cancel return
 * false, pop_expired NULL, next_deadline UINT64_MAX; nothing changes. */
uint64_t timerq_next_deadline(const struct timerq *q);

#endif
