/* The boot arguments' keys (as boot hooks, boot_hooks.h): the component
 * that reads a key registers it with the check of its value's form, so
 * that kmain refuses an unknown key or a malformed value before any
 * section runs, naming the valid keys or forms, and the kernel knows no
 * key by name. An image links them into .bootarg_keys (sections.ld).
 * Checks of a value against the run (a wire= on an image without the
 * model, say) stay with the component that applies it. */
#ifndef BOOTARG_KEY_H
#define BOOTARG_KEY_H

#include <stdbool.h>
#include <stddef.h>

struct bootarg_key {
    const char *key;
    /* Boot, interrupts masked, nothing printed yet: NULL when value has
     * one of the key's forms, else the valid forms (static text). */
    const char *(*check)(const char *value);
};

/* In a component's file: the boot argument name=, checked by check. */
#define BOOTARG_KEY(name, check)                                          \
    static const struct bootarg_key bootarg_key_##name                    \
        __attribute__((used, section(".bootarg_keys"), aligned(8))) = { #name, check }

/* The longest value a boot argument may have. */
#define BOOTARG_VALUE_MAX 127

/* kmain, after bootargs_init (nothing printed yet): NULL when every
 * boot argument, the image's and the device tree's, is key=value with a
 * registered key and a value of its form; else why not (static text,
 * for kmain to print before it exits with EXIT_BOOTARG, and bootarg()
 * finds no argument from then on). */
const char *bootargs_check(void);
/* bootargs_check and the host tests: the same for the space-separated
 * list args against the n keys k. */
const char *bootargs_check_in(const char *args, const struct bootarg_key *k, size_t n);
/* A key's check: whether value is a decimal number 0..max, nothing else. */
bool bootarg_uint(const char *value, unsigned long max);

#endif
