/* A 64-bit fingerprint of bytes (FNV-1a): the engines compare a rope's state replayed from step 0 with the
 * state a run was resumed with, bit for bit, without keeping a copy of the state. Not a cryptographic hash:
 * it tells apart states that differ by accident, not on purpose. */
#ifndef SKEIN_BASE_FINGERPRINT_H
#define SKEIN_BASE_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

#define SK_FINGERPRINT_START UINT64_C(0xcbf29ce484222325)

static inline uint64_t sk_fingerprint(uint64_t h, const void *bytes, size_t size)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < size; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001b3);
    return h;
}

#endif
