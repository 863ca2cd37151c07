/* The boot arguments: those a loader wrote into the image, then the
 * device tree's (QEMU -append). A board whose loader passes no device
 * tree (the D1 under xfel) gets them from scripts/d1-flash --append,
 * which finds BOOTARGS_MAGIC in kernel.bin and writes the arguments
 * after it, NUL-terminated (scripts/image_bootargs.py). A key given in
 * both is the image's. */
#include <string.h>
#include "bootarg_key.h"
#include "kernel.h"

#define BOOTARGS_MAGIC "uartbench-bootargs:"
#define BOOTARGS_ROOM  256   /* the magic, the arguments and their NUL */

/* In the image, changed by a loader only: read through a laundered
 * pointer so that the compiler cannot take its contents as known. */
__attribute__((used)) static const char image_args[BOOTARGS_ROOM] = BOOTARGS_MAGIC;

/* bootarg: key's value in the space-separated key=value list s, into
 * buf (n bytes, cut to fit); NULL when s has no key=. */
static const char *lookup(const char *s, const char *key, char *buf, size_t n)
{
    size_t klen = strlen(key);

    while (*s) {
        while (*s == ' ')
            s++;
        const char *end = strchr(s, ' ');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len > klen && strncmp(s, key, klen) == 0 && s[klen] == '=') {
            size_t vlen = len - klen - 1;
            if (vlen >= n)
                vlen = n - 1;
            memcpy(buf, s + klen + 1, vlen);
            buf[vlen] = 0;
            return buf;
        }
        s += len;
    }
    return NULL;
}

/* Any task, after bootargs_init: the image's arguments ("" unless a
 * loader wrote some). */
const char *image_bootargs(void)
{
    const char *p = image_args;
    __asm__("" : "+r"(p));
    p += sizeof BOOTARGS_MAGIC - 1;
    return memchr(p, 0, BOOTARGS_ROOM - (sizeof BOOTARGS_MAGIC - 1)) ? p : "";
}

static bool refused;                   /* bootargs_check found a bad one */

/* Any task: key's value, the image's arguments first; none at all once
 * bootargs_check has refused them (the run stops before any section,
 * and until then nothing acts on a value of no form). */
const char *bootarg(const char *key, char *buf, size_t n)
{
    if (refused)
        return NULL;
    const char *v = lookup(image_bootargs(), key, buf, n);
    return v ? v : lookup(fdt_bootargs(), key, buf, n);
}

extern const struct bootarg_key __bootarg_keys_start[], __bootarg_keys_end[];   /* sections.ld */

/* kmain, after bootargs_init, nothing printed yet: the image's and the
 * device tree's arguments against the keys the image registers. */
const char *bootargs_check(void)
{
    size_t n = ((uintptr_t)__bootarg_keys_end - (uintptr_t)__bootarg_keys_start) /
               sizeof __bootarg_keys_start[0];
    const char *why = bootargs_check_in(image_bootargs(), __bootarg_keys_start, n);
    why = why ? why : bootargs_check_in(fdt_bootargs(), __bootarg_keys_start, n);
    refused = why != NULL;
    return why;
}
