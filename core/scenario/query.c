/* What the engines and writers ask of a validated scenario: the group of a rope, a rope's parameters with
 * its sweeps applied, its initial particle count, whether a group has contacts. */
#include <string.h>

#include "model/deploy_anchor.h"
#include "model/ground.h"
#include "base/assert.h"
#include "model/real_math.h"
#include "scenario/scenario_impl.h"

double sk_scn_sweep_value(const sk_sweep *sw, size_t r, size_t count)
{
    SK_ASSERT(r < count);
    switch (sw->kind) {
    case SK_SWEEP_LINEAR:
        if (count <= 1)
            return sw->from;
        return sw->from + ((sw->to - sw->from) * (double)r) / (double)(count - 1);
    case SK_SWEEP_VALUES: return sw->values[r];
    case SK_SWEEP_RANDOM: {
        /* SplitMix64: the state after r + 1 steps is seed + (r + 1) * gamma, so rope r jumps there. */
        uint64_t z = sw->seed + (uint64_t)(r + 1) * UINT64_C(0x9E3779B97F4A7C15);
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        z ^= z >> 31;
        return sw->min + (sw->max - sw->min) * (double)(z >> 11) * 0x1p-53;
    }
    }
    return 0;
}

void sk_group_rope_params(const sk_group *g, size_t r, sk_rope_params *out)
{
    SK_ASSERT(r < g->count);
    *out = g->base;
    for (int i = 0; i < g->n_sweeps; i++) {
        sk_real x = g->sweep_count ? (sk_real)sk_scn_sweep_value(&g->sweeps[i], g->sweep_first + r, g->sweep_count)
                                   : (sk_real)sk_scn_sweep_value(&g->sweeps[i], r, g->count);
        memcpy((char *)out + g->sweeps[i].offset, &x, sizeof x);
    }
    int n0 = sk_group_initial_particles(g);
    if (g->link_length_auto && n0 > 1) {
        sk_real x = out->end.x - out->start.x, y = out->end.y - out->start.y, z = out->end.z - out->start.z;
        sk_real len = SK_SQRT(x * x + y * y + z * z);
        out->link_length = len / (sk_real)(n0 - 1);
    }
    if (g->line_by_ea) { /* a line given as engineers give it: n segments of length / n */
        const sk_real segment = out->line_length / (sk_real)sk_group_line_segments(g);
        out->link_length = segment;
        out->link_stiffness = out->line_ea / segment;
        out->mass = out->line_mass_per_length * segment;
        if (g->deploys) /* the anchored segment at its stiffest (the stability limit's) */
            out->anchor_stiffness = sk_deploy_anchor_stiffness(out->line_ea, sk_deploy_anchor_min_rest(segment), 0);
    }
}

int sk_group_line_segments(const sk_group *g)
{
    return g->deploys ? g->particles : g->particles - 1;
}

int sk_group_initial_particles(const sk_group *g)
{
    return g->deploys ? g->deploy_initial : g->particles;
}

bool sk_group_has_contacts(const sk_scenario *s, const sk_group *g)
{
    return sk_scenario_rigid_ground(s) || g->link == SK_LINK_ROD || g->link == SK_LINK_CABLE || g->anchor == SK_ANCHOR_ROD ||
           g->anchor == SK_ANCHOR_CABLE;
}

bool sk_scenario_keeps_previous_step(const sk_scenario *s)
{
    return s->integrator == SK_INTEGRATOR_IMPLICIT && s->implicit_scheme == SK_IMPLICIT_BDF2;
}

int sk_scenario_find_rope(const sk_scenario *s, size_t rope, size_t *local)
{
    if (rope >= s->total_ropes || s->n_groups == 0)
        return -1;
    /* The last group whose first rope is <= rope. */
    int lo = 0, hi = s->n_groups - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (s->groups[mid].first_rope <= rope)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (local)
        *local = rope - s->groups[lo].first_rope;
    return lo;
}
