/* The clock's and the timers' charged calls (time.c, the wire model's
 * builds): the free clock's value and a deadline's timebase time are
 * worked out on the sim CPU account (acct_call.h's ACCT_CALL_ENTRY), so a
 * clock read costs the caller what it costs on a board, the timebase's
 * read, and a jal; so is whether a pending timer interrupt is more than
 * the model's own (timer_irq_pending, timer.h). */
#include "acct_call.h"

    .section .text.clock_free, "ax"
    ACCT_CALL_ENTRY clock_free_entry, clock_free_hook
    ACCT_CALL_ENTRY clock_deadline_entry, clock_deadline_hook
    ACCT_CALL_ENTRY timer_pending_entry, timer_pending_hook
