/* The anchor point x(t) of a step: static, or driven as point + amplitude * sin(omega t + phase) with
 * t = step * dt (docs/model.md section 6). The sine is SLEEF's: the one place batch and reference differ. */
#ifndef SKEIN_KERNELS_ANCHOR_H
#define SKEIN_KERNELS_ANCHOR_H

#include "params.h"

SK_INLINE skv3 k_anchor_point(const kparams *k, bool driven, long step)
{
    if (!driven)
        return k->anchor_point;
    skv t = skv_mul(skv_set1((sk_real)step), k->dt);
    skv s = skv_sin(skv_add(skv_mul(k->motion_omega, t), k->motion_phase));
    return v3_add(k->anchor_point, v3_scale(k->motion_amplitude, s));
}

#endif
