/* Trap entry for the image's privilege (csr.h): saves the integer context
 * on the current stack, and for an interrupt takes its CPU accounts'
 * snapshot, calls the interrupt's handler, charges the interrupt and
 * restores the context. An interrupt saves only
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
 * instructions; their numbers (TRAP_ACCT_HEAD, TRAP_ACCT_TAIL and
 * TRAP_ACCT_TAIL_OWNED in cpu_acct.h, checked here by the assembler
 * against the distance between the labels) are taken from (or added to)
 * the instret snapshots.
 * The entry only stores its snapshot (cpu_acct_trap). When the handler
 * made no switch, the exit charges the trap, from its first instruction
 * up to and including the xret, to the ISR account and moves the owner's
 * counter values on by as much: the interrupted context is charged as
 * if switched away at the entry and back at the xret, and the common
 * interrupt, a refill, makes no switch; a retag (cpu_acct_retag) only
 * names the account the exit charges instead. A handler's first switch,
 * or charged call, makes the entry's switch first (cpu_acct_trap_own,
 * cycle 0 from then on); the exit then charges the handler's account up
 * to and including the xret and makes the interrupted context's account
 * (kept in cpu_acct_trap) the owner again. */
#include "cpu_acct.h"
#include "csr.h"
#include "trap.h"

    /* charge_trap: t2 added to the counter at `mem` (t1 its scratch). */
    .macro add_t2 mem
    ld      t1, \mem
    add     t1, t1, t2
    sd      t1, \mem
    .endm

    /* The exit after a handler's switch: the counter t2 now, the owner's
     * value of it at `stamp` (set to t2), the difference added to the
     * counter at `acct` (t0 the scratch). */
    .macro charge_since stamp, acct
    ld      t0, \stamp
    sd      t2, \stamp
    sub     t2, t2, t0
    ld      t0, \acct
    add     t0, t0, t2
    sd      t0, \acct
    .endm

    /* The exit of an interrupt that made no switch: the trap, from its
     * first instruction (entry cycle in register `entry`) up to and
     * including the xret, charged to the account whose counters are at
     * `cycles` and `instret`, the owner's counter values moved on by as
     * much, the entry's cycle cleared; t0, t1 and t2 restored. */
    .macro charge_trap entry, cycles, instret
    rdcycle t2
    sd      zero, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_CYCLE)(tp)
    sub     t2, t2, \entry
    add_t2  %tprel_lo(cpu_acct_now+CPU_ACCT_NOW_CYCLE)(tp)
    add_t2  \cycles
2:  rdinstret t2
    ld      t1, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_INSTRET)(tp)
    addi    t2, t2, TRAP_ACCT_TAIL + TRAP_ACCT_HEAD   /* the trap's first to its xret */
    sub     t2, t2, t1
    add_t2  %tprel_lo(cpu_acct_now+CPU_ACCT_NOW_INSTRET)(tp)
    add_t2  \instret
    ld      t0, 5*8(sp)
    ld      t1, 6*8(sp)
    ld      t2, 7*8(sp)
    addi    sp, sp, TRAP_FRAME_SIZE
3:  XRET
    .if (3b - 2b) != (TRAP_ACCT_TAIL - 1) * 4
    .error "TRAP_ACCT_TAIL does not match the code"
    .endif
    .endm

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
1:  rdinstret t1                        /* the head is taken off at the exit */
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

    /* An interrupt: its snapshot for the exit (cpu_acct_trap, this
     * hart's: sections.ld keeps it in reach of tp), then to its handler:
     * the external one first (the UART's), then the timer (trap_init's
     * handler) and the IPI. xie enables these three alone (plic.c,
     * time.c, ipi.c), and of their numbers only the external one's has
     * bit 3: one test finds it. */
    .if !(IRQ_XEXT & 8) || (IRQ_XTIMER & 8) || (IRQ_XSOFT & 8)
    .error "the external interrupt's number is not the one with bit 3"
    .endif
4:  sd      t0, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_CYCLE)(tp)
    sd      t1, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_INSTRET)(tp)
    andi    t0, a0, 8
    beqz    t0, 5f
    call    plic_isr
6:  .irp n, 1,10,11,12,13,14,15,16,17,28,29,30,31
    ld      x\n, \n*8(sp)
    .endr

    .option push
    .option norvc
    .option norelax
    ld      t0, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_OWNER)(tp)
    bnez    t0, 9f                      /* the handler switched or retagged */
    /* Neither: the trap's time to the ISR account, the owner's counter
     * values on by as much. */
    ld      t0, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_CYCLE)(tp)
    charge_trap t0, %tprel_lo(cpu_acct_isr+CPU_ACCT_CYCLES)(tp), %tprel_lo(cpu_acct_isr+CPU_ACCT_INSTRET)(tp)

    /* t0 cpu_acct_trap's owner. The entry's cycle still set: a retag
     * (cpu_acct_retag) made t0 the account of the whole trap. */
9:  ld      t1, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_CYCLE)(tp)
    sd      zero, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_OWNER)(tp)
    beqz    t1, 10f
    charge_trap t1, CPU_ACCT_CYCLES(t0), CPU_ACCT_INSTRET(t0)

    /* The handler switched (cpu_acct_trap_own): t0 the interrupted
     * context's account, the owner again; the handler's account charged
     * up to and including the xret (as cpu_acct_switch_at). As many
     * instructions to the xret as the path without a switch. */
10: ld      t1, %tprel_lo(cpu_acct_now + CPU_ACCT_NOW_OWNER)(tp)   /* the handler's */
    sd      t0, %tprel_lo(cpu_acct_now + CPU_ACCT_NOW_OWNER)(tp)
    rdcycle t2
    charge_since %tprel_lo(cpu_acct_now+CPU_ACCT_NOW_CYCLE)(tp), CPU_ACCT_CYCLES(t1)
7:  rdinstret t2
    addi    t2, t2, TRAP_ACCT_TAIL_OWNED      /* up to and including the xret */
    charge_since %tprel_lo(cpu_acct_now+CPU_ACCT_NOW_INSTRET)(tp), CPU_ACCT_INSTRET(t1)
    ld      t0, 5*8(sp)
    ld      t1, 6*8(sp)
    ld      t2, 7*8(sp)
    addi    sp, sp, TRAP_FRAME_SIZE
8:  XRET
    .option pop
    .if (8b - 7b) != (TRAP_ACCT_TAIL_OWNED - 1) * 4
    .error "TRAP_ACCT_TAIL_OWNED does not match the code"
    .endif

5:  slli    t0, a0, 1                   /* the interrupt's number, doubled */
    li      t1, 2 * IRQ_XTIMER
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
