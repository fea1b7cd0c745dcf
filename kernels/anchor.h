/* The anchor point x(t) of a step: static, or driven as point + amplitude * sin(omega t + phase) with
 * t = step * dt (docs/model.md section 6). The sine is SLEEF's: the one place batch and reference differ. */
#ifndef SKEIN_KERNELS_ANCHOR_H
#define SKEIN_KERNELS_ANCHOR_H

#include "model/anchor_path.h"
#include "model/real_math.h"
#include "params.h"
#include "skein/scenario.h"

/* driven: the group's anchor moves (cfg->driven, or false where a specialisation knows it does not). The
 * motions add up in the reference's order: the sine, the towing velocity times t, the path. */
SK_INLINE skv3 k_anchor_point(const sk_kernel_cfg *cfg, const kparams *k, bool driven, long step)
{
    skv3 x = k->anchor_point;
    if (!driven)
        return x;
    skv t = skv_mul(skv_set1((sk_real)step), k->dt);
    if (cfg->motion_sine)
        x = v3_add(x, v3_scale(k->motion_amplitude, skv_sin(skv_add(skv_mul(k->motion_omega, t), k->motion_phase))));
    if (cfg->motion_tow)
        x = v3_add(x, v3_scale(k->motion_velocity, t));
    if (cfg->path_count > 0) {
        /* every lane's t is the same: the path is evaluated once, in scalar arithmetic */
        sk_vec3 d = sk_path_displacement(cfg->path_times, cfg->path_points, cfg->path_count, (sk_real)step * cfg->dt);
        x = v3_add(x, v3_make(skv_set1(d.x), skv_set1(d.y), skv_set1(d.z)));
    }
    return x;
}

/* The anchor point's velocity of a step, the reference's operations (reference/anchor.c): the sine's
 * amplitude * (omega * sin((omega t + phase) + pi/2)), the towing velocity, the path's slope. */
SK_INLINE skv3 k_anchor_velocity(const sk_kernel_cfg *cfg, const kparams *k, long step)
{
    skv3 u = v3_zero();
    if (!cfg->driven)
        return u;
    skv t = skv_mul(skv_set1((sk_real)step), k->dt);
    if (cfg->motion_sine) {
        skv angle = skv_add(skv_add(skv_mul(k->motion_omega, t), k->motion_phase), skv_set1(SK_HALF_PI));
        u = v3_add(u, v3_scale(k->motion_amplitude, skv_mul(k->motion_omega, skv_sin(angle))));
    }
    if (cfg->motion_tow)
        u = v3_add(u, k->motion_velocity);
    if (cfg->path_count > 0) {
        sk_vec3 d = sk_path_velocity(cfg->path_times, cfg->path_points, cfg->path_count, (sk_real)step * cfg->dt);
        u = v3_add(u, v3_make(skv_set1(d.x), skv_set1(d.y), skv_set1(d.z)));
    }
    return u;
}

/* A pin anchor (docs/model.md section 6.4): row 0, pinned, put at x(t) of step `step` with the anchor's velocity
 * (verlet's slot: q = p - v dt). Called before a step's forces and after its integration, as the reference
 * does. Nothing for other anchors. */
SK_INLINE void k_pin_hold(const sk_kernel_cfg *cfg, const kparams *k, sk_real *state, long step)
{
    if (cfg->anchor != SK_ANCHOR_PIN)
        return;
    const skv3 x = k_anchor_point(cfg, k, cfg->driven, step);
    const skv3 u = k_anchor_velocity(cfg, k, step);
    v3_store(state, x);
    v3_store(state + 3 * SK_W, cfg->integrator == SK_INTEGRATOR_VERLET ? v3_sub(x, v3_scale(u, k->dt)) : u);
}

/* Where a pass over a pack's rows at a step starts, for the passes outside the steps (diagnostics, the bench's
 * forces stage): the rows present in some lane, the particle counts n, the anchored segment's rest length,
 * the row the anchor holds (0, or the newest, n - 1, of a deploying rope) and the anchor point x. */
typedef struct k_rows {
    int count;
    skv n, rest, held;
    skv3 x;
} k_rows;

SK_INLINE k_rows k_rows_at(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param, long step)
{
    k_rows r;
    r.count = kp_max_count(param);
    r.n = k->n;
    r.rest = k->s;
    r.held = cfg->deploys ? skv_sub(r.n, skv_set1(1)) : skv_zero();
    r.x = k_anchor_point(cfg, k, cfg->driven, step);
    return r;
}

#endif
