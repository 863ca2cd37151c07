/* Host unit tests: a charged call (cpu_acct.h's cpu_acct_sim_call, the
 * target's src/arch/riscv/acct_call.S) over fake counters. The CPU
 * counters are host_csr.cycle and host_csr.instret (csr.h); fakes and
 * tests advance them with fa_work() for the work they stand for (a
 * register access, a model step), and the accounts are the real ones of
 * cpu_acct.h, switched by its inline cpu_acct_switch. */
#ifndef FAKE_ACCT_H
#define FAKE_ACCT_H

#include <stdint.h>
#include "cpu_acct.h"

struct fa_stats {
    uint64_t calls;           /* fa_sim_call invocations */
    uint64_t nested;          /* ... made from inside another one */
};

/* Any test: reset the stats and the sim account; `task` owns the CPU
 * from now on (its counters start at the current fake counter values). */
void fa_init(struct cpu_acct *task);
/* Fakes, any context: n instructions (and as many cycles) of work. */
void fa_work(uint64_t n);
const struct fa_stats *fa_stats(void);
/* Run inside every call, with the callee's account owning the CPU (the
 * fake kernel sets it so that a modelled access takes fake time). */
extern void (*fa_call_hook)(void);
/* Instructions every call costs the sim account (its own code). */
#define FA_CALL_INSNS 10

/* The model's seam (fake_acct.c's uart_model_*), any context: fn(x, y, z)
 * with interrupts masked and the sim account owning the CPU, as a charged
 * call on the target; the caller gets the CPU back before interrupts are
 * unmasked. */
typedef uintptr_t (*fa_fn)(uintptr_t x, uintptr_t y, uintptr_t z);
uintptr_t fa_sim_call(uintptr_t x, uintptr_t y, uintptr_t z, fa_fn fn);

#endif
