/* The parallel seam (base/parallel.h): the one file that knows OpenMP. */
#include <omp.h>

#include "base/parallel.h"

int sk_threads_resolve(int requested) { return requested > 0 ? requested : omp_get_max_threads(); }

void sk_parallel_for(size_t n, int threads, void (*fn)(void *ctx, size_t item, int thread), void *ctx)
{
    /* never more threads than items: the others would only wait */
    const int used = (size_t)threads < n ? threads : (int)n;
    if (used <= 1) {
        for (size_t item = 0; item < n; item++)
            fn(ctx, item, 0);
        return;
    }
    /* Guided: each thread takes a contiguous run of the remaining items, shrinking as they run out, so a
     * thread streams through neighbouring packs (prefetch-friendly) and the end still balances uneven work,
     * without the per-item hand-off of a dynamic schedule (slower on W1 and W2 in skein-bench). */
#pragma omp parallel for schedule(guided) num_threads(used)
    for (size_t item = 0; item < n; item++)
        fn(ctx, item, omp_get_thread_num());
}
