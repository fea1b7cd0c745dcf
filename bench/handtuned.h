/* The hand-tuned W1 kernel (handtuned_isa.c, compiled once per ISA): the yardstick skein's W1 step is
 * measured against (handtuned.c registers it). */
#ifndef SKEIN_BENCH_HANDTUNED_H
#define SKEIN_BENCH_HANDTUNED_H

#include <stddef.h>

#include "skein/types.h"

/* W1's numbers, one rope's (every rope of W1 is the same). */
typedef struct sk_bm_ht_constants {
    sk_real rest, stiffness, inverse_mass, dt, g[3];
} sk_bm_ht_constants;

/* Lanes per pack, and `steps` steps of n_packs packs of n particles ([n][6][W] each, 64-byte aligned, one
 * after another), a block of block_packs packs at a time. */
#define SK_BM_HT_DECLARE(isa)                                                                              \
    int sk_bm_ht_##isa##_width(void);                                                                      \
    void sk_bm_ht_##isa##_advance(sk_real *packs, size_t n_packs, int n, long steps, size_t block_packs, \
                                  const sk_bm_ht_constants *c);

SK_BM_HT_DECLARE(avx2)
SK_BM_HT_DECLARE(avx512)

#endif
