/* The vector wrapper: the only file that knows intrinsics and SLEEF names. A vector holds SK_W reals,
 * one lane per rope; the kernels are written once against these operations and compiled per ISA.
 *
 * Every operation is one IEEE operation per lane, rounded once, exactly what the scalar C does (no FMA:
 * there is no multiply-add here on purpose). Compares are C's: ordered (false on NaN) except skv_ne.
 * skv_select(m, a, b) is m ? a : b per lane; skv_keep(m, a) is m ? a : +0, one operation on every ISA.
 * skv_sin, skv_cos, skv_sincos (both at once: not always the bits of the two apart) and skv_exp are SLEEF's u10
 * functions, whose scalar FMA variant (core/model/sleef_scalar.h)
 * the reference engine calls for the same bits; skv_round rounds to the nearest whole number, ties to even. */
#ifndef SKEIN_KERNELS_SIMD_H
#define SKEIN_KERNELS_SIMD_H

#include <stdbool.h>

#include "skein/types.h"

#if !defined(SK_ISA_SCALAR) && !defined(SK_ISA_AVX2) && !defined(SK_ISA_AVX512)
#error "compile the kernels with one of -DSK_ISA_SCALAR, -DSK_ISA_AVX2, -DSK_ISA_AVX512"
#endif

/* SK_KNAME(x): a kernel symbol carries its ISA, so the three builds of one source link together. */
#if defined(SK_ISA_AVX512)
#define SK_KNAME(x) x##_avx512
#define SK_ISA_NAME "avx512"
#elif defined(SK_ISA_AVX2)
#define SK_KNAME(x) x##_avx2
#define SK_ISA_NAME "avx2"
#else
#define SK_KNAME(x) x##_scalar
#define SK_ISA_NAME "scalar"
#endif

#define SK_INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------------------------------------------------------ */
#if defined(SK_ISA_AVX512)

#include <immintrin.h>
/* sleef.h declares its AVX-512 functions only under __AVX512F__, which this build defines. */
#include <sleef.h>

#ifdef SKEIN_REAL_FLOAT
#define SK_W 16
typedef __m512 skv;
typedef __mmask16 skm;
SK_INLINE skv skv_load(const sk_real *p) { return _mm512_load_ps(p); }
SK_INLINE void skv_store(sk_real *p, skv a) { _mm512_store_ps(p, a); }
SK_INLINE skv skv_set1(sk_real a) { return _mm512_set1_ps(a); }
SK_INLINE skv skv_add(skv a, skv b) { return _mm512_add_ps(a, b); }
SK_INLINE skv skv_sub(skv a, skv b) { return _mm512_sub_ps(a, b); }
SK_INLINE skv skv_mul(skv a, skv b) { return _mm512_mul_ps(a, b); }
SK_INLINE skv skv_div(skv a, skv b) { return _mm512_div_ps(a, b); }
SK_INLINE skv skv_sqrt(skv a) { return _mm512_sqrt_ps(a); }
SK_INLINE skm skv_lt(skv a, skv b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
SK_INLINE skm skv_le(skv a, skv b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
SK_INLINE skm skv_gt(skv a, skv b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
SK_INLINE skm skv_eq(skv a, skv b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
SK_INLINE skm skv_ne(skv a, skv b) { return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ); }
SK_INLINE skv skv_select(skm m, skv a, skv b) { return _mm512_mask_blend_ps(m, b, a); }
SK_INLINE skv skv_keep(skm m, skv a) { return _mm512_maskz_mov_ps(m, a); }
SK_INLINE skv skv_min(skv a, skv b) { return _mm512_min_ps(a, b); }
SK_INLINE skv skv_max(skv a, skv b) { return _mm512_max_ps(a, b); }
SK_INLINE skv skv_sin(skv a) { return Sleef_sinf16_u10avx512f(a); }
SK_INLINE skv skv_cos(skv a) { return Sleef_cosf16_u10avx512f(a); }
SK_INLINE void skv_sincos(skv a, skv *s, skv *c)
{
    Sleef___m512_2 r = Sleef_sincosf16_u10avx512f(a);
    *s = r.x;
    *c = r.y;
}
SK_INLINE skv skv_exp(skv a) { return Sleef_expf16_u10avx512f(a); }
SK_INLINE skv skv_round(skv a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
#define SK_SLEEF_SIN_NAME "Sleef_sinf16_u10avx512f"
#else
#define SK_W 8
typedef __m512d skv;
typedef __mmask8 skm;
SK_INLINE skv skv_load(const sk_real *p) { return _mm512_load_pd(p); }
SK_INLINE void skv_store(sk_real *p, skv a) { _mm512_store_pd(p, a); }
SK_INLINE skv skv_set1(sk_real a) { return _mm512_set1_pd(a); }
SK_INLINE skv skv_add(skv a, skv b) { return _mm512_add_pd(a, b); }
SK_INLINE skv skv_sub(skv a, skv b) { return _mm512_sub_pd(a, b); }
SK_INLINE skv skv_mul(skv a, skv b) { return _mm512_mul_pd(a, b); }
SK_INLINE skv skv_div(skv a, skv b) { return _mm512_div_pd(a, b); }
SK_INLINE skv skv_sqrt(skv a) { return _mm512_sqrt_pd(a); }
SK_INLINE skm skv_lt(skv a, skv b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
SK_INLINE skm skv_le(skv a, skv b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
SK_INLINE skm skv_gt(skv a, skv b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
SK_INLINE skm skv_eq(skv a, skv b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
SK_INLINE skm skv_ne(skv a, skv b) { return _mm512_cmp_pd_mask(a, b, _CMP_NEQ_UQ); }
SK_INLINE skv skv_select(skm m, skv a, skv b) { return _mm512_mask_blend_pd(m, b, a); }
SK_INLINE skv skv_keep(skm m, skv a) { return _mm512_maskz_mov_pd(m, a); }
SK_INLINE skv skv_min(skv a, skv b) { return _mm512_min_pd(a, b); }
SK_INLINE skv skv_max(skv a, skv b) { return _mm512_max_pd(a, b); }
SK_INLINE skv skv_sin(skv a) { return Sleef_sind8_u10avx512f(a); }
SK_INLINE skv skv_cos(skv a) { return Sleef_cosd8_u10avx512f(a); }
SK_INLINE void skv_sincos(skv a, skv *s, skv *c)
{
    Sleef___m512d_2 r = Sleef_sincosd8_u10avx512f(a);
    *s = r.x;
    *c = r.y;
}
SK_INLINE skv skv_exp(skv a) { return Sleef_expd8_u10avx512f(a); }
SK_INLINE skv skv_round(skv a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
#define SK_SLEEF_SIN_NAME "Sleef_sind8_u10avx512f"
#endif
/* Masks are bit sets: lane l is bit l. */
SK_INLINE skm skm_and(skm a, skm b) { return (skm)(a & b); }
SK_INLINE skm skm_or(skm a, skm b) { return (skm)(a | b); }
SK_INLINE skm skm_andnot(skm a, skm b) { return (skm)(~a & b); } /* b and not a */
SK_INLINE bool skm_any(skm a) { return a != 0; }
SK_INLINE bool skm_all(skm a) { return a == (skm)((1u << SK_W) - 1u); }
SK_INLINE bool skm_lane(skm a, int l) { return (a >> l) & 1; }
SK_INLINE unsigned skm_bits(skm a) { return a; }
SK_INLINE skm skm_from_bits(unsigned bits) { return (skm)bits; }
#ifdef SKEIN_REAL_FLOAT
SK_INLINE void skv_store_mask(sk_real *p, skm m, skv a) { _mm512_mask_store_ps(p, m, a); }
#else
SK_INLINE void skv_store_mask(sk_real *p, skm m, skv a) { _mm512_mask_store_pd(p, m, a); }
#endif

/* ------------------------------------------------------------------------------------------------ */
#elif defined(SK_ISA_AVX2)

#include <immintrin.h>
#include <sleef.h>

#ifdef SKEIN_REAL_FLOAT
#define SK_W 8
typedef __m256 skv;
typedef __m256 skm; /* all-ones lanes where true */
SK_INLINE skv skv_load(const sk_real *p) { return _mm256_load_ps(p); }
SK_INLINE void skv_store(sk_real *p, skv a) { _mm256_store_ps(p, a); }
SK_INLINE skv skv_set1(sk_real a) { return _mm256_set1_ps(a); }
SK_INLINE skv skv_add(skv a, skv b) { return _mm256_add_ps(a, b); }
SK_INLINE skv skv_sub(skv a, skv b) { return _mm256_sub_ps(a, b); }
SK_INLINE skv skv_mul(skv a, skv b) { return _mm256_mul_ps(a, b); }
SK_INLINE skv skv_div(skv a, skv b) { return _mm256_div_ps(a, b); }
SK_INLINE skv skv_sqrt(skv a) { return _mm256_sqrt_ps(a); }
SK_INLINE skm skv_lt(skv a, skv b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
SK_INLINE skm skv_le(skv a, skv b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
SK_INLINE skm skv_gt(skv a, skv b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
SK_INLINE skm skv_eq(skv a, skv b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
SK_INLINE skm skv_ne(skv a, skv b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
SK_INLINE skv skv_select(skm m, skv a, skv b) { return _mm256_blendv_ps(b, a, m); }
SK_INLINE skv skv_keep(skm m, skv a) { return _mm256_and_ps(m, a); }
SK_INLINE skv skv_min(skv a, skv b) { return _mm256_min_ps(a, b); }
SK_INLINE skv skv_max(skv a, skv b) { return _mm256_max_ps(a, b); }
SK_INLINE skv skv_sin(skv a) { return Sleef_sinf8_u10avx2(a); }
SK_INLINE skv skv_cos(skv a) { return Sleef_cosf8_u10avx2(a); }
SK_INLINE void skv_sincos(skv a, skv *s, skv *c)
{
    Sleef___m256_2 r = Sleef_sincosf8_u10avx2(a);
    *s = r.x;
    *c = r.y;
}
SK_INLINE skv skv_exp(skv a) { return Sleef_expf8_u10avx2(a); }
SK_INLINE skv skv_round(skv a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
SK_INLINE skm skm_and(skm a, skm b) { return _mm256_and_ps(a, b); }
SK_INLINE skm skm_or(skm a, skm b) { return _mm256_or_ps(a, b); }
SK_INLINE skm skm_andnot(skm a, skm b) { return _mm256_andnot_ps(a, b); }
SK_INLINE int skm_bits(skm a) { return _mm256_movemask_ps(a); }
SK_INLINE skm skm_from_bits(unsigned bits)
{
    const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i b = _mm256_and_si256(_mm256_set1_epi32((int)bits), lane_bit);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(b, lane_bit));
}
#define SK_SLEEF_SIN_NAME "Sleef_sinf8_u10avx2"
#else
#define SK_W 4
typedef __m256d skv;
typedef __m256d skm; /* all-ones lanes where true */
SK_INLINE skv skv_load(const sk_real *p) { return _mm256_load_pd(p); }
SK_INLINE void skv_store(sk_real *p, skv a) { _mm256_store_pd(p, a); }
SK_INLINE skv skv_set1(sk_real a) { return _mm256_set1_pd(a); }
SK_INLINE skv skv_add(skv a, skv b) { return _mm256_add_pd(a, b); }
SK_INLINE skv skv_sub(skv a, skv b) { return _mm256_sub_pd(a, b); }
SK_INLINE skv skv_mul(skv a, skv b) { return _mm256_mul_pd(a, b); }
SK_INLINE skv skv_div(skv a, skv b) { return _mm256_div_pd(a, b); }
SK_INLINE skv skv_sqrt(skv a) { return _mm256_sqrt_pd(a); }
SK_INLINE skm skv_lt(skv a, skv b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
SK_INLINE skm skv_le(skv a, skv b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
SK_INLINE skm skv_gt(skv a, skv b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
SK_INLINE skm skv_eq(skv a, skv b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
SK_INLINE skm skv_ne(skv a, skv b) { return _mm256_cmp_pd(a, b, _CMP_NEQ_UQ); }
SK_INLINE skv skv_select(skm m, skv a, skv b) { return _mm256_blendv_pd(b, a, m); }
SK_INLINE skv skv_keep(skm m, skv a) { return _mm256_and_pd(m, a); }
SK_INLINE skv skv_min(skv a, skv b) { return _mm256_min_pd(a, b); }
SK_INLINE skv skv_max(skv a, skv b) { return _mm256_max_pd(a, b); }
SK_INLINE skv skv_sin(skv a) { return Sleef_sind4_u10avx2(a); }
SK_INLINE skv skv_cos(skv a) { return Sleef_cosd4_u10avx2(a); }
SK_INLINE void skv_sincos(skv a, skv *s, skv *c)
{
    Sleef___m256d_2 r = Sleef_sincosd4_u10avx2(a);
    *s = r.x;
    *c = r.y;
}
SK_INLINE skv skv_exp(skv a) { return Sleef_expd4_u10avx2(a); }
SK_INLINE skv skv_round(skv a) { return _mm256_round_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
SK_INLINE skm skm_and(skm a, skm b) { return _mm256_and_pd(a, b); }
SK_INLINE skm skm_or(skm a, skm b) { return _mm256_or_pd(a, b); }
SK_INLINE skm skm_andnot(skm a, skm b) { return _mm256_andnot_pd(a, b); }
SK_INLINE int skm_bits(skm a) { return _mm256_movemask_pd(a); }
SK_INLINE skm skm_from_bits(unsigned bits)
{
    const __m256i lane_bit = _mm256_setr_epi64x(1, 2, 4, 8);
    __m256i b = _mm256_and_si256(_mm256_set1_epi64x((long long)bits), lane_bit);
    return _mm256_castsi256_pd(_mm256_cmpeq_epi64(b, lane_bit));
}
#define SK_SLEEF_SIN_NAME "Sleef_sind4_u10avx2"
#endif
SK_INLINE bool skm_any(skm a) { return skm_bits(a) != 0; }
SK_INLINE bool skm_all(skm a) { return skm_bits(a) == (1 << SK_W) - 1; }
SK_INLINE bool skm_lane(skm a, int l) { return (skm_bits(a) >> l) & 1; }
/* Writes the lanes of m only (the others keep their bits). */
SK_INLINE void skv_store_mask(sk_real *p, skm m, skv a) { skv_store(p, skv_select(m, a, skv_load(p))); }

/* ------------------------------------------------------------------------------------------------ */
#else /* SK_ISA_SCALAR: one lane, plain C; the layout is the same with W = 1. */

#include <math.h>
#include <sleef.h>

#define SK_W 1
typedef sk_real skv;
typedef bool skm;
SK_INLINE skv skv_load(const sk_real *p) { return *p; }
SK_INLINE void skv_store(sk_real *p, skv a) { *p = a; }
SK_INLINE skv skv_set1(sk_real a) { return a; }
SK_INLINE skv skv_add(skv a, skv b) { return a + b; }
SK_INLINE skv skv_sub(skv a, skv b) { return a - b; }
SK_INLINE skv skv_mul(skv a, skv b) { return a * b; }
SK_INLINE skv skv_div(skv a, skv b) { return a / b; }
#ifdef SKEIN_REAL_FLOAT
SK_INLINE skv skv_sqrt(skv a) { return sqrtf(a); }
#else
SK_INLINE skv skv_sqrt(skv a) { return sqrt(a); }
#endif
SK_INLINE skm skv_lt(skv a, skv b) { return a < b; }
SK_INLINE skm skv_le(skv a, skv b) { return a <= b; }
SK_INLINE skm skv_gt(skv a, skv b) { return a > b; }
SK_INLINE skm skv_eq(skv a, skv b) { return a == b; }
SK_INLINE skm skv_ne(skv a, skv b) { return a != b; }
SK_INLINE skv skv_select(skm m, skv a, skv b) { return m ? a : b; }
SK_INLINE skv skv_keep(skm m, skv a) { return m ? a : 0; }
/* As the SSE/AVX instructions do: the second operand when either is NaN or both are zero. */
SK_INLINE skv skv_min(skv a, skv b) { return a < b ? a : b; }
SK_INLINE skv skv_max(skv a, skv b) { return a > b ? a : b; }
/* SLEEF 3.5.1 gives the same bits only within its FMA group (scalar-fma, AVX2, AVX-512): the scalar
 * kernels call the purecfma variant where the CPU has FMA so they agree with the vector lanes. sleef.h
 * declares it only under FP_FAST_FMA (a -mfma build), which the scalar build is not: declared here. */
#ifndef FP_FAST_FMA
double Sleef_sind1_u10purecfma(double);
float Sleef_sinf1_u10purecfma(float);
double Sleef_cosd1_u10purecfma(double);
float Sleef_cosf1_u10purecfma(float);
double Sleef_expd1_u10purecfma(double);
float Sleef_expf1_u10purecfma(float);
Sleef_double_2 Sleef_sincosd1_u10purecfma(double);
Sleef_float_2 Sleef_sincosf1_u10purecfma(float);
#endif
#ifdef SKEIN_REAL_FLOAT
SK_INLINE skv skv_sin(skv a)
{
    return __builtin_cpu_supports("fma") ? Sleef_sinf1_u10purecfma(a) : Sleef_sinf1_u10purec(a);
}
SK_INLINE skv skv_cos(skv a)
{
    return __builtin_cpu_supports("fma") ? Sleef_cosf1_u10purecfma(a) : Sleef_cosf1_u10purec(a);
}
SK_INLINE skv skv_exp(skv a)
{
    return __builtin_cpu_supports("fma") ? Sleef_expf1_u10purecfma(a) : Sleef_expf1_u10purec(a);
}
SK_INLINE void skv_sincos(skv a, skv *s, skv *c)
{
    Sleef_float_2 r = __builtin_cpu_supports("fma") ? Sleef_sincosf1_u10purecfma(a) : Sleef_sincosf1_u10purec(a);
    *s = r.x;
    *c = r.y;
}
SK_INLINE skv skv_round(skv a) { return nearbyintf(a); }
#define SK_SLEEF_SIN_NAME "Sleef_sinf1_u10purecfma"
#else
SK_INLINE skv skv_sin(skv a)
{
    return __builtin_cpu_supports("fma") ? Sleef_sind1_u10purecfma(a) : Sleef_sind1_u10purec(a);
}
SK_INLINE skv skv_cos(skv a)
{
    return __builtin_cpu_supports("fma") ? Sleef_cosd1_u10purecfma(a) : Sleef_cosd1_u10purec(a);
}
SK_INLINE skv skv_exp(skv a)
{
    return __builtin_cpu_supports("fma") ? Sleef_expd1_u10purecfma(a) : Sleef_expd1_u10purec(a);
}
SK_INLINE void skv_sincos(skv a, skv *s, skv *c)
{
    Sleef_double_2 r = __builtin_cpu_supports("fma") ? Sleef_sincosd1_u10purecfma(a) : Sleef_sincosd1_u10purec(a);
    *s = r.x;
    *c = r.y;
}
SK_INLINE skv skv_round(skv a) { return nearbyint(a); }
#define SK_SLEEF_SIN_NAME "Sleef_sind1_u10purecfma"
#endif
SK_INLINE skm skm_and(skm a, skm b) { return a && b; }
SK_INLINE skm skm_or(skm a, skm b) { return a || b; }
SK_INLINE skm skm_andnot(skm a, skm b) { return !a && b; }
SK_INLINE bool skm_any(skm a) { return a; }
SK_INLINE bool skm_all(skm a) { return a; }
SK_INLINE bool skm_lane(skm a, int l) { (void)l; return a; }
SK_INLINE int skm_bits(skm a) { return a ? 1 : 0; }
SK_INLINE skm skm_from_bits(unsigned bits) { return (bits & 1u) != 0; }
SK_INLINE void skv_store_mask(sk_real *p, skm m, skv a)
{
    if (m)
        *p = a;
}

#endif

/* ------------------------------------------------------------------------------------------------ */
/* Built on the above, the same for every ISA. */

SK_INLINE skv skv_zero(void) { return skv_set1(0); }
/* Lanes where a is false (C's !(...) of the compare that gave a, NaN included). */
SK_INLINE skm skm_not(skm a) { return skm_andnot(a, skv_eq(skv_zero(), skv_zero())); }
/* Exact negation: multiplying by -1 flips the sign and rounds nothing. */
SK_INLINE skv skv_neg(skv a) { return skv_mul(a, skv_set1(-1)); }
/* Lanes holding a finite number: x - x is 0 exactly then, NaN for an infinity or a NaN. */
SK_INLINE skm skv_finite(skv a) { return skv_eq(skv_sub(a, a), skv_zero()); }

#endif
