/* Trap entry for the image's privilege (csr.h): saves the integer context
 * on the current stack, and for an interrupt switches the CPU accounts,
 * calls the interrupt's handler and restores it. An interrupt saves only
 * the caller-saved registers (the C handlers keep the others): handlers
 * never nest (interrupts stay masked) and never switch tasks, so epc and
 * status are still the interrupted code's at the xret, and a handler
 * that redirects the return writes epc itself (task_abort_from_isr). An
 * exception, which never returns, saves everything for the panic report
 * (trap_exception); so does an interrupt without a handler.
 *
 * CPU accounting covers every instruction of the trap (cycles: from the
 * snapshots on): the first instructions up to the counter snapshot and
 * the last ones after it are straight-line code without compressed
 * instructions; their numbers (TRAP_ACCT_HEAD/TAIL in cpu_acct.h, checked
 * here by the assembler against the distance between the labels) are
 * taken from (or added to) the instret snapshot.
 * An interrupt charges the interrupted context's account up to the entry
 * snapshot, less the head, and makes the ISR account the owner (as
 * cpu_acct_switch_at); the exit charges the handler's account up to and
 * including the xret and makes the interrupted context's account (kept
 * in the frame) the owner again. */
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
1:  rdinstret t1                        /* the head is taken off below */
    .option pop
    .if (1b - trap_entry) != TRAP_ACCT_HEAD * 4
    .error "TRAP_ACCT_HEAD does not match the code"
    .endif
    /* Caller-saved registers: the handlers are C functions, which keep
     * the callee-saved ones. */
    .irp n, 1,7,10,11,12,13,14,15,16,17,28,29,30,31
    sd      x\n, \n*8(sp)
    .endr
    csrr    a0, CSR_XCAUSE
    bltz    a0, 4f                      /* an interrupt */
    /* An exception ends in panic_trap(), which prints every register,
     * sp as it was and tval. */
    csrr    t2, CSR_XTVAL
    sd      t2, TRAP_FRAME_TVAL(sp)
    call    full_frame
    call    trap_exception              /* does not return */

    /* An interrupt: the time up to the snapshot (t0, t1 less the head)
     * to the interrupted context's account, the ISR account the owner. */
4:  addi    t2, tp, %tprel_lo(cpu_acct_now)   /* this hart's (sections.ld: in reach) */
    ld      a1, CPU_ACCT_NOW_OWNER(t2)  /* the interrupted context's account */
    ld      a2, CPU_ACCT_NOW_CYCLE(t2)
    ld      a3, CPU_ACCT_NOW_INSTRET(t2)
    addi    t1, t1, -TRAP_ACCT_HEAD     /* at the trap's first instruction */
    sd      t0, CPU_ACCT_NOW_CYCLE(t2)
    sd      t1, CPU_ACCT_NOW_INSTRET(t2)
    sub     a2, t0, a2
    sub     a3, t1, a3
    ld      t0, CPU_ACCT_CYCLES(a1)
    ld      t1, CPU_ACCT_INSTRET(a1)
    add     t0, t0, a2
    add     t1, t1, a3
    sd      t0, CPU_ACCT_CYCLES(a1)
    sd      t1, CPU_ACCT_INSTRET(a1)
    addi    t3, tp, %tprel_lo(cpu_acct_isr)
    sd      t3, CPU_ACCT_NOW_OWNER(t2)
    sd      a1, TRAP_FRAME_ACCT(sp)
    /* The interrupt to its handler: the external one first (the UART's),
     * then the timer (trap_init's handler) and the IPI. */
    slli    t0, a0, 1                   /* the interrupt's number, doubled */
    li      t1, 2 * IRQ_XEXT
    bne     t0, t1, 5f
    call    plic_isr
6:  ld      t3, TRAP_FRAME_ACCT(sp)     /* the interrupted context's account */
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
    addi    t2, t2, TRAP_ACCT_TAIL      /* up to and including the xret */
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

5:  li      t1, 2 * IRQ_XTIMER
    bne     t0, t1, 7f
    ld      t1, trap_timer_isr
    jalr    t1
    j       6b
7:  li      t1, 2 * IRQ_XSOFT
    bne     t0, t1, 8f
    call    ipi_isr
    j       6b
8:  call    full_frame
    call    trap_unexpected             /* does not return */

    /* The panic report's frame (an exception, or an interrupt without a
     * handler; a0 the cause): the trap CSRs but tval, the callee-saved
     * registers and sp as it was; returns the frame in a0. */
full_frame:
    sd      a0, TRAP_FRAME_CAUSE(sp)
    csrr    t2, CSR_XEPC
    sd      t2, TRAP_FRAME_EPC(sp)
    csrr    t2, CSR_XSTATUS
    sd      t2, TRAP_FRAME_STATUS(sp)
    .irp n, 3,4,8,9,18,19,20,21,22,23,24,25,26,27
    sd      x\n, \n*8(sp)
    .endr
    addi    t2, sp, TRAP_FRAME_SIZE
    sd      t2, 2*8(sp)
    mv      a0, sp
    ret
