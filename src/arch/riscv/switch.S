/* switch_context(from, to, ie): save the callee-saved registers, ra and
 * sp of the running task into *from, with ie, the interrupt-enable bit
 * its caller masked (irq_save's flag); resume *to and set its own bit
 * again, so the caller returns to its task through here (layout: struct
 * context in include/scheduler.h). Called by the scheduler with
 * interrupts masked, as its tail call. */
#include "csr.h"
    .section .text.switch, "ax"
    .globl  switch_context
switch_context:
    sd      ra, 0(a0)
    sd      sp, 8(a0)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    sd      s\n, (16 + \n*8)(a0)
    .endr
    sd      a2, 112(a0)
    ld      ra, 0(a1)
    ld      sp, 8(a1)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    ld      s\n, (16 + \n*8)(a1)
    .endr
    ld      a2, 112(a1)
    csrs    CSR_XSTATUS, a2
    ret
