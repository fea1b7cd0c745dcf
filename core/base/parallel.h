/* The library's parallel loop for work outside the engines (compressing output chunks): a seam so that
 * OpenMP stays in one file, core/batch_parallel.c, which defines it. */
#ifndef SKEIN_PARALLEL_H
#define SKEIN_PARALLEL_H

#include <stddef.h>

/* Calls fn(ctx, item, thread) for every item in [0, n), on `threads` threads (thread is in [0, threads)),
 * in any order; returns when all are done. */
void sk_parallel_for(size_t n, int threads, void (*fn)(void *ctx, size_t item, int thread), void *ctx);

#endif
