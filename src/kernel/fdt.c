/* What the kernel reads from the device tree QEMU passes: the boot
 * arguments (/chosen/bootargs, QEMU -append: the run targets pass e.g.
 * "qemu_mode=icount", tests pass fault=... or selftest=...) and the ISA
 * string of cpu@0 (/cpus/cpu@0/riscv,isa, for optional extensions such as
 * Sstc). A minimal flattened-device-tree walk, every offset bounds-checked. */
#include <stdint.h>
#include <string.h>
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

/* Boot: big-endian 32-bit field at byte offset off. */
static uint32_t be32(const uint8_t *p, uint32_t off)
{
    return (uint32_t)p[off] << 24 | (uint32_t)p[off + 1] << 16 |
           (uint32_t)p[off + 2] << 8 | p[off + 3];
}

/* Boot: the string property prop of the first node named node (or
 * node@unit) at depth (root = 1); NULL when absent or malformed. */
static const char *fdt_string(const uint8_t *fdt, const char *node, int at_depth,
                              const char *prop)
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
            if (in_node && strcmp((const char *)fdt + strs + name, prop) == 0 &&
                len > 0 && fdt[off + len - 1] == 0)
                return (const char *)fdt + off;
            off += (len + 3) & ~3U;
        } else if (tok != FDT_NOP) {
            break;   /* FDT_END or garbage */
        }
    }
    return NULL;
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

/* Any task: look up key in the space-separated key=value list. */
const char *bootarg(const char *key, char *buf, size_t n)
{
    size_t klen = strlen(key);
    const char *p = bootargs_str;

    while (*p) {
        while (*p == ' ')
            p++;
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t vlen = len - klen - 1;
            if (vlen >= n)
                vlen = n - 1;
            memcpy(buf, p + klen + 1, vlen);
            buf[vlen] = 0;
            return buf;
        }
        p += len;
    }
    return NULL;
}
