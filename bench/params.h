/* The sections' fixed parameters, each defined once here: the sections
 * use them, the manifest (S00) prints them, and the report reads them
 * from the manifest. */
#ifndef BENCH_PARAMS_H
#define BENCH_PARAMS_H

#include <stddef.h>

#define BENCH_NELEM(a) (sizeof (a) / sizeof (a)[0])

/* S10, S11, S12, S41: write sizes (tx_throughput_sizes). */
static const unsigned bench_tx_sizes[] __attribute__((unused)) = { 64, 256, 1024 };
/* S14: small packets (tx_break_even_sizes). */
static const unsigned bench_break_even_sizes[] __attribute__((unused)) = { 64, 128, 256 };
/* S21: around the 16-byte FIFO (fifo_matrix_sizes). */
static const unsigned bench_fifo_sizes[] __attribute__((unused)) = { 1, 15, 16, 17, 31, 32, 33, 48, 49 };

#define S12_BATCH     8U                /* tcdrain every 8 writes */
#define S13_FRAGMENTS 4                 /* writev vectors ... */
#define S13_FRAGMENT  ((size_t)64)      /* ... of 64 bytes */
#define S20_SIZE      1U                /* single-byte write + drain */
#define S31_BYTES     4096U             /* RX fixed payload */
#define S32_BYTES     65536U            /* RX sustained (quick: a tenth) */
#define S33_BYTES     4096U             /* full duplex: each direction */
#define S42_PAYLOAD   64U               /* bytes per write while computing */
#define S43_INTERVAL_NS 5000000ULL      /* absolute sleeps every 5 ms ... */
#define S43_BURST     4096U             /* ... loaded: during this burst */

#endif
