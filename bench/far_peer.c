/* The far end an RX section's stream comes from (S32, S33). Either the
 * platform's (wire_model.h: the wire model, the emulator's far end, or a
 * hosted run's autonomous stream) or, with the boot argument
 * far_end=external (uartbench-hosted --far-end external), a program at
 * the line's other end: scripts/far-end on a board's serial cable, a pty
 * or QEMU's socket chardev. The section asks it for each stream on the
 * line itself, in one request between STX and ETX (bytes the payloads
 * and the log never hold): `far-end stream bytes=N seed=S lead_ms=L`; it
 * sends the pattern stream L ms after it read the request, at the line's
 * rate, keeps its own ground truth, and stops at `far-end stop`
 * (scripts/far_end_line.py). Such a stream is blind: the section sees
 * only its size and start, reads with a timeout (VMIN 0, VTIME) and
 * counts its loss from the pattern. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "bootarg_key.h"
#include "clock.h"
#include "kernel.h"
#include "oppoint.h"
#include "posix_io.h"
#include "wire_model.h"

#define EXTERNAL_LEAD_MS 100U       /* the stream starts this long after asked */
#define EXTERNAL_QUIET_NS 50000000ULL   /* ... and is quiet at least this long before */
#define READ_TIMEOUT_DS 1           /* a blind read returns after 0.1 s of silence */

static bool external;
static struct wire_rx_stats asked;  /* the stream asked of the external far end */
static struct termios saved;        /* the tty's settings before the stream */
static bool timed;

/* bootargs_check (boot): far_end=, external. */
static const char *far_end_forms(const char *value)
{
    return strcmp(value, "external") == 0 ? NULL :
           "external (a program at the line's other end streams on request: scripts/far-end)";
}
BOOTARG_KEY(far_end, far_end_forms);

/* Boot task (bench_env_init): the boot argument far_end= (its form
 * checked at boot, bootargs_check: only `external` gets here, from the
 * kernel or from the hosted binary's --far-end); an image whose line is
 * modelled (its far end is the model's) stops the run before any
 * section. */
void bench_peer_init(void)
{
    char arg[16];
    struct wire_stats w;

    if (!bootarg("far_end", arg, sizeof arg))
        return;
    wire_model_stats(&w);
    if (!w.baud) {
        external = true;
        return;
    }
    printf("bad boot argument far_end=external: this image models its line and its far "
           "end (WIRE_BAUD=%llu); an external far end needs an image without the model "
           "(WIRE_BAUD=0)\n", (unsigned long long)w.baud);
    kernel_exit(EXIT_BOOTARG);
}

/* Any task (the manifest's peer=): whether the far end is outside. */
bool bench_peer_external(void)
{
    return external;
}

/* bench_peer_start and _stop (section task): one request to the external
 * far end, on the line between STX and ETX, written whole. */
static void request(const char *text)
{
    char buf[96];
    int n = snprintf(buf, sizeof buf, "\002%s\003", text);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1, off = 0;

    while (off < len) {
        ssize_t k = write(bench.fd, buf + off, len - off);
        if (k <= 0 && errno != EINTR)
            break;
        off += k > 0 ? (size_t)k : 0;
    }
}

/* bench_peer_start (section task): each read returns after a short
 * silence (VMIN 0, VTIME) until bench_peer_stop restores the tty. */
static void timed_reads(void)
{
    struct termios t;
    if (tcgetattr(bench.fd, &t) == 0) {
        saved = t;
        t.c_cc[VMIN] = 0;
        t.c_cc[VTIME] = READ_TIMEOUT_DS;
        timed = tcsetattr(bench.fd, TCSANOW, &t) == 0;
    }
}

/* Section task: a stream of `bytes` pattern bytes (seed) from the far
 * end, from start_ns on where the platform's can be told when; 0, or
 * the platform's refusal (wire_model.h). The external far end's starts
 * EXTERNAL_LEAD_MS from now; the platform's may be blind too (a hosted
 * run's autonomous stream), read the same way. */
int bench_peer_start(uint64_t bytes, uint32_t seed, uint64_t start_ns)
{
    char text[80];

    if (!external) {
        int rc = wire_peer_start(bytes, seed, start_ns);
        struct wire_rx_stats w;
        wire_peer_stats(&w);
        if (!rc && w.blind)
            timed_reads();
        return rc;
    }
    asked = (struct wire_rx_stats){ .blind = true, .total = bytes, .quiet_ns = EXTERNAL_QUIET_NS,
                                    .first_ns = clock_now_ns() + EXTERNAL_LEAD_MS * 1000000ULL };
    snprintf(text, sizeof text, "far-end stream bytes=%llu seed=%lu lead_ms=%u",
             (unsigned long long)bytes, (unsigned long)seed, EXTERNAL_LEAD_MS);
    request(text);
    timed_reads();
    return 0;
}

/* Section task: the stream ends; reads block again; the external far
 * end is told to stop. */
void bench_peer_stop(void)
{
    if (timed)
        tcsetattr(bench.fd, TCSANOW, &saved);
    timed = false;
    if (!external)
        wire_peer_stop();
    else if (asked.total)
        request("far-end stop");
    asked.total = 0;
}

/* Section task: the stream's ground truth as far as this end knows it
 * (an external one's: only its size and earliest start). */
void bench_peer_stats(struct wire_rx_stats *out)
{
    if (external)
        *out = asked;
    else
        wire_peer_stats(out);
}
