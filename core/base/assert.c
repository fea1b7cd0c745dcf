/* The failure of an SK_ASSERT: one line on stderr, then abort (a core file, a sanitizer's stack). */
#include <stdio.h>
#include <stdlib.h>

#include "base/assert.h"

#ifdef SKEIN_ASSERTS
void sk_assert_failed(const char *condition, const char *file, int line)
{
    fprintf(stderr, "skein: internal error: %s:%d: SK_ASSERT(%s) failed\n", file, line, condition);
    abort();
}
#endif
