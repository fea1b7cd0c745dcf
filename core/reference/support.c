/* Reference engine: the support forces of a rope's held ends (docs/model.md section 10.4), summed by the rope's
 * own force registry, the sum its steps take, in the same order as the batch engine's k_force_sum. */
#include "model/profile.h"
#include "reference/rope_impl.h"
#include "model/vec3.h"

static bool held(const sk_group *g, int i)
{
    for (int k = 0; k < g->n_pinned; k++)
        if (g->pinned[k] == i)
            return true;
    return false;
}

void sk_ref_rope_support(sk_ref_rope *r, sk_vec3 support[2])
{
    support[0] = support[1] = sk_vec3_zero();
    sk_world *w = &r->world;
    const sk_group *g = r->group;
    const int n = w->count;
    const int ends[2] = {0, n - 1};
    const bool hold[2] = {n > 0 && held(g, 0), n > 1 && held(g, n - 1)};
    if (g->deploys || !(hold[0] || hold[1]))
        return;
    /* The forces of the state: the anchor point and the water's flow at the rope's time, as its diagnostics
     * take it (the step left both at the time it started from). */
    const sk_vec3 anchor = r->anchor;
    const sk_real time = r->time;
    r->time = sk_ref_rope_time(r);
    r->anchor = sk_anchor_position(g, &r->params, r->time);
    for (int e = 0; e < 2; e++)
        if (hold[e])
            w->particles[ends[e]].w = g->has_profiles
                                          ? sk_rope_particle_constants(r->scenario, g, &r->params, ends[e]).w
                                          : r->c.w;
    for (int i = 0; i < n; i++)
        w->particles[i].f = sk_vec3_zero();
    sk_force_registry_update(&w->registry);
    for (int e = 0; e < 2; e++) {
        if (!hold[e])
            continue;
        sk_particle *p = &w->particles[ends[e]];
        const sk_vec3 weight = sk_vec3_scale(p->a, sk_particle_mass(p));
        support[e] = sk_vec3_sub(sk_vec3_zero(), sk_vec3_add(p->f, weight));
    }
    /* The accumulators are left with this sum: every reader of them (a step, the statics' residual) sums the
     * forces again first. */
    for (int e = 0; e < 2; e++)
        if (hold[e])
            w->particles[ends[e]].w = 0;
    r->anchor = anchor;
    r->time = time;
}
