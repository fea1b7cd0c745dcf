/* The four integrators on lanes (docs/model.md section 2), in the operation order of the reference. The
 * velocity slot holds v, or q for verlet (whose velocity is (p - q) / dt). */
#ifndef SKEIN_KERNELS_INTEGRATE_H
#define SKEIN_KERNELS_INTEGRATE_H

#include "params.h"
#include "skein/scenario.h"

/* The velocity the forces see: v, or verlet's (p - q) / dt (three divisions). */
SK_INLINE skv3 k_velocity(const kparams *k, int integrator, skv3 p, skv3 w)
{
    return integrator == SK_INTEGRATOR_VERLET ? v3_div(v3_sub(p, w), k->dt) : w;
}

/* One step under acceleration acc. unit_damp: every lane's damp is exactly 1, where v * damp is v itself,
 * bit for bit: skipped. */
SK_INLINE void k_integrate_acc(const kparams *k, int integrator, bool unit_damp, skv3 *p, skv3 *w, skv3 acc)
{
    switch (integrator) {
    case SK_INTEGRATOR_CYCLONE:
    case SK_INTEGRATOR_EULER:
        *p = v3_add(*p, v3_scale(*w, k->dt));
        *w = v3_add(*w, v3_scale(acc, k->dt));
        if (!unit_damp)
            *w = v3_scale(*w, k->damp);
        break;
    case SK_INTEGRATOR_SYMPLECTIC:
        *w = v3_add(*w, v3_scale(acc, k->dt));
        if (!unit_damp)
            *w = v3_scale(*w, k->damp);
        *p = v3_add(*p, v3_scale(*w, k->dt));
        break;
    default: { /* verlet: w is q */
        skv3 previous = *p;
        *p = v3_add(*p, v3_scale(v3_sub(*p, *w), k->vkeep));
        *p = v3_add(*p, v3_scale(v3_scale(acc, k->dt), k->dt));
        *w = previous;
        break;
    }
    }
}

/* Under force f: the acceleration field plus f w. */
SK_INLINE void k_integrate_d(const kparams *k, int integrator, bool unit_damp, skv3 *p, skv3 *w, skv3 f)
{
    k_integrate_acc(k, integrator, unit_damp, p, w, v3_add(k->acc, v3_scale(f, k->w)));
}

SK_INLINE void k_integrate(const kparams *k, int integrator, skv3 *p, skv3 *w, skv3 f)
{
    k_integrate_d(k, integrator, false, p, w, f);
}

#endif
