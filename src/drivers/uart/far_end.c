/* The far end of the emulator's line (images without the wire model, on
 * QEMU virt with the project's patches: docs/qemu-line.md): the device's
 * control page, named in the device tree (/soc/serial-far-end@), behind
 * the far-end interface of wire_model.h that S32, S33 and S50 use. The
 * device sends the pattern stream (pattern.h) into the UART's receiver at
 * line rate in the traffic shape QEMU was given, and keeps its ground
 * truth. */
#include <errno.h>
#include "csr.h"
#include "kernel.h"
#include "mmio.h"
#include "wire_model.h"

/* The control page's registers (QEMU's hw/char/uart-far-end.c). */
#define FE_ID           0x00
#define FE_CONTROL      0x04
#define FE_SEED         0x08
#define FE_BYTES        0x0c
#define FE_START_LO     0x1c
#define FE_START_HI     0x20
#define FE_STREAMS      0x24
#define FE_SENT         0x28
#define FE_DELIVERED    0x2c
#define FE_LOST         0x30
#define FE_OVERRUNS     0x34
#define FE_FLUSHED      0x38
#define FE_CRC          0x3c
#define FE_LEVEL        0x40
#define FE_FIRST_LO     0x44
#define FE_LAST_LO      0x4c
#define FE_ID_VALUE     0x31454651U   /* "QFE1" */
#define FE_CTRL_START   1U
#define FE_CTRL_STOP    2U
#define FE_ST_ATTACHED  1U

/* Any task: the page's base, or 0 when this run has no far end. */
static uintptr_t page(void)
{
    uintptr_t b = fdt_line_info()->far_base;
    return b && mmio_read32(b + FE_ID) == FE_ID_VALUE ? b : 0;
}

/* Any task: a 64-bit register as two 32-bit halves (low first). */
static uint64_t rd64(uintptr_t b, uintptr_t lo)
{
    return mmio_read32(b + lo) | (uint64_t)mmio_read32(b + lo + 4) << 32;
}

/* Section task: the far end sends `bytes` pattern bytes (seed) from
 * start_ns on; 0; -ENODEV without a timed line, -ENOTCONN on one without
 * a far end (QEMU given none: peer=off); -EBUSY while a stream is
 * attached; -EINVAL for more than the page counts (32 bits). */
int wire_peer_start(uint64_t bytes, uint32_t seed, uint64_t start_ns)
{
    uintptr_t b = page();
    if (!b)
        return fdt_line_info()->timed ? -ENOTCONN : -ENODEV;
    if (bytes > UINT32_MAX)
        return -EINVAL;
    if (mmio_read32(b + FE_CONTROL) & FE_ST_ATTACHED)
        return -EBUSY;
    mmio_write32(b + FE_SEED, seed);
    mmio_write32(b + FE_BYTES, (uint32_t)bytes);
    mmio_write32(b + FE_START_LO, (uint32_t)start_ns);
    mmio_write32(b + FE_START_HI, (uint32_t)(start_ns >> 32));
    mmio_write32(b + FE_CONTROL, FE_CTRL_START);
    return 0;
}

/* Section task: detach the stream (what it has not sent never comes). */
void wire_peer_stop(void)
{
    uintptr_t b = page();
    if (b)
        mmio_write32(b + FE_CONTROL, FE_CTRL_STOP);
}

/* Any task: the current (or last) stream's ground truth up to now. */
void wire_peer_stats(struct wire_rx_stats *out)
{
    uintptr_t b = page();
    *out = (struct wire_rx_stats){ 0 };
    if (!b)
        return;
    out->stream = mmio_read32(b + FE_STREAMS);
    out->total = mmio_read32(b + FE_BYTES);
    out->sent = mmio_read32(b + FE_SENT);
    out->delivered = mmio_read32(b + FE_DELIVERED);
    out->lost = mmio_read32(b + FE_LOST);
    out->overruns = mmio_read32(b + FE_OVERRUNS);
    out->flushed = mmio_read32(b + FE_FLUSHED);
    out->fifo_level = mmio_read32(b + FE_LEVEL);
    out->crc = mmio_read32(b + FE_CRC);
    out->first_ns = rd64(b, FE_FIRST_LO);
    out->last_ns = rd64(b, FE_LAST_LO);
    out->attached = mmio_read32(b + FE_CONTROL) & FE_ST_ATTACHED;
    out->left = out->attached ? 0 : out->fifo_level;
}
