/* Host unit tests of the kernel's time (src/kernel/time.c): what it calls
 * around it. The timebase is host_csr.time (csr.h), which the tests set;
 * the compare register (the arch's timer_hw_set) records its ticks; a
 * waker records its task pointer, which the tests use as an id; panic
 * returns to the test that expected it. The CPU accounts are
 * fake_acct.c's. */
#ifndef FAKE_TIME_ENV_H
#define FAKE_TIME_ENV_H

#include <setjmp.h>
#include <stdint.h>

#define FTE_MAX_WOKEN 512

extern uint64_t fte_hw;          /* the compare register, ticks */
extern unsigned fte_hw_writes;   /* timer_hw_set calls */
extern const void *fte_woken[FTE_MAX_WOKEN];  /* tasks woken, in order */
extern int fte_nwoken;
extern jmp_buf fte_panicked;     /* where panic returns (setjmp: 1) */

#endif
