/* Host unit tests: the CPU accounting objects the async backend charges
 * (cpu_acct.h). On the host the counters are host_csr's (csr.h), which
 * the tests leave at 0 or set themselves; only the owner changes. */
#include "cpu_acct.h"

struct cpu_acct cpu_acct_isr, cpu_acct_idle, cpu_acct_sim, cpu_acct_rx;
struct cpu_acct_now cpu_acct_now = { .owner = &cpu_acct_isr };
unsigned cpu_instret_shift;
bool cpu_instret_exact;
