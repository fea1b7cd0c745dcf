/* The library's one parallel seam: every loop that runs on several threads goes through sk_parallel_for,
 * so OpenMP lives in core/base/parallel.c alone (a split of the ropes across processes would sit beside
 * it). Callers never reduce across threads with floating point: each thread writes its own slot, and the
 * slots are summed serially afterwards, so results never depend on the thread count. */
#ifndef SKEIN_BASE_PARALLEL_H
#define SKEIN_BASE_PARALLEL_H

#include <stddef.h>

/* The threads a run uses: `requested` when > 0, else OpenMP's default (OMP_NUM_THREADS, or the cores). */
int sk_threads_resolve(int requested);

/* Calls fn(ctx, item, thread) for every item in [0, n), on `threads` threads (thread is in [0, threads)),
 * items handed out one at a time as threads come free (their costs differ: contacts, deployment); returns
 * when all are done. threads < 1 counts as 1; never more threads than items are started, and with one the
 * calling thread does the work alone, outside OpenMP. */
void sk_parallel_for(size_t n, int threads, void (*fn)(void *ctx, size_t item, int thread), void *ctx);

#endif
