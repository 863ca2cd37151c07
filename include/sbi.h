/* SBI calls (S-mode images only, under OpenSBI). */
#ifndef SBI_H
#define SBI_H

#include <stdint.h>

#define SBI_EXT_TIME 0x54494D45L   /* "TIME" */
#define SBI_EXT_SRST 0x53525354L   /* "SRST" */
#define SBI_EXT_HSM  0x48534DL     /* "HSM" */
#define SBI_HSM_HART_START 0
#define SBI_EXT_IPI  0x735049L    /* "sPI" */
#define SBI_IPI_SEND 0             /* a0 = hart mask, a1 = mask base */
#define SBI_SRST_SHUTDOWN 0
#define SBI_SRST_REASON_NONE 0
#define SBI_SRST_REASON_FAILURE 1

struct sbiret { long error; long value; };

/* Any context: one ecall to the SBI firmware. */
struct sbiret sbi_call(long ext, long fid, long a0, long a1, long a2);

#endif
