/* The anchor point x(t) of a step: static, or driven as point + amplitude * sin(omega t + phase) with
 * t = step * dt (docs/model.md section 6). The sine is SLEEF's: the one place batch and reference differ. */
#ifndef SKEIN_KERNELS_ANCHOR_H
#define SKEIN_KERNELS_ANCHOR_H

#include "model/anchor_path.h"
#include "params.h"

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

#endif
