/* The support force of a held end (docs/model.md section 10.4): what holds a pinned particle (or a pin anchor's
 * particle 0) where it is, minus the sum of every other force on it, its own weight m~ a included with the mass
 * it would have unpinned. The force is k_force_sum's, evaluated at the held row from the state as the steps
 * evaluate it (the links' forces, the hinges', the anchor's, the per-particle terms), never the springs-only
 * lean sum, so that the sign of a zero is the reference's. */
#ifndef SKEIN_KERNELS_SUPPORT_H
#define SKEIN_KERNELS_SUPPORT_H

#include "anchor.h"
#include "force_sum.h"
#include "integrate.h"

/* The support force of row i (0 or n - 1 of a rope of n rows) at the state's step; bend holds the hinges of
 * the state (k_bend_pass) where the group bends. */
SK_INLINE skv3 k_support_row(const sk_kernel_cfg *cfg, const kparams *k_rope, k_features ft, const k_pass *pass,
                             const sk_real *state, int i, int n, const sk_real *prof)
{
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    kparams k = *k_rope, k_prev = *k_rope;
    if (prof) {
        kp_profile_row(&k, prof, i);
        if (i > 0)
            kp_profile_row(&k_prev, prof, i - 1);
    }
    const sk_real *row = state + (size_t)i * stride;
    const skv3 p = v3_load(row);
    const skv3 vel = k_velocity(&k, cfg->integrator, p, v3_load(row + 3 * SK_W));
    const bool has_prev = i > 0, has_next = i + 1 < n;
    skv3 um_prev = v3_zero(), um = v3_zero();
    if (ft.link != SK_LINK_NONE) {
        if (has_prev) {
            const skv3 pp = v3_load(row - stride), vp = k_velocity(&k_prev, cfg->integrator, pp, v3_load(row - stride + 3 * SK_W));
            um_prev = k_link_force(&k_prev, ft.link, ft.link_damp, pp, p, vp, vel);
        }
        if (has_next) {
            const skv3 pn = v3_load(row + stride), vn = k_velocity(&k, cfg->integrator, pn, v3_load(row + stride + 3 * SK_W));
            um = k_link_force(&k, ft.link, ft.link_damp, p, pn, vel, vn);
        }
    }
    k_line_row line = k_line_none(); /* a line's: the water's force at the held particle too */
    if (ft.water) {
        if (has_prev)
            line.e_prev = k_line_link_unit(v3_load(row - stride), p);
        if (has_next)
            line.e_next = k_line_link_unit(p, v3_load(row + stride));
    }
    const skv3 f = k_force_sum(&k, ft, pass, i, p, vel, um_prev, um, has_prev, has_next, k_hold_every(i == 0), &line);
    return v3_sub(v3_zero(), v3_add(f, v3_scale(k.acc, k.mass)));
}

/* Both ends' support forces of every lane of a pack of ropes that do not deploy: out [2][3][W], end 0 the first
 * particle's, end 1 the last's, zero where the end is free. False when the hinges' scratch cannot be had. */
SK_INLINE bool k_support(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, long step, sk_real *out)
{
    for (int e = 0; e < 2; e++)
        v3_store(out + (size_t)e * 3 * SK_W, v3_zero());
    const int n = cfg->capacity;
    const bool first = cfg->pinned[0], last = n > 1 && cfg->pinned[n - 1];
    if (cfg->deploys || !(first || last))
        return true;
    k_features ft = k_features_of(k_pack_mask(cfg, param) & ~K_LEAN);
    const kparams k = kp_load(param);
    const sk_real *prof = ft.profiles ? sk_pack_profile_rows(param, SK_W) : NULL;
    sk_real *bend = NULL;
    if (ft.bending) {
        bend = k_bend_scratch(n);
        if (!bend)
            return false;
        k_bend_pass(&k, state, n, skv_set1((sk_real)n), bend, prof);
    }
    const skv3 x = ft.anchor != SK_ANCHOR_NONE ? k_anchor_point(cfg, &k, cfg->driven, step) : v3_zero();
    k_pass pass = {x, k.s, bend, n, cfg, (sk_real)step * cfg->dt, {0}};
    if (ft.water)
        pass.clock = sk_wave_clock_at(cfg->water, pass.t);
    if (first)
        v3_store(out, k_support_row(cfg, &k, ft, &pass, state, 0, n, prof));
    if (last)
        v3_store(out + 3 * SK_W, k_support_row(cfg, &k, ft, &pass, state, n - 1, n, prof));
    free(bend);
    return true;
}

#endif
