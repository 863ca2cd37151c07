/* Trap frame saved by trap_entry (src/arch/riscv/trap.S) on the stack of
 * whatever was running: x1..x31 at their register numbers, then the trap
 * CSRs. An interrupt with a
 * handler saves only the caller-saved registers and no CSR; the frames
 * that reach the panic report (an exception, an interrupt without a
 * handler) are whole, tval an exception's only. The layout is shared with
 * the assembly through the offsets. */
#ifndef TRAP_H
#define TRAP_H

#define TRAP_FRAME_EPC    (32 * 8)
#define TRAP_FRAME_STATUS (33 * 8)
#define TRAP_FRAME_CAUSE  (34 * 8)
#define TRAP_FRAME_TVAL   (35 * 8)
#define TRAP_FRAME_SIZE   (36 * 8)   /* a multiple of 16: the stack's alignment */

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

struct trap_frame {
    uint64_t x[32];     /* x[0] unused, x[2] = sp before the trap (exceptions) */
    uint64_t epc;
    uint64_t status;
    uint64_t cause;
    uint64_t tval;
};

_Static_assert(sizeof(struct trap_frame) == (size_t)TRAP_FRAME_SIZE, "trap frame layout");

/* Trap entry (trap.S), an interrupt with no handler (its frame f whole):
 * the panic report; does not return. */
__attribute__((noreturn)) void trap_unexpected(struct trap_frame *f);

/* trap_init's timer handler, which trap_entry calls for a timer
 * interrupt. */
extern void (*trap_timer_isr)(void);

/* Trap entry, an exception: the panic report; does not return. */
__attribute__((noreturn)) void trap_exception(struct trap_frame *f);

/* Boot of each hart, task context: install the trap vector; timer is the
 * timer interrupt's handler (the kernel's timer_isr: the arch calls
 * nothing above it by name), the same on every hart. */
void trap_init(void (*timer)(void));
#endif

#endif
