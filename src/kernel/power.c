/* End of a run: the status reaches QEMU's exit code through the sifive
 * test finisher; SBI system reset is the fallback; otherwise park. */
#include "board_info.h"
#include "clock.h"
#include "csr.h"
#include "kernel.h"
#include "mmio.h"
#include "sbi.h"
#include "timer.h"
#include "uart_backend.h"

#define FINISHER_PASS 0x5555U   /* sifive,test1: exit(0) */
#define FINISHER_FAIL 0x3333U   /* sifive,test1: exit(code), code in [31:16] */

#define EXIT_IDLE_SLACK_NS 1000000ULL   /* beyond a full FIFO's line time */

void hart_park(void) __attribute__((noreturn));

/* kernel_exit, interrupts masked: wait for the last stop bit (LSR.TEMT),
 * but no longer than a full FIFO and the shifter take, twice, plus slack:
 * a transmitter that never reports empty (fault=temt-stuck, a broken
 * UART) must not turn the exit, or a panic, into a silent hang. */
static void wait_idle_bounded(void)
{
    struct uart_info u;
    uart_be_info(&u);
    uart_be_wait_idle(EXIT_IDLE_SLACK_NS + 2 * u.char_ns * (u.fifo_depth + 1U));
}

/* kernel_exit, a task with interrupts on: let the driver send what it
 * has queued (its interrupt or its task does), a character time at a
 * time while bytes are pending, for at most twice their line time plus
 * slack. Not tcdrain: a design's drain may have no bound of its own (the
 * copier's, as StarryOS's), and a line that never reports empty
 * (fault=temt-stuck) must not hang the exit. */
static void drain_bounded(void)
{
    struct uart_info u;
    uart_be_info(&u);
    uint64_t end = clock_now_ns() + EXIT_IDLE_SLACK_NS +
                   2 * u.char_ns * (uart_be_tx_pending() + u.fifo_depth + 1U);
    while (uart_be_tx_pending() && clock_now_ns() < end)
        sleep_for(u.char_ns);
}

/* Any context: end the run. From a task with interrupts on, queued
 * output drains normally, within a bound; otherwise (panic) it is
 * flushed polled. */
void kernel_exit(int code)
{
    if (csr_read(CSR_XSTATUS) & XSTATUS_XIE) {
        console_flush();
        drain_bounded();
    }
    irq_save();
    uart_be_flush_polled();
    wait_idle_bounded();
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
