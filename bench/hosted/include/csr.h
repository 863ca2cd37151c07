/* What the sections use of the kernel's CSR accessors (include/csr.h),
 * as Linux user space has it (bench/hosted/cpu.c): the instruction and
 * cycle counters are the process's perf events, 0 where Linux refuses
 * them (cpu_counter_missing says why); there are no interrupts to mask
 * (the one caller, uart_loopback_overrun, is a kernel self-test). The
 * include guard is the kernel's. */
#ifndef CSR_H
#define CSR_H

#include <stdint.h>

/* Any thread: the process's retired instructions and CPU cycles since
 * the counters were opened (all its threads). */
uint64_t rdinstret(void);
uint64_t rdcycle(void);

/* Any thread: no interrupts to mask in user space. */
static inline unsigned long irq_save(void) { return 0; }
static inline void irq_restore(unsigned long flags) { (void)flags; }

/* Any thread: a busy-wait loop's hint (spinlock.h, which the wire
 * model's no-model build includes and never takes). */
static inline void cpu_spin_hint(void) {}

#endif
