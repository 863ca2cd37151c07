/* Trap frame saved by trap_entry (src/arch/riscv/trap.S) on the stack of
 * whatever was running: x1..x31 at their register numbers, then the
 * trap CSRs. The layout is shared with the assembly through the offsets. */
#ifndef TRAP_H
#define TRAP_H

#define TRAP_FRAME_EPC    (32 * 8)
#define TRAP_FRAME_STATUS (33 * 8)
#define TRAP_FRAME_CAUSE  (34 * 8)
#define TRAP_FRAME_TVAL   (35 * 8)
#define TRAP_FRAME_SIZE   (36 * 8)

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

struct trap_frame {
    uint64_t x[32];     /* x[0] unused, x[2] = sp before the trap */
    uint64_t epc;
    uint64_t status;
    uint64_t cause;
    uint64_t tval;
};

_Static_assert(sizeof(struct trap_frame) == (size_t)TRAP_FRAME_SIZE, "trap frame layout");

/* Trap entry (interrupts masked by hardware): route to the handlers. */
void trap_dispatch(struct trap_frame *f);

/* Interrupt handlers: the interrupted context's frame (NULL elsewhere);
 * a handler may redirect its epc. */
struct trap_frame *trap_interrupted_frame(void);

/* Boot, task context: install the trap vector. */
void trap_init(void);
#endif

#endif
