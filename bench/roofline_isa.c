/* The roofline's arithmetic for one ISA (compiled once per ISA with SK_BM_ISA_<ISA> and its flags):
 * independent chains that keep the FMA, square-root and division units busy, and the triad. */
#include <math.h>

#include "roofline.h"

#if defined(SK_BM_ISA_AVX512) || defined(SK_BM_ISA_AVX2)
#include <immintrin.h>
#endif

#if defined(SK_BM_ISA_AVX512)
#define NAME(f) sk_bm_rl_avx512_##f
typedef __m512d vd;
typedef __m512 vf;
enum { LANES_D = 8, LANES_F = 16 };
#define D_SET1 _mm512_set1_pd
#define D_ADD _mm512_add_pd
#define D_DIV _mm512_div_pd
#define D_SQRT _mm512_sqrt_pd
#define D_FMA _mm512_fmadd_pd
#define D_SUM _mm512_reduce_add_pd
#define F_SET1 _mm512_set1_ps
#define F_ADD _mm512_add_ps
#define F_DIV _mm512_div_ps
#define F_SQRT _mm512_sqrt_ps
#define F_FMA _mm512_fmadd_ps
#define F_SUM _mm512_reduce_add_ps
#define HAVE_FMA 1
#elif defined(SK_BM_ISA_AVX2)
#define NAME(f) sk_bm_rl_avx2_##f
typedef __m256d vd;
typedef __m256 vf;
enum { LANES_D = 4, LANES_F = 8 };
#define D_SET1 _mm256_set1_pd
#define D_ADD _mm256_add_pd
#define D_DIV _mm256_div_pd
#define D_SQRT _mm256_sqrt_pd
#define D_FMA _mm256_fmadd_pd
#define F_SET1 _mm256_set1_ps
#define F_ADD _mm256_add_ps
#define F_DIV _mm256_div_ps
#define F_SQRT _mm256_sqrt_ps
#define F_FMA _mm256_fmadd_ps
#define HAVE_FMA 1
static double D_SUM(vd x)
{
    double t[4];
    _mm256_storeu_pd(t, x);
    return t[0] + t[1] + t[2] + t[3];
}
static float F_SUM(vf x)
{
    float t[8];
    _mm256_storeu_ps(t, x);
    return t[0] + t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7];
}
#else
/* Scalar: one lane, the SSE2 scalar instructions (this file is built without vectorisation). No FMA:
 * the scalar engines do not use it, so there is no scalar FMA roofline. */
#define NAME(f) sk_bm_rl_scalar_##f
typedef double vd;
typedef float vf;
enum { LANES_D = 1, LANES_F = 1 };
#define D_SET1(x) ((double)(x))
#define D_ADD(a, b) ((a) + (b))
#define D_DIV(a, b) ((a) / (b))
#define D_SQRT sqrt
#define D_SUM(x) (x)
#define F_SET1(x) ((float)(x))
#define F_ADD(a, b) ((a) + (b))
#define F_DIV(a, b) ((a) / (b))
#define F_SQRT sqrtf
#define F_SUM(x) (x)
#endif

/* Results land here so that no chain is dead code. */
volatile double NAME(sink);

#define REP8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define REP12(M) REP8(M) M(8) M(9) M(10) M(11)

/* Each chain starts from its own value so that no two chains are the same computation. */
#define DECL_D(j) vd x##j = D_SET1(1.0 + 0.01 * (j));
#define DECL_F(j) vf x##j = F_SET1(1.0f + 0.01f * (float)(j));
#define SUM_D(j) s += D_SUM(x##j);
#define SUM_F(j) s += (double)F_SUM(x##j);

#ifdef HAVE_FMA
/* x = x a + b converges to b / (1 - a) = 0.1: no overflow, no subnormals, however long it runs. */
#define FMA_D(j) x##j = D_FMA(x##j, a, b);
#define FMA_F(j) x##j = F_FMA(x##j, a, b);
uint64_t NAME(fma_d)(long n)
{
    vd a = D_SET1(0.999999), b = D_SET1(1e-7);
    REP12(DECL_D)
    for (long i = 0; i < n; i++) {
        REP12(FMA_D)
    }
    double s = 0;
    REP12(SUM_D)
    NAME(sink) = s;
    return (uint64_t)n * SK_BM_FMA_CHAINS * LANES_D;
}

uint64_t NAME(fma_f)(long n)
{
    vf a = F_SET1(0.9999f), b = F_SET1(1e-5f);
    REP12(DECL_F)
    for (long i = 0; i < n; i++) {
        REP12(FMA_F)
    }
    double s = 0;
    REP12(SUM_F)
    NAME(sink) = s;
    return (uint64_t)n * SK_BM_FMA_CHAINS * LANES_F;
}
#endif

/* x = sqrt(x + 1.7) converges to 1.8964..., a number with a full mantissa (no early-out operands). */
#define SQRT_D(j) x##j = D_SQRT(D_ADD(x##j, c));
#define SQRT_F(j) x##j = F_SQRT(F_ADD(x##j, c));
uint64_t NAME(sqrt_d)(long n)
{
    vd c = D_SET1(1.7);
    REP8(DECL_D)
    for (long i = 0; i < n; i++) {
        REP8(SQRT_D)
    }
    double s = 0;
    REP8(SUM_D)
    NAME(sink) = s;
    return (uint64_t)n * SK_BM_SQRT_CHAINS * LANES_D;
}

uint64_t NAME(sqrt_f)(long n)
{
    vf c = F_SET1(1.7f);
    REP8(DECL_F)
    for (long i = 0; i < n; i++) {
        REP8(SQRT_F)
    }
    double s = 0;
    REP8(SUM_F)
    NAME(sink) = s;
    return (uint64_t)n * SK_BM_SQRT_CHAINS * LANES_F;
}

/* x = 2.3 / x alternates between x0 and 2.3 / x0: full mantissas, never growing. */
#define DIV_D(j) x##j = D_DIV(c, x##j);
#define DIV_F(j) x##j = F_DIV(c, x##j);
uint64_t NAME(div_d)(long n)
{
    vd c = D_SET1(2.3);
    REP8(DECL_D)
    for (long i = 0; i < n; i++) {
        REP8(DIV_D)
    }
    double s = 0;
    REP8(SUM_D)
    NAME(sink) = s;
    return (uint64_t)n * SK_BM_DIV_CHAINS * LANES_D;
}

uint64_t NAME(div_f)(long n)
{
    vf c = F_SET1(2.3f);
    REP8(DECL_F)
    for (long i = 0; i < n; i++) {
        REP8(DIV_F)
    }
    double s = 0;
    REP8(SUM_F)
    NAME(sink) = s;
    return (uint64_t)n * SK_BM_DIV_CHAINS * LANES_F;
}

/* STREAM's triad; the compiler vectorises it with this ISA's flags. */
void NAME(triad)(double *restrict a, const double *restrict b, const double *restrict c, double s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
}
