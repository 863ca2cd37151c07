/* IPIs: SBI sPI (S-mode: OpenSBI sets the target's sip.SSIP) or the
 * CLINT's msip word of the target (M-mode). */
#include "board_info.h"
#include "csr.h"
#include "harts.h"
#include "ipi.h"
#include "mmio.h"
#include "sbi.h"
#include "scheduler.h"

static uint64_t sent[HARTS_MAX], taken[HARTS_MAX];

/* ipi_init, ipi_isr, interrupts masked: this hart's IPI no longer pending. */
static void ipi_clear(void)
{
#if PRIV_S
    csr_clear(CSR_XIP, 1UL << IRQ_XSOFT);
#else
    mmio_write32(board.clint_base + 4 * hart_platform_id(hart_self()), 0);
#endif
}

/* Boot of each hart, interrupts masked. */
void ipi_init(void)
{
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

/* Software interrupt, interrupts masked: cleared before the inbox is
 * read, so an IPI sent after that read interrupts again. */
void ipi_isr(void)
{
    ipi_clear();
    taken[hart_self()]++;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    sched_ipi();
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
