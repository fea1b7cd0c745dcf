/* The step of a pack whose ropes have contacts (docs/model.md section 5): forces and integration as for any
 * pack (the streaming step, deployment first where the ropes deploy), then the contact phase of that
 * step, generation and Cyclone's resolver, while the pack is still in cache. Rods, cables and their
 * anchor constraints are contacts only: the force pass sees them as no link and no anchor (forces.h). */
#include <math.h>
#include <stdlib.h>

#include "anchor.h"
#include "contacts.h"
#include "step.h"

void SK_KNAME(sk_contact_phase)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step,
                                contact_scratch *cs)
{
    const kparams k = kp_load(param);
    const skv3 x = cs->slots.anchor >= 0 ? k_anchor_point(cfg, &k, cfg->driven, step) : v3_zero();
    if (cfg->resolver == SK_RESOLVER_DIRECT) {
        SK_KNAME(sk_contact_direct)(cfg, param, state, x, &cs->direct);
        return;
    }
    _Alignas(64) sk_real counts[SK_W];
    SK_KNAME(sk_contact_generate)(cfg, &k, param, state, x, cs, counts);
    SK_KNAME(sk_contact_resolve)(cfg, param, state, cs, counts);
}

static void *scratch_alloc(const sk_kernel_cfg *cfg, contact_scratch *cs)
{
    size_t bytes = SK_KNAME(sk_contact_scratch_bytes)(cfg);
    void *memory = aligned_alloc(64, bytes ? bytes : 64);
    if (memory)
        SK_KNAME(sk_contact_scratch_init)(cs, cfg, memory);
    return memory;
}

void SK_KNAME(sk_kernel_contact_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                         long steps, uint64_t *lane_steps)
{
    contact_scratch cs;
    void *memory = scratch_alloc(cfg, &cs);
    const bool implicit = cfg->integrator == SK_INTEGRATOR_IMPLICIT;
    sk_real *solve = NULL;
    if (memory && implicit)
        solve = SK_KNAME(sk_kernel_implicit_scratch)(cfg);
    if (!memory || (implicit && !solve)) {
        free(memory);
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    for (long s = 0; s < steps; s++) {
        if (implicit) {
            SK_KNAME(sk_kernel_implicit_advance)(cfg, param, state, step0 + s, 1, lane_steps, solve);
        } else if (cfg->deploys) {
            SK_KNAME(sk_kernel_deploy_advance)(cfg, param, state, step0 + s, 1, lane_steps);
        } else {
            SK_KNAME(sk_kernel_fixed_advance)(cfg, param, state, step0 + s, 1);
            if (lane_steps)
                for (int l = 0; l < SK_W; l++)
                    lane_steps[l] += (uint64_t)cfg->capacity;
        }
        SK_KNAME(sk_contact_phase)(cfg, param, state, step0 + s, &cs);
    }
    free(solve);
    free(memory);
}

void SK_KNAME(sk_kernel_contacts)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step,
                                  long steps)
{
    if (!cfg->contacts)
        return;
    contact_scratch cs;
    void *memory = scratch_alloc(cfg, &cs);
    if (!memory)
        return; /* a timing stage: nothing changes state */
    const kparams k = kp_load(param);
    const skv3 x = cs.slots.anchor >= 0 ? k_anchor_point(cfg, &k, cfg->driven, step) : v3_zero();
    _Alignas(64) sk_real counts[SK_W];
    /* the direct solver has no generation of its own: its rows are the whole phase (the resolve stage) */
    for (long s = 0; s < steps && cfg->resolver != SK_RESOLVER_DIRECT; s++)
        SK_KNAME(sk_contact_generate)(cfg, &k, param, state, x, &cs, counts);
    free(memory);
}

void SK_KNAME(sk_kernel_resolve)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step,
                                 long steps)
{
    if (!cfg->contacts)
        return;
    contact_scratch cs;
    void *memory = scratch_alloc(cfg, &cs);
    if (!memory) {
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    for (long s = 0; s < steps; s++)
        SK_KNAME(sk_contact_phase)(cfg, param, state, step, &cs);
    free(memory);
}
