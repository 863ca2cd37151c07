/* The boot arguments against the keys the image registers (bootarg_key.h):
 * every argument key=value, the key registered, the value of its form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bootarg_key.h"

static char why[512];

/* bootargs_check_in: "; valid keys: a, b, ..." of the n keys k in
 * alphabetical order, appended to why after its first used bytes. */
static void list_keys(size_t used, const struct bootarg_key *k, size_t n)
{
    const char *last = "";
    for (size_t round = 0; round < n && used < sizeof why; round++) {
        const char *next = NULL;
        for (size_t i = 0; i < n; i++)
            if (strcmp(k[i].key, last) > 0 && (!next || strcmp(k[i].key, next) < 0))
                next = k[i].key;
        if (!next)
            break;
        int w = snprintf(why + used, sizeof why - used, "%s%s", round ? ", " : "; valid keys: ",
                         next);
        used += w > 0 ? (size_t)w : 0;
        last = next;
    }
}

/* bootargs_check_in: whether the space-separated list rest has an
 * argument that starts with the n characters key (its "key="). */
static bool given_again(const char *rest, const char *key, size_t n)
{
    for (const char *s = rest; *s;) {
        size_t len = strcspn(s, " ");
        if (len >= n && strncmp(s, key, n) == 0)
            return true;
        s += len + (s[len] == ' ');
    }
    return false;
}

/* bootargs_check (kmain, boot) and the host tests: NULL, or why the
 * first argument of args that is not key=value with one of the n keys k
 * and a value of its form is refused. */
const char *bootargs_check_in(const char *args, const struct bootarg_key *k, size_t n)
{
    char value[BOOTARG_VALUE_MAX + 1];

    for (const char *s = args; *s;) {
        size_t len = strcspn(s, " ");
        const char *eq = memchr(s, '=', len);
        size_t klen = eq ? (size_t)(eq - s) : len, i = 0;
        while (i < n && (strlen(k[i].key) != klen || strncmp(k[i].key, s, klen) != 0))
            i++;
        int arg = len > 80 ? 80 : (int)len;   /* the message shows at most 80 characters */
        if (len && (!eq || i == n)) {
            int w = snprintf(why, sizeof why, "unknown boot argument %.*s%s", arg, s,
                             eq ? "" : " (not key=value)");
            list_keys(w > 0 ? (size_t)w : 0, k, n);
            return why;
        }
        if (len && len - klen - 1 > BOOTARG_VALUE_MAX) {
            snprintf(why, sizeof why, "bad boot argument %.*s...: the value is longer than %d "
                     "characters", arg, s, BOOTARG_VALUE_MAX);
            return why;
        }
        if (len && given_again(s + len, s, klen + 1)) {
            snprintf(why, sizeof why, "bad boot argument %.*s: the key is given twice (the "
                     "arguments from one place name each key once)", arg, s);
            return why;
        }
        if (len) {
            memcpy(value, eq + 1, len - klen - 1);
            value[len - klen - 1] = 0;
            const char *forms = k[i].check(value);
            if (forms) {
                snprintf(why, sizeof why, "bad boot argument %s=%s; valid forms: %s", k[i].key,
                         value, forms);
                return why;
            }
        }
        s += len + (s[len] == ' ');
    }
    return NULL;
}

/* A key's check (boot): whether value is a decimal number 0..max alone. */
bool bootarg_uint(const char *value, unsigned long max)
{
    char *end;
    if (value[0] < '0' || value[0] > '9')
        return false;
    unsigned long v = strtoul(value, &end, 10);
    return !*end && v <= max;
}
