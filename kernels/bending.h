/* Bending on lanes (docs/model.md section 3.4): model/bending.h's hinge, operation for operation, and the
 * scratch the step kernels take it through. A hinge joins three particles, so the streaming passes, which
 * see one row and the next, cannot sum it as they go: a pass before them evaluates every hinge from the
 * step's positions into scratch (per row i, [SK_PACK_BENDING_ROW_REALS][W]: hinge i's force on particle
 * i - 1, then on particle i + 1; zero where no hinge acts) and each particle's sum adds its three terms last. */
#ifndef SKEIN_KERNELS_BENDING_H
#define SKEIN_KERNELS_BENDING_H

#include <stdlib.h>

#include "params.h"

enum { K_BEND_FA = 0, K_BEND_FC = 3, K_BEND_ROW = 6 };
_Static_assert(K_BEND_ROW == SK_PACK_BENDING_ROW_REALS, "the memory check counts the bending scratch");

typedef struct khinge {
    skv3 fa, fc;
} khinge;

SK_INLINE skv k_hinge_inverse(skv l) { return skv_keep(skv_gt(l, skv_zero()), skv_div(skv_set1(1), l)); }

/* A link from a to b: its unit vector and inverse length (both 0 for a zero-length link). */
SK_INLINE void k_link_unit(skv3 a, skv3 b, skv3 *u, skv *inv)
{
    skv3 e = v3_sub(b, a);
    *inv = k_hinge_inverse(v3_length(e));
    *u = v3_scale(e, *inv);
}

SK_INLINE void k_hinge_units(skv3 a, skv3 b, skv3 c, skv3 *u1, skv3 *u2, skv *i1, skv *i2)
{
    k_link_unit(a, b, u1, i1);
    k_link_unit(b, c, u2, i2);
}

/* The hinge's forces from its links' unit vectors and inverse lengths. */
SK_INLINE khinge k_hinge_forces(skv kb, skv3 u1, skv i1, skv3 u2, skv i2)
{
    skv cos = v3_dot(u1, u2);
    khinge h;
    h.fa = v3_scale(v3_sub(v3_scale(u1, cos), u2), skv_mul(kb, i1));
    h.fc = v3_scale(v3_sub(u1, v3_scale(u2, cos)), skv_mul(kb, i2));
    return h;
}

SK_INLINE skv k_hinge_energy(skv kb, skv3 a, skv3 b, skv3 c)
{
    skv3 u1, u2;
    skv i1, i2;
    k_hinge_units(a, b, c, &u1, &u2, &i1, &i2);
    skv3 d = v3_sub(u1, u2);
    return skv_mul(kb, skv_mul(v3_dot(d, d), skv_set1((sk_real)0.5)));
}

/* Scratch for a pack of `capacity` particles (64-byte aligned, freed with free; NULL when it cannot be had). */
SK_INLINE sk_real *k_bend_scratch(int capacity)
{
    size_t bytes = (size_t)capacity * K_BEND_ROW * SK_W * sizeof(sk_real);
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

/* Row j's hinge, kept in the lanes of `on` (zero elsewhere). */
SK_INLINE void k_bend_store(sk_real *bend, int j, khinge h, skm on)
{
    sk_real *r = bend + (size_t)j * K_BEND_ROW * SK_W;
    v3_store(r + K_BEND_FA * SK_W, v3_select(on, h.fa, v3_zero()));
    v3_store(r + K_BEND_FC * SK_W, v3_select(on, h.fc, v3_zero()));
}

/* The end rows, which hold no hinge. */
SK_INLINE void k_bend_clear(sk_real *bend, int j)
{
    sk_real *r = bend + (size_t)j * K_BEND_ROW * SK_W;
    v3_store(r + K_BEND_FA * SK_W, v3_zero());
    v3_store(r + K_BEND_FC * SK_W, v3_zero());
}

/* Hinge j's k_b: the rope's, or with profiles (prof: the parameter block's rows, pack.h) its own. */
SK_INLINE skv k_hinge_kb(const kparams *k, const sk_real *prof, int j)
{
    return prof ? skv_load(prof + ((size_t)j * SK_Q_COUNT + SK_Q_BEND_KB) * SK_W) : k->bend_kb;
}

/* Where a hinge walk reads row j's point: the step's positions (k_state_point), or the implicit integrator's
 * Newton iterate. Called with a known function, which the always-inline walk inlines. */
typedef skv3 (*k_point_source)(const void *ctx, int row);

/* Every hinge of rows [0, rows), the points read through `point`: hinge j acts where particle j + 1 is present
 * (j + 1 < n). Each link's unit vector serves the two hinges it joins (the same operations on the same points:
 * the same bits as evaluating it twice, model/bending.h). */
SK_INLINE void k_bend_walk(const kparams *k, int rows, skv n, sk_real *bend, const sk_real *prof, k_point_source point,
                           const void *ctx)
{
    k_bend_clear(bend, 0);
    if (rows < 2)
        return;
    skv3 b = point(ctx, 1), u1;
    skv i1;
    k_link_unit(point(ctx, 0), b, &u1, &i1);
    for (int j = 1; j + 1 < rows; j++) {
        skv3 c = point(ctx, j + 1), u2;
        skv i2;
        k_link_unit(b, c, &u2, &i2);
        k_bend_store(bend, j, k_hinge_forces(k_hinge_kb(k, prof, j), u1, i1, u2, i2),
                     skv_lt(skv_set1((sk_real)(j + 1)), n));
        b = c;
        u1 = u2;
        i1 = i2;
    }
    k_bend_clear(bend, rows - 1);
}

SK_INLINE skv3 k_state_point(const void *state, int row)
{
    return v3_load((const sk_real *)state + (size_t)row * SK_F_COUNT * SK_W);
}

/* Every hinge from the positions in state (the particle rows). */
SK_INLINE void k_bend_pass(const kparams *k, const sk_real *state, int rows, skv n, sk_real *bend, const sk_real *prof)
{
    k_bend_walk(k, rows, n, bend, prof, k_state_point, state);
}

/* Particle i's sum completed with its hinges, in the model's order: i - 1 (as its far end), i (its middle,
 * -(fa + fc)), i + 1 (as its near end). Absent hinges hold zeros, which change no bit of a sum that is never
 * -0 (forces.h). */
SK_INLINE skv3 k_bend_add(skv3 f, const sk_real *bend, int i, int rows)
{
    const size_t row = (size_t)K_BEND_ROW * SK_W;
    const sk_real *r = bend + (size_t)i * row;
    if (i > 0)
        f = v3_add(f, v3_load(r - row + K_BEND_FC * SK_W));
    f = v3_add(f, v3_scale(v3_add(v3_load(r + K_BEND_FA * SK_W), v3_load(r + K_BEND_FC * SK_W)), skv_set1(-1)));
    if (i + 1 < rows)
        f = v3_add(f, v3_load(r + row + K_BEND_FA * SK_W));
    return f;
}

#endif
