/* Tickless timer: a queue of (absolute deadline, waker) per hart; each
 * hart's compare register always holds its queue's earliest deadline,
 * and nothing interrupts while the queue is empty. A timer fires on the
 * hart that armed it (its waker may name a task of any hart) and stays
 * that hart's while armed. Times are
 * nanoseconds of clock_now_ns(). */
#ifndef TIMER_H
#define TIMER_H

#include <stdbool.h>
#include <stdint.h>
#include "csr.h"
#include "scheduler.h"
#if WIRE_BAUD && !defined(HOST_TEST)
#include "cpu_acct.h"
/* clock_free.S: timer_pending_hook's charged call (time.c). */
extern const char timer_pending_entry[];
#endif

/* A timer's place in its hart's queue: a list ordered by absolute
 * deadline, equal deadlines in the order they were armed (time.c). */
struct timerq_entry {
    uint64_t deadline;         /* absolute time, ns */
    struct timerq_entry *next; /* next later entry while armed */
    bool armed;                /* true while linked in a queue */
};

struct timer {
    struct timerq_entry entry;
    struct waker waker;
    void (*fire)(struct timer *t);   /* ISR callback, NULL: wake only */
    bool sim;                        /* simulation (the wire model): its
                                      * time goes to the sim CPU account */
    volatile bool fired;
    uint8_t hart;                    /* the hart whose queue it was armed on */
};

/* Boot of each hart, interrupts masked: no deadline programmed, timer
 * IRQ enabled. */
void timer_init(void);
/* Timer interrupt: wake every expired timer, program the next deadline.
 * An interrupt for sim timers only is simulation as a whole (sim CPU
 * account); a sim timer's callback in a mixed one is charged to sim. */
void timer_isr(void);

/* Any context: arm t on this hart to wake w at deadline_ns (re-arms if
 * armed; an armed timer is re-armed on the hart it is armed on, or the
 * kernel panics); 0, or -EINVAL for a NULL timer. */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w);
/* Any context: disarm t; true if it had not fired yet (false for NULL).
 * An armed timer is cancelled on its own hart (else the kernel panics). */
bool timer_cancel(struct timer *t);

/* Interrupts masked (the UART's RX claim, tty_rx.c): whether a timer
 * interrupt is pending. With the wire model, one that only the model's
 * own timers are due for (or that came early on the free clock) is not:
 * no board's driver would see it. There a charged call
 * (timer_pending_hook) decides, and the caller pays what the CSR read
 * costs on a board. */
static inline bool timer_irq_pending(void)
{
#if WIRE_BAUD && !defined(HOST_TEST)
    return cpu_acct_sim_call(timer_pending_entry, 1, 0, 0, 0) != 0;
#else
    return (csr_read(CSR_XIP) & (1UL << IRQ_XTIMER)) != 0;
#endif
}

/* Hardware layer (src/arch/riscv/timer_hw.c): program the compare
 * register to a tick count (UINT64_MAX: none), interrupts masked. */
void timer_hw_init(void);
void timer_hw_set(uint64_t ticks);
/* Any context: which compare mechanism the board uses (manifest). */
const char *timer_hw_name(void);

#endif
