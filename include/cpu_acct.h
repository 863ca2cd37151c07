/* CPU accounting: cycles and retired instructions charged to the running
 * task, to interrupt handlers, to the receive path (the UART's RX
 * interrupts: work the line's input causes, whoever sent it), to idle
 * (the scheduler's wfi) or to simulation (the wire model on QEMU boards:
 * work a real board's hardware does), so any window can be split into
 * busy, idle and simulated time.
 * Exactly one account owns the CPU at a time; a switch charges the time
 * since the last switch. Every hart has its own accounts (thread-local:
 * each hart's tp reaches its own), so each hart's time splits alike.
 * Under QEMU -icount every hart's rdinstret and rdcycle read the one
 * virtual clock: while two harts work, each hart's accounts grow by the
 * instructions of both. */
#ifndef CPU_ACCT_H
#define CPU_ACCT_H

/* Offsets for trap.S and acct_call.S, which charge their own ends. */
#define CPU_ACCT_CYCLES       0
#define CPU_ACCT_INSTRET      8
#define CPU_ACCT_NOW_OWNER    0
#define CPU_ACCT_NOW_CYCLE    8
#define CPU_ACCT_NOW_INSTRET  16
#define CPU_ACCT_TRAP_CYCLE   0
#define CPU_ACCT_TRAP_INSTRET 8
#define CPU_ACCT_TRAP_OWNER   16

/* Instructions of trap.S and of a charged call (acct_call.S, from its
 * entry's first) outside their counter snapshots (the assembler checks
 * them against the code): before the entry snapshot (HEAD) and from the
 * exit snapshot up to and including the xret or the caller's unmasking
 * csrs (TAIL; trap.S's exit after a handler's switch: TAIL_OWNED), in
 * rdinstret's unit: one per instruction (cpu_acct_init refuses a QEMU
 * whose instret counts otherwise). */
#define TRAP_ACCT_HEAD 4
#define TRAP_ACCT_TAIL 15
#define TRAP_ACCT_TAIL_OWNED 13
#define CALL_ACCT_HEAD 21
#define CALL_ACCT_TAIL 33
/* A charged call's entry (acct_call.h's ACCT_CALL_ENTRY): its
 * instructions, the frame it opens for cpu_acct_call and the slot of the
 * caller's a4 in it. */
#define ACCT_CALL_ENTRY_LEN 6
#define ACCT_CALL_FRAME     128
#define ACCT_CALL_A4        88

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stddef.h>
#include "csr.h"
#include "harts.h"
#include "scheduler.h"

#if defined(HOST_TEST) && defined(HOST_SMP)
#define CPU_ACCT_LOCAL __thread    /* the host tests' thread per hart (task) */
#elif defined(HOST_TEST)
#define CPU_ACCT_LOCAL             /* the host tests' one thread */
#else
#define CPU_ACCT_LOCAL HART_LOCAL
#endif

struct cpu_totals {
    struct cpu_acct tasks;   /* every task together */
    struct cpu_acct isr;     /* interrupt handlers, the RX path aside */
    struct cpu_acct rx;      /* the receive path (uart_backend.h says what) */
    struct cpu_acct idle;    /* wfi in the scheduler */
    struct cpu_acct sim;     /* the wire model (zero when it is off) */
};

extern CPU_ACCT_LOCAL struct cpu_acct cpu_acct_isr, cpu_acct_idle, cpu_acct_sim, cpu_acct_rx;
/* The owner while a task without its own account runs (task_acct_own):
 * never read, since the tasks' total is what the others leave
 * (cpu_acct_read). */
extern CPU_ACCT_LOCAL struct cpu_acct cpu_acct_tasks;

/* The current owner and the counter values at its last switch (one
 * object, so the switch addresses it once). */
struct cpu_acct_now {
    struct cpu_acct *owner;
    uint64_t cycle, instret;
};
extern CPU_ACCT_LOCAL struct cpu_acct_now cpu_acct_now;

/* The interrupt being handled (trap.S): its entry's counter values
 * (cycle 0: no interrupt, or one whose handler has switched accounts)
 * and its owner: NULL, the ISR account's unless a handler retags it;
 * once a handler has switched, the interrupted context's account. The
 * entry only stores the values; an exit without a switch charges the
 * interrupt's time to its account and moves the current owner's counter
 * values on by as much, so the interrupted context is charged up to the
 * entry as if it had been switched there (cpu_acct_trap_own makes that
 * switch when a handler makes one). */
struct cpu_acct_trap {
    uint64_t cycle, instret;
    struct cpu_acct *owner;
};
extern CPU_ACCT_LOCAL struct cpu_acct_trap cpu_acct_trap;

/* Whether rdinstret counts retired instructions (a core; the project's
 * QEMU under -icount), checked at boot by cpu_acct_init; false under QEMU
 * without -icount, where it reads host ticks. */
extern bool cpu_instret_exact;
/* QEMU under -icount: one cycle of its CPU clock takes 2^cpu_clock_shift
 * ns (-icount shift=N), measured at boot; 0 elsewhere. */
extern unsigned cpu_clock_shift;

_Static_assert(offsetof(struct cpu_acct, cycles) == CPU_ACCT_CYCLES &&
               offsetof(struct cpu_acct, instret) == CPU_ACCT_INSTRET &&
               offsetof(struct cpu_acct_now, owner) == CPU_ACCT_NOW_OWNER &&
               offsetof(struct cpu_acct_now, cycle) == CPU_ACCT_NOW_CYCLE &&
               offsetof(struct cpu_acct_now, instret) == CPU_ACCT_NOW_INSTRET &&
               offsetof(struct cpu_acct_trap, cycle) == CPU_ACCT_TRAP_CYCLE &&
               offsetof(struct cpu_acct_trap, instret) == CPU_ACCT_TRAP_INSTRET &&
               offsetof(struct cpu_acct_trap, owner) == CPU_ACCT_TRAP_OWNER,
               "cpu_acct layout used by trap.S");

/* Any task (S20, S21): instructions retired so far outside the idle, RX
 * and simulation accounts (the work of tasks and interrupt handlers): the
 * delta over a window is the instructions the design spent in it, the
 * wire model's own left out. */
static inline uint64_t cpu_busy_counts(void)
{
    unsigned long f = irq_save();
    uint64_t v = rdinstret() - cpu_acct_idle.instret - cpu_acct_rx.instret -
                 cpu_acct_sim.instret;
    irq_restore(f);
    return v;
}

/* Any task, interrupts masked (S32, S33: around a read of the far end's
 * ground truth): the instructions and cycles so far outside the
 * simulation's account (the idle and RX accounts stand still while
 * interrupts are masked): at the start (end false) the account first and
 * the counters last, at the end the counters first, so that the delta
 * holds what ran between and little of the reads themselves. */
static inline void cpu_counted_masked(uint64_t *insns, uint64_t *cycles, bool end)
{
    if (end) {
        uint64_t i = rdinstret(), c = rdcycle();
        *insns = i - cpu_acct_sim.instret;
        *cycles = c - cpu_acct_sim.cycles;
    } else {
        uint64_t si = cpu_acct_sim.instret, sc = cpu_acct_sim.cycles;
        *cycles = rdcycle() - sc;
        *insns = rdinstret() - si;
    }
}

/* What S41's figures come from (its s41-method line): the instructions,
 * the cycles, and the CPU's share of a window (cpu_busy_ppm). */
#define CPU_INSTRET_METHOD "rdinstret-minus-idle-and-rx-instret"
#define CPU_CYCLES_METHOD  "rdcycle"
#define CPU_UTIL_METHOD    "non-idle-cycles/window"

enum cpu_counter { CPU_COUNTER_INSTRET, CPU_COUNTER_CYCLES };

/* Any task (S41): why counter c does not count here (an errno name, the
 * field then prints `not-available`), or NULL: rdinstret and rdcycle
 * always count on the kernel. */
static inline const char *cpu_counter_missing(enum cpu_counter c)
{
    (void)c;
    return 0;
}

/* Any task (S41, S42): the share of a window the CPU worked, in
 * millionths: the window's cycles (its rdcycle delta) outside the idle
 * account, from the accounts a at its start and b at its end. */
static inline uint64_t cpu_busy_ppm(const struct cpu_totals *a, const struct cpu_totals *b,
                                    uint64_t cycles)
{
    uint64_t idle = b->idle.cycles - a->idle.cycles;
    return cycles > idle ? (uint64_t)((unsigned __int128)(cycles - idle) * 1000000U / cycles) : 0;
}

/* Any task (S41, S42): a platform's further CPU figures of a window (of
 * bytes payload bytes, 0: not per byte), as ` key=value` tokens at the
 * end of the caller's line: none here. */
static inline void cpu_print_window(const struct cpu_totals *a, const struct cpu_totals *b,
                                    uint64_t bytes)
{
    (void)a;
    (void)b;
    (void)bytes;
}

/* The CPU clock: cycles per second, 0 when unknown; where it comes
 * from; what rdcycle counts. */
struct cpu_clock {
    uint64_t hz;
    const char *source;        /* "icount", "measured", "unknown" */
    const char *cycles_unit;   /* "cpu-cycles", "host-ticks" */
};
/* Any task (S00): the clock; on real hardware it takes 10 ms to measure. */
struct cpu_clock cpu_clock(void);

/* Boot, interrupts masked, first thing: give early switches an owner. */
void cpu_acct_early_init(void);
/* Boot, interrupts masked, after bootargs_init: check that rdinstret
 * counts instructions, measure the CPU clock under -icount (panics when
 * the icount_shift boot argument is bad or disagrees), start charging
 * the running task. */
void cpu_acct_init(void);
/* Boot of a secondary hart, interrupts masked, after sched_hart_init:
 * start charging its task. */
void cpu_acct_hart_init(void);
/* Any task: this hart's totals since boot, up to now (tasks: everything
 * that was not ISR, RX, idle or simulation). */
void cpu_acct_read(struct cpu_totals *out);
/* Any task: hart h's totals since it started, up to its last account
 * switch (this hart's: up to now, as cpu_acct_read). */
void cpu_acct_read_hart(unsigned h, struct cpu_totals *out);

/* cpu_acct_switch_at, interrupts masked, inside
 * an interrupt whose entry has not switched accounts (cpu_acct_trap.cycle
 * set; acct_call.S does the same in assembly): the entry's switch, made
 * now: the interrupted context's account charged up to the trap's first
 * instruction and kept for the exit, the interrupt's account (the ISR's,
 * or a retag's) the owner from there. */
static inline void cpu_acct_trap_own(void)
{
    struct cpu_acct_now *n = &cpu_acct_now;
    struct cpu_acct_trap *t = &cpu_acct_trap;
    uint64_t c = t->cycle, i = t->instret - TRAP_ACCT_HEAD;
    struct cpu_acct *to = t->owner ? t->owner : &cpu_acct_isr;

    n->owner->cycles += c - n->cycle;
    n->owner->instret += i - n->instret;
    t->owner = n->owner;
    t->cycle = 0;
    n->owner = to;
    n->cycle = c;
    n->instret = i;
}

/* Task context only, interrupts masked (the scheduler, the copier's
 * phases, cpu_acct_read): as cpu_acct_switch_at, never inside an
 * interrupt handler, so without its look at cpu_acct_trap. */
static inline struct cpu_acct *cpu_acct_switch_task_at(struct cpu_acct *to, uint64_t c, uint64_t i)
{
    struct cpu_acct_now *n = &cpu_acct_now;
    struct cpu_acct *prev = n->owner;

    prev->cycles += c - n->cycle;
    prev->instret += i - n->instret;
    n->cycle = c;
    n->instret = i;
    n->owner = to;
    return prev;
}

/* cpu_acct_switch, interrupts masked: make `to` the owner at counter
 * values c, i (the time up to them charged to the old owner). Inside an
 * interrupt the handler's first switch makes the entry's first
 * (cpu_acct_trap_own): trap.S's entry leaves the accounts alone. */
static inline struct cpu_acct *cpu_acct_switch_at(struct cpu_acct *to, uint64_t c, uint64_t i)
{
    if (__builtin_expect(cpu_acct_trap.cycle != 0, 0))
        cpu_acct_trap_own();
    return cpu_acct_switch_task_at(to, c, i);
}

/* Any context, interrupts masked (timer and UART interrupts, the wire
 * model): charge the time since the last switch to the current owner,
 * make `to` the owner, return the old. */
static inline struct cpu_acct *cpu_acct_switch(struct cpu_acct *to)
{
    uint64_t c = rdcycle();
    return cpu_acct_switch_at(to, c, rdinstret());
}

/* Task context only, interrupts masked (the scheduler, the copier's
 * phases, the wire model's calls from tasks, cpu_acct_read):
 * cpu_acct_switch outside any interrupt handler. */
static inline struct cpu_acct *cpu_acct_switch_task(struct cpu_acct *to)
{
    uint64_t c = rdcycle();
    return cpu_acct_switch_task_at(to, c, rdinstret());
}

#ifndef HOST_TEST
/* Any context: a charged call (acct_call.S) of the entry `entry` (an
 * ACCT_CALL_ENTRY of acct_call.h) with its function's first nargs (1 to 3, a constant)
 * of x, y, z: `jal t0` to it, and the csrs that
 * unmasks interrupts again; returns its function's result. The sim
 * account owns the CPU from the entry's first instruction up to and
 * including that csrs, with interrupts masked: the caller pays the jal
 * and its arguments, as a register access costs a load and its address.
 * Every register but t0, t1 and a0 keeps its value. It reads only
 * rdinstret and charges cycles as the same count: it serves the wire
 * model, which exists on QEMU only, where the instant UART costs no bus
 * time; a CSR read is a QEMU translation-block exit, so one fewer per
 * snapshot halves the host cost of a modelled register poll. */
#define CPU_ACCT_SIM_CALL_ASM "jal t0, %1\n\tcsrs " CSR_STR(CSR_XSTATUS) ", t1"
__attribute__((always_inline)) static inline uintptr_t
cpu_acct_sim_call(const void *entry, unsigned nargs, uintptr_t x, uintptr_t y, uintptr_t z)
{
    register uintptr_t a0 __asm__("a0") = x;
    register uintptr_t a1 __asm__("a1") = y;
    register uintptr_t a2 __asm__("a2") = z;

    if (nargs == 1)              /* (the function leaves a1, a2 alone: nothing to load) */
        __asm__ volatile(CPU_ACCT_SIM_CALL_ASM : "+r"(a0) : "i"(entry) : "t0", "t1", "memory");
    else if (nargs == 2)
        __asm__ volatile(CPU_ACCT_SIM_CALL_ASM : "+r"(a0) : "i"(entry), "r"(a1)
                         : "t0", "t1", "memory");
    else
        __asm__ volatile(CPU_ACCT_SIM_CALL_ASM : "+r"(a0) : "i"(entry), "r"(a1), "r"(a2)
                         : "t0", "t1", "memory");
    return a0;
}
#endif

/* Interrupt handler, interrupts masked, no switch since its entry (or,
 * in a PLIC claim after the trap's first, since plic_isr's switch to the
 * ISR account before it): the interrupt (or that claim) is `to`'s work,
 * e.g. simulation; its time from its first instruction to its xret (or
 * the next switch) goes to `to` instead of the interrupt account. */
static inline void cpu_acct_retag(struct cpu_acct *to)
{
    if (cpu_acct_trap.cycle != 0)
        cpu_acct_trap.owner = to;       /* (the exit charges it the whole trap) */
    else
        cpu_acct_now.owner = to;
}

/* Timer interrupt, interrupts masked, with the wire model: as
 * cpu_acct_retag, for an interrupt whose clock read (a charged call,
 * time.c) has charged its time so far to the ISR account: that (the ISR
 * account's growth since `mark`, a copy of it at the handler's start)
 * moves to `to` too. */
static inline void cpu_acct_retag_since(struct cpu_acct *to, const struct cpu_acct *mark)
{
    to->cycles += cpu_acct_isr.cycles - mark->cycles;
    to->instret += cpu_acct_isr.instret - mark->instret;
    cpu_acct_isr = *mark;
    cpu_acct_retag(to);   /* (no switch yet in the trap: the ISR account is still mark) */
}

#endif /* !__ASSEMBLER__ */
#endif
