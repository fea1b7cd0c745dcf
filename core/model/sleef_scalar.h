/* SLEEF's scalar sine, cosine, both at once, and exponential at the build's real type, in the variant whose
 * bits are the vector lanes' (kernels/simd.h): SLEEF 3.5.1 gives the same bits only within its FMA group
 * (scalar-fma, AVX2, AVX-512), so where the CPU has FMA the reference takes the purecfma functions, as the
 * scalar kernels do. Sleef_sin_u10 and the like are the plain C ones, which differ from the lanes in the last
 * bit now and then. In float the lanes agree only for |x| < 125 (beyond, SLEEF's float reduction depends on
 * the other lanes): callers keep their arguments small. */
#ifndef SKEIN_MODEL_SLEEF_SCALAR_H
#define SKEIN_MODEL_SLEEF_SCALAR_H

#include <sleef.h>

#include "skein/types.h"

/* sleef.h declares the purecfma variants only in a -mfma build (the AVX2 and AVX-512 kernels'), with a const
 * return type that clang will not see declared again without it: declared here for the others. */
#ifndef FP_FAST_FMA
double Sleef_sind1_u10purecfma(double);
double Sleef_cosd1_u10purecfma(double);
double Sleef_expd1_u10purecfma(double);
float Sleef_sinf1_u10purecfma(float);
float Sleef_cosf1_u10purecfma(float);
float Sleef_expf1_u10purecfma(float);
Sleef_double_2 Sleef_sincosd1_u10purecfma(double);
Sleef_float_2 Sleef_sincosf1_u10purecfma(float);
#endif

#ifdef SKEIN_REAL_FLOAT
static inline sk_real sk_sleef_sin(sk_real x)
{
    return __builtin_cpu_supports("fma") ? Sleef_sinf1_u10purecfma(x) : Sleef_sinf1_u10purec(x);
}
static inline sk_real sk_sleef_cos(sk_real x)
{
    return __builtin_cpu_supports("fma") ? Sleef_cosf1_u10purecfma(x) : Sleef_cosf1_u10purec(x);
}
static inline sk_real sk_sleef_exp(sk_real x)
{
    return __builtin_cpu_supports("fma") ? Sleef_expf1_u10purecfma(x) : Sleef_expf1_u10purec(x);
}
/* Sine and cosine at once (the kernels' skv_sincos): not always the bits of sk_sleef_sin and sk_sleef_cos. */
static inline void sk_sleef_sincos(sk_real x, sk_real *s, sk_real *c)
{
    Sleef_float_2 r = __builtin_cpu_supports("fma") ? Sleef_sincosf1_u10purecfma(x) : Sleef_sincosf1_u10purec(x);
    *s = r.x;
    *c = r.y;
}
#else
static inline sk_real sk_sleef_sin(sk_real x)
{
    return __builtin_cpu_supports("fma") ? Sleef_sind1_u10purecfma(x) : Sleef_sind1_u10purec(x);
}
static inline sk_real sk_sleef_cos(sk_real x)
{
    return __builtin_cpu_supports("fma") ? Sleef_cosd1_u10purecfma(x) : Sleef_cosd1_u10purec(x);
}
static inline sk_real sk_sleef_exp(sk_real x)
{
    return __builtin_cpu_supports("fma") ? Sleef_expd1_u10purecfma(x) : Sleef_expd1_u10purec(x);
}
static inline void sk_sleef_sincos(sk_real x, sk_real *s, sk_real *c)
{
    Sleef_double_2 r = __builtin_cpu_supports("fma") ? Sleef_sincosd1_u10purecfma(x) : Sleef_sincosd1_u10purec(x);
    *s = r.x;
    *c = r.y;
}
#endif

#endif
