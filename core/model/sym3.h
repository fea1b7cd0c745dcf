/* The 3x3 blocks of a rope's implicit system (docs/model.md section 2.1): symmetric blocks (a spring's
 * stiffness, a diagonal block and its inverse) and general ones (the eliminated coupling), each operation in
 * the order the model writes, so that kernels/sym3w.h, which does the same on lanes, gives the same bits. */
#ifndef SKEIN_MODEL_SYM3_H
#define SKEIN_MODEL_SYM3_H

#include "model/real_math.h"
#include "model/vec3.h"

typedef struct sk_sym3 {
    sk_real xx, yy, zz, xy, xz, yz;
} sk_sym3;

typedef struct sk_mat3 {
    sk_real m[3][3]; /* row, column */
} sk_mat3;

static inline sk_sym3 sk_sym3_diagonal(sk_real d) { return (sk_sym3){d, d, d, 0, 0, 0}; }

static inline sk_sym3 sk_sym3_add(sk_sym3 a, sk_sym3 b)
{
    return (sk_sym3){a.xx + b.xx, a.yy + b.yy, a.zz + b.zz, a.xy + b.xy, a.xz + b.xz, a.yz + b.yz};
}

static inline sk_sym3 sk_sym3_sub(sk_sym3 a, sk_sym3 b)
{
    return (sk_sym3){a.xx - b.xx, a.yy - b.yy, a.zz - b.zz, a.xy - b.xy, a.xz - b.xz, a.yz - b.yz};
}

/* Adds s to the three diagonal entries. */
static inline sk_sym3 sk_sym3_add_diagonal(sk_sym3 a, sk_real s)
{
    a.xx = a.xx + s;
    a.yy = a.yy + s;
    a.zz = a.zz + s;
    return a;
}

/* Row j of a dot v, left to right. */
static inline sk_vec3 sk_sym3_apply(sk_sym3 a, sk_vec3 v)
{
    return sk_vec3_make((a.xx * v.x + a.xy * v.y) + a.xz * v.z, (a.xy * v.x + a.yy * v.y) + a.yz * v.z,
                        (a.xz * v.x + a.yz * v.y) + a.zz * v.z);
}

/* The stiffness block of a spring of rest length `rest` whose end a sits at d from end b, times dt^2:
 * kdt2 ((1 - a) u u^T + a I) with u = d / |d| and a = max(0, 1 - rest / |d|). The transverse part a is the
 * exact Jacobian's when the spring is stretched and is dropped (0) when it is compressed, so the block is
 * positive semidefinite and the system positive definite. |d| = 0 takes 1/|d| as 0 (a = 1, u = 0). */
static inline sk_sym3 sk_spring_block(sk_vec3 d, sk_real rest, sk_real kdt2)
{
    sk_real l = sk_vec3_length(d);
    sk_real inv = l > 0 ? (sk_real)1 / l : 0;
    sk_vec3 u = sk_vec3_scale(d, inv);
    sk_real a = (sk_real)1 - rest * inv;
    a = a > 0 ? a : 0;
    sk_vec3 bu = sk_vec3_scale(u, (sk_real)1 - a);
    return (sk_sym3){(bu.x * u.x + a) * kdt2, (bu.y * u.y + a) * kdt2, (bu.z * u.z + a) * kdt2,
                     (bu.x * u.y) * kdt2,     (bu.x * u.z) * kdt2,     (bu.y * u.z) * kdt2};
}

/* The inverse by cofactors: one division, by the determinant expanded along the first row. */
static inline sk_sym3 sk_sym3_inverse(sk_sym3 a)
{
    sk_real cxx = a.yy * a.zz - a.yz * a.yz, cxy = a.xz * a.yz - a.xy * a.zz, cxz = a.xy * a.yz - a.xz * a.yy;
    sk_real cyy = a.xx * a.zz - a.xz * a.xz, cyz = a.xy * a.xz - a.xx * a.yz, czz = a.xx * a.yy - a.xy * a.xy;
    sk_real inv = (sk_real)1 / ((a.xx * cxx + a.xy * cxy) + a.xz * cxz);
    return (sk_sym3){cxx * inv, cyy * inv, czz * inv, cxy * inv, cxz * inv, cyz * inv};
}

/* a b for symmetric a and b: a general block. */
static inline sk_mat3 sk_sym3_mul(sk_sym3 a, sk_sym3 b)
{
    const sk_real ra[3][3] = {{a.xx, a.xy, a.xz}, {a.xy, a.yy, a.yz}, {a.xz, a.yz, a.zz}};
    const sk_real rb[3][3] = {{b.xx, b.xy, b.xz}, {b.xy, b.yy, b.yz}, {b.xz, b.yz, b.zz}};
    sk_mat3 r;
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            r.m[j][k] = (ra[j][0] * rb[0][k] + ra[j][1] * rb[1][k]) + ra[j][2] * rb[2][k];
    return r;
}

/* a h for symmetric a, where the product is known to be symmetric (S D^-1 S): its upper triangle. */
static inline sk_sym3 sk_sym3_mul_symmetric(sk_sym3 a, sk_mat3 h)
{
    const sk_real ra[3][3] = {{a.xx, a.xy, a.xz}, {a.xy, a.yy, a.yz}, {a.xz, a.yz, a.zz}};
    sk_real r[3][3];
    for (int j = 0; j < 3; j++)
        for (int k = j; k < 3; k++)
            r[j][k] = (ra[j][0] * h.m[0][k] + ra[j][1] * h.m[1][k]) + ra[j][2] * h.m[2][k];
    return (sk_sym3){r[0][0], r[1][1], r[2][2], r[0][1], r[0][2], r[1][2]};
}

static inline sk_vec3 sk_mat3_apply(const sk_mat3 *h, sk_vec3 v)
{
    return sk_vec3_make((h->m[0][0] * v.x + h->m[0][1] * v.y) + h->m[0][2] * v.z,
                        (h->m[1][0] * v.x + h->m[1][1] * v.y) + h->m[1][2] * v.z,
                        (h->m[2][0] * v.x + h->m[2][1] * v.y) + h->m[2][2] * v.z);
}

#endif
