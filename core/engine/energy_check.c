/* A rope that holds more energy than anything could have given it (docs/model.md section 2.2): the mark of a
 * step above the explicit stability limit, which may grow a rope for a long time before any divergence bound. */
#include <math.h>

#include "model/ground.h"
#include "model/profile.h"
#include "skein/engine.h"
#include "scenario/scenario.h"

/* Only these ropes take no work from outside: nothing moves their anchor, no flow, buoyancy or force object
 * (wind) pushes them, no reel pays them out. */
static bool passive(const sk_scenario *s, const sk_group *g)
{
    /* a line in water is lifted and pushed by it, and a compliant seabed stores energy the diagnostics omit */
    return !g->anchor_driven && !g->has_flow && !g->has_buoyancy && !g->force_objects && !g->deploys &&
           !sk_group_line_in_medium(s, g);
}

bool sk_engine_rope_energy_excess(const sk_engine *e, size_t rope, const sk_rope_diagnostics *start, double *gain)
{
    const sk_scenario *s = sk_engine_scenario(e);
    size_t local = 0;
    const int gi = s ? sk_scenario_find_rope(s, rope, &local) : -1;
    if (gain)
        *gain = 0;
    if (gi < 0 || !start || !passive(s, &s->groups[gi]))
        return false;
    const sk_group *g = &s->groups[gi];
    sk_rope_params p;
    sk_group_rope_params(g, local, &p);
    sk_rope_constants c;
    sk_rope_constants_compute(s, g, &p, &c);
    const int n = g->particles;
    double weight = 0;
    const double gravity = sqrt((double)s->gravity.x * s->gravity.x + (double)s->gravity.y * s->gravity.y +
                                (double)s->gravity.z * s->gravity.z);
    for (int i = 0; i < n; i++)
        weight += (double)sk_rope_particle_mass(g, &p, i) * gravity;
    double length = fabs((double)sk_rope_links_length(g, &p, &c, n));
    if (g->anchor != SK_ANCHOR_NONE)
        length += fabs((double)p.anchor_length);
    sk_rope_diagnostics now;
    sk_engine_rope_diagnostics(e, rope, &now, NULL);
    const double before = (double)start->kinetic + (double)start->gravity + (double)start->elastic;
    const double after = (double)now.kinetic + (double)now.gravity + (double)now.elastic;
    const double moving = fabs((double)start->kinetic) + fabs((double)start->elastic);
    const double allowed = fmax(moving, weight * length);
    if (gain)
        *gain = after - before;
    /* a non-finite energy is past any budget */
    return !(after - before <= allowed);
}
