/* Lookups in a sorted array of rope indices (an output's ropes, a journal's, a process's share). */
#ifndef SKEIN_BASE_SORTED_H
#define SKEIN_BASE_SORTED_H

#include <stddef.h>

/* The index of the first of the n sorted values at or after value (n when none is). */
static inline size_t sk_lower_bound(const size_t *sorted, size_t n, size_t value)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The index of value among the n sorted values, n when it is not one of them. */
static inline size_t sk_sorted_find(const size_t *sorted, size_t n, size_t value)
{
    const size_t i = sk_lower_bound(sorted, n, value);
    return i < n && sorted[i] == value ? i : n;
}

#endif
