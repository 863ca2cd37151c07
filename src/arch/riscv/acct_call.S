/* cpu_acct_call: the body of a charged call (cpu_acct.h), reached from an
 * entry (ACCT_CALL_ENTRY) that the caller reached with `jal t0`: runs
 * the entry's function fn(a0, a1, a2) with the sim CPU account owning
 * the CPU from the entry's first instruction up to and including the
 * caller's csrs after the jal, and interrupts masked from that first
 * instruction to that csrs (the wire model's register hooks: their cost
 * is the simulation's; the caller pays its jal, as a register access
 * costs a load, and its arguments). Every register but t0, t1 and a0
 * (the result) is the caller's again at the return: the caller keeps
 * its values live across the call as across a load. Straight-line code
 * without compressed instructions around the two counter snapshots, so
 * the instructions before the first (CALL_ACCT_HEAD, from the entry's
 * first) and from the second on (CALL_ACCT_TAIL, up to the caller's
 * csrs) are known numbers, checked by the assembler. Only rdinstret is
 * read; cycles are charged the same count (cpu_acct.h says why). Any
 * context; from the entry: t1 the caller's status, sp lowered by
 * ACCT_CALL_FRAME with the caller's a4 in its slot, a4 the function. */
#include "cpu_acct.h"
#include "csr.h"

#define SLOT(i) ((i) * 8)
#define S_OWNER 15    /* the caller's account; slots 0..14: the registers */

    .section .text.acct_call, "ax"
    .option push
    .option norvc
    .option norelax

    .globl  cpu_acct_call
    .type   cpu_acct_call, @function
cpu_acct_call:
    sd      ra, SLOT(0)(sp)
    sd      t0, SLOT(1)(sp)             /* the caller's return */
    sd      t1, SLOT(2)(sp)             /* its status */
    sd      t2, SLOT(3)(sp)
    sd      t3, SLOT(4)(sp)
    sd      t4, SLOT(5)(sp)
    sd      t5, SLOT(6)(sp)
    sd      t6, SLOT(7)(sp)
    sd      a1, SLOT(8)(sp)
    sd      a2, SLOT(9)(sp)
    sd      a3, SLOT(10)(sp)
    .if SLOT(11) != ACCT_CALL_A4
    .error "ACCT_CALL_A4 does not match the frame"
    .endif
    sd      a5, SLOT(12)(sp)
    sd      a6, SLOT(13)(sp)
    sd      a7, SLOT(14)(sp)
    addi    t0, tp, %tprel_lo(cpu_acct_now)   /* this hart's (sections.ld: in reach) */
1:  rdinstret t2
    .if (1b - cpu_acct_call) != (CALL_ACCT_HEAD - ACCT_CALL_ENTRY_LEN) * 4
    .error "CALL_ACCT_HEAD does not match the code"
    .endif
    addi    t2, t2, -CALL_ACCT_HEAD     /* at the entry's first instruction */
    ld      t1, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_CYCLE)(tp)
    bnez    t1, trap_own                /* in an interrupt that has not switched */
4:  ld      t3, CPU_ACCT_NOW_OWNER(t0)  /* the caller's account */
    addi    t1, tp, %tprel_lo(cpu_acct_sim)
    sd      t1, CPU_ACCT_NOW_OWNER(t0)
    ld      t1, CPU_ACCT_NOW_INSTRET(t0)
    sd      t2, CPU_ACCT_NOW_INSTRET(t0)
    sub     t1, t2, t1                  /* the caller's share */
    ld      t4, CPU_ACCT_NOW_CYCLE(t0)
    add     t4, t4, t1
    sd      t4, CPU_ACCT_NOW_CYCLE(t0)
    ld      t4, CPU_ACCT_CYCLES(t3)
    add     t4, t4, t1
    sd      t4, CPU_ACCT_CYCLES(t3)
    ld      t4, CPU_ACCT_INSTRET(t3)
    add     t4, t4, t1
    sd      t4, CPU_ACCT_INSTRET(t3)
    sd      t3, SLOT(S_OWNER)(sp)

    jalr    a4

    addi    t0, tp, %tprel_lo(cpu_acct_now)   /* this hart's (sections.ld: in reach) */
    ld      t1, CPU_ACCT_NOW_OWNER(t0)  /* the sim account */
    ld      t3, SLOT(S_OWNER)(sp)
    sd      t3, CPU_ACCT_NOW_OWNER(t0)
2:  rdinstret t2
    addi    t2, t2, CALL_ACCT_TAIL      /* up to and including the caller's csrs */
    ld      t4, CPU_ACCT_NOW_INSTRET(t0)
    sd      t2, CPU_ACCT_NOW_INSTRET(t0)
    sub     t2, t2, t4                  /* the callee's share */
    ld      t4, CPU_ACCT_NOW_CYCLE(t0)
    add     t4, t4, t2
    sd      t4, CPU_ACCT_NOW_CYCLE(t0)
    ld      t4, CPU_ACCT_CYCLES(t1)
    add     t4, t4, t2
    sd      t4, CPU_ACCT_CYCLES(t1)
    ld      t4, CPU_ACCT_INSTRET(t1)
    add     t4, t4, t2
    sd      t4, CPU_ACCT_INSTRET(t1)
    ld      ra, SLOT(0)(sp)
    ld      t1, SLOT(2)(sp)
    ld      t2, SLOT(3)(sp)
    ld      t3, SLOT(4)(sp)
    ld      t4, SLOT(5)(sp)
    ld      t5, SLOT(6)(sp)
    ld      t6, SLOT(7)(sp)
    ld      a1, SLOT(8)(sp)
    ld      a2, SLOT(9)(sp)
    ld      a3, SLOT(10)(sp)
    ld      a4, SLOT(11)(sp)
    ld      a5, SLOT(12)(sp)
    ld      a6, SLOT(13)(sp)
    ld      a7, SLOT(14)(sp)
    andi    t1, t1, XSTATUS_XIE         /* the caller's csrs sets it again */
    ld      t0, SLOT(1)(sp)
    addi    sp, sp, ACCT_CALL_FRAME
    jr      t0
3:
    .size   cpu_acct_call, . - cpu_acct_call
    .globl  cpu_acct_call_end           /* for selftest=acct */
cpu_acct_call_end:
    .if (3b - 2b) != (CALL_ACCT_TAIL - 1) * 4
    .error "CALL_ACCT_TAIL does not match the code"
    .endif

    /* A charged call inside an interrupt whose entry has not switched
     * accounts (t1 its entry's cycle, t0 cpu_acct_now; on the sim
     * account's time, outside cpu_acct_call's size: selftest=acct counts
     * that as its instructions): the entry's switch first, as
     * cpu_acct_trap_own in cpu_acct.h: the interrupted context's account
     * charged up to the trap's first instruction and kept for the exit,
     * the interrupt's account (the ISR's, or a retag's: t6) the owner
     * from there. */
trap_own:
    ld      t6, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_OWNER)(tp)
    bnez    t6, 5f
    addi    t6, tp, %tprel_lo(cpu_acct_isr)
5:  ld      t3, CPU_ACCT_NOW_OWNER(t0)  /* the interrupted context's account */
    sd      t3, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_OWNER)(tp)
    sd      zero, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_CYCLE)(tp)
    ld      t4, CPU_ACCT_NOW_CYCLE(t0)
    sd      t1, CPU_ACCT_NOW_CYCLE(t0)
    sub     t4, t1, t4
    ld      t5, CPU_ACCT_CYCLES(t3)
    add     t5, t5, t4
    sd      t5, CPU_ACCT_CYCLES(t3)
    ld      t1, %tprel_lo(cpu_acct_trap + CPU_ACCT_TRAP_INSTRET)(tp)
    addi    t1, t1, -TRAP_ACCT_HEAD     /* at the trap's first instruction */
    ld      t4, CPU_ACCT_NOW_INSTRET(t0)
    sd      t1, CPU_ACCT_NOW_INSTRET(t0)
    sub     t4, t1, t4
    ld      t5, CPU_ACCT_INSTRET(t3)
    add     t5, t5, t4
    sd      t5, CPU_ACCT_INSTRET(t3)
    sd      t6, CPU_ACCT_NOW_OWNER(t0)
    j       4b
    .option pop
