/* Host tests with a thread per hart (HOST_SMP): a stand-in for the
 * kernel services the UART driver uses (clock, PLIC registration, tasks,
 * wakers, blocking, timers, panic) on real threads, for
 * ThreadSanitizer (fake_kernel_threads.c, fake_tasks_threads.c), and
 * the bus in front of the
 * register-level fake UART (fake_uart_bus.c).
 *
 * Time is real: clock_now_ns() is CLOCK_MONOTONIC since ft_init, and the
 * fake UART is brought up to it at every access. A hart is a CPU lock
 * (pthread mutex): each task is a thread pinned to one hart and holds
 * its hart's lock while it runs, so the tasks of one hart run one at a
 * time and switch only where they block or yield, as on the kernel's
 * cooperative scheduler; tasks of different harts run in parallel. Each
 * hart has an idle thread that takes the lock while no task holds it:
 * it fires the hart's expired timers (their callbacks as the timer
 * interrupt) and, on hart 0, runs the UART handler while the fake's line
 * is asserted. A task of hart 0 also takes the UART interrupt whenever
 * it unmasks interrupts (host_irq_enabled). Interrupt state (host_csr)
 * is per thread, as it is per task context on a hart.
 *
 * The bus: every register access of the driver (fake_mmio_read/_write,
 * wrapped with --wrap) and every look of the test at the fake is made
 * under one mutex, with ThreadSanitizer told to ignore the fake's memory
 * and the mutex's ordering: it orders the fake's state for real, but
 * gives the driver no happens-before edge a real bus does not give (nor
 * does the interrupt's delivery to hart 0). TSan sees the driver's own
 * races only. */
#ifndef FAKE_KERNEL_THREADS_H
#define FAKE_KERNEL_THREADS_H

#include <stdbool.h>
#include <stdint.h>

#define FT_HARTS 4       /* harts 0..3 */
#define FT_TASKS 12      /* tasks, the boot task and the driver's included */

/* Boot (main thread, before any other thread): the boot task on hart 0,
 * running, interrupts enabled; time starts. */
void ft_init(void);
/* Boot: start entry(arg) as a task of hart h, named name (a test task:
 * ft_join waits for it). The thread runs once ft_go is called. */
void ft_spawn(unsigned h, const char *name, void (*entry)(void *), void *arg);
/* Boot, after the driver's init: harts_many() true, the idle threads
 * and every spawned task running; the boot task gives hart 0 up. */
void ft_go(void);
/* The main thread after ft_go: wait until every test task has returned;
 * fatal (a hang, with each task's last step) after timeout_ns. */
void ft_join(uint64_t timeout_ns);
/* Boot: dump() runs when the watchdog fires, after each task's state. */
void ft_watchdog_more(void (*dump)(void));
/* Any task: what it does now (the watchdog's message names it). */
void ft_step(const char *what);
/* Any thread: print a message naming the thread's task and exit(1). */
_Noreturn void ft_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* fake_uart_bus.c. Any thread: the bus, the fake brought up to now, for
 * a look at it (fu_* calls) between ft_bus_lock and ft_bus_unlock. */
void ft_bus_lock(void);
void ft_bus_unlock(void);
/* fake_kernel_threads.c, from the bus: a thread other than hart 0's saw
 * the fake's interrupt line asserted: hart 0's idle thread looks. */
void ft_irq_poke(void);
/* fake_kernel_threads.c, the bus: the fake's next event and line, as of
 * the last access (for hart 0's idle thread). */
bool ft_bus_line(uint64_t *next_event);

#endif
