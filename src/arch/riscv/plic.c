/* Platform-Level Interrupt Controller: each hart's context in the
 * image's privilege mode; a source is enabled in the context of the hart
 * that registers it (the UART: hart 0's), so it interrupts that hart
 * only. */
#include <errno.h>
#include "board_info.h"
#include "cpu_acct.h"
#include "csr.h"
#include "harts.h"
#include "kernel.h"
#include "mmio.h"
#include "plic.h"

#define PLIC_PRIORITY(irq)     (board.plic_base + 4UL * (irq))
#define PLIC_ENABLE(ctx, irq)  (board.plic_base + 0x2000UL + 0x80UL * (ctx) + 4UL * ((irq) / 32))
#define PLIC_THRESHOLD(ctx)    (board.plic_base + 0x200000UL + 0x1000UL * (ctx))
#define PLIC_CLAIM(ctx)        (PLIC_THRESHOLD(ctx) + 4)
#define PLIC_TABLE             256U /* handler slots: sources 1..255 (a power of two) */
#define PLIC_CTRL_S_ACCESS     1U   /* T-Head PLIC_CTRL: S-mode may access */

struct irq_slot {
    irq_handler_t fn;
    void *arg;
};

/* Indexed by source; a slot without a handler (slot 0, no source,
 * among them) holds no_handler and its own number (plic_init). */
static struct irq_slot handlers[PLIC_TABLE];
_Static_assert((PLIC_TABLE & (PLIC_TABLE - 1)) == 0, "serve masks a claim to the table");
static HART_LOCAL uint32_t ctx;   /* this hart's context in this privilege mode */
/* Its claim/complete register, which the interrupt path reads and
 * writes through this pointer (the set-up goes through mmio.h). */
static HART_LOCAL volatile uint32_t *claim_reg;

/* Boot of each hart, interrupts masked: nothing assumed about what
 * firmware or boot ROM left: every source of this hart's context
 * disabled, threshold 0. */
void plic_hart_init(void)
{
    ctx = board.plic_context +
          board.plic_contexts_per_hart * (uint32_t)hart_platform_id(hart_self());
    claim_reg = (volatile uint32_t *)PLIC_CLAIM(ctx);
    for (uint32_t irq = 0; irq <= board.plic_nsources; irq += 32)
        mmio_write32(PLIC_ENABLE(ctx, irq), 0);
    mmio_write32(PLIC_THRESHOLD(ctx), 0);
    csr_set(CSR_XIE, 1UL << IRQ_XEXT);
}

/* plic_isr (through a slot without a handler), interrupts masked: the
 * slot's number in arg. */
static __attribute__((noreturn)) void no_handler(void *arg)
{
    panic("PLIC: interrupt %lu has no handler", (unsigned long)(uintptr_t)arg);
}

/* Boot, hart 0, interrupts masked: every slot's no_handler, S-mode
 * access where the PLIC needs it, then hart 0's context. */
void plic_init(void)
{
    for (uintptr_t i = 0; i < PLIC_TABLE; i++)
        handlers[i] = (struct irq_slot){ no_handler, (void *)i };
    if (board.plic_ctrl)
        mmio_write32(board.plic_ctrl, PLIC_CTRL_S_ACCESS);
    plic_hart_init();
}

/* Boot or task: the source is enabled in this hart's context only. */
int irq_register(uint32_t irq, irq_handler_t fn, void *arg)
{
    if (irq == 0 || irq > board.plic_nsources || irq >= PLIC_TABLE || !fn)
        return -EINVAL;
    unsigned long f = irq_save();
    handlers[irq] = (struct irq_slot){ fn, arg };
    mmio_write32(PLIC_PRIORITY(irq), 1);
    uintptr_t en = PLIC_ENABLE(ctx, irq);
    mmio_write32(en, mmio_read32(en) | (1U << (irq % 32)));
    mmio_write32(PLIC_CLAIM(ctx), irq);   /* release a stale claim */
    irq_restore(f);
    return 0;
}

/* plic_isr, later_claims, interrupts masked: this hart's next claim at
 * its claim register (0: none), as lw leaves it (sign-extended: GCC's
 * own volatile load adds a sext.w, and serve's mask another). */
static inline __attribute__((always_inline)) unsigned long claim_next(volatile uint32_t *claim)
{
    unsigned long c;
    __asm__ volatile("lw %0, %1" : "=r"(c) : "m"(*claim) : "memory");
    return c;
}

/* plic_isr, interrupts masked: run claimed source irq's handler and
 * complete it at this hart's claim register `claim` (kept across the
 * call with irq: the frame saves two registers whatever it keeps, since
 * the linker's relaxation of a thread-local address leaves the register
 * GCC reserved for it saved). The claim is masked to the table: only
 * the table's sources are enabled (irq_register), so a PLIC claims no
 * other, and any value stays in bounds (a slot without a handler
 * panics). The completion is the claimed number, stored as the word's
 * low half (a C store of a uint32_t would extend it first). */
static inline __attribute__((always_inline)) void serve(volatile uint32_t *claim,
                                                       unsigned long irq)
{
    const struct irq_slot *h = &handlers[irq & (PLIC_TABLE - 1)];
    h->fn(h->arg);
    __asm__ volatile("sw %1, %0" : "=m"(*claim) : "r"(irq) : "memory");
}

/* plic_isr, interrupts masked: source irq, claimed after the trap's
 * first, and any after it; each starts on the ISR account (a handler may
 * have made another account the owner of its own claim:
 * cpu_acct_retag). Out of line: the first claim's path stays as short. */
static __attribute__((noinline, cold)) void later_claims(unsigned long irq)
{
    do {
        cpu_acct_switch(&cpu_acct_isr);
        serve(claim_reg, irq);
        irq = claim_next(claim_reg);
    } while (irq);
}

/* plic_isr, interrupts masked, no claim: an interrupt trap.S sent here
 * by bit 3 of its cause that is not the external one (none is enabled:
 * the panic, not a trap taken again for ever). */
static __attribute__((noinline, cold)) void not_external(unsigned long cause)
{
    if ((cause << 1) != 2UL * IRQ_XEXT)
        panic("unexpected interrupt: cause %#lx", cause);
}

/* External interrupt (trap.S, the trap's cause in `cause`), interrupts
 * masked: claim, run the source's handler, complete, until nothing is
 * pending (the claims after the first in later_claims). */
void plic_isr(unsigned long cause)
{
    volatile uint32_t *claim = claim_reg;
    unsigned long irq = claim_next(claim);

    if (__builtin_expect(!irq, 0)) {
        not_external(cause);
        return;
    }
    serve(claim, irq);
    irq = claim_next(claim);
    if (__builtin_expect(irq != 0, 0))
        later_claims(irq);
}
