/* The line's far end as a Linux program knows it (S32, S33), under the
 * sections' own (bench/far_peer.c: an external far end, --far-end
 * external, is theirs). On the emulator's line QEMU's far end can start
 * a stream by itself (scripts/qemu-run --far-end-stream
 * BYTES@START[:SEED]); given the same stream (--far-end-stream,
 * far_end_stream=), the section that asks for its bytes and seed reads it
 * blind: the program sees no ground truth, only the stream's size and
 * start, and counts its loss from the pattern; QEMU's far end writes what
 * it sent and delivered to its log, which the host checks against the
 * section's figures. Else there is none it can drive. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "hosted.h"
#include "wire_model.h"

#define STREAM_MAX 16777216ULL      /* qemu-run's --far-end-stream bytes */

struct hosted_stream hosted_stream;
bool hosted_far_external;

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

/* Section task (S32, S33): on the emulator's line the far end is off for
 * this program (peer=off) unless it streams by itself: then its stream,
 * when it is bytes and seed (-EXDEV when not), and each read returns
 * after a short silence until wire_peer_stop; elsewhere there is none. */
int wire_peer_start(uint64_t bytes, uint32_t seed, uint64_t start_ns)
{
    (void)start_ns;
    if (!hosted_stream.bytes)
        return strcmp(hosted_line_kind(NULL), "device") == 0 ? -ENOTCONN : -ENODEV;
    return bytes != hosted_stream.bytes || seed != hosted_stream.seed ? -EXDEV : 0;
}

/* Section task: nothing to stop (the stream is QEMU's). */
void wire_peer_stop(void)
{
}

/* Any task: no modelled stream, all zero; the far end's own stream is
 * blind, its start on this program's clock (the far end's less the
 * clocks' difference now). */
void wire_peer_stats(struct wire_rx_stats *out)
{
    *out = (struct wire_rx_stats){ 0 };
    if (!hosted_stream.bytes)
        return;
    uint64_t far = hosted_far_clock_ns();
    int64_t ahead = far ? (int64_t)(far - clock_now_ns()) : 0;   /* the far end's clock less ours */
    int64_t start = (int64_t)hosted_stream.start_ns - ahead;
    out->blind = true;
    out->total = hosted_stream.bytes;
    out->first_ns = start > 0 ? (uint64_t)start : 0;
}
