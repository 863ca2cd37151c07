/* SBI ecall wrapper for S-mode images. */
#include "sbi.h"

/* Any context (S-mode): ecall with extension ext, function fid. */
struct sbiret sbi_call(long ext, long fid, long a0, long a1, long a2)
{
    register long r_a0 __asm__("a0") = a0;
    register long r_a1 __asm__("a1") = a1;
    register long r_a2 __asm__("a2") = a2;
    register long r_a6 __asm__("a6") = fid;
    register long r_a7 __asm__("a7") = ext;
    __asm__ volatile("ecall"
                     : "+r"(r_a0), "+r"(r_a1)
                     : "r"(r_a2), "r"(r_a6), "r"(r_a7)
                     : "memory");
    return (struct sbiret){ r_a0, r_a1 };
}
