/* The POSIX layer's boot hook (boot_hooks.h), image only: the fd table on
 * the console, then stdio's output through the driver. */
#include "boot_hooks.h"
#include "posix_io.h"

/* kmain, BOOT_IO: the boot task, the drivers started. */
static int io_up(const struct boot_ctx *b)
{
    (void)b;
    posix_io_init();
    stdio_use_backend();
    return 0;
}
BOOT_HOOK(BOOT_IO, io_up);
