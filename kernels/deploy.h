/* Deployment on lanes (docs/model.md section 7): every lane grows its anchored segment and inserts its own
 * particle next to the anchor when due, or with a speed table reels in and drops it, so the lanes of a pack
 * hold different particle counts; masks say which lanes grow, insert or drop. */
#ifndef SKEIN_KERNELS_DEPLOY_H
#define SKEIN_KERNELS_DEPLOY_H

#include "integrate.h"
#include "model/deploy_speed.h"
#include "pack.h"
#include "params.h"

/* Reeling in by ds < 0 (a speed table's step, the same in every lane): each lane whose anchored segment
 * falls below zero drops its particle next to the anchor (the row stays as it was, past the count) and
 * adds a link length to the segment; at the initial count the segment stops at zero. */
SK_INLINE void k_reel_in(const sk_kernel_cfg *cfg, const kparams *k, sk_real *param, sk_real ds)
{
    const skv zero = skv_zero(), least = skv_set1((sk_real)cfg->least_count);
    skv n = kp_get(param, SK_P_N);
    skv s = skv_add(kp_get(param, SK_P_S), skv_set1(ds));
    skm absorb = skm_and(skv_lt(s, zero), skv_gt(n, least));
    s = skv_select(absorb, skv_add(s, k->link_l), s);
    n = skv_select(absorb, skv_sub(n, skv_set1(1)), n);
    s = skv_select(skm_and(skv_lt(s, zero), skv_eq(n, least)), zero, s);
    skv_store(param + (size_t)SK_P_N * SK_W, n);
    skv_store(param + (size_t)SK_P_S * SK_W, s);
}

/* Runs before the forces of step `step` with that step's anchor point x; updates n and s in param and
 * writes the inserted rows. */
SK_INLINE void k_deploy(const sk_kernel_cfg *cfg, const kparams *k, sk_real *param, sk_real *state, skv3 x,
                        long step)
{
    skv ds = skv_mul(k->deploy_velocity, k->dt), u = k->deploy_velocity;
    if (cfg->speed_count > 0) {
        /* the group's table: one length for every lane, evaluated in scalar arithmetic as the reference does */
        sk_real d = sk_deploy_step_length(cfg->speed_times, cfg->speed_values, cfg->speed_count, step, cfg->dt);
        if (d < 0) {
            k_reel_in(cfg, k, param, d);
            return;
        }
        ds = skv_set1(d);
        u = skv_set1(d / cfg->dt);
    }
    const skv one = skv_set1(1);
    skv n = kp_get(param, SK_P_N);
    skv s = kp_get(param, SK_P_S);
    skv seg = k->link_l;
    skm can_add = skv_lt(n, skv_set1((sk_real)cfg->capacity));
    skm growing = cfg->has_max_length ? skv_lt(skv_add(skv_mul(skv_sub(n, one), seg), s), k->deploy_max_length)
                                      : skm_or(can_add, skv_lt(s, seg));
    const skv s_before = s;
    s = skv_select(growing, skv_add(s, ds), s);
    skm insert = skm_and(skm_and(growing, can_add), skv_gt(s, seg));

    if (skm_any(insert)) {
        /* Each lane's newest particle sits in its own row: gather it lane by lane. */
        const size_t row = (size_t)SK_F_COUNT * SK_W;
        _Alignas(64) sk_real buf[SK_F_COUNT * SK_W];
        _Alignas(64) sk_real pinned_new[SK_W];
        int count[SK_W];
        for (int l = 0; l < SK_W; l++) {
            count[l] = (int)param[(size_t)SK_P_N * SK_W + l];
            const sk_real *newest = state + (size_t)(count[l] - 1) * row;
            for (int f = 0; f < SK_F_COUNT; f++)
                buf[f * SK_W + l] = newest[f * SK_W + l];
            pinned_new[l] = count[l] < cfg->capacity && cfg->pinned[count[l]] ? 1 : 0;
        }
        skv3 p_last = v3_load(buf);
        skv3 v_last = k_velocity(k, cfg->integrator, p_last, v3_load(buf + 3 * SK_W));

        const skv3 d = v3_sub(p_last, x);
        const skv dl = v3_length(d);
        skv3 e = v3_unit_given(d, dl);
        skv len = skv_sub(s, seg);
        /* a line given by EA: stretched as the anchored segment was (docs/model.md section 7.1): against its rest
         * length after the step's growth, which an explicit step's frame lags by; an implicit one's does not */
        const skv base = cfg->integrator == SK_INTEGRATOR_IMPLICIT ? skv_select(skv_gt(s_before, skv_zero()), s_before, s) : s;
        const skv strain = skv_div(skv_sub(dl, base), base);
        const skv held = skv_select(skv_lt(len, k->anchor_s_min), k->anchor_s_min, len);
        skv at = skv_select(skv_gt(k->anchor_ea, skv_zero()), skv_add(len, skv_mul(strain, held)), len);
        skv3 p = v3_add(x, v3_scale(e, at));
        skv3 v = cfg->insert_along ? v3_scale(e, u) : v3_scale(v3_unit(v_last), len);
        /* A particle inserted at a pinned index starts at rest, as every pinned particle does. */
        v = v3_select(skv_ne(skv_load(pinned_new), skv_zero()), v3_zero(), v);
        skv3 w = cfg->integrator == SK_INTEGRATOR_VERLET ? v3_sub(p, v3_scale(v, k->dt)) : v;

        v3_store(buf, p);
        v3_store(buf + 3 * SK_W, w);
        for (int l = 0; l < SK_W; l++) {
            if (!skm_lane(insert, l))
                continue;
            sk_real *fresh = state + (size_t)count[l] * row;
            for (int f = 0; f < SK_F_COUNT; f++)
                fresh[f * SK_W + l] = buf[f * SK_W + l];
        }
        s = skv_select(insert, skv_sub(s, seg), s);
        n = skv_select(insert, skv_add(n, one), n);
        skv_store(param + (size_t)SK_P_N * SK_W, n);
    }
    skv_store(param + (size_t)SK_P_S * SK_W, s);
}

#endif
