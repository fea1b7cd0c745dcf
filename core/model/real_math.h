/* libm and limits at the build's scalar type: powf/sinf/... in float builds, pow/sin/... in double. */
#ifndef SKEIN_REAL_MATH_H
#define SKEIN_REAL_MATH_H

#include <float.h>
#include <math.h>

#include "skein/types.h"

/* The float functions, not the double ones rounded to float: a float build computes in float
 * throughout, and every engine calling these gets the same bits. */
#ifdef SKEIN_REAL_FLOAT
#define SK_SQRT sqrtf
#define SK_POW powf
#define SK_SIN sinf
#define SK_COS cosf
#define SK_EXP expf
#define SK_FABS fabsf
#define SK_REAL_MAX FLT_MAX
#define SK_REAL_EPSILON FLT_EPSILON
#else
#define SK_SQRT sqrt
#define SK_POW pow
#define SK_SIN sin
#define SK_COS cos
#define SK_EXP exp
#define SK_FABS fabs
#define SK_REAL_MAX DBL_MAX
#define SK_REAL_EPSILON DBL_EPSILON
#endif

/* pi / 2 in the build's real: a driven anchor's cosine is the sine of its angle plus this (docs/model.md 6.5). */
#define SK_HALF_PI ((sk_real)1.5707963267948966)

#endif
