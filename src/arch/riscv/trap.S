/* Trap entry for the image's privilege (csr.h): saves the integer context
 * on the current stack, calls trap_dispatch(frame), restores it. An
 * interrupt saves the caller-saved registers (the C handlers keep the
 * others) and the trap CSRs but tval; an exception, which never returns,
 * saves everything for the panic report. Interrupt handlers never switch
 * tasks, so the frame always returns to the code it interrupted.
 *
 * CPU accounting covers every instruction of the trap (cycles: from the
 * snapshots on): the first instructions up to the counter snapshot and
 * the last ones after it are straight-line code without compressed
 * instructions; their numbers (TRAP_ACCT_HEAD/TAIL in cpu_acct.h, checked
 * here by the assembler against the distance between the labels), scaled
 * to counter units (cpu_acct_now.fix), are taken from (or added to) the
 * snapshot.
 * trap_dispatch charges from the entry snapshot, less the head, on; the
 * exit below charges the handler's account up to and including the xret
 * and makes the interrupted context's account (trap_dispatch's result)
 * the owner. */
#include "cpu_acct.h"
#include "csr.h"
#include "trap.h"

    .section .text.trap, "ax"
    .align  4
    .globl  trap_entry
trap_entry:
    .option push
    .option norvc
    .option norelax
    addi    sp, sp, -TRAP_FRAME_SIZE
    sd      t0, 5*8(sp)
    sd      t1, 6*8(sp)
    rdcycle t0
1:  rdinstret t1                        /* the head is trap_dispatch's to take off */
    .option pop
    .if (1b - trap_entry) != TRAP_ACCT_HEAD * 4
    .error "TRAP_ACCT_HEAD does not match the code"
    .endif
    sd      t0, TRAP_FRAME_CYCLE(sp)
    sd      t1, TRAP_FRAME_INSTRET(sp)
    /* Caller-saved registers: the handlers are C functions, which keep
     * the callee-saved ones. */
    .irp n, 1,7,10,11,12,13,14,15,16,17,28,29,30,31
    sd      x\n, \n*8(sp)
    .endr
    csrr    t0, CSR_XEPC
    sd      t0, TRAP_FRAME_EPC(sp)
    csrr    t0, CSR_XSTATUS
    sd      t0, TRAP_FRAME_STATUS(sp)
    csrr    t0, CSR_XCAUSE
    sd      t0, TRAP_FRAME_CAUSE(sp)
    bltz    t0, 4f                      /* an interrupt */
    /* An exception ends in panic_trap(), which prints every register,
     * sp as it was and tval. */
    .irp n, 3,4,8,9,18,19,20,21,22,23,24,25,26,27
    sd      x\n, \n*8(sp)
    .endr
    addi    t0, sp, TRAP_FRAME_SIZE
    sd      t0, 2*8(sp)
    csrr    t0, CSR_XTVAL
    sd      t0, TRAP_FRAME_TVAL(sp)
4:  mv      a0, sp
    call    trap_dispatch
    mv      t3, a0                      /* the interrupted context's account */

    ld      t0, TRAP_FRAME_EPC(sp)
    csrw    CSR_XEPC, t0
    ld      t0, TRAP_FRAME_STATUS(sp)
    csrw    CSR_XSTATUS, t0
    .irp n, 1,10,11,12,13,14,15,16,17,29,30,31
    ld      x\n, \n*8(sp)
    .endr

    .option push
    .option norvc
    .option norelax
    addi    t0, tp, %tprel_lo(cpu_acct_now)   /* this hart's (sections.ld: in reach) */
    ld      t1, CPU_ACCT_NOW_OWNER(t0)  /* the handler's account */
    sd      t3, CPU_ACCT_NOW_OWNER(t0)
    rdcycle t2
    ld      t3, CPU_ACCT_NOW_CYCLE(t0)
    sd      t2, CPU_ACCT_NOW_CYCLE(t0)
    sub     t2, t2, t3
    ld      t3, CPU_ACCT_CYCLES(t1)
    add     t3, t3, t2
    sd      t3, CPU_ACCT_CYCLES(t1)
2:  rdinstret t2
    ld      t3, CPU_ACCT_NOW_FIX + 8 * CPU_ACCT_FIX_TRAP_TAIL(t0)
    add     t2, t2, t3                  /* up to and including the xret */
    ld      t3, CPU_ACCT_NOW_INSTRET(t0)
    sd      t2, CPU_ACCT_NOW_INSTRET(t0)
    sub     t2, t2, t3
    ld      t3, CPU_ACCT_INSTRET(t1)
    add     t3, t3, t2
    sd      t3, CPU_ACCT_INSTRET(t1)
    ld      t0, 5*8(sp)
    ld      t1, 6*8(sp)
    ld      t2, 7*8(sp)
    ld      t3, 28*8(sp)
    addi    sp, sp, TRAP_FRAME_SIZE
3:  XRET
    .option pop
    .if (3b - 2b) != (TRAP_ACCT_TAIL - 1) * 4
    .error "TRAP_ACCT_TAIL does not match the code"
    .endif
