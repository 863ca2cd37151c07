/* The console engine's ops table (engine_console.c), the tty core's
 * `uart_engine` in a console image (UART_ENGINE_HEADER): static const,
 * so the core's calls through it are direct. No TX interrupt, no ring,
 * no counters, RX polled. */
#ifndef ENGINE_CONSOLE_H
#define ENGINE_CONSOLE_H

void console_init(struct uart_port *p);
size_t console_write(struct uart_port *p, const uint8_t *buf, size_t n, bool nonblock);
void console_tx_irq(struct uart_port *p, enum uart_cause c);
int console_drain(struct uart_port *p, uint64_t deadline_ns, uint64_t *at_ns);
size_t console_queued(const struct uart_port *p);
void console_counters(const struct uart_port *p, struct uart_counters *out);
void console_flush_polled(struct uart_port *p);

static const struct uart_engine uart_engine = {
    .name = "console",
    .flags = ENGINE_RX_POLLED,
    .init = console_init,
    .write = console_write,
    .tx_irq = console_tx_irq,
    .drain = console_drain,
    .queued = console_queued,
    .counters = console_counters,
    .flush_polled = console_flush_polled,
};

#endif
