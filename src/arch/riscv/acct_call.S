/* uintptr_t cpu_acct_call(x, y, z, struct cpu_acct *to, fn): returns
 * fn(x, y, z) (x, y, z stay in a0-a2, so a caller's thunk only loads to
 * and fn), with the CPU account `to` owning the CPU from this
 * function's first instruction up to and including the one that unmasks
 * interrupts again, and interrupts masked meanwhile (the wire model's
 * register hooks: their cost is the simulation's, and the caller pays
 * for its call and the ret; an interrupt taken at the ret finds the
 * accounts consistent). Straight-line code without compressed
 * instructions around the two counter snapshots, so the instructions
 * before the first (CALL_ACCT_HEAD) and from the second on
 * (CALL_ACCT_TAIL) are known numbers, checked by the assembler. Only
 * rdinstret is read; cycles are charged the same count (cpu_acct.h says
 * why). Any context. */
#include "cpu_acct.h"
#include "csr.h"

    .section .text.acct_call, "ax"
    .option push
    .option norvc
    .option norelax

    .globl  cpu_acct_call
cpu_acct_call:
    csrrci  t6, CSR_XSTATUS, XSTATUS_XIE
    addi    t0, tp, %tprel_lo(cpu_acct_now)   /* this hart's (sections.ld: in reach) */
1:  rdinstret t2
    .if (1b - cpu_acct_call) != CALL_ACCT_HEAD * 4
    .error "CALL_ACCT_HEAD does not match the code"
    .endif
    addi    t2, t2, -CALL_ACCT_HEAD     /* at this function's first instruction */
    ld      t3, CPU_ACCT_NOW_OWNER(t0)  /* the caller's account */
    sd      a3, CPU_ACCT_NOW_OWNER(t0)
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

    addi    sp, sp, -32
    sd      ra, 0(sp)
    sd      t3, 8(sp)
    sd      t6, 16(sp)
    jalr    a4
    ld      ra, 0(sp)
    ld      t3, 8(sp)
    ld      t6, 16(sp)
    addi    sp, sp, 32

    addi    t0, tp, %tprel_lo(cpu_acct_now)   /* this hart's (sections.ld: in reach) */
    ld      t1, CPU_ACCT_NOW_OWNER(t0)  /* `to` */
    sd      t3, CPU_ACCT_NOW_OWNER(t0)
    andi    t6, t6, XSTATUS_XIE
2:  rdinstret t2
    addi    t2, t2, CALL_ACCT_TAIL      /* up to and including the csrs */
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
3:  csrs    CSR_XSTATUS, t6
    ret
    .globl  cpu_acct_call_end           /* for selftest=acct */
cpu_acct_call_end:
    .if (3b - 2b) != (CALL_ACCT_TAIL - 1) * 4
    .error "CALL_ACCT_TAIL does not match the code"
    .endif
    .option pop
