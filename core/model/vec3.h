/* Vector arithmetic with the operation order docs/model.md fixes: one rounding per component and
 * operation, dot products left to right, |d| = sqrt(dot(d, d)), d^ = d * (1/|d|). */
#ifndef SKEIN_VEC3_H
#define SKEIN_VEC3_H

#include "skein/types.h"
#include "model/real_math.h"

static inline sk_vec3 sk_vec3_make(sk_real x, sk_real y, sk_real z)
{
    sk_vec3 r = {x, y, z};
    return r;
}

static inline sk_vec3 sk_vec3_zero(void) { return sk_vec3_make(0, 0, 0); }

static inline sk_vec3 sk_vec3_add(sk_vec3 a, sk_vec3 b) { return sk_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z); }

static inline sk_vec3 sk_vec3_sub(sk_vec3 a, sk_vec3 b) { return sk_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z); }

static inline sk_vec3 sk_vec3_scale(sk_vec3 a, sk_real s) { return sk_vec3_make(a.x * s, a.y * s, a.z * s); }

/* Component-wise division (verlet's (p - q) / dt is three divisions, not a reciprocal). */
static inline sk_vec3 sk_vec3_div(sk_vec3 a, sk_real s) { return sk_vec3_make(a.x / s, a.y / s, a.z / s); }

/* Component-wise product (driven anchor: amplitude * s is a vector times a scalar; kept for clarity). */
static inline sk_vec3 sk_vec3_mul(sk_vec3 a, sk_vec3 b) { return sk_vec3_make(a.x * b.x, a.y * b.y, a.z * b.z); }

static inline sk_real sk_vec3_dot(sk_vec3 a, sk_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static inline sk_real sk_vec3_length(sk_vec3 a) { return SK_SQRT(sk_vec3_dot(a, a)); }

/* The unit vector, the zero vector for a zero vector (never NaN). */
static inline sk_vec3 sk_vec3_unit(sk_vec3 a)
{
    sk_real l = sk_vec3_length(a);
    return l > 0 ? sk_vec3_scale(a, (sk_real)1 / l) : sk_vec3_zero();
}

#endif
