/* The kernel's self-tests, each run instead of the benchmark when the boot
 * argument selftest=<name> names it (bench/selftests.c). Each prints
 * `selftest=<name> ...` lines and returns 1 when it passed, 0 when not.
 * Main task, interrupts enabled. */
#ifndef SELFTEST_H
#define SELFTEST_H

int selftest_sleep_order(void);      /* sleepers wake in deadline order */
int selftest_stack_overflow(void);   /* a broken stack guard panics (never returns) */
int selftest_wakers(void);           /* repeated wakes add a task once */
int selftest_ring(void);             /* the run ring's order, kills, kept wakes */
int selftest_busy_irq(void);         /* interrupts in a busy loop, errno kept */
int selftest_lead(void);             /* sleep_until_early back at its deadline */
/* The application's (bench/): they drive the driver and the POSIX layer. */
int selftest_acct(void);             /* CPU accounting exact to the instruction */
int selftest_posix(void);            /* POSIX error cases */
int selftest_smp(void);              /* tasks on every hart: lock, IPI wakes, accounts */

#endif
