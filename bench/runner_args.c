/* The runner's boot arguments and their forms: sections=Sxx[,Syy...]
 * (the sections to run), stall=<Sxx>:<spin|block> and
 * write_fault=<Sxx>:<n>[:<errno>] (the faults tests inject into one
 * section): their forms, registered with the kernel's check
 * (bootarg_key.h); runner.c reads them. */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "bootarg_key.h"

/* The checks below: whether the len characters at id name a section. */
static bool is_section(const char *id, size_t len)
{
    unsigned n;
    bench_sections(&n);
    return bench_section_find(id, len) < n;
}

/* The checks below: head, then the section ids (static text). */
static const char *forms(const char *head)
{
    static char text[256];
    unsigned n;
    const struct bench_section *s = bench_sections(&n);
    size_t used = (size_t)snprintf(text, sizeof text, "%s, Sxx one of ", head);
    for (unsigned i = 0; i < n && used < sizeof text; i++) {
        int w = snprintf(text + used, sizeof text - used, "%s%s", i ? "," : "", s[i].id);
        used += w > 0 ? (size_t)w : 0;
    }
    return text;
}

/* bootargs_check (boot): sections=, section ids separated by commas. */
static const char *sections_forms(const char *value)
{
    for (const char *p = value;; p++) {
        size_t len = strcspn(p, ",");
        if (!is_section(p, len))
            return forms("Sxx[,Syy...]");
        p += len;
        if (!*p)
            return NULL;
    }
}
BOOTARG_KEY(sections, sections_forms);

/* bootargs_check (boot): stall=, a section and how it hangs. */
static const char *stall_forms(const char *value)
{
    const char *colon = strchr(value, ':');
    return colon && is_section(value, (size_t)(colon - value)) &&
           (strcmp(colon + 1, "spin") == 0 || strcmp(colon + 1, "block") == 0)
           ? NULL : forms("<Sxx>:spin or <Sxx>:block");
}
BOOTARG_KEY(stall, stall_forms);

/* bootargs_check (boot): write_fault=, a section, a count and an errno. */
static const char *write_fault_forms(const char *value)
{
    unsigned section;
    int after, err;
    return bench_write_fault_parse(value, &section, &after, &err) ? NULL :
           forms("<Sxx>:<n>[:<errno>], n 0..1000000 writes that succeed first, errno "
                 "0..4095 (EIO without; 0: the write returns 0)");
}
BOOTARG_KEY(write_fault, write_fault_forms);
