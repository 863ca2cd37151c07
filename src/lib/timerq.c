/* Deadline-ordered singly linked timer queue; see timerq.h. */
#include <stddef.h>

#include "timerq.h"

/* Kernel init or any caller with interrupts masked: empties the queue. */
void timerq_init(struct timerq *q)
{
    q->head = NULL;
}

/* Owner of the embedding object, before the entry is first armed. */
void timerq_entry_init(struct timerq_entry *e)
{
    e->deadline = 0;
    e->next = NULL;
    e->armed = false;
}

/* timerq_insert/timerq_cancel (interrupts masked): unlinks e from q if it
 * is there. Returns true if it was found. */
static bool unlink_entry(struct timerq *q, struct timerq_entry *e)
{
    struct timerq_entry **link;

    for (link = &q->head; *link != NULL; link = &(*link)->next) {
        if (*link == e) {
            *link = e->next;
            e->next = NULL;
            e->armed = false;
            return true;
        }
    }
    return false;
}

/* Task or ISR, interrupts masked: (re)arms e, FIFO among equal deadlines. */
bool timerq_insert(struct timerq *q, struct timerq_entry *e,
                   uint64_t deadline)
{
    struct timerq_entry **link;

    if (q == NULL || e == NULL)
        return false;
    link = &q->head;
    if (e->armed)
        unlink_entry(q, e);
    while (*link != NULL && (*link)->deadline <= deadline)
        link = &(*link)->next;
    e->deadline = deadline;
    e->next = *link;
    e->armed = true;
    *link = e;
    return q->head == e;
}

/* Task or ISR, interrupts masked: disarms e if it is armed in q. */
bool timerq_cancel(struct timerq *q, struct timerq_entry *e)
{
    if (q == NULL || e == NULL || !e->armed)
        return false;
    return unlink_entry(q, e);
}

/* Timer ISR (or a task with interrupts masked): takes one expired entry;
 * call repeatedly until it returns NULL, then reprogram the hardware. */
struct timerq_entry *timerq_pop_expired(struct timerq *q, uint64_t now)
{
    struct timerq_entry *e = q != NULL ? q->head : NULL;

    if (e == NULL || e->deadline > now)
        return NULL;
    q->head = e->next;
    e->next = NULL;
    e->armed = false;
    return e;
}

/* Task or ISR, interrupts masked: deadline for the compare register. */
uint64_t timerq_next_deadline(const struct timerq *q)
{
    return q != NULL && q->head != NULL ? q->head->deadline : UINT64_MAX;
}
