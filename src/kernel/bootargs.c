/* Boot arguments from the device tree's /chosen/bootargs (QEMU -append).
 * The run targets pass e.g. "qemu_mode=icount"; tests pass fault=... .
 * A minimal flattened-device-tree walk with every offset bounds-checked. */
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

/* Boot: big-endian 32-bit field at byte offset off. */
static uint32_t be32(const uint8_t *p, uint32_t off)
{
    return (uint32_t)p[off] << 24 | (uint32_t)p[off + 1] << 16 |
           (uint32_t)p[off + 2] << 8 | p[off + 3];
}

/* Boot: find /chosen/bootargs; NULL when absent or malformed. */
static const char *fdt_bootargs(const uint8_t *fdt)
{
    uint32_t total = be32(fdt, 4), off = be32(fdt, 8), strs = be32(fdt, 12);
    int depth = 0, in_chosen = 0;

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
            in_chosen = depth == 2 && strncmp(name, "chosen", 6) == 0 &&
                        (name[6] == 0 || name[6] == '@');
            off += (uint32_t)((len + 4) & ~3U);
        } else if (tok == FDT_END_NODE) {
            depth--;
            in_chosen = 0;
        } else if (tok == FDT_PROP) {
            if (off + 8 > total)
                return NULL;
            uint32_t len = be32(fdt, off), name = be32(fdt, off + 4);
            off += 8;
            if (len > total - off || strs + name >= total)
                return NULL;
            if (in_chosen && strcmp((const char *)fdt + strs + name, "bootargs") == 0 &&
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
    const char *s = fdt ? fdt_bootargs(fdt) : NULL;
    if (s)
        bootargs_str = s;
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
