/* The kernel table of this ISA build: what core/batch/dispatch.c picks from at run time. */
#include <stdint.h>
#include <stdlib.h>

#include "base/assert.h"
#include "skein/scenario.h"
#include "step.h"

/* The callers count particle-steps per lane in arrays of 64 (a mask of lanes is an unsigned). */
_Static_assert(SK_W <= 32, "a pack's lanes fit an unsigned mask");

static void advance(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                    uint64_t *lane_steps)
{
    /* the packs' contract (kernels/pack.h): blocks aligned to a vector of W reals, a group with particles */
    SK_ASSERT((uintptr_t)param % (SK_W * sizeof(sk_real)) == 0 && (uintptr_t)state % (SK_W * sizeof(sk_real)) == 0 &&
              cfg->capacity >= 1 && steps >= 0);
    if (cfg->contacts) {
        SK_KNAME(sk_kernel_contact_advance)(cfg, param, state, step0, steps, lane_steps);
        return;
    }
    if (cfg->integrator == SK_INTEGRATOR_IMPLICIT) {
        sk_real *scratch = SK_KNAME(sk_kernel_implicit_scratch)(cfg);
        if (!scratch) {
            sk_pack_poison(cfg, state, SK_W);
            return;
        }
        SK_KNAME(sk_kernel_implicit_advance)(cfg, param, state, step0, steps, lane_steps, scratch);
        free(scratch);
        return;
    }
    if (cfg->deploys) {
        SK_KNAME(sk_kernel_deploy_advance)(cfg, param, state, step0, steps, lane_steps);
        return;
    }
    SK_KNAME(sk_kernel_fixed_advance)(cfg, param, state, step0, steps);
    if (lane_steps)
        for (int l = 0; l < SK_W; l++)
            lane_steps[l] += (uint64_t)cfg->capacity * (uint64_t)steps;
}

/* One step at a time, each followed by the extremes' pass over the pack it just wrote, still in cache; the
 * steps are those advance takes (results do not depend on how steps are split). The implicit integrator's
 * scratch is allocated once for all of them. */
static void advance_tracked(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                            uint64_t *lane_steps, sk_real *extremes)
{
    const bool implicit = !cfg->contacts && cfg->integrator == SK_INTEGRATOR_IMPLICIT;
    sk_real *scratch = implicit ? SK_KNAME(sk_kernel_implicit_scratch)(cfg) : NULL;
    if (implicit && !scratch) {
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    for (long s = 0; s < steps; s++) {
        if (implicit)
            SK_KNAME(sk_kernel_implicit_advance)(cfg, param, state, step0 + s, 1, lane_steps, scratch);
        else
            advance(cfg, param, state, step0 + s, 1, lane_steps);
        if (!SK_KNAME(sk_kernel_track_extremes)(cfg, param, state, step0 + s + 1, extremes)) {
            sk_pack_poison(cfg, state, SK_W);
            break;
        }
    }
    free(scratch);
}

const sk_kernels SK_KNAME(sk_kernels) = {
    .isa = SK_ISA_NAME,
    .width = SK_W,
    .sin_name = SK_SLEEF_SIN_NAME,
    .advance = advance,
    .advance_tracked = advance_tracked,
    .track = SK_KNAME(sk_kernel_track_extremes),
    .diagnose = SK_KNAME(sk_kernel_diagnose),
    .finite_lanes = SK_KNAME(sk_kernel_finite_lanes),
    .bounded_lanes = SK_KNAME(sk_kernel_bounded_lanes),
    .forces = SK_KNAME(sk_kernel_forces),
    .integrate = SK_KNAME(sk_kernel_integrate),
    .deploy = SK_KNAME(sk_kernel_deploy),
    .contacts = SK_KNAME(sk_kernel_contacts),
    .resolve = SK_KNAME(sk_kernel_resolve),
};
