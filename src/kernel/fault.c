/* Deliberate faults, chosen by the boot argument fault=<kind>, so tests
 * can prove that every kind of trap ends in a panic report and a non-zero
 * exit status instead of a hang, and that the driver survives a broken
 * line: CPU faults (illegal, load, store, misaligned, panic) fire at once;
 * line faults (temt-stuck) are injected where the line is modelled, the
 * wire model, and the run goes on with them. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "bootarg_key.h"
#include "kernel.h"

/* An address no board maps (64 GiB): loads and stores there fault. */
#define FAULT_UNMAPPED_ADDR 0x1000000000UL

#define FAULT_FORMS "illegal, load, store, misaligned, panic (CPU faults), temt-stuck (a line " \
                    "fault, on an image with the wire model)"

static int (*line_inject)(const char *kind);   /* fault_line_injector's */

/* bootargs_check (boot): fault=, one of FAULT_FORMS's kinds. */
static const char *fault_forms(const char *value)
{
    static const char *const kinds[] = { "illegal", "load", "store", "misaligned", "panic",
                                         "temt-stuck" };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(value, kinds[i]) == 0)
            return NULL;
    return FAULT_FORMS;
}
BOOTARG_KEY(fault, fault_forms);

/* Boot (the UART driver's model hook, before kmain injects). */
void fault_line_injector(int (*inject)(const char *kind))
{
    line_inject = inject;
}

/* Boot, task context: trigger the fault named in the boot arguments. */
void fault_inject_from_bootargs(void)
{
    char kind[16];

    if (!bootarg("fault", kind, sizeof kind))
        return;
    if (strcmp(kind, "temt-stuck") == 0) {
        if (!line_inject || line_inject(kind))
            panic("boot argument fault=temt-stuck: the fault is injected on the modelled "
                  "line, and this image has none (WIRE_BAUD=0; build with WIRE_BAUD=115200)");
        printf("fault_inject=%s line=modelled\n", kind);
        return;
    }
    printf("fault_inject=%s\n", kind);
    if (strcmp(kind, "illegal") == 0) {
        __asm__ volatile(".word 0");   /* all-zero: an illegal instruction */
    } else if (strcmp(kind, "load") == 0) {
        (void)*(volatile uint64_t *)FAULT_UNMAPPED_ADDR;
    } else if (strcmp(kind, "store") == 0) {
        *(volatile uint64_t *)FAULT_UNMAPPED_ADDR = 1;
    } else if (strcmp(kind, "misaligned") == 0) {
        static uint64_t word[2];
        uintptr_t p = (uintptr_t)word + 1;
        __asm__ volatile("amoadd.w zero, zero, (%0)" :: "r"(p) : "memory");
    } else if (strcmp(kind, "panic") == 0) {
        panic("requested by boot argument fault=panic");
    }
    printf("fault_inject=%s status=NO-FAULT\n", kind);
}
