/* The ticket spinlock (include/spinlock.h) with real threads, under
 * ThreadSanitizer: 4 threads add to one counter 2000 times each under
 * the lock, each a read, a yield and a write; the total is exact, every
 * acquisition is counted, and the tickets are all served. The threads
 * start together (a barrier), so that they contend from the first add. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include "check.h"
#include "spinlock.h"

#define THREADS 4
#define ADDS    2000

struct host_csr host_csr;
static struct spinlock lock;
static unsigned long counter;
static pthread_barrier_t start;   /* the threads begin together */

/* spin_wait's hint: let the holder run. */
void host_spin_hint(void)
{
    sched_yield();
}

/* Not used: the threads take the lock without spin_lock_irqsave. */
void host_irq_enabled(void)
{
}

/* Thread: ADDS locked read-yield-write increments. */
static void *adder(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start);
    for (int i = 0; i < ADDS; i++) {
        spin_lock(&lock);
        unsigned long v = counter;
        if (i % 64 == 0)
            sched_yield();   /* a holder that stops: others must wait */
        counter = v + 1;
        spin_unlock(&lock);
    }
    return 0;
}

int main(void)
{
    pthread_t t[THREADS];
    pthread_barrier_init(&start, 0, THREADS);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, adder, 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], 0);
    struct spinlock_stats s = spin_stats(&lock);
    printf("counter=%lu acquired=%llu contended=%llu\n", counter,
           (unsigned long long)s.acquired, (unsigned long long)s.contended);
    CHECK(counter == (unsigned long)THREADS * ADDS);
    CHECK(s.acquired == (unsigned long long)THREADS * ADDS);
    CHECK(lock.next == lock.serving);
    return check_failures != 0;
}
