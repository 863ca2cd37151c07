/* For assembly only: the entry of a charged call (cpu_acct.h's
 * cpu_acct_sim_call; its body is cpu_acct_call in acct_call.S). */
#ifndef ACCT_CALL_H
#define ACCT_CALL_H

#include "cpu_acct.h"
#include "csr.h"

/* A charged call's entry `name`, running fn(a0, a1, a2) on the sim
 * account (cpu_acct_call in acct_call.S; callers: cpu_acct_sim_call):
 * it masks interrupts first, so that no interrupt falls between the
 * caller's jal and the entry snapshot, and opens the frame. */
.macro ACCT_CALL_ENTRY name, fn
    .globl  \name
    .type   \name, @function
\name:
    .option push
    .option norvc
    .option norelax
    csrrci  t1, CSR_XSTATUS, XSTATUS_XIE
    addi    sp, sp, -ACCT_CALL_FRAME
    sd      a4, ACCT_CALL_A4(sp)
    lla     a4, \fn
1:  j       cpu_acct_call               /* one jal (an external target: no size here) */
    .option pop
    .size   \name, . - \name
    .if (1b - \name) != (ACCT_CALL_ENTRY_LEN - 1) * 4
    .error "ACCT_CALL_ENTRY_LEN does not match the code"
    .endif
.endm

#endif
