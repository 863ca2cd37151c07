/* End of a run: the status reaches QEMU's exit code through the sifive
 * test finisher; SBI system reset is the fallback; otherwise park. */
#include "board_info.h"
#include "clock.h"
#include "console.h"
#include "csr.h"
#include "kernel.h"
#include "mmio.h"
#include "sbi.h"
#include "timer.h"

#define FINISHER_PASS 0x5555U   /* sifive,test1: exit(0) */
#define FINISHER_FAIL 0x3333U   /* sifive,test1: exit(code), code in [31:16] */

#define EXIT_IDLE_SLACK_NS 1000000ULL   /* beyond a full FIFO's line time */

void hart_park(void) __attribute__((noreturn));

/* kernel_exit, interrupts masked: wait for the console's last stop bit,
 * but no longer than a full FIFO and the shifter take, twice, plus slack:
 * a transmitter that never reports empty (fault=temt-stuck, a broken
 * UART) must not turn the exit, or a panic, into a silent hang. */
static void wait_idle_bounded(const struct console_sink *s)
{
    uint64_t end = clock_now_ns() + EXIT_IDLE_SLACK_NS +
                   2 * console_char_ns() * (console_fifo_depth() + 1U);
    while (!s->tx_idle() && clock_now_ns() < end)
        ;
}

/* kernel_exit, a task with interrupts on: let the driver send what it
 * has queued (its interrupt or its task does), a character time at a
 * time while bytes are pending, for at most twice their line time plus
 * slack. Not tcdrain: a design's drain may have no bound of its own (the
 * copier's, as StarryOS's), and a line that never reports empty
 * (fault=temt-stuck) must not hang the exit. */
static void drain_bounded(const struct console_sink *s)
{
    uint64_t char_ns = console_char_ns();
    uint64_t end = clock_now_ns() + EXIT_IDLE_SLACK_NS +
                   2 * char_ns * (s->tx_pending() + console_fifo_depth() + 1U);
    while (s->tx_pending() && clock_now_ns() < end)
        sleep_for(char_ns);
}

/* Any context: end the run. From a task with interrupts on, buffered
 * output (stdio's) goes to the console and drains normally, within a
 * bound; otherwise (panic) the console's queue is flushed polled. */
void kernel_exit(int code)
{
    const struct console_sink *s = console_sink();
    if (csr_read(CSR_XSTATUS) & XSTATUS_XIE) {
        console_run_at_exit();
        if (s)
            drain_bounded(s);
    }
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
