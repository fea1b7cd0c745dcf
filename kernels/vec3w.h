/* 3-vectors of lanes (x, y, z each a vector of W reals) with the operation order docs/model.md fixes:
 * one rounding per component, dot products left to right, |d| = sqrt(dot(d, d)), d^ = d * (1/|d|). */
#ifndef SKEIN_KERNELS_VEC3W_H
#define SKEIN_KERNELS_VEC3W_H

#include "simd.h"

typedef struct skv3 {
    skv x, y, z;
} skv3;

/* Three consecutive vectors of a row: row[0..W), row[W..2W), row[2W..3W). */
SK_INLINE skv3 v3_load(const sk_real *row)
{
    skv3 r = {skv_load(row), skv_load(row + SK_W), skv_load(row + 2 * SK_W)};
    return r;
}

SK_INLINE void v3_store(sk_real *row, skv3 a)
{
    skv_store(row, a.x);
    skv_store(row + SK_W, a.y);
    skv_store(row + 2 * SK_W, a.z);
}

SK_INLINE skv3 v3_make(skv x, skv y, skv z)
{
    skv3 r = {x, y, z};
    return r;
}

SK_INLINE skv3 v3_zero(void) { return v3_make(skv_zero(), skv_zero(), skv_zero()); }

SK_INLINE skv3 v3_add(skv3 a, skv3 b) { return v3_make(skv_add(a.x, b.x), skv_add(a.y, b.y), skv_add(a.z, b.z)); }

SK_INLINE skv3 v3_sub(skv3 a, skv3 b) { return v3_make(skv_sub(a.x, b.x), skv_sub(a.y, b.y), skv_sub(a.z, b.z)); }

SK_INLINE skv3 v3_scale(skv3 a, skv s) { return v3_make(skv_mul(a.x, s), skv_mul(a.y, s), skv_mul(a.z, s)); }

/* Component-wise division (verlet's (p - q) / dt is three divisions). */
SK_INLINE skv3 v3_div(skv3 a, skv s) { return v3_make(skv_div(a.x, s), skv_div(a.y, s), skv_div(a.z, s)); }

SK_INLINE skv3 v3_select(skm m, skv3 a, skv3 b)
{
    return v3_make(skv_select(m, a.x, b.x), skv_select(m, a.y, b.y), skv_select(m, a.z, b.z));
}

SK_INLINE skv v3_dot(skv3 a, skv3 b)
{
    return skv_add(skv_add(skv_mul(a.x, b.x), skv_mul(a.y, b.y)), skv_mul(a.z, b.z));
}

SK_INLINE skv v3_length(skv3 a) { return skv_sqrt(v3_dot(a, a)); }

/* a * (1/l) where l > 0, the zero vector elsewhere (l = |a| given by the caller, NaN included). */
SK_INLINE skv3 v3_unit_given(skv3 a, skv l)
{
    skv inv = skv_div(skv_set1(1), l);
    return v3_select(skv_gt(l, skv_zero()), v3_scale(a, inv), v3_zero());
}

SK_INLINE skv3 v3_unit(skv3 a) { return v3_unit_given(a, v3_length(a)); }

#endif
