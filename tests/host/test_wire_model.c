/* Wire model (src/drivers/uart/wire_model.c, 115200 baud, 16-byte FIFO)
 * in fake time: byte timing to the nanosecond, THRE/TEMT/FIFO level at
 * chosen instants, loss on overflow, the THRE interrupt's time and its
 * IIR (it models the NS16550A only); test_wire_model_seam.c: the model
 * behind the register seam and its CPU account. The model's kernel services and the
 * MMIO are stubbed here. */
#include <stdlib.h>
#include "check.h"
#include "cpu_acct.h"
#include "csr.h"
#include "fake_acct.h"
#include "test_wire_model.h"
#include "timer.h"
#include "wire_model.h"

#define BAUD  115200ULL
#define DEPTH 16ULL
#define RAW_IIR (0xC0 | UART_IIR_THRI)   /* QEMU's IIR: FIFOs on, THRE */

struct host_csr host_csr;   /* declared by csr.h under HOST_TEST */
uint64_t now_ns;
static struct timer *armed;
static uint64_t armed_at;
struct stub_counts stub;

/* Stubs of the kernel services the model calls. Reading the clock stands
 * for the model's own work (every hook reads it): MODEL_STEP_INSNS. */
void host_irq_enabled(void) {}
/* The model's lock (wire_priv.h), contended: never, on one thread. */
void host_spin_hint(void)
{
    abort();
}
/* The model, any context: the stubbed clock, one model step of work. */
uint64_t clock_now_ns(void)
{
    stub.clock_reads++;
    fa_work(MODEL_STEP_INSNS);
    return now_ns;
}
/* The model (THRE timer), interrupts masked: remember it. */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w)
{
    (void)w;
    armed = t;
    armed_at = deadline_ns;
    return 0;
}
/* The model, interrupts masked: forget it. */
bool timer_cancel(struct timer *t)
{
    bool was = armed == t;
    armed = NULL;
    return was;
}
/* The UART behind the model: records each access, costs MMIO_INSNS;
 * raw_ier is QEMU's IER as the model leaves it. */
static uint32_t raw_ier;
static unsigned raw_ier_writes;
/* The seam (uart_read_raw), any context: an idle UART's LSR; its IIR
 * reports THRE (QEMU's THR is always empty). */
uint32_t fake_mmio_read(uintptr_t addr, unsigned width)
{
    (void)width;
    stub.mmio_reads++;
    stub.mmio_in_model += cpu_acct_now.owner == &cpu_acct_sim;
    fa_work(MMIO_INSNS);
    return addr == 0x1000 + UART_IIR ? RAW_IIR : UART_LSR_THRE | UART_LSR_TEMT;
}
/* The seam (uart_write_raw), any context: QEMU's IER recorded. */
void fake_mmio_write(uintptr_t addr, unsigned width, uint32_t v)
{
    stub.mmio_writes++;
    stub.mmio_in_model += cpu_acct_now.owner == &cpu_acct_sim;
    fa_work(MMIO_INSNS);
    if (addr == 0x1000 + UART_IER) {
        CHECK_EQ(width, 1);
        raw_ier = v;
        raw_ier_writes++;
    }
}

/* The modelled line is the config's (the kernel sets it at boot: oppoint.c);
 * no far end: the TX side alone (the RX side: test_wire_rx.c). */
static const struct peer_point peer_off = { PEER_OFF, 0, 0 };
const struct uart_cfg ns = { .base = 0x1000, .fifo_depth = WIRE_FIFO, .io_width = 1,
                             .clock_hz = 16U * WIRE_BAUD, .baud = WIRE_BAUD };

/* Exact time byte k of a burst started at 0 leaves the wire. */
static uint64_t done_at(uint64_t k)
{
    return (k * 10000000000ULL + BAUD - 1) / BAUD;
}

/* LSR as the model shows it over a real LSR of "idle, nothing received". */
static uint32_t lsr(const struct uart_cfg *c)
{
    return wire_read(c, UART_LSR, UART_LSR_THRE | UART_LSR_TEMT);
}

/* THR store at the current time; returns whether it reached the UART. */
static bool put(const struct uart_cfg *c)
{
    uint32_t v = 'x';
    return wire_write(c, UART_THR, &v);
}

/* The test program: the physics in order, then the seam. */
int main(void)
{
    struct wire_stats st;
    wire_model_init(&ns, &peer_off);

    /* Idle line: THRE and TEMT. A 17-byte burst at t=0 fills shifter and FIFO. */
    CHECK_EQ(lsr(&ns) & (UART_LSR_THRE | UART_LSR_TEMT), UART_LSR_THRE | UART_LSR_TEMT);
    for (int i = 0; i < 17; i++)
        CHECK(put(&ns));
    CHECK_EQ(lsr(&ns) & (UART_LSR_THRE | UART_LSR_TEMT), 0);
    /* Overflow: the 18th store is lost and counted, not passed on. */
    CHECK(!put(&ns));
    wire_model_stats(&st);
    CHECK_EQ(st.lost, 1);
    CHECK_EQ(st.bytes, 17);
    /* The FIFO stays full until byte 1 is out: a store just before is
     * lost too, one at that instant is accepted. */
    now_ns = done_at(1) - 1;
    CHECK(!put(&ns));
    now_ns = done_at(1);
    CHECK(put(&ns));                         /* room again: accepted */
    CHECK(!put(&ns));                        /* ... for one */
    /* THRE exactly when the FIFO empties (byte 17 enters the shifter). */
    now_ns = done_at(17) - 1;
    CHECK_EQ(lsr(&ns) & UART_LSR_THRE, 0);
    now_ns = done_at(17);
    CHECK_EQ(lsr(&ns) & (UART_LSR_THRE | UART_LSR_TEMT), UART_LSR_THRE);
    /* TEMT exactly when the last stop bit is out: 18 bytes x 10 / baud. */
    now_ns = done_at(18) - 1;
    CHECK_EQ(lsr(&ns) & UART_LSR_TEMT, 0);
    now_ns = done_at(18);
    CHECK_EQ(lsr(&ns) & UART_LSR_TEMT, UART_LSR_TEMT);
    CHECK_EQ(done_at(18), 1562500);          /* 18 x 86805.55 ns, rounded up */

    /* A long continuous burst: N bytes take exactly N x 10 / baud. */
    uint64_t start = now_ns = 5000000000ULL, sent = 0;
    const uint64_t n = 100000;
    while (sent < n) {
        while (sent < n && (sent < 17 || (lsr(&ns) & UART_LSR_THRE))) {
            CHECK(put(&ns));
            sent++;
            if (sent % 17 == 0)
                break;
        }
        /* jump to the instant the FIFO empties */
        now_ns = start + (( (sent - 1) * 10000000000ULL + BAUD - 1) / BAUD);
    }
    now_ns = start + (n * 10000000000ULL + BAUD - 1) / BAUD - 1;
    CHECK_EQ(lsr(&ns) & UART_LSR_TEMT, 0);
    now_ns += 1;
    CHECK_EQ(lsr(&ns) & UART_LSR_TEMT, UART_LSR_TEMT);
    wire_model_stats(&st);
    CHECK_EQ(st.lost, 3);                    /* still only the deliberate ones */

    /* THRE interrupt: IER.THRI stays in the model, a sim timer is armed
     * for the FIFO-empty instant; firing it turns THRI on in QEMU's IER
     * (QEMU then raises its own THRE interrupt); the next THR store turns
     * it off first. */
    start = now_ns = 20000000000ULL;
    for (int i = 0; i < 17; i++)
        put(&ns);
    uint32_t ier = UART_IER_RDI | UART_IER_THRI;
    CHECK(wire_write(&ns, UART_IER, &ier));
    CHECK_EQ(ier, UART_IER_RDI);             /* QEMU does not see THRI yet */
    /* IER reads are the model's: the driver's IER, no UART access. */
    uint64_t reads0 = stub.mmio_reads;
    CHECK_EQ(wire_read(&ns, UART_IER, UART_IER_RDI), UART_IER_RDI | UART_IER_THRI);
    CHECK_EQ(wire_read(&ns, UART_IER, UINT32_MAX), UART_IER_RDI | UART_IER_THRI);
    CHECK_EQ(stub.mmio_reads, reads0);
    CHECK(armed != NULL);
    CHECK_EQ(armed_at, start + done_at(16));
    CHECK_EQ(raw_ier_writes, 0);
    CHECK(armed->sim);                       /* its interrupt is simulation */
    now_ns = armed_at;
    armed->fire(armed);
    CHECK_EQ(raw_ier_writes, 1);
    CHECK_EQ(raw_ier, UART_IER_RDI | UART_IER_THRI);
    wire_model_stats(&st);
    CHECK_EQ(st.thre_irqs, 1);
    /* No stream attached: IIR is QEMU's own (it reports the THRE just
     * raised), read from the UART, as RBR and RFL are; LSR's TX bits are
     * modelled (no UART access for them alone). The registers the model
     * sees: reads of LSR, IER, IIR, RBR, RFL; writes of THR, IER, FCR, LCR. */
    reads0 = stub.mmio_reads;
    CHECK_EQ(wire_read(&ns, UART_IIR, UINT32_MAX), RAW_IIR);
    CHECK_EQ(stub.mmio_reads, reads0 + 1);
    CHECK_EQ(wire_read(&ns, UART_RBR, UINT32_MAX), UART_LSR_THRE | UART_LSR_TEMT);
    CHECK_EQ(wire_read(&ns, UART_DW_RFL, UINT32_MAX), UART_LSR_THRE | UART_LSR_TEMT);
    CHECK_EQ(stub.mmio_reads, reads0 + 3);
    CHECK_EQ(wire_read(&ns, UART_LSR, UART_LSR_THRE) & UART_LSR_THRE, UART_LSR_THRE);
    CHECK_EQ(stub.mmio_reads, reads0 + 3);
    CHECK(uart_modelled_reg(UART_LSR) && uart_modelled_reg(UART_IER) &&
          uart_modelled_reg(UART_IIR) && uart_modelled_reg(UART_RBR) &&
          uart_modelled_reg(UART_DW_RFL));
    CHECK(!uart_modelled_reg(UART_MCR) && !uart_modelled_reg(UART_LCR) &&
          !uart_modelled_reg(UART_MSR) && !uart_modelled_reg(UART_SCR));
    CHECK(uart_modelled_write(UART_THR) && uart_modelled_write(UART_IER) &&
          uart_modelled_write(UART_FCR) && uart_modelled_write(UART_LCR) &&
          !uart_modelled_write(UART_MCR) && !uart_modelled_write(UART_SCR));
    /* An IER write that keeps THRI keeps the raised interrupt. */
    ier = UART_IER_RDI | UART_IER_RLSI | UART_IER_THRI;
    CHECK(wire_write(&ns, UART_IER, &ier));
    CHECK_EQ(ier, UART_IER_RDI | UART_IER_RLSI | UART_IER_THRI);
    /* A THR store lowers it (a THR write clears THRE) and re-arms. */
    CHECK(put(&ns));
    CHECK_EQ(raw_ier, UART_IER_RDI | UART_IER_RLSI);
    CHECK(armed != NULL);
    /* Firing while the FIFO still holds bytes raises nothing. */
    now_ns = armed_at - 1;
    armed->fire(armed);
    CHECK_EQ(raw_ier_writes, 2);
    /* Clearing THRI cancels the timer. */
    ier = UART_IER_RDI;
    wire_write(&ns, UART_IER, &ier);
    CHECK(armed == NULL);
    CHECK_EQ(ier, UART_IER_RDI);

    /* THRI switched on with the modelled FIFO already empty: raised at
     * once, in the same IER store, no timer. */
    now_ns = 25000000000ULL;
    wire_model_stats(&st);
    uint64_t irqs0 = st.thre_irqs;
    ier = UART_IER_RDI | UART_IER_THRI;
    CHECK(wire_write(&ns, UART_IER, &ier));
    CHECK_EQ(ier, UART_IER_RDI | UART_IER_THRI);
    CHECK(armed == NULL);
    wire_model_stats(&st);
    CHECK_EQ(st.thre_irqs, irqs0 + 1);
    /* DLAB set while THRE is raised: THRI leaves QEMU's IER before the
     * register becomes the divisor latch; clearing DLAB re-arms. */
    unsigned writes0 = raw_ier_writes;
    uint32_t lcr = UART_LCR_DLAB | UART_LCR_8N1;
    CHECK(wire_write(&ns, UART_LCR, &lcr));
    CHECK_EQ(raw_ier_writes, writes0 + 1);
    CHECK_EQ(raw_ier, UART_IER_RDI);
    lcr = UART_LCR_8N1;
    CHECK(wire_write(&ns, UART_LCR, &lcr));
    CHECK(armed != NULL);
    CHECK_EQ(armed_at, now_ns);
    armed->fire(armed);
    CHECK_EQ(raw_ier, UART_IER_RDI | UART_IER_THRI);
    ier = UART_IER_RDI;
    wire_write(&ns, UART_IER, &ier);

    /* A refill burst: as many stores as shifter and FIFO take, the rest
     * lost and counted. */
    now_ns = 30000000000ULL;
    wire_model_stats(&st);
    uint64_t lost0 = st.lost;
    CHECK_EQ(wire_write_thr(&ns, 20), 17);
    CHECK_EQ(wire_write_thr(&ns, 1), 0);
    now_ns += done_at(2);                    /* two bytes out: room for two */
    CHECK_EQ(wire_write_thr(&ns, 5), 2);
    wire_model_stats(&st);
    CHECK_EQ(st.lost - lost0, 3 + 1 + 3);

    /* A full modelled FIFO shows neither THRE nor TEMT. */
    now_ns = 40000000000ULL;
    for (int i = 0; i < 17; i++)
        put(&ns);
    CHECK_EQ(lsr(&ns) & (UART_LSR_THRE | UART_LSR_TEMT), 0);

    CHECK_EQ(st.baud, BAUD);
    CHECK_EQ(st.fifo, DEPTH);

    /* Line fault temt-stuck: THRE still rises, TEMT never. */
    now_ns = 50000000000ULL;
    CHECK_EQ(wire_model_fault(WIRE_FAULT_TEMT_STUCK), 0);
    CHECK_EQ(lsr(&ns) & (UART_LSR_THRE | UART_LSR_TEMT), UART_LSR_THRE);
    CHECK_EQ(wire_model_fault(WIRE_FAULT_NONE), 0);
    CHECK_EQ(lsr(&ns) & UART_LSR_TEMT, UART_LSR_TEMT);

    test_wire_seam();
    check_failures += wire_seam_failures();
    return check_exit("wire_model");
}
