/* switch_context(from, to): save the callee-saved registers, ra and sp
 * of the running task into *from and resume *to (layout: struct context
 * in include/sched.h). Called by the scheduler with interrupts masked. */
    .section .text.switch, "ax"
    .globl  switch_context
switch_context:
    sd      ra, 0(a0)
    sd      sp, 8(a0)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    sd      s\n, (16 + \n*8)(a0)
    .endr
    ld      ra, 0(a1)
    ld      sp, 8(a1)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    ld      s\n, (16 + \n*8)(a1)
    .endr
    ret
