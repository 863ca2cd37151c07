/* IPIs: SBI sPI (S-mode: OpenSBI sets the target's sip.SSIP) or the
 * CLINT's msip word of the target (M-mode). */
#include "board_info.h"
#include "csr.h"
#include "harts.h"
#include "ipi.h"
#include "mmio.h"
#include "sbi.h"

static uint64_t sent[HARTS_MAX], taken[HARTS_MAX];
static void (*on_ipi)(void);          /* ipi_init's handler */

/* ipi_init, ipi_isr, interrupts masked: this hart's IPI no longer pending. */
static void ipi_clear(void)
{
#if PRIV_S
    csr_clear(CSR_XIP, 1UL << IRQ_XSOFT);
#else
    mmio_write32(board.clint_base + 4 * hart_platform_id(hart_self()), 0);
#endif
}

/* Boot of each hart, interrupts masked (the same handler on each: a
 * relaxed store, the boot hart's trap dispatch may load it). */
void ipi_init(void (*handler)(void))
{
    __atomic_store_n(&on_ipi, handler, __ATOMIC_RELAXED);
    ipi_clear();
    csr_set(CSR_XIE, 1UL << IRQ_XSOFT);
}

/* Any context. */
void ipi_send(unsigned h)
{
    unsigned long id = hart_platform_id(h);
    __atomic_fetch_add(&sent[hart_self()], 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);   /* what it announces first */
#if PRIV_S
    sbi_call(SBI_EXT_IPI, SBI_IPI_SEND, 1, (long)id, 0);
#else
    mmio_write32(board.clint_base + 4 * id, 1);
#endif
}

/* A contended spinlock's waiter, interrupts masked (spinlock.h): this
 * hart's own IPI pending (counted as sent), then wfi, which returns at
 * once for it but lets QEMU run the other harts first. */
void spin_relax(void)
{
    __atomic_fetch_add(&sent[hart_self()], 1, __ATOMIC_RELAXED);
#if PRIV_S
    csr_set(CSR_XIP, 1UL << IRQ_XSOFT);
#else
    mmio_write32(board.clint_base + 4 * hart_platform_id(hart_self()), 1);
#endif
    __asm__ volatile("wfi");
}

/* Software interrupt, interrupts masked: cleared before the inbox is
 * read, so an IPI sent after that read interrupts again. */
void ipi_isr(void)
{
    ipi_clear();
    taken[hart_self()]++;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __atomic_load_n(&on_ipi, __ATOMIC_RELAXED)();
}

/* Any context. */
uint64_t ipi_sent(unsigned h)
{
    return __atomic_load_n(&sent[h], __ATOMIC_RELAXED);
}

/* Any context. */
uint64_t ipi_taken(unsigned h)
{
    return __atomic_load_n(&taken[h], __ATOMIC_RELAXED);
}
