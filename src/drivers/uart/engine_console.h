/* The console engine's ops table (engine_console.c; its functions
 * polling_*, apart from the kernel's console_*), the tty core's
 * `uart_engine` in a console image (UART_ENGINE_HEADER): static const,
 * so the core's calls through it are direct. No TX interrupt, no ring,
 * no counters, RX polled; tcdrain spins. */
#ifndef ENGINE_CONSOLE_H
#define ENGINE_CONSOLE_H

void polling_init(struct uart_port *p);
size_t polling_write(struct uart_port *p, const uint8_t *buf, size_t n, bool nonblock);
void polling_tx_irq(struct uart_port *p);
void polling_drain_view(const struct uart_port *p, struct drain_view *v);
size_t polling_queued(const struct uart_port *p);
void polling_counters(const struct uart_port *p, struct uart_counters *out);
void polling_flush_polled(struct uart_port *p);

static const struct uart_engine uart_engine = {
    .name = uart_be_name,
    .flags = ENGINE_RX_POLLED | ENGINE_DRAIN_SPIN,
    .init = polling_init,
    .write = polling_write,
    .tx_irq = polling_tx_irq,
    .tx_room_irq = polling_tx_irq,
    .drain_view = polling_drain_view,
    .queued = polling_queued,
    .counters = polling_counters,
    .flush_polled = polling_flush_polled,
};

#endif
