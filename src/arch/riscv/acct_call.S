/* uintptr_t cpu_acct_call(struct cpu_acct *to, fn, x, y, z): returns
 * fn(x, y, z), with the CPU account `to` owning the CPU from this
 * function's first instruction up to and including the one that unmasks
 * interrupts again, and interrupts masked meanwhile (the wire model's
 * register hooks: their cost is the simulation's, and the caller pays
 * for its call and the ret; an interrupt taken at the ret finds the
 * accounts consistent). Straight-line code without compressed
 * instructions around the two counter snapshots, so the instructions
 * before the first (CALL_HEAD) and from the second on (CALL_TAIL) are
 * known numbers, checked by the assembler. Cycles are charged at the
 * snapshots themselves. Any context. */
#include "cpu_acct.h"
#include "csr.h"

#define CALL_HEAD 4    /* csrrci, lla (2), rdcycle before the rdinstret */
#define CALL_TAIL 9    /* the second rdinstret up to and including csrs */

    .section .text.acct_call, "ax"
    .option push
    .option norvc
    .option norelax

    .globl  cpu_acct_call
cpu_acct_call:
    csrrci  t6, CSR_XSTATUS, XSTATUS_XIE
    lla     t0, cpu_acct_now
    rdcycle t1
1:  rdinstret t2
    .if (1b - cpu_acct_call) != CALL_HEAD * 4
    .error "CALL_HEAD does not match the code"
    .endif
    addi    t2, t2, -CALL_HEAD
    ld      t3, CPU_ACCT_NOW_OWNER(t0)  /* the caller's account */
    sd      a0, CPU_ACCT_NOW_OWNER(t0)
    ld      t4, CPU_ACCT_NOW_CYCLE(t0)
    sd      t1, CPU_ACCT_NOW_CYCLE(t0)
    sub     t1, t1, t4
    ld      t4, CPU_ACCT_CYCLES(t3)
    add     t4, t4, t1
    sd      t4, CPU_ACCT_CYCLES(t3)
    ld      t4, CPU_ACCT_NOW_INSTRET(t0)
    sd      t2, CPU_ACCT_NOW_INSTRET(t0)
    sub     t2, t2, t4
    ld      t4, CPU_ACCT_INSTRET(t3)
    add     t4, t4, t2
    sd      t4, CPU_ACCT_INSTRET(t3)

    addi    sp, sp, -32
    sd      ra, 0(sp)
    sd      t3, 8(sp)
    sd      t6, 16(sp)
    mv      t5, a1
    mv      a0, a2
    mv      a1, a3
    mv      a2, a4
    jalr    t5
    ld      ra, 0(sp)
    ld      t3, 8(sp)
    ld      t6, 16(sp)
    addi    sp, sp, 32

    lla     t0, cpu_acct_now
    ld      t1, CPU_ACCT_NOW_OWNER(t0)  /* `to` */
    sd      t3, CPU_ACCT_NOW_OWNER(t0)
    rdcycle t2
    ld      t4, CPU_ACCT_NOW_CYCLE(t0)
    sd      t2, CPU_ACCT_NOW_CYCLE(t0)
    sub     t2, t2, t4
    ld      t4, CPU_ACCT_CYCLES(t1)
    add     t4, t4, t2
    sd      t4, CPU_ACCT_CYCLES(t1)
    andi    t6, t6, XSTATUS_XIE
2:  rdinstret t2
    addi    t2, t2, CALL_TAIL
    ld      t4, CPU_ACCT_NOW_INSTRET(t0)
    sd      t2, CPU_ACCT_NOW_INSTRET(t0)
    sub     t2, t2, t4
    ld      t4, CPU_ACCT_INSTRET(t1)
    add     t4, t4, t2
    sd      t4, CPU_ACCT_INSTRET(t1)
3:  csrs    CSR_XSTATUS, t6
    ret
    .globl  cpu_acct_call_end           /* for selftest=acct */
cpu_acct_call_end:
    .if (3b - 2b) != (CALL_TAIL - 1) * 4
    .error "CALL_TAIL does not match the code"
    .endif
    .option pop
