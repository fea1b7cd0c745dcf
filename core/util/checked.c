/* Allocations sized by counts from outside the program, checked for overflow (checked.h). */
#include "util/checked.h"

#include <stdlib.h>

void *sk_alloc_array(size_t n, size_t size)
{
    size_t bytes;
    if (!sk_size_mul(n, size, &bytes))
        return NULL;
    return malloc(bytes ? bytes : 1);
}
