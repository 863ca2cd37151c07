/* Power off at the end of a run, polled (any context, panic included):
 * the status reaches QEMU's exit code through the sifive test finisher;
 * SBI system reset is the fallback; otherwise park. The task-level exit
 * that drains first is exit.c's. A leaf under panic: the clock it bounds
 * its wait with (the kernel's time, whose timers panic) is handed to it
 * at boot. */
#include "board_info.h"
#include "console.h"
#include "csr.h"
#include "kernel.h"
#include "mmio.h"
#include "sbi.h"

#define FINISHER_PASS 0x5555U   /* sifive,test1: exit(0) */
#define FINISHER_FAIL 0x3333U   /* sifive,test1: exit(code), code in [31:16] */

#define EXIT_IDLE_SLACK_NS 1000000ULL   /* beyond a full FIFO's line time */

void hart_park(void) __attribute__((noreturn));

static uint64_t (*power_clock)(void);   /* power_clock_from's: clock_now_ns */

/* Boot, hart 0, interrupts masked (kmain, first). */
void power_clock_from(uint64_t (*now)(void))
{
    power_clock = now;
}

/* power_off, interrupts masked: wait for the console's last stop bit,
 * but no longer than a full FIFO and the shifter take, twice, plus slack:
 * a transmitter that never reports empty (fault=temt-stuck, a broken
 * UART) must not turn the exit, or a panic, into a silent hang. */
static void wait_idle_bounded(const struct console_sink *s)
{
    if (!power_clock)       /* (none before kmain's first line) */
        return;
    uint64_t end = power_clock() + EXIT_IDLE_SLACK_NS +
                   2 * console_char_ns() * (console_fifo_depth() + 1U);
    while (!s->tx_idle() && power_clock() < end)
        ;
}

/* Any context (panic, kernel_exit): end the run, polled. */
void power_off(int code)
{
    const struct console_sink *s = console_sink();
    irq_save();
    if (s) {
        s->flush_polled();
        wait_idle_bounded(s);
    }
    if (board.test_device) {
        mmio_write32(board.test_device,
                     code ? ((uint32_t)code << 16) | FINISHER_FAIL : FINISHER_PASS);
    }
#if PRIV_S
    sbi_call(SBI_EXT_SRST, 0, SBI_SRST_SHUTDOWN,
             code ? SBI_SRST_REASON_FAILURE : SBI_SRST_REASON_NONE, 0);
#endif
    hart_park();
}
