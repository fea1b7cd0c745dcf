/* The 3x3 blocks of the implicit system on lanes: core/model/sym3.h's operations, each in its order, so a
 * lane computes the bits the reference computes. */
#ifndef SKEIN_KERNELS_SYM3W_H
#define SKEIN_KERNELS_SYM3W_H

#include "vec3w.h"

typedef struct skv_sym3 {
    skv xx, yy, zz, xy, xz, yz;
} skv_sym3;

typedef struct skv_mat3 {
    skv m[3][3];
} skv_mat3;

SK_INLINE skv_sym3 s3_diagonal(skv d)
{
    skv_sym3 r = {d, d, d, skv_zero(), skv_zero(), skv_zero()};
    return r;
}

SK_INLINE skv_sym3 s3_add(skv_sym3 a, skv_sym3 b)
{
    skv_sym3 r = {skv_add(a.xx, b.xx), skv_add(a.yy, b.yy), skv_add(a.zz, b.zz),
                  skv_add(a.xy, b.xy), skv_add(a.xz, b.xz), skv_add(a.yz, b.yz)};
    return r;
}

SK_INLINE skv_sym3 s3_sub(skv_sym3 a, skv_sym3 b)
{
    skv_sym3 r = {skv_sub(a.xx, b.xx), skv_sub(a.yy, b.yy), skv_sub(a.zz, b.zz),
                  skv_sub(a.xy, b.xy), skv_sub(a.xz, b.xz), skv_sub(a.yz, b.yz)};
    return r;
}

SK_INLINE skv_sym3 s3_select(skm m, skv_sym3 a, skv_sym3 b)
{
    skv_sym3 r = {skv_select(m, a.xx, b.xx), skv_select(m, a.yy, b.yy), skv_select(m, a.zz, b.zz),
                  skv_select(m, a.xy, b.xy), skv_select(m, a.xz, b.xz), skv_select(m, a.yz, b.yz)};
    return r;
}

SK_INLINE skv_sym3 s3_add_diagonal(skv_sym3 a, skv s)
{
    a.xx = skv_add(a.xx, s);
    a.yy = skv_add(a.yy, s);
    a.zz = skv_add(a.zz, s);
    return a;
}

SK_INLINE skv3 s3_apply(skv_sym3 a, skv3 v)
{
    return v3_make(skv_add(skv_add(skv_mul(a.xx, v.x), skv_mul(a.xy, v.y)), skv_mul(a.xz, v.z)),
                   skv_add(skv_add(skv_mul(a.xy, v.x), skv_mul(a.yy, v.y)), skv_mul(a.yz, v.z)),
                   skv_add(skv_add(skv_mul(a.xz, v.x), skv_mul(a.yz, v.y)), skv_mul(a.zz, v.z)));
}

/* 1/l where l > 0, else 0: the inverse length sk_spring_block takes (and, selected, the force's d^). */
SK_INLINE skv s3_inverse_length(skv l) { return skv_select(skv_gt(l, skv_zero()), skv_div(skv_set1(1), l), skv_zero()); }

/* sk_spring_share on lanes: max(0, 1 - rest * inv). */
SK_INLINE skv s3_spring_share(skv rest, skv inv)
{
    const skv a = skv_sub(skv_set1(1), skv_mul(rest, inv));
    return skv_select(skv_gt(a, skv_zero()), a, skv_zero());
}

/* sk_spring_block_share: kdt2 ((1 - a) u u^T + a I), u = d * inv, the share a given. */
SK_INLINE skv_sym3 s3_spring_block_share(skv3 d, skv inv, skv a, skv kdt2)
{
    skv3 u = v3_scale(d, inv);
    skv3 bu = v3_scale(u, skv_sub(skv_set1(1), a));
    skv_sym3 r = {skv_mul(skv_add(skv_mul(bu.x, u.x), a), kdt2), skv_mul(skv_add(skv_mul(bu.y, u.y), a), kdt2),
                  skv_mul(skv_add(skv_mul(bu.z, u.z), a), kdt2), skv_mul(skv_mul(bu.x, u.y), kdt2),
                  skv_mul(skv_mul(bu.x, u.z), kdt2),            skv_mul(skv_mul(bu.y, u.z), kdt2)};
    return r;
}

/* sk_spring_block: kdt2 ((1 - a) u u^T + a I), u = d * inv, a = max(0, 1 - rest * inv), with inv of
 * s3_inverse_length(|d|) given by the caller (the force needs it too). */
SK_INLINE skv_sym3 s3_spring_block(skv3 d, skv inv, skv rest, skv kdt2)
{
    return s3_spring_block_share(d, inv, s3_spring_share(rest, inv), kdt2);
}

/* sk_damping_block: cdt u u^T, u = d * inv, with inv of s3_inverse_length(|d|) given by the caller. */
SK_INLINE skv_sym3 s3_damping_block(skv3 d, skv inv, skv cdt)
{
    skv3 u = v3_scale(d, inv);
    skv_sym3 r = {skv_mul(skv_mul(u.x, u.x), cdt), skv_mul(skv_mul(u.y, u.y), cdt), skv_mul(skv_mul(u.z, u.z), cdt),
                  skv_mul(skv_mul(u.x, u.y), cdt), skv_mul(skv_mul(u.x, u.z), cdt), skv_mul(skv_mul(u.y, u.z), cdt)};
    return r;
}

/* sk_ldl3 on lanes: LDL^T factors of a symmetric positive definite block, reciprocal pivots. */
typedef struct skv_ldl3 {
    skv r1, r2, r3, l21, l31, l32;
} skv_ldl3;

SK_INLINE skv_ldl3 s3_factor(skv_sym3 a, bool minor_pivot)
{
    const skv one = skv_set1(1);
    skv_ldl3 f;
    f.r1 = skv_div(one, a.xx);
    f.l21 = skv_mul(a.xy, f.r1);
    f.l31 = skv_mul(a.xz, f.r1);
    f.r2 = minor_pivot ? skv_div(a.xx, skv_sub(skv_mul(a.xx, a.yy), skv_mul(a.xy, a.xy)))
                       : skv_div(one, skv_sub(a.yy, skv_mul(f.l21, a.xy)));
    skv t = skv_sub(a.yz, skv_mul(f.l31, a.xy));
    f.l32 = skv_mul(t, f.r2);
    f.r3 = skv_div(one, skv_sub(skv_sub(a.zz, skv_mul(f.l31, a.xz)), skv_mul(f.l32, t)));
    return f;
}

/* sk_ldl3_forward and sk_ldl3_backward on lanes. */
SK_INLINE skv3 s3_forward(const skv_ldl3 *f, skv3 b)
{
    const skv w2 = skv_sub(b.y, skv_mul(f->l21, b.x));
    return v3_make(b.x, w2, skv_sub(skv_sub(b.z, skv_mul(f->l31, b.x)), skv_mul(f->l32, w2)));
}

SK_INLINE skv3 s3_backward(const skv_ldl3 *f, skv3 w)
{
    const skv x2 = skv_sub(w.y, skv_mul(f->l32, w.z));
    return v3_make(skv_sub(skv_sub(w.x, skv_mul(f->l21, x2)), skv_mul(f->l31, w.z)), x2, w.z);
}

SK_INLINE skv3 s3_pivots(const skv_ldl3 *f, skv3 w)
{
    return v3_make(skv_mul(w.x, f->r1), skv_mul(w.y, f->r2), skv_mul(w.z, f->r3));
}

SK_INLINE skv3 s3_solve(const skv_ldl3 *f, skv3 b) { return s3_backward(f, s3_pivots(f, s3_forward(f, b))); }

SK_INLINE skv_mat3 s3_solve_block(const skv_ldl3 *f, skv_sym3 b)
{
    const skv3 columns[3] = {v3_make(b.xx, b.xy, b.xz), v3_make(b.xy, b.yy, b.yz), v3_make(b.xz, b.yz, b.zz)};
    skv_mat3 r;
    for (int k = 0; k < 3; k++) {
        skv3 c = s3_solve(f, columns[k]);
        r.m[0][k] = c.x, r.m[1][k] = c.y, r.m[2][k] = c.z;
    }
    return r;
}

/* sk_ldl3_eliminate on lanes. */
SK_INLINE void s3_eliminate(const skv_ldl3 *f, skv_sym3 s, skv_sym3 e, skv3 y, skv_mat3 *h, skv_sym3 *sde, skv3 *sdy)
{
    const skv3 sc[3] = {v3_make(s.xx, s.xy, s.xz), v3_make(s.xy, s.yy, s.yz), v3_make(s.xz, s.yz, s.zz)};
    const skv3 ec[3] = {v3_make(e.xx, e.xy, e.xz), v3_make(e.xy, e.yy, e.yz), v3_make(e.xz, e.yz, e.zz)};
    skv3 w[3], q[3];
    for (int k = 0; k < 3; k++) {
        w[k] = s3_pivots(f, s3_forward(f, sc[k]));
        q[k] = s3_forward(f, ec[k]);
        const skv3 c = s3_backward(f, w[k]);
        h->m[0][k] = c.x, h->m[1][k] = c.y, h->m[2][k] = c.z;
    }
    const skv_sym3 product = {v3_dot(w[0], q[0]), v3_dot(w[1], q[1]), v3_dot(w[2], q[2]),
                              v3_dot(w[0], q[1]), v3_dot(w[0], q[2]), v3_dot(w[1], q[2])};
    *sde = product;
    const skv3 wy = s3_forward(f, y);
    *sdy = v3_make(v3_dot(w[0], wy), v3_dot(w[1], wy), v3_dot(w[2], wy));
}

SK_INLINE void s3_rows(skv_sym3 a, skv r[3][3])
{
    r[0][0] = a.xx, r[0][1] = a.xy, r[0][2] = a.xz;
    r[1][0] = a.xy, r[1][1] = a.yy, r[1][2] = a.yz;
    r[2][0] = a.xz, r[2][1] = a.yz, r[2][2] = a.zz;
}

SK_INLINE skv_sym3 m3_transpose_mul_symmetric(const skv_mat3 *h, skv_sym3 e)
{
    skv re[3][3], r[3][3];
    s3_rows(e, re);
    for (int j = 0; j < 3; j++)
        for (int k = j; k < 3; k++)
            r[j][k] = skv_add(skv_add(skv_mul(h->m[0][j], re[0][k]), skv_mul(h->m[1][j], re[1][k])),
                              skv_mul(h->m[2][j], re[2][k]));
    skv_sym3 s = {r[0][0], r[1][1], r[2][2], r[0][1], r[0][2], r[1][2]};
    return s;
}

SK_INLINE skv3 m3_transpose_apply(const skv_mat3 *h, skv3 v)
{
    skv c[3];
    for (int j = 0; j < 3; j++)
        c[j] = skv_add(skv_add(skv_mul(h->m[0][j], v.x), skv_mul(h->m[1][j], v.y)), skv_mul(h->m[2][j], v.z));
    return v3_make(c[0], c[1], c[2]);
}

SK_INLINE skv3 m3_apply(const skv_mat3 *h, skv3 v)
{
    skv c[3];
    for (int j = 0; j < 3; j++)
        c[j] = skv_add(skv_add(skv_mul(h->m[j][0], v.x), skv_mul(h->m[j][1], v.y)), skv_mul(h->m[j][2], v.z));
    return v3_make(c[0], c[1], c[2]);
}

#endif
