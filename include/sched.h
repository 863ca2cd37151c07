/* Cooperative scheduler. */
#ifndef SCHED_H
#define SCHED_H

/* Any context: name of the running task ("boot" before the scheduler). */
const char *sched_current_name(void);

#endif
