/* The copier engine's RX side (engine_copier.c is its TX side): StarryOS's
 * "uart-rx-copier" re-created (crates/uart_16550/src/async_/isr.rs and
 * driver.rs). An RX cause masks the RX interrupt and wakes the RX copier
 * task, which reads the FIFO in NAPI style: after 16 non-empty reads in a
 * row the batch drops from 1 KiB to 64 and the RX interrupt is no longer
 * re-armed; an empty read re-arms it and parks. Its state is per port
 * (copier_rx_ports, by the port's index); it shares nothing with the TX
 * side but the port. */
#include "cpu_acct.h"
#include "csr.h"
#include "scheduler.h"
#include "uart_port.h"

#define RX_BUF_SIZE        1024U     /* RX read buffer, the batch outside polling */
#define NAPI_THRESHOLD     16U       /* non-empty reads before polling mode */
#define NAPI_BATCH_SIZE    64U       /* RX batch in polling mode */
#define RX_STACK_WORDS     1024

/* A port's RX copier. */
struct copier_rx {
    struct task task;
    struct waker waker;
    uint8_t buf[RX_BUF_SIZE];
    uint64_t stack[RX_STACK_WORDS];
};
static struct copier_rx copier_rx_ports[UART_PORTS];

/* UART interrupt, interrupts masked, an RX cause (the core charges it to
 * the RX account): RX off, the RX copier woken. */
void copier_rx_irq(struct uart_port *p)
{
    p->ctr.rx_irqs++;
    uart_lower.irq_update(&p->hw, 0, UART_IRQ_RX);
    waker_wake(&copier_rx_ports[p->index].waker);
}

/* The RX copier task ("uart-rx-copier"), on the RX account. */
static void rx_copier(void *arg)
{
    struct uart_port *p = arg;
    struct copier_rx *r = &copier_rx_ports[p->index];
    unsigned consecutive = 0;
    bool more;

    for (;;) {
        if (cpu_acct_now.owner != &cpu_acct_rx) {
            unsigned long f = irq_save();
            cpu_acct_switch_task(&cpu_acct_rx);
            irq_restore(f);
        }
        unsigned batch = consecutive >= NAPI_THRESHOLD ? NAPI_BATCH_SIZE : RX_BUF_SIZE;
        unsigned long f = port_lock(p);     /* readers on any hart pop the ring */
        unsigned total = uart_lower.rx_take(&p->hw, r->buf, batch, &more);
        uint32_t kept = ring_push(&p->rx, r->buf, total);
        p->ctr.rx_bytes += kept;
        p->ctr.rx_dropped += total - kept;
        consecutive = total ? consecutive + 1 : 0;
        if (consecutive < NAPI_THRESHOLD)
            uart_lower.irq_update(&p->hw, UART_IRQ_RX, 0);
        port_unlock(p, f);
        if (total)
            waitq_wake_all(&p->rx_data);
        else
            sched_block();
    }
}

/* copier_init, boot task: p's RX copier task. */
void copier_rx_init(struct uart_port *p)
{
    struct copier_rx *r = &copier_rx_ports[p->index];
    r->waker = (struct waker){ &r->task };
    task_spawn(&r->task, "uart-rx-copier", rx_copier, p, r->stack, RX_STACK_WORDS);
}
