/* The stages of a step as separate kernels (deployment, forces into an array, integration from it), for
 * the benchmarks that time each alone and for the test that checks the fused step against them. The
 * arithmetic is the fused step's, so running the three in order gives the same bits. */
#include <stdlib.h>
#include <string.h>

#include "anchor.h"
#include "bending.h"
#include "deploy.h"
#include "force_sum.h"
#include "integrate.h"
#include "step.h"

void SK_KNAME(sk_kernel_deploy)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step)
{
    if (!cfg->deploys)
        return;
    const kparams k = kp_load(param);
    k_deploy(cfg, &k, param, state, k_anchor_point(cfg, &k, cfg->driven, step), step);
}

/* force [capacity][3][W]: every present particle's total force of step `step`, in the model's order (docs/model.md section 5). */
void SK_KNAME(sk_kernel_forces)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, long step,
                                sk_real *force)
{
    const kparams k_rope = kp_load(param);
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    const k_rows at = k_rows_at(cfg, &k_rope, param, step);
    const k_features ft = k_features_of(k_pack_mask(cfg, param) & ~(K_LEAN | K_UNIT_DAMP));
    const sk_real *prof = ft.profiles ? sk_pack_profile_rows(param, SK_W) : NULL;
    sk_real *bend = NULL;
    if (ft.bending) {
        if (!(bend = k_bend_scratch(at.count > 0 ? at.count : 1)))
            return; /* a timing stage: the forces are left as they were */
        k_bend_pass(&k_rope, state, at.count, at.n, bend, prof);
    }

    const k_pass pass = {at.x, at.rest, bend, at.count, cfg, 0, {0}};
    k_line_row none = k_line_none(); /* the loader keeps lines to the fixed step */
    skv3 um_prev = v3_zero();
    for (int i = 0; i < at.count; i++) {
        const sk_real *row = state + (size_t)i * stride;
        skv3 p = v3_load(row), w = v3_load(row + 3 * SK_W);
        kparams k = k_rope; /* with profiles: particle i's and link i's constants */
        if (prof)
            kp_profile_row(&k, prof, i);
        const skv3 vel = k_velocity(&k, ft.integrator, p, w);
        const skv3 um_before = um_prev;
        skv3 um = v3_zero();
        if (i + 1 < at.count && ft.link != SK_LINK_NONE) {
            skm exists = skv_lt(skv_set1((sk_real)(i + 1)), at.n);
            const skv3 pn = v3_load(row + stride);
            const skv3 vn = ft.link_damp ? k_velocity(&k, ft.integrator, pn, v3_load(row + stride + 3 * SK_W)) : vel;
            um = v3_select(exists, k_link_force(&k, ft.link, ft.link_damp, p, pn, vel, vn), v3_zero());
            um_prev = um;
        }
        const skv3 f = k_force_sum(&k, ft, &pass, i, p, vel, um_before, um, i > 0,
                                   i + 1 < at.count, k_hold_lanes(skv_eq(skv_set1((sk_real)i), at.held)), &none);
        v3_store(force + (size_t)i * 3 * SK_W, f);
    }
    free(bend);
}

/* The implicit integrator cannot take its forces from outside (it evaluates them, with their Jacobians, at
 * each Newton iteration's point): for it this stage is one whole implicit step at step 0. */
void SK_KNAME(sk_kernel_integrate)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state,
                                   const sk_real *force)
{
    if (cfg->integrator == SK_INTEGRATOR_IMPLICIT) {
        sk_real *scratch = SK_KNAME(sk_kernel_implicit_scratch)(cfg);
        if (!scratch)
            return; /* a timing stage: nothing changes state */
        _Alignas(64) sk_real copy[SK_P_COUNT * SK_W];
        memcpy(copy, param, sizeof copy); /* a deploying pack's n and s are not this stage's to change */
        SK_KNAME(sk_kernel_implicit_advance)(cfg, copy, state, 0, 1, NULL, scratch);
        free(scratch);
        return;
    }
    const kparams k_rope = kp_load(param);
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    const skv n = kp_get(param, SK_P_N);
    const int rows = kp_max_count(param);
    const sk_real *prof = cfg->profiles ? sk_pack_profile_rows(param, SK_W) : NULL;
    for (int i = 0; i < rows; i++) {
        if (cfg->pinned[i])
            continue;
        kparams k = k_rope; /* with profiles: particle i's constants */
        if (prof)
            kp_profile_row(&k, prof, i);
        sk_real *row = state + (size_t)i * stride;
        skv3 p = v3_load(row), w = v3_load(row + 3 * SK_W);
        skv3 pi = p, wi = w;
        k_integrate(&k, cfg->integrator, &pi, &wi, v3_load(force + (size_t)i * 3 * SK_W));
        skm present = skv_lt(skv_set1((sk_real)i), n);
        v3_store(row, v3_select(present, pi, p));
        v3_store(row + 3 * SK_W, v3_select(present, wi, w));
    }
}
