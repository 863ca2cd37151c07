/* Cooperative scheduler. */
#include "sched.h"

/* Any context. */
const char *sched_current_name(void)
{
    return "boot";
}
