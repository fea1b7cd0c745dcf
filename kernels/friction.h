/* Ground friction on lanes: model/friction.h's rule, operation for operation, with selects where the scalar
 * rule branches (a lane where neither stick nor slip applies keeps its bits). Cyclone's resolver and the
 * direct chain solver both call it. */
#ifndef SKEIN_KERNELS_FRICTION_H
#define SKEIN_KERNELS_FRICTION_H

#include "params.h"

/* v after a ground contact's normal velocity change dvn: (x, z) stopped (stick) or slowed (slip); y kept. */
SK_INLINE skv3 k_friction(skv3 v, skv mu_s, skv mu_k, skv dvn)
{
    const skv speed = skv_sqrt(skv_add(skv_mul(v.x, v.x), skv_mul(v.z, v.z)));
    const skv hold = skv_mul(mu_s, dvn), slow = skv_mul(mu_k, dvn);
    const skm stick = skm_and(skv_gt(hold, skv_zero()), skv_le(speed, hold));
    const skm slip = skm_and(skm_not(stick), skv_gt(slow, skv_zero()));
    const skv keep = skv_div(skv_sub(speed, slow), speed);
    const skv x = skv_select(slip, skv_mul(v.x, keep), v.x), z = skv_select(slip, skv_mul(v.z, keep), v.z);
    return v3_make(skv_select(stick, skv_zero(), x), v.y, skv_select(stick, skv_zero(), z));
}

#endif
