/* S40: the TX counters at the end of the run, in the original's groups,
 * plus ours (interrupts, RX errors, drain waits) and the wire model's
 * own figures. The console backend has none: ENOTTY, as the original.
 * Where the platform keeps TX counters of its own (StarryOS's driver
 * under the hosted build: bench_txdbg_snapshot), they follow in the same
 * groups under the original's names. */
#include <errno.h>
#include <stdio.h>
#include "bench.h"
#include "posix_io.h"
#include "wire_model.h"

#define U(x) ((unsigned long long)(x))

/* Section task: the original's sixteen TX counters, ` name=value`. */
static void print_original_fields(const struct uart_counters *c)
{
    printf(" user_calls=%llu user_req=%llu user_acc=%llu ring_pop_calls=%llu ring_pop_bytes=%llu "
           "hw_send_calls=%llu hw_send_bytes=%llu hw_send_zero=%llu hw_send_max_chunk=%llu "
           "no_progress_budget=%llu slow_poll_exh=%llu yield_exh=%llu ring_empty=%llu "
           "copier_active=%llu staged_bytes=%llu transmitter_empty=%llu",
           U(c->user_calls), U(c->user_req), U(c->user_acc), U(c->ring_pop_calls),
           U(c->ring_pop_bytes), U(c->hw_send_calls), U(c->hw_send_bytes), U(c->hw_send_zero),
           U(c->hw_send_max_chunk), U(c->no_progress_budget), U(c->slow_poll_exh),
           U(c->yield_exh), U(c->ring_empty), U(c->copier_active), U(c->staged_bytes),
           U(c->transmitter_empty));
}

/* Section task (also used by S11, S41...): all counters, one line. */
void bench_print_counter_fields(const struct uart_counters *c)
{
    print_original_fields(c);
    printf(" tx_irqs=%llu queued_at_reset=%llu\n", U(c->tx_irqs), U(c->queued_at_reset));
}

/* Section task (S11, S41): the platform's own counters, one line. */
void bench_print_txdbg_fields(const struct uart_counters *c)
{
    print_original_fields(c);
    printf("\n");
}

/* s40_counters: the original's five groups of c; ours adds the TX ring's
 * level at the last reset (queued_at_reset), which StarryOS's lack. */
static void print_groups(const struct uart_counters *c, bool ours)
{
    char q[40] = "";

    if (ours)
        snprintf(q, sizeof q, " queued_at_reset=%llu", U(c->queued_at_reset));
    printf("  counter=user-push user_calls=%llu user_req=%llu user_acc=%llu%s\n",
           U(c->user_calls), U(c->user_req), U(c->user_acc), q);
    printf("  counter=ring-pop ring_pop_calls=%llu ring_pop_bytes=%llu\n",
           U(c->ring_pop_calls), U(c->ring_pop_bytes));
    printf("  counter=hw-send hw_send_calls=%llu hw_send_bytes=%llu hw_send_zero=%llu "
           "hw_send_max_chunk=%llu\n", U(c->hw_send_calls), U(c->hw_send_bytes),
           U(c->hw_send_zero), U(c->hw_send_max_chunk));
    printf("  counter=no-progress no_progress_budget=%llu slow_poll_exh=%llu yield_exh=%llu\n",
           U(c->no_progress_budget), U(c->slow_poll_exh), U(c->yield_exh));
    printf("  counter=drain-state ring_empty=%llu copier_active=%llu staged_bytes=%llu "
           "transmitter_empty=%llu%s\n", U(c->ring_empty), U(c->copier_active),
           U(c->staged_bytes), U(c->transmitter_empty), q);
}

/* Section task. */
enum bench_status s40_counters(void)
{
    struct uart_counters c;
    struct wire_stats w;
    int rc = ioctl(bench.fd, UART_IOC_GET_COUNTERS, &c);
    int err = rc ? errno : 0;

    wire_model_stats(&w);
    printf("  telemetry_available=%d ioctl_rc=%d ioctl_errno=%d backend=%s\n", rc == 0, rc, err,
           uart_be_name);
    if (rc == 0) {
        char bpi[24];
        print_groups(&c, true);
        printf("  counter=irq tx_irqs=%llu rx_irqs=%llu spurious_irqs=%llu busy_detect=%llu "
               "bytes_per_tx_irq=%s\n", U(c.tx_irqs), U(c.rx_irqs), U(c.spurious_irqs),
               U(c.busy_detect),
               bench_milli(bpi, sizeof bpi, c.tx_irqs ? c.hw_send_bytes * 1000 / c.tx_irqs : 0));
        printf("  counter=rx rx_bytes=%llu rx_dropped=%llu rx_overruns=%llu rx_framing=%llu "
               "rx_parity=%llu rx_breaks=%llu rx_deferred=%llu\n", U(c.rx_bytes),
               U(c.rx_dropped), U(c.rx_overruns), U(c.rx_framing), U(c.rx_parity),
               U(c.rx_breaks), U(c.rx_deferred));
        printf("  counter=drain drain_calls=%llu drain_timer_waits=%llu drain_timeouts=%llu "
               "writer_blocks=%llu\n", U(c.drain_calls), U(c.drain_timer_waits),
               U(c.drain_timeouts), U(c.writer_blocks));
        printf("  proxy=derived status=ok hw_send_zero_per_kb=%llu\n",
               U(c.hw_send_bytes ? c.hw_send_zero * 1024 / c.hw_send_bytes : 0));
    } else {
        printf("  proxy=derived status=not-available reason=ioctl-errno-%d\n", err);
        struct uart_counters t;
        if (bench_txdbg_snapshot(&t) == 0) {
            printf("  txdbg_available=1 ioctl_rc=0 source=uart-txdbg-snapshot\n");
            print_groups(&t, false);
        }
    }
    printf("  counter=wire-model baud=%llu fifo=%llu bytes=%llu lost=%llu thre_irqs=%llu "
           "calls=%llu instret=%llu cycles=%llu\n", U(w.baud), U(w.fifo), U(w.bytes), U(w.lost),
           U(w.thre_irqs), U(w.calls), U(w.instret), U(w.cycles));
    /* Counters are part of the async design; ENOTTY is the console's answer. */
    if (bench.async)
        return rc == 0 ? BENCH_PASS : bench_fail("counters-errno-%d", err);
    return rc != 0 && err == ENOTTY ? BENCH_PASS : bench_fail("counters-not-enotty");
}
