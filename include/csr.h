/* CSR names and bits for the privilege the image runs in: PRIV_M (boards
 * without firmware: qemu-virt-m, d1) or PRIV_S (under OpenSBI: qemu-virt).
 * Usable from C and from assembly. */
#ifndef CSR_H
#define CSR_H

#if defined(HOST_TEST) && !defined(__ASSEMBLER__)
/* Host unit tests (x86-64): no CSRs and no privilege. The generic CSR
 * names are fields of host_csr and the interrupt-enable bit is a plain
 * flag; tests/host/fake_kernel.c defines host_csr and host_irq_enabled(),
 * which takes a pending fake interrupt when interrupts get unmasked, and
 * host_spin_hint(), a busy-wait loop's hint in fake time. Only
 * the CSR_X* names work with the csr_* macros here. A test whose threads
 * are harts defines HOST_CSR_PER_THREAD: then each thread has its own
 * host_csr (its own interrupt state), thread-local. */
#include <stdint.h>

struct host_csr {
    unsigned long xstatus, xie, xip, xtvec, xepc, xcause, xtval, xscratch;
    uint64_t time, cycle, instret;
};
#if defined(HOST_CSR_PER_THREAD) || defined(HOST_SMP)
extern _Thread_local struct host_csr host_csr;
#else
extern struct host_csr host_csr;
#endif
void host_irq_enabled(void);
void host_spin_hint(void);

#define CSR_XSTATUS   host_csr.xstatus
#define CSR_XIE       host_csr.xie
#define CSR_XIP       host_csr.xip
#define CSR_XTVEC     host_csr.xtvec
#define CSR_XEPC      host_csr.xepc
#define CSR_XCAUSE    host_csr.xcause
#define CSR_XTVAL     host_csr.xtval
#define CSR_XSCRATCH  host_csr.xscratch
#define XSTATUS_XIE   (1 << 3)
#define XSTATUS_XPIE  (1 << 7)
#define XSTATUS_XPP   (3 << 11)
#define IRQ_XSOFT     3
#define IRQ_XTIMER    7
#define IRQ_XEXT      11
#define PRIV_NAME     "host"
#define CAUSE_INTERRUPT_BIT  (1UL << 63)

#define csr_read(csr) ((unsigned long)(csr))
#define csr_write(csr, val) ((void)((csr) = (unsigned long)(val)))
#define csr_set(csr, bits) ((void)((csr) |= (unsigned long)(bits)))
#define csr_clear(csr, bits) ((void)((csr) &= ~(unsigned long)(bits)))
#define csr_read_clear(csr, bits) ({ unsigned long csr_v_ = (csr); \
    (csr) = csr_v_ & ~(unsigned long)(bits); csr_v_; })

static inline unsigned long irq_save(void)
{
    return csr_read_clear(CSR_XSTATUS, XSTATUS_XIE) & XSTATUS_XIE;
}

static inline void irq_enable(void)
{
    csr_set(CSR_XSTATUS, XSTATUS_XIE);
    host_irq_enabled();
}

static inline void irq_restore(unsigned long flags)
{
    if (flags)
        irq_enable();
}

static inline void cpu_spin_hint(void) { host_spin_hint(); }

static inline uint64_t rdtime(void) { return host_csr.time; }
static inline uint64_t rdcycle(void) { return host_csr.cycle; }
static inline uint64_t rdinstret(void) { return host_csr.instret; }

#else /* target */

#if PRIV_M
#define CSR_XSTATUS   mstatus
#define CSR_XIE       mie
#define CSR_XIP       mip
#define CSR_XTVEC     mtvec
#define CSR_XEPC      mepc
#define CSR_XCAUSE    mcause
#define CSR_XTVAL     mtval
#define CSR_XSCRATCH  mscratch
#define XRET          mret
#define XSTATUS_XIE   (1 << 3)    /* mstatus.MIE */
#define XSTATUS_XPIE  (1 << 7)    /* mstatus.MPIE */
#define XSTATUS_XPP   (3 << 11)   /* mstatus.MPP = M */
#define IRQ_XSOFT     3
#define IRQ_XTIMER    7
#define IRQ_XEXT      11
#define PRIV_NAME     "M"
#elif PRIV_S
#define CSR_XSTATUS   sstatus
#define CSR_XIE       sie
#define CSR_XIP       sip
#define CSR_XTVEC     stvec
#define CSR_XEPC      sepc
#define CSR_XCAUSE    scause
#define CSR_XTVAL     stval
#define CSR_XSCRATCH  sscratch
#define XRET          sret
#define XSTATUS_XIE   (1 << 1)    /* sstatus.SIE */
#define XSTATUS_XPIE  (1 << 5)    /* sstatus.SPIE */
#define XSTATUS_XPP   (1 << 8)    /* sstatus.SPP = S */
#define IRQ_XSOFT     1
#define IRQ_XTIMER    5
#define IRQ_XEXT      9
#define PRIV_NAME     "S"
#else
/* (cppcheck also reaches here from the hosted build's files, through a
 * configuration with the wire model no hosted build has) */
/* cppcheck-suppress preprocessorErrorDirective */
#error "define PRIV_M or PRIV_S (boards/<board>/board.cmake sets BOARD_PRIV)"
#endif

#define CAUSE_INTERRUPT_BIT  (1UL << 63)

#ifndef __ASSEMBLER__
#include <stdint.h>

#define CSR_STR_(x) #x
#define CSR_STR(x) CSR_STR_(x)

#define csr_read(csr) ({ unsigned long csr_v_; \
    __asm__ volatile("csrr %0, " CSR_STR(csr) : "=r"(csr_v_)); csr_v_; })
#define csr_write(csr, val) \
    __asm__ volatile("csrw " CSR_STR(csr) ", %0" :: "rK"((unsigned long)(val)) : "memory")
#define csr_set(csr, bits) \
    __asm__ volatile("csrs " CSR_STR(csr) ", %0" :: "rK"((unsigned long)(bits)) : "memory")
#define csr_clear(csr, bits) \
    __asm__ volatile("csrc " CSR_STR(csr) ", %0" :: "rK"((unsigned long)(bits)) : "memory")
/* Atomically clear bits and return the old value. */
#define csr_read_clear(csr, bits) ({ unsigned long csr_v_; \
    __asm__ volatile("csrrc %0, " CSR_STR(csr) ", %1" : "=r"(csr_v_) \
                     : "rK"((unsigned long)(bits)) : "memory"); csr_v_; })

/* Any context: mask interrupts on this hart, return the previous state. */
static inline unsigned long irq_save(void)
{
    return csr_read_clear(CSR_XSTATUS, XSTATUS_XIE) & XSTATUS_XIE;
}

/* Any context: restore the state irq_save() returned (0 or XSTATUS_XIE:
 * set as it is, no branch; setting 0 changes nothing). */
static inline void irq_restore(unsigned long flags)
{
    csr_set(CSR_XSTATUS, flags);
}

/* Task context: enable interrupts on this hart. */
static inline void irq_enable(void) { csr_set(CSR_XSTATUS, XSTATUS_XIE); }

/* Any context, a busy-wait loop: the spin-loop hint, Zihintpause's PAUSE
 * (FENCE with pred=W, succ=0: 0x0100000F, a no-op where the extension is
 * absent), written as .insn since -march=rv64imac does not name it. */
static inline void cpu_spin_hint(void)
{
    __asm__ volatile(".insn i 0x0F, 0, x0, x0, 0x010");
}

/* Any context: the instruction counters (exact under QEMU -icount). */
static inline uint64_t rdtime(void)
{
    uint64_t v;
    __asm__ volatile("rdtime %0" : "=r"(v));
    return v;
}

static inline uint64_t rdcycle(void)
{
    uint64_t v;
    __asm__ volatile("rdcycle %0" : "=r"(v));
    return v;
}

static inline uint64_t rdinstret(void)
{
    uint64_t v;
    __asm__ volatile("rdinstret %0" : "=r"(v));
    return v;
}
#endif /* !__ASSEMBLER__ */

#endif /* HOST_TEST */

#ifndef __ASSEMBLER__
/* Any context: whether interrupts are enabled on this hart. */
static inline int irq_enabled(void)
{
    return (csr_read(CSR_XSTATUS) & XSTATUS_XIE) != 0;
}
#endif

#endif
