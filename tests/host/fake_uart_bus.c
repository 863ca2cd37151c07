/* The bus in front of the register-level fake UART for the tests with a
 * thread per hart (fake_kernel_threads.h): the driver's register
 * accesses (fake_mmio_read/_write, linked with --wrap) and the test's
 * looks at the fake, one at a time under a mutex, the fake brought up to
 * the real clock first. ThreadSanitizer ignores the fake's memory and
 * the mutex's ordering inside (its dynamic annotations): the driver gets
 * no happens-before edge from a register access. */
#include <pthread.h>

#include "clock.h"
#include "fake_kernel_threads.h"
#include "fake_mmio.h"
#include "fake_uart.h"
#include "harts.h"

void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);
void AnnotateIgnoreSyncBegin(const char *file, int line);
void AnnotateIgnoreSyncEnd(const char *file, int line);

uint32_t __real_fake_mmio_read(uintptr_t addr, unsigned width);
void __real_fake_mmio_write(uintptr_t addr, unsigned width, uint32_t value);

static pthread_mutex_t bus = PTHREAD_MUTEX_INITIALIZER;

/* Any thread: take the bus (outside TSan's view), the fake at now. */
void ft_bus_lock(void)
{
    AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
    pthread_mutex_lock(&bus);
    fu_advance_to(clock_now_ns());
}

/* The holder of the bus: release it. */
void ft_bus_unlock(void)
{
    pthread_mutex_unlock(&bus);
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
    AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
}

/* Hart 0's idle thread and interrupt points: the fake's line now, and
 * when it next changes by itself (UINT64_MAX: never). */
bool ft_bus_line(uint64_t *next_event)
{
    ft_bus_lock();
    bool line = fu_irq_line();
    if (next_event)
        *next_event = fu_next_event();
    ft_bus_unlock();
    return line;
}

/* After an access by a thread of a hart other than 0: a line it raised
 * (an IER write, say) reaches hart 0 at once, as the PLIC would. */
static void after_access(bool line)
{
    if (line && hart_self() != 0)
        ft_irq_poke();
}

/* The register seam (uart_16550.h, HOST_TEST), any thread: one read. */
uint32_t __wrap_fake_mmio_read(uintptr_t addr, unsigned width)
{
    ft_bus_lock();
    uint32_t v = __real_fake_mmio_read(addr, width);
    bool line = fu_irq_line();
    ft_bus_unlock();
    after_access(line);
    return v;
}

/* The register seam, any thread: one write. */
void __wrap_fake_mmio_write(uintptr_t addr, unsigned width, uint32_t value)
{
    ft_bus_lock();
    __real_fake_mmio_write(addr, width, value);
    bool line = fu_irq_line();
    ft_bus_unlock();
    after_access(line);
}
