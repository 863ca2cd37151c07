/* The copier engine's ops table (engine_copier.c), the tty core's
 * `uart_engine` in a copier image (UART_ENGINE_HEADER): static const, so
 * the core's calls through it are direct. It takes RX itself (rx_irq:
 * its RX copier task) and charges its work to eight CPU phases. Its
 * tcdrain is the original's: no events (the core re-checks every
 * character time, and its TEMT wakes), no bound, until it holds nothing. */
#ifndef ENGINE_COPIER_H
#define ENGINE_COPIER_H

#define COPIER_PHASES 8U
extern const char *const copier_phase_names[COPIER_PHASES];

void copier_init(struct uart_port *p);
size_t copier_write(struct uart_port *p, const uint8_t *buf, size_t n, bool nonblock);
void copier_tx_irq(struct uart_port *p);
void copier_tx_room_irq(struct uart_port *p);
void copier_rx_irq(struct uart_port *p);      /* (engine_copier_rx.c, as the next) */
void copier_rx_init(struct uart_port *p);
void copier_drain_view(const struct uart_port *p, struct drain_view *v);
size_t copier_queued(const struct uart_port *p);
void copier_counters(const struct uart_port *p, struct uart_counters *out);
void copier_flush_polled(struct uart_port *p);
uint64_t copier_phase_instret(const struct uart_port *p, unsigned i);

static const struct uart_engine uart_engine = {
    .name = uart_be_name,
    .flags = ENGINE_COUNTERS | ENGINE_DRAIN_NO_BOUND,
    .init = copier_init,
    .write = copier_write,
    .tx_irq = copier_tx_irq,
    .tx_room_irq = copier_tx_room_irq,
    .rx_irq = copier_rx_irq,
    .drain_view = copier_drain_view,
    .queued = copier_queued,
    .counters = copier_counters,
    .flush_polled = copier_flush_polled,
    .n_phases = COPIER_PHASES,
    .phase_names = copier_phase_names,
    .phase_instret = copier_phase_instret,
};

#endif
