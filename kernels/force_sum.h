/* One particle's force (docs/model.md section 5): the one sum the fixed, deploying and implicit steps and
 * the forces stage all take, its terms in the model's order, each where the pack has it (feature_mask.h). A
 * new force is one more term here, its evaluation beside the others in forces.h. */
#ifndef SKEIN_KERNELS_FORCE_SUM_H
#define SKEIN_KERNELS_FORCE_SUM_H

#include "bending.h"
#include "feature_mask.h"
#include "forces.h"
#include "line_water.h"
#include "water_flow.h"

/* What a pass over a pack's rows holds for every row of a step: the anchor point, the anchored segment's rest
 * length, the hinges' forces of the step (bending.h; with the bending feature) and the rows visited; for a
 * line in water or on a seabed (line_water.h), the group's structure and the step's time t = step dt. */
typedef struct k_pass {
    skv3 x;
    skv rest;
    const sk_real *bend;
    int rows;
    const sk_kernel_cfg *cfg;
    sk_real t;
    sk_wave_clock clock; /* the water feature's: the waves' share of time t (water_flow.h), once per pass */
} k_pass;

/* A line's particle (the water and seabed features): its links' unit vectors (the zero vector where a link
 * is absent), and, out, its inertia with the added mass (the water feature). */
typedef struct k_line_row {
    skv3 e_prev, e_next;
    k_inertia inertia;
} k_line_row;

/* The lanes whose anchor holds a particle: `mask`, or, where a pass knows it at compile time, every lane
 * (all) or none. Whether some lane is held is asked only where the pack has an anchor. */
typedef struct k_hold {
    skm mask;
    bool all, none;
} k_hold;

SK_INLINE k_hold k_hold_lanes(skm mask)
{
    k_hold h = {mask, false, false};
    return h;
}

/* Held in every lane, or in none. */
SK_INLINE k_hold k_hold_every(bool held)
{
    k_hold h = {skv_lt(skv_zero(), skv_zero()), held, !held};
    return h;
}

/* The springs-only sum (the lean feature): the model's (0 - u_prev) + u is u - u_prev, and both are exact,
 * so they differ at most in the sign of a zero force, which acc + f w absorbs where the acceleration field
 * holds no -0 (k_pack_mask checks it per pack). */
SK_INLINE skv3 k_lean_links(skv3 um_prev, skv3 um, bool has_prev, bool has_next)
{
    if (!has_prev)
        return has_next ? um : v3_zero();
    return has_next ? v3_sub(um, um_prev) : v3_sub(v3_zero(), um_prev);
}

/* No line, or a line whose links' unit vectors are zero: the passes whose groups have none. */
SK_INLINE k_line_row k_line_none(void)
{
    k_line_row r;
    r.e_prev = r.e_next = v3_zero();
    r.inertia.q = r.inertia.w = v3_zero();
    r.inertia.inv = r.inertia.gamma = r.inertia.added_n = r.inertia.added_t = skv_zero();
    r.inertia.cn = r.inertia.ct = r.inertia.bed_k = r.inertia.bed_c = skv_zero();
    return r;
}

/* Particle i's force at position p and the velocity its forces see, vel. The links' forces come in
 * evaluated (the passes carry link i's force to row i + 1, and the implicit step builds its block from the
 * same evaluation): um_prev, link i - 1's force on particle i - 1, which particle i takes negated, where
 * has_prev; um, link i's force on particle i, where has_next; zero where a link does not act. has_prev and
 * has_next are i > 0 and i + 1 < rows, passed so that a pass that knows them at compile time keeps them
 * constant. Values, not a structure, so that a variant with features read at run time keeps them in
 * registers. */
SK_INLINE skv3 k_force_sum(const kparams *k, k_features ft, const k_pass *pass, int i, skv3 p, skv3 vel,
                           skv3 um_prev, skv3 um, bool has_prev, bool has_next, k_hold hold, k_line_row *line)
{
    skv3 f;
    if (ft.lean) {
        f = k_lean_links(um_prev, um, has_prev, has_next);
    } else {
        f = k_particle_forces(k, ft.gforce, ft.drag, ft.buoyancy, ft.objects, p, vel);
        if (ft.water || ft.seabed) {
            /* a deploying line's particles past the tip take a whole segment (the newest's second one is the
             * anchored segment), the last row too (docs/model.md section 7.2) */
            const skv share = k_line_share(k, ft.profiles, has_prev, has_next || ft.deploys);
            if (ft.water) {
                skv3 u, a;
                k_water_flow_clocked(pass->cfg, &pass->clock, p, &u, &a);
                const skv3 q = v3_unit(v3_add(line->e_prev, line->e_next));
                f = v3_add(f, k_line_water_force(k, share, q, p, vel, u, a, &line->inertia));
            }
            if (ft.seabed)
                f = k_line_seabed_force(k, share, pass->cfg->seabed_height, pass->cfg->seabed_friction, p, vel, f,
                                        &line->inertia);
        }
        if (has_prev && ft.link != SK_LINK_NONE)
            f = v3_sub(f, um_prev);
        if (has_next && ft.link != SK_LINK_NONE)
            f = v3_add(f, um);
    }
    if (ft.anchor != SK_ANCHOR_NONE && !hold.none && (hold.all || skm_any(hold.mask))) {
        skv3 a = k_anchor_force(k, ft.anchor, p, vel, pass->x, pass->rest);
        f = v3_add(f, hold.all ? a : v3_select(hold.mask, a, v3_zero()));
    }
    if (ft.bending)
        f = k_bend_add(f, pass->bend, i, pass->rows);
    return f;
}

#endif
