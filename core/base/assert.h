/* Contracts between the library's parts: SK_ASSERT(cond) stops the program with the file, line and
 * condition when cond is false. On in Debug and sanitizer builds (SKEIN_ASSERTS, set by CMake), where the
 * tests run; compiled out of Release builds, whose hot paths it must not slow. Bad input never reaches an
 * assertion: the loaders refuse it with a message first. */
#ifndef SKEIN_BASE_ASSERT_H
#define SKEIN_BASE_ASSERT_H

#include <stdbool.h>
#include <stddef.h>

#ifdef SKEIN_ASSERTS
_Noreturn void sk_assert_failed(const char *condition, const char *file, int line);
#define SK_ASSERT(cond) ((cond) ? (void)0 : sk_assert_failed(#cond, __FILE__, __LINE__))
#else
#define SK_ASSERT(cond) ((void)0)
#endif

/* A list of rope indices as the writers take it: strictly increasing, each below total. */
static inline bool sk_ropes_sorted_below(const size_t *ropes, size_t n, size_t total)
{
    for (size_t i = 0; i < n; i++)
        if (ropes[i] >= total || (i > 0 && ropes[i] <= ropes[i - 1]))
            return false;
    return true;
}

#endif
