/* The water's velocity and acceleration on lanes (docs/model.md section 12): core/model/water_flow.h's
 * sk_water_flow, operation for operation, each lane at its own point; the time's share (ramp, phase) is the
 * same for every lane and computed once per call in scalar arithmetic by sk_wave_clock_at. */
#ifndef SKEIN_KERNELS_WATER_FLOW_H
#define SKEIN_KERNELS_WATER_FLOW_H

#include "model/water_flow.h"
#include "pack.h"
#include "vec3w.h"

/* The current at each lane's height y: the lanes' heights differ, so each picks its own segment (the last i
 * with h[i] <= y) by selects over the table's rows. */
SK_INLINE skv3 k_water_current(const sk_water *w, skv y)
{
    const int n = w->current_count;
    const sk_real *h = w->current_heights;
    const sk_vec3 *v = w->current_velocities;
    const skv3 first = v3_make(skv_set1(v[0].x), skv_set1(v[0].y), skv_set1(v[0].z));
    if (n == 1)
        return first;
    skv lo = skv_set1(h[0]), span = skv_set1(h[1] - h[0]);
    skv3 base = first, slope = v3_make(skv_set1(v[1].x - v[0].x), skv_set1(v[1].y - v[0].y), skv_set1(v[1].z - v[0].z));
    for (int j = 1; j < n - 1; j++) {
        const skm m = skv_le(skv_set1(h[j]), y);
        lo = skv_select(m, skv_set1(h[j]), lo);
        span = skv_select(m, skv_set1(h[j + 1] - h[j]), span);
        base = v3_select(m, v3_make(skv_set1(v[j].x), skv_set1(v[j].y), skv_set1(v[j].z)), base);
        slope = v3_select(m,
                          v3_make(skv_set1(v[j + 1].x - v[j].x), skv_set1(v[j + 1].y - v[j].y),
                                  skv_set1(v[j + 1].z - v[j].z)),
                          slope);
    }
    const skv f = skv_div(skv_sub(y, lo), span);
    skv3 u = v3_add(base, v3_scale(slope, f));
    const skv3 last = v3_make(skv_set1(v[n - 1].x), skv_set1(v[n - 1].y), skv_set1(v[n - 1].z));
    u = v3_select(skv_le(skv_set1(h[n - 1]), y), last, u);
    return v3_select(skv_le(y, skv_set1(h[0])), first, u);
}

/* The water's velocity u and acceleration a at each lane's point p, the time's share given by clock: the
 * current plus the waves, zero above the surface; zero everywhere where the scenario has no water. */
SK_INLINE void k_water_flow_clocked(const sk_kernel_cfg *cfg, const sk_wave_clock *clock, skv3 p, skv3 *u, skv3 *a)
{
    const sk_water *w = cfg->water;
    *u = v3_zero();
    *a = v3_zero();
    if (!w || !w->present)
        return;
    const skv z = skv_sub(p.y, skv_set1(w->surface));
    const skm below = skm_not(skv_gt(z, skv_zero()));
    if (!skm_any(below))
        return;
    skv3 uc = v3_zero();
    if (w->current_count > 0)
        uc = k_water_current(w, p.y);
    if (!w->waves) {
        *u = v3_make(skv_keep(below, uc.x), skv_keep(below, uc.y), skv_keep(below, uc.z));
        return;
    }
    const sk_wave_clock c = *clock;
    const sk_real k = w->wave_number, h = w->wave_depth;
    const sk_real nh = -h, h2 = h + h, nk = -k;
    const skv zc = skv_max(z, skv_set1(nh));
    const skv e1 = skv_exp(skv_mul(skv_set1(k), zc));
    const skv e2 = skv_exp(skv_mul(skv_set1(nk), skv_add(zc, skv_set1(h2))));
    const skv factor = skv_set1(w->wave_depth_factor);
    const skv ch = skv_mul(skv_add(e1, e2), factor), sh = skv_mul(skv_sub(e1, e2), factor);
    const skv ch_h = skv_set1(w->wave_cos_heading), sh_h = skv_set1(w->wave_sin_heading);
    const skv along = skv_add(skv_mul(p.x, ch_h), skv_mul(p.z, sh_h));
    const skv theta = skv_add(skv_mul(skv_set1(k), along), skv_set1(c.phase));
    const skv turns = skv_round(skv_mul(theta, skv_set1(SK_WATER_INV_TWO_PI)));
    skv r = skv_sub(theta, skv_mul(skv_set1(SK_WATER_TWO_PI), turns));
    r = skv_max(r, skv_set1(-SK_WATER_PHASE_BOUND));
    r = skv_min(r, skv_set1(SK_WATER_PHASE_BOUND));
    skv sn, cs;
    skv_sincos(r, &sn, &cs);
    const skv aw = skv_set1(c.aw), aw2 = skv_set1(c.aw2);
    skv vh = skv_mul(skv_mul(aw, ch), cs), vv = skv_mul(skv_mul(aw, sh), sn);
    skv ah = skv_mul(skv_mul(aw2, ch), sn), av = skv_mul(skv_mul(skv_set1(-c.aw2), sh), cs);
    if (c.ramping) {
        const skv ramp = skv_set1(c.ramp), rate = skv_set1(c.ramp_rate);
        ah = skv_add(skv_mul(ramp, ah), skv_mul(rate, vh));
        av = skv_add(skv_mul(ramp, av), skv_mul(rate, vv));
        vh = skv_mul(ramp, vh);
        vv = skv_mul(ramp, vv);
    }
    const skv3 uw = v3_add(uc, v3_make(skv_mul(vh, ch_h), vv, skv_mul(vh, sh_h)));
    *u = v3_make(skv_keep(below, uw.x), skv_keep(below, uw.y), skv_keep(below, uw.z));
    *a = v3_make(skv_keep(below, skv_mul(ah, ch_h)), skv_keep(below, av), skv_keep(below, skv_mul(ah, sh_h)));
}

/* The same at time t (the same in every lane). A force pass over many particles at one time may compute
 * sk_wave_clock_at(cfg->water, t) once and call k_water_flow_clocked: the same bits. */
SK_INLINE void k_water_flow(const sk_kernel_cfg *cfg, skv3 p, sk_real t, skv3 *u, skv3 *a)
{
    if (!cfg->water || !cfg->water->present) {
        *u = v3_zero();
        *a = v3_zero();
        return;
    }
    const sk_wave_clock clock = sk_wave_clock_at(cfg->water, t);
    k_water_flow_clocked(cfg, &clock, p, u, a);
}

#endif
