/* Trap entry for the image's privilege (csr.h): saves the whole integer
 * context on the current stack, calls trap_dispatch(frame), restores it.
 * Interrupt handlers never switch tasks, so the frame always returns to
 * the code it interrupted. */
#include "csr.h"
#include "trap.h"

    .section .text.trap, "ax"
    .align  4
    .globl  trap_entry
trap_entry:
    addi    sp, sp, -TRAP_FRAME_SIZE
    .irp n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    sd      x\n, \n*8(sp)
    .endr
    addi    t0, sp, TRAP_FRAME_SIZE
    sd      t0, 2*8(sp)
    csrr    t0, CSR_XEPC
    sd      t0, TRAP_FRAME_EPC(sp)
    csrr    t0, CSR_XSTATUS
    sd      t0, TRAP_FRAME_STATUS(sp)
    csrr    t0, CSR_XCAUSE
    sd      t0, TRAP_FRAME_CAUSE(sp)
    csrr    t0, CSR_XTVAL
    sd      t0, TRAP_FRAME_TVAL(sp)

    mv      a0, sp
    call    trap_dispatch

    ld      t0, TRAP_FRAME_EPC(sp)
    csrw    CSR_XEPC, t0
    ld      t0, TRAP_FRAME_STATUS(sp)
    csrw    CSR_XSTATUS, t0
    .irp n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    ld      x\n, \n*8(sp)
    .endr
    addi    sp, sp, TRAP_FRAME_SIZE
    XRET
