/* switch_context(from, to, ie): save the callee-saved registers, ra and
 * sp of the running task into *from, with ie (0 or XSTATUS_XIE alone:
 * csrs sets whatever it holds), the interrupt-enable bit to give the
 * task back; resume *to and set its bit again, so that a scheduler call
 * returns to its task through here (layout: struct context in
 * include/scheduler.h). Called by the scheduler (switch_to) with
 * interrupts masked: sched_yield's and sched_block's tail call,
 * task_exit's with 0. */
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
