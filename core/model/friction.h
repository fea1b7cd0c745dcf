/* Coulomb friction on a ground contact (docs/model.md sections 4.2 and 4.4), the one rule both resolvers
 * (Cyclone's and the direct chain solver) follow in both engines: after a normal velocity change dvn >= 0,
 * the tangential velocity (vx, vz) stops where mu_s dvn can hold it (stick), else loses mu_k dvn of its
 * speed along its own direction (slip). The kernels' vector version is kernels/friction.h. */
#ifndef SKEIN_MODEL_FRICTION_H
#define SKEIN_MODEL_FRICTION_H

#include "model/real_math.h"

static inline void sk_friction_apply(sk_real *vx, sk_real *vz, sk_real mu_s, sk_real mu_k, sk_real dvn)
{
    const sk_real x = *vx, z = *vz;
    const sk_real speed = SK_SQRT(x * x + z * z);
    const sk_real hold = mu_s * dvn;
    if (hold > 0 && speed <= hold) { /* stick: the impulse the contact can hold stops the sliding */
        *vx = 0;
        *vz = 0;
        return;
    }
    /* Slip: here speed > mu_s dvn >= mu_k dvn, so the factor is in (0, 1]: the sliding never reverses, nor
     * speeds up. A zero mu_k (or dvn) leaves v bit for bit. */
    const sk_real slow = mu_k * dvn;
    if (slow > 0) {
        const sk_real keep = (speed - slow) / speed;
        *vx = x * keep;
        *vz = z * keep;
    }
}

#endif
