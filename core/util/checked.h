/* Sizes computed from counts that come from outside the program (a checkpoint, a journal, an HDF5 file): a
 * product or a sum that says when it does not fit, so that a crafted count is refused rather than wrapped
 * into a small allocation the reader then overruns. Every such size goes through these, in libskein and in
 * skein-view alike (part of skein_util). */
#ifndef SKEIN_UTIL_CHECKED_H
#define SKEIN_UTIL_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* *out = a * b; false when it overflows (*out is then SIZE_MAX, which no allocation gets). */
static inline bool sk_size_mul(size_t a, size_t b, size_t *out)
{
    if (__builtin_mul_overflow(a, b, out)) {
        *out = SIZE_MAX;
        return false;
    }
    return true;
}

/* *out = a + b; false when it overflows (*out is then SIZE_MAX). */
static inline bool sk_size_add(size_t a, size_t b, size_t *out)
{
    if (__builtin_add_overflow(a, b, out)) {
        *out = SIZE_MAX;
        return false;
    }
    return true;
}

/* An array of n items of `size` bytes (at least one byte, so that n == 0 is not mistaken for a failure);
 * NULL when out of memory or when n * size overflows. */
void *sk_alloc_array(size_t n, size_t size);

#endif
