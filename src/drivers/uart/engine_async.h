/* The async engine's ops table (engine_async.c), the tty core's
 * `uart_engine` in an async image (UART_ENGINE_HEADER): static const, so
 * the core's calls through it are direct. */
#ifndef ENGINE_ASYNC_H
#define ENGINE_ASYNC_H

void async_init(struct uart_port *p);
size_t async_write(struct uart_port *p, const uint8_t *buf, size_t n, bool nonblock);
void async_tx_irq(struct uart_port *p);
void async_tx_room_irq(struct uart_port *p);
void async_drain_view(const struct uart_port *p, struct drain_view *v);
int async_drain_idle(struct uart_port *p, uint64_t *at_ns);
void async_drain_refill(struct uart_port *p);
size_t async_queued(const struct uart_port *p);
void async_counters(const struct uart_port *p, struct uart_counters *out);
void async_flush_polled(struct uart_port *p);

static const struct uart_engine uart_engine = {
    .name = uart_be_name,
    .flags = ENGINE_COUNTERS | ENGINE_DRAIN_EVENTS,
    .init = async_init,
    .write = async_write,
    .tx_irq = async_tx_irq,
    .tx_room_irq = async_tx_room_irq,
    .drain_view = async_drain_view,
    .drain_idle = async_drain_idle,
    .drain_refill = async_drain_refill,
    .queued = async_queued,
    .counters = async_counters,
    .flush_polled = async_flush_polled,
};

#endif
