/* S32: RX sustained - the modelled far end sends S32_BYTES (quick: a
 * tenth) at full line rate and the section reads them with read(). S33:
 * full duplex - an S33_BYTES TX burst and an S33_BYTES RX stream at once.
 * The far end is the wire model's (wire_model.h): its ground truth (sent,
 * lost to overrun, the overruns LSR reported, the CRC of what entered the
 * FIFO) is what the section's own figures are checked against. Bytes
 * lost to overrun are a finding, printed, not a failure; a failure is
 * what does not add up: read + lost + dropped != sent, the CRC of what
 * was read != the CRC of what was delivered (no ring drops), the
 * driver's overrun count != the model's. Images without the model (the
 * D1: no far end) report SKIPPED; so does peer=off. */
#include <errno.h>
#include <stdio.h>
#include "bench.h"
#include "clock.h"
#include "cpu_acct.h"
#include "crc32.h"
#include "csr.h"
#include "kernel.h"
#include "params.h"
#include "pattern.h"
#include "posix_io.h"
#include "tx_common.h"
#include "wire_model.h"

#define S32_SEED 32
#define S33_SEED 33
#define RX_READ  512U
#define STREAM_LEAD_NS 100000ULL   /* the stream starts this much after it attaches */
#define BLIND_SLACK_NS 1000000000ULL  /* a blind stream's bound past twice its line time */
#define BLIND_LEAD_NS  1000000ULL     /* ... and how long before its start the window opens */
#define U(x) ((unsigned long long)(x))

/* What the CPU did in a window: rdinstret, rdcycle and the accounts. */
struct cpu_snap {
    uint64_t instret, cycles;
    struct cpu_totals acct;
};

/* One RX stream read to its end. */
struct rx_run {
    uint64_t want, got, t0, t_end;
    uint64_t overruns0, dropped0, irqs0;
    bool counters;
    int err;
    struct wire_rx_stats w;
    struct cpu_snap a, b;
    uint64_t probe_insns, probe_cycles;   /* the window's ground-truth reads (peer_stats) */
};

static uint8_t rx_store[S32_BYTES];   /* what was read: its CRC after the window */

/* Section task: the counters, in the order that keeps the snapshot's own
 * cost out of the window (begin: accounts first; end: counters first). */
static void snap(struct cpu_snap *s, bool begin)
{
    unsigned long f = irq_save();   /* no ISR (and no task it wakes) between the reads */
    if (begin)
        cpu_acct_read(&s->acct);
    s->cycles = rdcycle();
    s->instret = rdinstret();
    if (!begin)
        cpu_acct_read(&s->acct);
    irq_restore(f);
}

/* Section task: the driver's RX drops and interrupts (0 without counters). */
static bool rx_counters(uint64_t *dropped, uint64_t *irqs)
{
    struct uart_counters c;
    bool ok = ioctl(bench.fd, UART_IOC_GET_COUNTERS, &c) == 0;
    *dropped = ok ? c.rx_dropped : 0;
    *irqs = ok ? c.rx_irqs : 0;
    return ok;
}

/* Section task (rx_begin): a blind stream starts when its far end says,
 * not when the section asks: sleep until just before its start (a stream
 * already begun finds its head gone; the far end may say how long its
 * line stays quiet before, quiet_ns), so that the window, and S33's TX
 * burst, begin with it. */
static void blind_wait(struct rx_run *r)
{
    uint64_t lead = r->w.quiet_ns > BLIND_LEAD_NS ? r->w.quiet_ns : BLIND_LEAD_NS;
    uint64_t at = r->w.first_ns > lead ? r->w.first_ns - lead : 0;
    struct timespec ts = { .tv_sec = (time_t)(at / 1000000000ULL),
                           .tv_nsec = (long)(at % 1000000000ULL) };

    if (at > clock_now_ns())
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, 0) == EINTR)
            ;
    r->t0 = r->w.first_ns > clock_now_ns() ? r->w.first_ns : clock_now_ns();
}

/* Section task: start a stream of want bytes a little ahead (STREAM_LEAD
 * or 4 characters, the longer), so that what the RX ring holds once it is
 * attached (QEMU's own line is hidden from then on) is foreign and is
 * flushed before the first byte; the ground truth and the counters it is
 * checked against from there. The driver's overrun count is taken before
 * the stream starts, as the model's starts from 0: on a slow CPU the
 * flush may outlast the lead, and an overrun then is the stream's. */
static int rx_begin(struct rx_run *r, uint64_t want, uint32_t seed)
{
    uint64_t lead = 4 * bench.char_ns > STREAM_LEAD_NS ? 4 * bench.char_ns : STREAM_LEAD_NS;

    *r = (struct rx_run){ .want = want, .t0 = clock_now_ns() + lead };
    r->overruns0 = uart_be_overruns();
    int rc = bench_peer_start(want, seed, r->t0);
    if (rc)
        return rc;
    bench_peer_stats(&r->w);
    if (r->w.blind)
        blind_wait(r);
    bench_rx_flush();
    bench_rx_own_begin();
    r->counters = rx_counters(&r->dropped0, &r->irqs0);
    snap(&r->a, true);
    return 0;
}

/* Section task (rx_read_all): read a stream the guest cannot observe
 * (blind) until all of it came, or the line fell silent after its first
 * byte, or the bound passed (twice its line time after its given start,
 * and a second: the start is on the far end's clock, the bound on this
 * one's). A read returns after a short silence with nothing (the
 * platform's read timeout while the stream is attached). */
static void read_blind(struct rx_run *r)
{
    uint64_t bound = r->w.first_ns + 2 * r->want * bench.char_ns + BLIND_SLACK_NS;

    while (r->got < r->want) {
        size_t room = sizeof rx_store - r->got;
        ssize_t n = read(bench.fd, rx_store + r->got, room < RX_READ ? room : RX_READ);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            r->err = errno;
            break;
        }
        if (n == 0 && (r->got || clock_now_ns() > bound))
            break;
        r->got += (uint64_t)n;
    }
}

/* read_modelled, section task: the far end's ground truth now. Reading it
 * is the emulator's bookkeeping (its control page, or the wire model's
 * state), no work of the driver's or of a board's: its instructions and
 * cycles are kept out of the window's figures (interrupts masked, so no
 * claim runs among them; the device's page costs its reader a dozen MMIO
 * loads, the model's bookkeeping is the simulation's already). Not on
 * Linux, where a process cannot mask interrupts (hosted cpu_acct.h). */
static void peer_stats(struct rx_run *r)
{
    uint64_t i0, c0, i1, c1;
    unsigned long f = irq_save();
    cpu_counted_masked(&i0, &c0, false);
    bench_peer_stats(&r->w);
    cpu_counted_masked(&i1, &c1, true);
    irq_restore(f);
    r->probe_insns += i1 - i0;
    r->probe_cycles += c1 - c0;
}

/* Section task (rx_read_all): read a modelled stream until nothing more
 * can come (the far end has sent everything, the modelled FIFO and the RX
 * ring are empty): a blocking read otherwise always returns, as a byte
 * still to be read is in the ring, in the FIFO, or on its way into it. */
static void read_modelled(struct rx_run *r)
{
    for (;;) {
        int avail = 1;
        peer_stats(r);
        if (r->got == r->want)
            break;
        if (r->w.sent == r->want && !r->w.fifo_level)   /* only then can it be over */
            (void)ioctl(bench.fd, FIONREAD, &avail);
        if (!avail)
            break;
        size_t room = sizeof rx_store - r->got;
        ssize_t n = read(bench.fd, rx_store + r->got, room < RX_READ ? room : RX_READ);
        if (n <= 0) {
            r->err = n < 0 ? errno : EIO;
            break;
        }
        r->got += (uint64_t)n;
    }
}

/* Section task: read the stream rx_begin attached to its end (blind or
 * modelled), then close the window. The own-RX phase ends before the
 * stream detaches: bytes from QEMU's line after that are foreign, with
 * their interrupts and instructions. */
static void rx_read_all(struct rx_run *r)
{
    if (r->w.blind)
        read_blind(r);
    else
        read_modelled(r);
    r->t_end = clock_now_ns();
    snap(&r->b, false);
    bench_peer_stats(&r->w);
    bench_rx_own_end(r->got);   /* before QEMU's own RX is the UART's again */
    bench_peer_stop();
}

/* Section task: `x.yyy` of a / b (thousandths). */
static const char *ratio3(char *buf, size_t n, uint64_t a, uint64_t b)
{
    return bench_milli(buf, n, b ? a * 1000 / b : 0);
}

/* Section task: the RX figures and checks of r (tag s32 or s33); the
 * section's status. */
static enum bench_status rx_report(const char *tag, struct rx_run *r)
{
    uint64_t dropped1, irqs1;
    rx_counters(&dropped1, &irqs1);
    uint64_t dropped = dropped1 - r->dropped0, irqs = irqs1 - r->irqs0;
    uint64_t ovr = uart_be_overruns() - r->overruns0;
    uint64_t cyc = r->b.cycles - r->a.cycles;
    uint64_t idle = r->b.acct.idle.cycles - r->a.acct.idle.cycles;
    uint64_t simc = r->b.acct.sim.cycles - r->a.acct.sim.cycles;
    uint64_t insns = ((r->b.instret - r->a.instret) -
                               (r->b.acct.idle.instret - r->a.acct.idle.instret) -
                               (r->b.acct.sim.instret - r->a.acct.sim.instret)) - r->probe_insns;
    uint64_t busy = cyc > idle + simc + r->probe_cycles ? cyc - idle - simc - r->probe_cycles : 0;
    uint32_t crc = crc32_update(0, rx_store, r->got);
    bool accounted = r->got + r->w.lost + dropped == r->w.sent;
    bool crc_ok = dropped || crc == r->w.crc;
    bool ovr_ok = ovr == r->w.overruns;
    char a[24], b[24], c[24], d[24], e[24], f[24], g[24];

    char dr[24], ir[24];
    snprintf(dr, sizeof dr, "%llu", U(dropped));
    snprintf(ir, sizeof ir, "%llu", U(irqs));
    printf("  diag=%s-rx sent=%llu received=%llu lost=%llu dropped=%s overruns_model=%llu "
           "overruns_driver=%llu crc_rx=0x%08lx crc_delivered=0x%08lx crc_check=%s "
           "accounted=%d read_errno=%d\n", tag, U(r->w.sent), U(r->got), U(r->w.lost),
           r->counters ? dr : "na", U(r->w.overruns), U(ovr), (unsigned long)crc,
           (unsigned long)r->w.crc, dropped ? "skipped-ring-drops" : crc_ok ? "match" : "MISMATCH",
           accounted, r->err);
    printf("  diag=%s-cpu window_ns=%llu rx_line_rate_pct=%s instructions=%llu "
           "instructions_per_byte=%s cpu_pct=%s rx_irqs=%s rx_irqs_per_byte=%s "
           "loss_pct=%s model_instructions=%llu model_cpu_pct=%s guest_cpu_pct=%s\n", tag,
           U(r->t_end - r->t0),
           ratio3(a, sizeof a, r->got * bench.char_ns * 100, r->t_end - r->t0), U(insns),
           ratio3(b, sizeof b, insns, r->got), ratio3(c, sizeof c, busy * 100, cyc),
           r->counters ? ir : "na", r->counters ? ratio3(d, sizeof d, irqs, r->got) : "na",
           ratio3(e, sizeof e, r->w.lost * 100, r->w.sent),
           U((r->b.acct.sim.instret - r->a.acct.sim.instret)),
           ratio3(f, sizeof f, simc * 100, cyc), ratio3(g, sizeof g, busy * 100, cyc - simc));
    if (r->err)
        return bench_fail("read-errno-%d", r->err);
    if (!accounted)
        return bench_fail("rx-unaccounted");
    if (!crc_ok)
        return bench_fail("rx-crc-mismatch");
    return ovr_ok ? BENCH_PASS : bench_fail("overrun-count-mismatch");
}

/* Section task: a blind stream's figures and the section's status, in
 * the records of a modelled one (what the guest cannot know is `na`):
 * its loss counted from the pattern alone, what the far end sent and
 * delivered is checked outside, against its ground truth (crc_check=
 * far-end), its instructions `not-available` where the platform's
 * instruction counter does not count (cpu_counter_missing). FAIL when a
 * byte read is not the stream's in order, when none came (no far end
 * answered: a wire not connected), or when the stream's head was gone
 * before the section read (it began early: the first bytes into an empty
 * FIFO cannot overrun). */
static enum bench_status rx_report_blind(const char *tag, struct rx_run *r, uint32_t seed)
{
    struct pattern_trace t = pattern_follow(rx_store, r->got, seed, r->want);
    uint64_t insns = r->b.instret - r->a.instret - (r->b.acct.idle.instret - r->a.acct.idle.instret);
    uint64_t busy_ppm = cpu_busy_ppm(&r->a.acct, &r->b.acct, r->b.cycles - r->a.cycles);
    const char *missing = cpu_counter_missing(CPU_COUNTER_INSTRET);
    char a[24], b[24], c[24], d[24], e[24];

    printf("  diag=%s-rx sent=%llu received=%llu lost=%llu dropped=na overruns_model=na "
           "overruns_driver=na crc_rx=0x%08lx crc_delivered=na crc_check=far-end accounted=1 "
           "read_errno=%d lost_source=pattern gaps=%llu first_offset=%llu pattern=%s\n", tag,
           U(r->want), U(r->got), U(r->want - r->got),
           (unsigned long)crc32_update(0, rx_store, r->got), r->err, U(t.gaps), U(t.first),
           t.in_order ? "in-order" : "MISMATCH");
    snprintf(e, sizeof e, "%llu", U(insns));
    printf("  diag=%s-cpu window_ns=%llu rx_line_rate_pct=%s instructions=%s "
           "instructions_per_byte=%s cpu_pct=%s rx_irqs=na rx_irqs_per_byte=na loss_pct=%s "
           "model_instructions=0 model_cpu_pct=0.000", tag, U(r->t_end - r->t0),
           ratio3(a, sizeof a, r->got * bench.char_ns * 100, r->t_end - r->t0),
           missing ? "not-available" : e,
           missing ? "not-available" : ratio3(b, sizeof b, insns, r->got),
           bench_milli(c, sizeof c, busy_ppm / 10),
           ratio3(d, sizeof d, (r->want - r->got) * 100, r->want));
    cpu_print_window(&r->a.acct, &r->b.acct, r->got);
    printf("\n");
    if (r->err)
        return bench_fail("read-errno-%d", r->err);
    if (!t.in_order)
        return bench_fail("rx-pattern-mismatch");
    if (!r->got)
        return bench_fail("rx-none-arrived");
    return t.first ? bench_fail("stream-began-early") : BENCH_PASS;
}

/* Section task: SKIPPED for a run with no modelled far end (rc of
 * wire_peer_start), with the reason. */
static enum bench_status no_peer(const char *tag, int rc)
{
    const char *why = rc == -ENODEV ? "no-wire-model" : rc == -ENOTCONN ? "peer-off" :
                      rc == -EXDEV ? "stream-mismatch" : "peer-busy";
    printf("  diag=%s-skip reason=%s\n", tag, why);
    return bench_skip(why);
}

/* Section task: a quiet line to start from: the log drained, RX empty. */
static void quiet(void)
{
    console_flush();
    tcdrain(bench.fd);
    bench_rx_flush();
}

/* Section task. */
enum bench_status s32_rx_sustained(void)
{
    static struct rx_run r;
    uint64_t want = bench.quick ? S32_BYTES / 10 : S32_BYTES;

    quiet();
    int rc = rx_begin(&r, want, S32_SEED);
    if (rc)
        return no_peer("s32", rc);
    rx_read_all(&r);
    return r.w.blind ? rx_report_blind("s32", &r, S32_SEED) : rx_report("s32", &r);
}

/* Section task: the TX burst is written at once (a design that blocks in
 * write() reads nothing meanwhile: its RX loss is the finding), the
 * stream read to its end, then tcdrain; TX line rate from the write's
 * start to the drain's end. */
enum bench_status s33_full_duplex(void)
{
    static struct rx_run r;
    struct bench_tx tx = { 0 };
    struct bench_drain dr = { 0 };
    const uint8_t *p = bench_payload(S33_BYTES, S33_SEED);
    char rate[24];

    quiet();
    int rc = rx_begin(&r, S33_BYTES, S33_SEED);
    if (rc)
        return no_peer("s33", rc);
    bench_payload_begin("s33-tx");
    uint64_t t0 = clock_now_ns();
    bench_write_full(p, S33_BYTES, &tx);
    rx_read_all(&r);
    bench_drain(&dr);
    uint64_t dt = clock_now_ns() - t0;
    bench_payload_end("s33-tx", tx.written, crc32_update(0, p, tx.written));
    printf("  diag=s33-tx bytes=%llu elapsed_ns=%llu tx_line_rate_pct=%s\n", U(tx.written),
           U(dt), ratio3(rate, sizeof rate, tx.written * bench.char_ns * 100, dt));
    enum bench_status st = r.w.blind ? rx_report_blind("s33", &r, S33_SEED) : rx_report("s33", &r);
    enum bench_status tst = bench_tx_status(&tx, &dr);
    return tst != BENCH_PASS ? tst : st;
}
