/* The roofline's arithmetic, compiled once per ISA from roofline_isa.c (names carry the ISA): chains of
 * independent FMA, sqrt and division that keep the unit busy, and the triad a = b + s c. Each returns
 * the lane results it computed (FMA: lane FMAs, two flops each). */
#ifndef SKEIN_BENCH_ROOFLINE_H
#define SKEIN_BENCH_ROOFLINE_H

#include <stddef.h>
#include <stdint.h>

/* Independent chains per function: enough to cover each unit's latency with its throughput. */
#define SK_BM_FMA_CHAINS 12
#define SK_BM_SQRT_CHAINS 8
#define SK_BM_DIV_CHAINS 8

#define SK_BM_ROOFLINE_DECLARE(isa)                                                                     \
    uint64_t sk_bm_rl_##isa##_fma_d(long n);                                                            \
    uint64_t sk_bm_rl_##isa##_fma_f(long n);                                                            \
    uint64_t sk_bm_rl_##isa##_sqrt_d(long n);                                                           \
    uint64_t sk_bm_rl_##isa##_sqrt_f(long n);                                                           \
    uint64_t sk_bm_rl_##isa##_div_d(long n);                                                            \
    uint64_t sk_bm_rl_##isa##_div_f(long n);                                                            \
    void sk_bm_rl_##isa##_triad(double *restrict a, const double *restrict b, const double *restrict c, \
                                double s, size_t n);

SK_BM_ROOFLINE_DECLARE(scalar)
SK_BM_ROOFLINE_DECLARE(avx2)
SK_BM_ROOFLINE_DECLARE(avx512)

#endif
