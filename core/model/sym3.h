/* The 3x3 blocks of a rope's implicit system (docs/model.md section 2.1): symmetric blocks (a spring's
 * stiffness, a diagonal block and its inverse) and general ones (the eliminated coupling), each operation in
 * the order the model writes, so that kernels/sym3w.h, which does the same on lanes, gives the same bits. */
#ifndef SKEIN_MODEL_SYM3_H
#define SKEIN_MODEL_SYM3_H

#include <stdbool.h>

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

/* A spring's geometric (transverse) share a = max(0, 1 - rest * inv) at inv = 1 / |d| (0 at a zero length). */
static inline sk_real sk_spring_share(sk_real rest, sk_real inv)
{
    sk_real a = (sk_real)1 - rest * inv;
    return a > 0 ? a : 0;
}

/* kdt2 ((1 - a) u u^T + a I) with u = d * inv and the share a given: each entry (((1 - a) * u_j) * u_k (+ a on
 * the diagonal)) * kdt2. */
static inline sk_sym3 sk_spring_block_share(sk_vec3 d, sk_real inv, sk_real a, sk_real kdt2)
{
    sk_vec3 u = sk_vec3_scale(d, inv);
    sk_vec3 bu = sk_vec3_scale(u, (sk_real)1 - a);
    return (sk_sym3){(bu.x * u.x + a) * kdt2, (bu.y * u.y + a) * kdt2, (bu.z * u.z + a) * kdt2,
                     (bu.x * u.y) * kdt2,     (bu.x * u.z) * kdt2,     (bu.y * u.z) * kdt2};
}

/* The inverse length s3_inverse_length takes on lanes: 1 / l, 0 at l = 0. */
static inline sk_real sk_inverse_length(sk_real l) { return l > 0 ? (sk_real)1 / l : 0; }

/* The stiffness block of a spring of rest length `rest` whose end a sits at d from end b, times dt^2:
 * kdt2 ((1 - a) u u^T + a I) with u = d / |d| and a = max(0, 1 - rest / |d|). The transverse part a is the
 * exact Jacobian's when the spring is stretched and is dropped (0) when it is compressed, so the block is
 * positive semidefinite and the system positive definite. |d| = 0 takes 1/|d| as 0 (a = 1, u = 0). */
static inline sk_sym3 sk_spring_block(sk_vec3 d, sk_real rest, sk_real kdt2)
{
    const sk_real inv = sk_inverse_length(sk_vec3_length(d));
    return sk_spring_block_share(d, inv, sk_spring_share(rest, inv), kdt2);
}

/* A link's axial damping block (docs/model.md section 2.1): cdt u u^T, u = d * inv, inv = 1/|d| (0 at a zero
 * length), each entry (u_j * u_k) * cdt. */
static inline sk_sym3 sk_damping_block(sk_vec3 d, sk_real cdt)
{
    sk_real l = sk_vec3_length(d);
    sk_real inv = l > 0 ? (sk_real)1 / l : 0;
    sk_vec3 u = sk_vec3_scale(d, inv);
    return (sk_sym3){(u.x * u.x) * cdt, (u.y * u.y) * cdt, (u.z * u.z) * cdt,
                     (u.x * u.y) * cdt, (u.x * u.z) * cdt, (u.y * u.z) * cdt};
}

/* The LDL^T factors of a symmetric positive definite block (no pivoting: its pivots are positive):
 * D = L diag(1/r1, 1/r2, 1/r3) L^T with L unit lower triangular. A solve with them is backward stable,
 * which an inverse by cofactors is not: a block that a stiff link dominates (eigenvalues m and m + dt^2 k)
 * loses dt^2 k / m of its accuracy to the cofactors' cancellations. */
typedef struct sk_ldl3 {
    sk_real r1, r2, r3;   /* reciprocals of the pivots */
    sk_real l21, l31, l32;
} sk_ldl3;

/* With minor_pivot (BDF2's factors, docs/model.md section 2.1) the second pivot's reciprocal comes from the
 * leading minor, r2 = xx / (xx yy - xy xy): as accurate as yy - l21 xy (the same cancellation of a stiff link's
 * terms) and independent of r1, so that a vector unit divides for r1 and r2 together where the LDL^T order waits
 * for one division before the next (on a forward elimination that the divisions hold up). */
static inline sk_ldl3 sk_ldl3_factor(sk_sym3 a, bool minor_pivot)
{
    sk_ldl3 f;
    f.r1 = (sk_real)1 / a.xx;
    f.l21 = a.xy * f.r1;
    f.l31 = a.xz * f.r1;
    f.r2 = minor_pivot ? a.xx / (a.xx * a.yy - a.xy * a.xy) : (sk_real)1 / (a.yy - f.l21 * a.xy);
    sk_real t = a.yz - f.l31 * a.xy; /* l32 / r2 */
    f.l32 = t * f.r2;
    f.r3 = (sk_real)1 / ((a.zz - f.l31 * a.xz) - f.l32 * t);
    return f;
}

/* L^-1 b (forward through L) and L^-T w (back through L^T): sk_ldl3_solve's two halves. */
static inline sk_vec3 sk_ldl3_forward(const sk_ldl3 *f, sk_vec3 b)
{
    const sk_real w2 = b.y - f->l21 * b.x;
    return sk_vec3_make(b.x, w2, (b.z - f->l31 * b.x) - f->l32 * w2);
}

static inline sk_vec3 sk_ldl3_backward(const sk_ldl3 *f, sk_vec3 w)
{
    const sk_real x2 = w.y - f->l32 * w.z;
    return sk_vec3_make((w.x - f->l21 * x2) - f->l31 * w.z, x2, w.z);
}

/* w scaled by the pivots' reciprocals. */
static inline sk_vec3 sk_ldl3_pivots(const sk_ldl3 *f, sk_vec3 w)
{
    return sk_vec3_make(w.x * f->r1, w.y * f->r2, w.z * f->r3);
}

/* x with D x = b: forward through L, the pivots, back through L^T. */
static inline sk_vec3 sk_ldl3_solve(const sk_ldl3 *f, sk_vec3 b)
{
    return sk_ldl3_backward(f, sk_ldl3_pivots(f, sk_ldl3_forward(f, b)));
}

/* D^-1 b for a symmetric b, column by column: a general block. */
static inline sk_mat3 sk_ldl3_solve_block(const sk_ldl3 *f, sk_sym3 b)
{
    const sk_vec3 columns[3] = {{b.xx, b.xy, b.xz}, {b.xy, b.yy, b.yz}, {b.xz, b.yz, b.zz}};
    sk_mat3 r;
    for (int k = 0; k < 3; k++) {
        sk_vec3 c = sk_ldl3_solve(f, columns[k]);
        r.m[0][k] = c.x, r.m[1][k] = c.y, r.m[2][k] = c.z;
    }
    return r;
}

/* One row of BDF2's block elimination with the factors f of D = E + S: h = D^-1 S (column by column, as
 * sk_ldl3_solve_block) and what the row hands the next, S D^-1 E (upper triangle) and S D^-1 y, each as W^T of
 * L^-1 E and of L^-1 y with W = diag(r1, r2, r3) L^-1 S, W's last row summed last: the next row waits for the
 * last pivot's division and then one product and one sum, where h^T E waits for the back substitution too. */
static inline void sk_ldl3_eliminate(const sk_ldl3 *f, sk_sym3 s, sk_sym3 e, sk_vec3 y, sk_mat3 *h, sk_sym3 *sde,
                                     sk_vec3 *sdy)
{
    const sk_vec3 sc[3] = {{s.xx, s.xy, s.xz}, {s.xy, s.yy, s.yz}, {s.xz, s.yz, s.zz}};
    const sk_vec3 ec[3] = {{e.xx, e.xy, e.xz}, {e.xy, e.yy, e.yz}, {e.xz, e.yz, e.zz}};
    sk_vec3 w[3], q[3]; /* column k of W and of L^-1 E */
    for (int k = 0; k < 3; k++) {
        w[k] = sk_ldl3_pivots(f, sk_ldl3_forward(f, sc[k]));
        q[k] = sk_ldl3_forward(f, ec[k]);
        const sk_vec3 c = sk_ldl3_backward(f, w[k]);
        h->m[0][k] = c.x, h->m[1][k] = c.y, h->m[2][k] = c.z;
    }
    *sde = (sk_sym3){sk_vec3_dot(w[0], q[0]), sk_vec3_dot(w[1], q[1]), sk_vec3_dot(w[2], q[2]),
                     sk_vec3_dot(w[0], q[1]), sk_vec3_dot(w[0], q[2]), sk_vec3_dot(w[1], q[2])};
    const sk_vec3 wy = sk_ldl3_forward(f, y);
    *sdy = sk_vec3_make(sk_vec3_dot(w[0], wy), sk_vec3_dot(w[1], wy), sk_vec3_dot(w[2], wy));
}

/* h^T e for symmetric e where the product is known to be symmetric (S D^-1 E): its upper triangle. */
static inline sk_sym3 sk_mat3_transpose_mul_symmetric(const sk_mat3 *h, sk_sym3 e)
{
    const sk_real re[3][3] = {{e.xx, e.xy, e.xz}, {e.xy, e.yy, e.yz}, {e.xz, e.yz, e.zz}};
    sk_real r[3][3];
    for (int j = 0; j < 3; j++)
        for (int k = j; k < 3; k++)
            r[j][k] = (h->m[0][j] * re[0][k] + h->m[1][j] * re[1][k]) + h->m[2][j] * re[2][k];
    return (sk_sym3){r[0][0], r[1][1], r[2][2], r[0][1], r[0][2], r[1][2]};
}

/* h^T v. */
static inline sk_vec3 sk_mat3_transpose_apply(const sk_mat3 *h, sk_vec3 v)
{
    return sk_vec3_make((h->m[0][0] * v.x + h->m[1][0] * v.y) + h->m[2][0] * v.z,
                        (h->m[0][1] * v.x + h->m[1][1] * v.y) + h->m[2][1] * v.z,
                        (h->m[0][2] * v.x + h->m[1][2] * v.y) + h->m[2][2] * v.z);
}

static inline sk_vec3 sk_mat3_apply(const sk_mat3 *h, sk_vec3 v)
{
    return sk_vec3_make((h->m[0][0] * v.x + h->m[0][1] * v.y) + h->m[0][2] * v.z,
                        (h->m[1][0] * v.x + h->m[1][1] * v.y) + h->m[1][2] * v.z,
                        (h->m[2][0] * v.x + h->m[2][1] * v.y) + h->m[2][2] * v.z);
}

#endif
