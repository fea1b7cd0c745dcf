/* Per-group totals for the end-of-run summary, summed serially in rope order. */
#include <stdlib.h>

#include "engine/engine_impl.h"
#include "skein/output.h"
#include "scenario/scenario.h"
#include "engine/summary.h"

sk_status sk_group_totals_compute(const sk_engine *e, sk_group_totals *totals, sk_error *err)
{
    const sk_scenario *s = e->scenario;
    int capacity = 1;
    for (int g = 0; g < s->n_groups; g++)
        capacity = s->groups[g].particles > capacity ? s->groups[g].particles : capacity;
    sk_real *tension = malloc((size_t)capacity * sizeof *tension);
    if (!tension)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory for the summary");
    int rc = 0;
    for (int g = 0; g < s->n_groups && rc == 0; g++) {
        const sk_group *grp = &s->groups[g];
        sk_group_totals t = {.ropes = grp->count, .has_contacts = sk_group_has_contacts(s, grp),
                             .has_newton = sk_scenario_keeps_previous_step(s)};
        for (size_t r = 0; r < grp->count; r++) {
            const size_t rope = grp->first_rope + r;
            const int n = sk_engine_rope_particles(e, rope);
            sk_rope_diagnostics d;
            sk_engine_rope_diagnostics(e, rope, &d, tension);
            t.particles += (size_t)n;
            t.diverged += sk_engine_rope_diverged(e, rope) >= 0;
            t.kinetic += (double)d.kinetic;
            t.gravity += (double)d.gravity;
            t.elastic += (double)d.elastic;
            for (int i = 0; i + 1 < n; i++) {
                if (!t.has_links || (double)tension[i] > t.max_tension)
                    t.max_tension = (double)tension[i];
                t.has_links = true;
            }
            int contacts, iterations;
            if (t.has_contacts) {
                sk_engine_rope_contacts(e, rope, &contacts, &iterations);
                t.contacts += (uint64_t)contacts;
                t.iterations += (uint64_t)iterations;
                t.max_contacts = contacts > t.max_contacts ? contacts : t.max_contacts;
                t.max_iterations = iterations > t.max_iterations ? iterations : t.max_iterations;
            }
            if (t.has_newton) {
                int solves;
                long unconverged;
                sk_engine_rope_newton(e, rope, &solves, &unconverged);
                t.solves += (uint64_t)solves;
                t.max_solves = solves > t.max_solves ? solves : t.max_solves;
                t.unconverged += (uint64_t)unconverged;
                t.unconverged_ropes += unconverged > 0;
            }
        }
        totals[g] = t;
    }
    free(tension);
    return rc;
}
