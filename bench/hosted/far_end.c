/* The line's far end as a Linux program knows it (S32, S33). A program
 * at the tty's other end (--far-end external: scripts/far-end) is asked
 * for each stream on the tty itself, in one request between STX and ETX
 * (bytes the payloads and the log never hold): `far-end stream bytes=N
 * seed=S lead_ms=L`; it sends the pattern stream L ms later at the line's
 * rate, keeps its own ground truth, and stops at `far-end stop`. Else
 * none it can drive. On the emulator's line QEMU's far end can start a stream by
 * itself (scripts/qemu-run --far-end-stream BYTES@START[:SEED]); given
 * the same stream (--far-end-stream, far_end_stream=), the section that
 * asks for its bytes and seed reads it blind: the program sees no ground
 * truth, only the stream's size and start, and counts its loss from the
 * pattern; QEMU's far end writes what it sent and delivered to its log,
 * which the host checks against the section's figures. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include "clock.h"
#include "hosted.h"
#include "wire_model.h"

#define STREAM_MAX 16777216ULL      /* qemu-run's --far-end-stream bytes */
#define READ_TIMEOUT_DS 1           /* a blind read returns after 0.1 s of silence */
#define EXTERNAL_LEAD_MS 100U       /* an external far end starts this long after asked */
#define EXTERNAL_QUIET_NS 50000000ULL   /* ... and is quiet at least this long before */

struct hosted_stream hosted_stream;
bool hosted_far_external;
static struct hosted_stream external;   /* the stream asked of an external far end */
static struct termios saved;        /* the tty's settings before a blind read */
static bool timed;

/* main: text (BYTES@START[:SEED], START with unit ns, us, ms or s) into
 * *out; 0, or -1 when it is not one. */
int hosted_stream_parse(const char *text, struct hosted_stream *out)
{
    static const struct { const char *name; uint64_t ns; } units[] = {
        { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
    char *end;

    if (!text[0] || text[0] < '0' || text[0] > '9')
        return -1;
    unsigned long long bytes = strtoull(text, &end, 10);
    if (*end != '@' || end[1] < '0' || end[1] > '9' || bytes < 1 || bytes > STREAM_MAX)
        return -1;
    unsigned long long start = strtoull(end + 1, &end, 10);
    size_t len = strcspn(end, ":");
    unsigned k = 0;
    while (k < 4 && (strlen(units[k].name) != len || strncmp(end, units[k].name, len) != 0))
        k++;
    if (k == 4 || start > UINT64_MAX / units[k].ns)
        return -1;
    unsigned long long seed = 0;
    end += len;
    if (*end == ':') {
        if (end[1] < '0' || end[1] > '9')
            return -1;
        seed = strtoull(end + 1, &end, 10);
        if (*end || seed > 0xFFFFFFFFULL)
            return -1;
    }
    *out = (struct hosted_stream){ .bytes = bytes, .start_ns = start * units[k].ns,
                                   .seed = (uint32_t)seed };
    return 0;
}

/* wire_peer_start (section task), a blind stream: each read returns after
 * a short silence (VMIN 0, VTIME), until wire_peer_stop restores the tty. */
static void timed_reads(void)
{
    struct termios t;
    if (tcgetattr(hosted_tty.fd, &t) == 0) {
        saved = t;
        t.c_cc[VMIN] = 0;
        t.c_cc[VTIME] = READ_TIMEOUT_DS;
        timed = tcsetattr(hosted_tty.fd, TCSANOW, &t) == 0;
    }
}

/* wire_peer_start and _stop (section task): one request to the external
 * far end, on the tty between STX and ETX. */
static void request(const char *text)
{
    char buf[96];
    int n = snprintf(buf, sizeof buf, "\002%s\003", text);
    if (n > 0)
        hosted_write_all(hosted_tty.fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* wire_peer_start, --far-end external: ask for the stream, to begin
 * EXTERNAL_LEAD_MS from now on this program's clock (the far end waits
 * as long after it reads the request), and read it with a timeout as a
 * blind one. */
static int external_start(uint64_t bytes, uint32_t seed)
{
    char text[80];

    external = (struct hosted_stream){ .bytes = bytes, .seed = seed,
                                       .start_ns = clock_now_ns() + EXTERNAL_LEAD_MS * 1000000ULL };
    snprintf(text, sizeof text, "far-end stream bytes=%llu seed=%lu lead_ms=%u",
             (unsigned long long)bytes, (unsigned long)seed, EXTERNAL_LEAD_MS);
    request(text);
    timed_reads();
    return 0;
}

/* Section task (S32, S33): on the emulator's line the far end is off for
 * this program (peer=off) unless it streams by itself: then its stream,
 * when it is bytes and seed (-EXDEV when not), and each read returns
 * after a short silence until wire_peer_stop; elsewhere there is none. */
int wire_peer_start(uint64_t bytes, uint32_t seed, uint64_t start_ns)
{
    (void)start_ns;
    if (hosted_far_external)
        return external_start(bytes, seed);
    if (!hosted_stream.bytes)
        return strcmp(hosted_line_kind(NULL), "device") == 0 ? -ENOTCONN : -ENODEV;
    if (bytes != hosted_stream.bytes || seed != hosted_stream.seed)
        return -EXDEV;
    timed_reads();
    return 0;
}

/* Section task: reads block again; an external far end is told to stop. */
void wire_peer_stop(void)
{
    if (timed)
        tcsetattr(hosted_tty.fd, TCSANOW, &saved);
    timed = false;
    if (hosted_far_external && external.bytes)
        request("far-end stop");
    external.bytes = 0;
}

/* Any task: no modelled stream, all zero; the far end's own stream is
 * blind, its start on this program's clock (the far end's less the
 * clocks' difference now). */
void wire_peer_stats(struct wire_rx_stats *out)
{
    *out = (struct wire_rx_stats){ 0 };
    if (hosted_far_external) {
        out->blind = external.bytes != 0;
        out->total = external.bytes;
        out->first_ns = external.start_ns;
        out->quiet_ns = EXTERNAL_QUIET_NS;   /* (it starts no sooner than asked) */
        return;
    }
    if (!hosted_stream.bytes)
        return;
    uint64_t far = hosted_far_clock_ns();
    int64_t ahead = far ? (int64_t)(far - clock_now_ns()) : 0;   /* the far end's clock less ours */
    int64_t start = (int64_t)hosted_stream.start_ns - ahead;
    out->blind = true;
    out->total = hosted_stream.bytes;
    out->first_ns = start > 0 ? (uint64_t)start : 0;
}
