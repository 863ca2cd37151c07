/* The harts. M-mode images: every hart enters _start and all but hart 0
 * wait in hart_wait (start.S). S-mode images: OpenSBI keeps the other
 * harts in its HSM wait loop, which on QEMU 7.2 spins with an IPI pending
 * (wfi returns at once), so under icount their instructions would drive
 * the virtual clock; the boot hart moves each of them into hart_wait_s
 * with SBI HSM hart_start at boot, where they sleep in wfi with only the
 * software interrupt enabled. harts_release then hands each its stack and
 * TLS block and lets it into hart_main (src/kernel/hart_main.c): its own
 * trap vector, accounts, timer, PLIC context and scheduler, and the IPI
 * that wakes it. The waiting for them is the kernel's (harts_release,
 * src/kernel/hart_main.c). */
#include <stdbool.h>
#include <stdint.h>
#include "board_info.h"
#include "csr.h"
#include "harts.h"
#include "ipi.h"
#include "kernel.h"
#include "sbi.h"

#define HART_STACK_WORDS 1024        /* a secondary's boot stack: 8 KiB */
#define HART_TLS_BYTES   1024        /* a secondary's TLS block */
#define RELEASE_GRACE_NS 1000000ULL   /* M-mode: the harts started at reset arrive */

void hart_wait_s(void);
extern volatile uint32_t harts_parked, harts_waiting, harts_go;   /* start.S */
extern char __tls_base[], __tls_size[];                             /* sections.ld */

HART_LOCAL unsigned hart_self_index;
uintptr_t harts_tp[HARTS_MAX];
uintptr_t harts_sp[HARTS_MAX];
unsigned long hart_ids[HARTS_MAX];        /* harts.h: hart_platform_id */
static volatile uint32_t online = 1;
volatile uint8_t harts_many_flag;       /* harts.h: harts_many (a byte: one load, one branch) */
static unsigned moved_in;   /* S-mode: harts HSM started (they arrive later) */
static uint64_t stacks[HARTS_MAX - 1][HART_STACK_WORDS] __attribute__((aligned(16)));
static uint8_t tls_blocks[HARTS_MAX - 1][HART_TLS_BYTES] __attribute__((aligned(64)));

/* Boot, interrupts masked: remember the boot hart; in S-mode move the
 * others from the board's first S-mode hart on into hart_wait_s, giving
 * each the next index. Returns how many were moved. */
unsigned harts_init(unsigned long boot_hartid)
{
    unsigned moved = 0;

    hart_ids[0] = boot_hartid;
    harts_tp[0] = (uintptr_t)__tls_base;
#if PRIV_S
    for (unsigned long h = board.hart_first; h < HARTS_MAX && moved + 1 < HARTS_MAX; h++)
        if (h != boot_hartid &&
            sbi_call(SBI_EXT_HSM, SBI_HSM_HART_START, (long)h, (long)hart_wait_s,
                     (long)moved + 1).error == 0)
            hart_ids[++moved] = h;
    moved_in = moved;
#else
    for (unsigned h = 1; h < HARTS_MAX; h++)
        hart_ids[h] = h;   /* M-mode: index = mhartid */
#endif
    return moved;
}

/* harts_release (src/kernel/hart_main.c), boot hart, main task: how
 * long to idle before the harts can be counted (M-mode: every hart started
 * at reset, but QEMU may not have run the others yet, a busy hart 0
 * keeping them waiting: one idle period lets them reach hart_wait; S-mode:
 * none, harts_started says whom to wait for). */
uint64_t harts_settle_ns(void)
{
#if PRIV_M
    return RELEASE_GRACE_NS;
#else
    return 0;
#endif
}

/* harts_release: the harts HSM started at boot (S-mode), which reach
 * hart_wait later; 0 in M-mode. */
unsigned harts_started(void)
{
    return moved_in;
}

/* harts_release: the harts in hart_wait now. */
unsigned harts_waiting_count(void)
{
    return (unsigned)__builtin_popcount(__atomic_load_n(&harts_waiting, __ATOMIC_ACQUIRE));
}

/* harts_release, boot hart, main task: hand each waiting hart its stack
 * and TLS block and let it into hart_main; returns the harts that will
 * be online, this one included (harts_online reaches it). */
unsigned harts_go_all(void)
{
    if ((uintptr_t)__tls_size > HART_TLS_BYTES)
        panic("TLS block of %lu bytes: a hart has %u", (unsigned long)(uintptr_t)__tls_size,
              HART_TLS_BYTES);
    uint32_t waiting = harts_waiting;
    unsigned want = 1;
    for (unsigned h = 1; h < HARTS_MAX; h++) {
        harts_tp[h] = (uintptr_t)tls_blocks[h - 1];   /* zeroed with .bss */
        harts_sp[h] = (uintptr_t)&stacks[h - 1][HART_STACK_WORDS];
        want += waiting >> h & 1;
    }
    if (want == 1)
        return 1;
    __atomic_store_n(&harts_go, 1, __ATOMIC_SEQ_CST);
    for (unsigned h = 1; h < HARTS_MAX; h++)
        if (waiting >> h & 1)
            ipi_send(h);
    return want;
}

/* hart_main (src/kernel/hart_main.c) on released hart index, interrupts
 * masked: the bottom of its boot stack (its scheduler's main task). */
void *harts_stack_bottom(unsigned index)
{
    return stacks[index - 1];
}

/* hart_main on a released hart, interrupts masked, its kernel up: it
 * counts as online (harts_release waits for every one). */
void harts_arrived(void)
{
    __atomic_fetch_add(&online, 1, __ATOMIC_RELEASE);
}

/* Any context: the id of the hart that runs the kernel. */
unsigned long harts_boot_id(void)
{
    return hart_ids[0];
}

/* Any task (the manifest): the harts the platform started, the boot hart
 * and those that reached hart_wait (1 on the D1). Counted by the harts
 * themselves: no walk of the device tree, whose size grows with the hart
 * count (boot work that depends on it shifts the timer phase of a
 * one-hart run). */
unsigned harts_count(void)
{
    return 1U + harts_parked;
}

/* Any context: the harts running the kernel. */
unsigned harts_online(void)
{
    return __atomic_load_n(&online, __ATOMIC_ACQUIRE);
}

/* task_spawn_on (on, any task) or hart 0's task (off) (harts.h): the
 * flag, ordered before the task placed next (on) and after the ends of
 * those hart 0 waited for (off). */
void harts_share(bool on)
{
    __atomic_store_n(&harts_many_flag, on && harts_online() > 1, __ATOMIC_SEQ_CST);
}
