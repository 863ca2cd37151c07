/* What the kernel reads from the device tree QEMU passes: the boot
 * arguments (/chosen/bootargs, QEMU -append: the run targets pass e.g.
 * "qemu_mode=icount", tests pass fault=... or selftest=...), the ISA
 * string of cpu@0 (/cpus/cpu@0/riscv,isa, for optional extensions such as
 * Sstc), the harts' timebase (/cpus/timebase-frequency) and the line the
 * emulator's UART keeps (its clock, baud, FIFO depth, bus time and far
 * end). A minimal flattened-device-tree walk, every offset bounds-checked. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "board_info.h"
#include "kernel.h"

#define FDT_MAGIC      0xd00dfeedU
#define FDT_BEGIN_NODE 1U
#define FDT_END_NODE   2U
#define FDT_PROP       3U
#define FDT_NOP        4U
#define FDT_END        9U
#define FDT_MAX_SIZE   (1U << 20)

static const char *bootargs_str = "";
static const char *isa_str = "";
static struct fdt_line line;
static uint64_t timebase_hz;           /* 0: not in the tree */
static char why[160];

/* Boot: big-endian 32-bit field at byte offset off. */
static uint32_t be32(const uint8_t *p, uint32_t off)
{
    return (uint32_t)p[off] << 24 | (uint32_t)p[off + 1] << 16 |
           (uint32_t)p[off + 2] << 8 | p[off + 3];
}

/* Boot: property prop of the first node named node (or node@unit) at
 * depth (root = 1): its value and length; NULL when absent or malformed. */
static const uint8_t *fdt_prop(const uint8_t *fdt, const char *node, int at_depth,
                               const char *prop, uint32_t *plen)
{
    size_t nlen = strlen(node);
    uint32_t total = be32(fdt, 4), off = be32(fdt, 8), strs = be32(fdt, 12);
    int depth = 0, in_node = 0;

    if (be32(fdt, 0) != FDT_MAGIC || total > FDT_MAX_SIZE || off >= total ||
        strs >= total)
        return NULL;
    while (off + 4 <= total) {
        uint32_t tok = be32(fdt, off);
        off += 4;
        if (tok == FDT_BEGIN_NODE) {
            const char *name = (const char *)fdt + off;
            size_t len = strnlen(name, total - off);
            depth++;
            in_node = depth == at_depth && strncmp(name, node, nlen) == 0 &&
                      (name[nlen] == 0 || name[nlen] == '@');
            off += (uint32_t)((len + 4) & ~3U);
        } else if (tok == FDT_END_NODE) {
            depth--;
            in_node = 0;
        } else if (tok == FDT_PROP) {
            if (off + 8 > total)
                return NULL;
            uint32_t len = be32(fdt, off), name = be32(fdt, off + 4);
            off += 8;
            if (len > total - off || strs + name >= total)
                return NULL;
            if (in_node && strcmp((const char *)fdt + strs + name, prop) == 0) {
                *plen = len;
                return fdt + off;
            }
            off += (len + 3) & ~3U;
        } else if (tok != FDT_NOP) {
            break;   /* FDT_END or garbage */
        }
    }
    return NULL;
}

/* Boot: a NUL-terminated string property, or NULL. */
static const char *fdt_string(const uint8_t *fdt, const char *node, int at_depth,
                              const char *prop)
{
    uint32_t len;
    const uint8_t *v = fdt_prop(fdt, node, at_depth, prop, &len);
    return v && len > 0 && v[len - 1] == 0 ? (const char *)v : NULL;
}

/* Boot: a one- or two-cell number property into *out; whether it is
 * there (a property with no value, a flag, reads 1). */
static bool fdt_number(const uint8_t *fdt, const char *node, int at_depth, const char *prop,
                       uint64_t *out)
{
    uint32_t len;
    const uint8_t *v = fdt_prop(fdt, node, at_depth, prop, &len);
    if (!v || (len != 0 && len != 4 && len != 8))
        return false;
    *out = len == 0 ? 1 : len == 4 ? be32(v, 0) : (uint64_t)be32(v, 0) << 32 | be32(v, 4);
    return true;
}

/* Boot (bootargs_init): the line the emulator's 16550 keeps, from
 * /soc/serial@... and /soc/serial-far-end@... (QEMU virt with the
 * project's patches, docs/qemu-line.md); line.timed false when absent. */
static void fdt_line(const uint8_t *fdt)
{
    uint64_t v, reg[2];
    uint32_t len;

    if (!fdt_number(fdt, "serial", 3, "qemu,line-timing", &v))
        return;
    line.timed = true;
    if (fdt_number(fdt, "serial", 3, "clock-frequency", &v))
        line.clock_hz = (uint32_t)v;
    if (fdt_number(fdt, "serial", 3, "current-speed", &v))
        line.baud = (uint32_t)v;
    if (fdt_number(fdt, "serial", 3, "fifo-size", &v))
        line.fifo = (uint32_t)v;
    if (fdt_number(fdt, "serial", 3, "qemu,access-latency-ns", &v))
        line.bus_ns = (uint32_t)v;
    const uint8_t *r = fdt_prop(fdt, "serial-far-end", 3, "reg", &len);
    if (!r || len != 16)
        return;
    reg[0] = (uint64_t)be32(r, 0) << 32 | be32(r, 4);
    reg[1] = (uint64_t)be32(r, 8) << 32 | be32(r, 12);
    line.far_base = (uintptr_t)reg[0];
    if (fdt_number(fdt, "serial-far-end", 3, "qemu,burst", &v))
        line.far_burst = (uint32_t)v;
    if (fdt_number(fdt, "serial-far-end", 3, "qemu,period-ns", &v))
        line.far_period_ns = v;
    (void)reg[1];
}

/* Boot, before tasks run. */
void bootargs_init(const void *fdt)
{
    const char *s;
    if (!fdt)
        return;
    if ((s = fdt_string(fdt, "chosen", 2, "bootargs")))
        bootargs_str = s;
    if ((s = fdt_string(fdt, "cpu", 3, "riscv,isa")))
        isa_str = s;
    if (!fdt_number(fdt, "cpus", 2, "timebase-frequency", &timebase_hz))
        timebase_hz = 0;
    fdt_line(fdt);
}

/* Boot, after bootargs_init: NULL, or why this image's clock (built for
 * board.timebase_hz) would misread the harts' timebase the device tree
 * gives (kmain panics with it before the clock is read). */
const char *fdt_timebase_check(void)
{
    if (!timebase_hz || timebase_hz == board.timebase_hz)
        return NULL;
    snprintf(why, sizeof why, "timebase %llu Hz in the device tree, %llu Hz in this image's "
             "clock: build it with -DTIMEBASE_HZ=%llu", (unsigned long long)timebase_hz,
             (unsigned long long)board.timebase_hz, (unsigned long long)timebase_hz);
    return why;
}

/* Any context: the emulator's line (all zero without one). */
const struct fdt_line *fdt_line_info(void)
{
    return &line;
}

/* Any context: whether cpu@0's ISA string names the multi-letter
 * extension ext (e.g. "sstc" in "rv64imafdch_zicsr_..._sstc"). */
bool isa_has_ext(const char *ext)
{
    size_t n = strlen(ext);
    for (const char *p = strchr(isa_str, '_'); p; p = strchr(p + 1, '_'))
        if (strncmp(p + 1, ext, n) == 0 && (p[1 + n] == 0 || p[1 + n] == '_'))
            return true;
    return false;
}

/* Any task (bootarg): the device tree's boot arguments ("" without). */
const char *fdt_bootargs(void)
{
    return bootargs_str;
}
