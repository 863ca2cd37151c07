/* CPU accounting totals, the counter unit of an instruction, the CPU
 * clock; the switch itself is inline in cpu_acct.h. */
#include <stdlib.h>
#include "board_info.h"
#include "bootarg_key.h"
#include "clock.h"
#include "cpu_acct.h"
#include "instret_unit.h"
#include "kernel.h"

#define ICOUNT_SHIFT_MAX 10        /* QEMU refuses -icount shift above 10 */
#define ICOUNT_SHIFT_FORMS "0..10 (QEMU's -icount shift; scripts/qemu-run passes it)"
_Static_assert(ICOUNT_SHIFT_MAX == 10, "ICOUNT_SHIFT_FORMS");
#define UNIT_TRIES       3
#define HZ_WINDOW_NS     10000000ULL   /* rdcycle window on real hardware */
#define CLOCK_LOOP       (1U << 16)    /* instructions around which the clock is measured */

HART_LOCAL struct cpu_acct cpu_acct_isr, cpu_acct_idle, cpu_acct_sim, cpu_acct_rx;
HART_LOCAL struct cpu_acct cpu_acct_tasks;
HART_LOCAL struct cpu_acct_now cpu_acct_now;
HART_LOCAL struct cpu_acct_trap cpu_acct_trap;
bool cpu_instret_exact;
unsigned cpu_clock_shift;
static HART_LOCAL struct cpu_acct before_init;   /* early boot's account, never read */
static HART_LOCAL uint64_t boot_cycle, boot_instret;

/* Boot of each hart, interrupts masked, first call: switches before
 * cpu_acct_init (the UART set-up's, through the wire model) charge an
 * account nothing reads. */
void cpu_acct_early_init(void)
{
    cpu_acct_now.owner = &before_init;
}

/* counters_init: log2 of the ns one rdcycle count takes under QEMU
 * -icount (one cycle per 2^shift ns of virtual time), from rdcycle and
 * the timebase around 2^16 straight-line instructions: -1 when the ratio
 * is no power of two (no -icount: host ticks). */
static int cycle_ns_shift(void)
{
    uint64_t t0 = clock_now_ns(), c0 = rdcycle();
    for (unsigned k = 0; k < CLOCK_LOOP; k++)
        __asm__ volatile("");
    uint64_t c1 = rdcycle(), t1 = clock_now_ns();
    return clock_shift_of(t1 - t0, c1 - c0);
}

/* bootargs_check (boot): icount_shift=, 0..ICOUNT_SHIFT_MAX. */
static const char *icount_shift_forms(const char *value)
{
    return bootarg_uint(value, ICOUNT_SHIFT_MAX) ? NULL : ICOUNT_SHIFT_FORMS;
}
BOOTARG_KEY(icount_shift, icount_shift_forms);

/* cpu_acct_init: rdinstret must count retired instructions (a core; the
 * project's QEMU, whose counters patch makes instret exact under
 * -icount); a QEMU that counts 2^shift per instruction (virtual ns, idle
 * time too) is not the project's and is refused. Under -icount the CPU
 * clock's shift is measured and checked against the icount_shift boot
 * argument (what the run says QEMU was given). */
static void counters_init(void)
{
    uint64_t unit = instret_unit();
    char arg[8], *end;

    for (unsigned t = 1; t < UNIT_TRIES && unit; t++)
        if (instret_unit() != unit)
            unit = 0;
    if (board.qemu && unit > 1)
        panic("rdinstret counts %llu per instruction: this QEMU is not the project's (its "
              "instret counts virtual ns); run the one scripts/qemu/build makes "
              "(scripts/qemu-run does)", (unsigned long long)unit);
    cpu_instret_exact = unit == 1;
    int shift = board.qemu && cpu_instret_exact ? cycle_ns_shift() : -1;
    cpu_clock_shift = shift > 0 ? (unsigned)shift : 0;
    if (!bootarg("icount_shift", arg, sizeof arg))
        return;
    long want = strtol(arg, &end, 10);
    if (board.qemu && cpu_instret_exact && want != shift)
        panic("boot argument icount_shift=%ld, but a cycle takes %s ns (QEMU runs with "
              "-icount shift=%d)", want, shift >= 0 ? "2^shift" : "no power of two of", shift);
}

/* Boot of each hart, interrupts masked, the unit known: this hart's
 * accounts, charging its running task from now on. */
void cpu_acct_hart_init(void)
{
    cpu_acct_isr = cpu_acct_idle = cpu_acct_sim = cpu_acct_rx = (struct cpu_acct){ 0 };
    /* (no early boot in any of them) */
    cpu_acct_now.owner = sched_current()->charge;
    boot_cycle = cpu_acct_now.cycle = rdcycle();
    boot_instret = cpu_acct_now.instret = rdinstret();
}

/* Boot, hart 0, interrupts masked. */
void cpu_acct_init(void)
{
    counters_init();
    cpu_acct_hart_init();
}

/* Any task: tasks = everything since boot that was not ISR, RX, idle or
 * simulation. */
void cpu_acct_read(struct cpu_totals *out)
{
    unsigned long f = irq_save();
    cpu_acct_switch_task(cpu_acct_now.owner);
    out->isr = cpu_acct_isr;
    out->idle = cpu_acct_idle;
    out->sim = cpu_acct_sim;
    out->rx = cpu_acct_rx;
    out->tasks.cycles = cpu_acct_now.cycle - boot_cycle - out->isr.cycles -
                        out->idle.cycles - out->sim.cycles - out->rx.cycles;
    out->tasks.instret = cpu_acct_now.instret - boot_instret - out->isr.instret -
                         out->idle.instret - out->sim.instret - out->rx.instret;
    irq_restore(f);
}

/* Any task: hart h's totals, from its instances (another hart's: as of
 * its last switch, read without stopping it). */
void cpu_acct_read_hart(unsigned h, struct cpu_totals *out)
{
    if (h == hart_self()) {
        cpu_acct_read(out);
        return;
    }
    const struct cpu_acct_now *n = hart_local_of(h, &cpu_acct_now);
    out->isr = *(const struct cpu_acct *)hart_local_of(h, &cpu_acct_isr);
    out->idle = *(const struct cpu_acct *)hart_local_of(h, &cpu_acct_idle);
    out->sim = *(const struct cpu_acct *)hart_local_of(h, &cpu_acct_sim);
    out->rx = *(const struct cpu_acct *)hart_local_of(h, &cpu_acct_rx);
    uint64_t c0 = *(const uint64_t *)hart_local_of(h, &boot_cycle);
    uint64_t i0 = *(const uint64_t *)hart_local_of(h, &boot_instret);
    out->tasks.cycles = n->cycle - c0 - out->isr.cycles - out->idle.cycles - out->sim.cycles -
                        out->rx.cycles;
    out->tasks.instret = n->instret - i0 - out->isr.instret - out->idle.instret -
                         out->sim.instret - out->rx.instret;
}

/* Any task (the manifest): the CPU clock and where it comes from. On
 * QEMU with -icount a cycle takes 2^shift ns of virtual time (one
 * instruction, or bus time a device stalls it for), so the virtual CPU
 * runs at 1e9 >> shift Hz; without -icount both counters are host ticks
 * and the clock is unknown; a real core's rdcycle is measured against the
 * timer over 10 ms. */
struct cpu_clock cpu_clock(void)
{
    if (board.qemu && cpu_instret_exact)
        return (struct cpu_clock){ 1000000000ULL >> cpu_clock_shift, "icount", "cpu-cycles" };
    if (board.qemu)
        return (struct cpu_clock){ 0, "unknown", "host-ticks" };
    uint64_t t0 = clock_now_ns(), c0 = rdcycle(), t1, c1;
    while ((t1 = clock_now_ns()) - t0 < HZ_WINDOW_NS)
        ;
    c1 = rdcycle();
    return (struct cpu_clock){ (c1 - c0) * 1000000000ULL / (t1 - t0), "measured", "cpu-cycles" };
}
