/* One particle's force (docs/model.md section 5): the one sum the fixed, deploying and implicit steps and
 * the forces stage all take, its terms in the model's order, each where the pack has it (feature_mask.h). A
 * new force is one more term here, its evaluation beside the others in forces.h. */
#ifndef SKEIN_KERNELS_FORCE_SUM_H
#define SKEIN_KERNELS_FORCE_SUM_H

#include "bending.h"
#include "feature_mask.h"
#include "forces.h"

/* What the sum takes of particle i beyond the pack's constants. The links' forces come in evaluated: the
 * passes carry link i's force to row i + 1, and the implicit step builds its block from the same
 * evaluation. */
typedef struct k_site {
    skv3 p, vel;             /* the particle's position and the velocity its forces see */
    skv3 um_prev;            /* link i - 1's force on particle i - 1 (zero where it does not act) */
    skv3 um;                 /* link i's force on particle i (zero where it does not act) */
    bool has_prev, has_next; /* links i - 1 and i are rows of the pack */
    bool held_any, held_all; /* the anchor holds this particle in some lanes, in every lane */
    skm held;                /* ... in these */
    skv3 x;                  /* the step's anchor point */
    skv rest;                /* the anchored segment's rest length */
    const sk_real *bend;     /* the hinges' forces of the step (bending.h), with the bending feature */
    int i, rows;
} k_site;

/* Row i of `rows` in a pass whose anchor holds the particle in the lanes `held`; link i's force is the pass's
 * to set (um) where the link acts. */
SK_INLINE k_site k_site_at(skv3 p, skv3 vel, skv3 um_prev, int i, int rows, skm held, skv3 x, skv rest,
                           const sk_real *bend)
{
    k_site s = {.p = p, .vel = vel, .um_prev = um_prev, .um = v3_zero(), .has_prev = i > 0, .has_next = i + 1 < rows,
                .held_any = skm_any(held), .held_all = false, .held = held, .x = x, .rest = rest, .bend = bend,
                .i = i, .rows = rows};
    return s;
}

/* The springs-only sum (the lean feature): the model's (0 - u_prev) + u is u - u_prev, and both are exact,
 * so they differ at most in the sign of a zero force, which acc + f w absorbs where the acceleration field
 * holds no -0 (k_pack_mask checks it per pack). */
SK_INLINE skv3 k_lean_links(const k_site *s)
{
    if (!s->has_prev)
        return s->has_next ? s->um : v3_zero();
    return s->has_next ? v3_sub(s->um, s->um_prev) : v3_sub(v3_zero(), s->um_prev);
}

SK_INLINE skv3 k_force_sum(const kparams *k, k_features ft, const k_site *s)
{
    skv3 f;
    if (ft.lean) {
        f = k_lean_links(s);
    } else {
        f = k_particle_forces(k, ft.gforce, ft.drag, ft.buoyancy, s->p, s->vel);
        if (s->has_prev && ft.link != SK_LINK_NONE)
            f = v3_sub(f, s->um_prev);
        if (s->has_next && ft.link != SK_LINK_NONE)
            f = v3_add(f, s->um);
    }
    if (ft.anchor != SK_ANCHOR_NONE && s->held_any) {
        skv3 a = k_anchor_force(k, ft.anchor, s->p, s->vel, s->x, s->rest);
        f = v3_add(f, s->held_all ? a : v3_select(s->held, a, v3_zero()));
    }
    if (ft.bending)
        f = k_bend_add(f, s->bend, s->i, s->rows);
    return f;
}

#endif
