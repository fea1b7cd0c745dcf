/* What a program reads of a scenario through the public API: the run's plan, the batch's shape, and any
 * rope's parameter by its sweep key. */
#include <string.h>

#include "scenario/scenario.h"
#include "scenario/scenario_impl.h"

const char *sk_scenario_source(const sk_scenario *s) { return s->source; }
const char *sk_scenario_json(const sk_scenario *s) { return s->normalized_json; }
const char *sk_scenario_initial_file(const sk_scenario *s) { return s->has_initial ? s->initial_path : NULL; }
double sk_scenario_dt(const sk_scenario *s) { return (double)s->dt; }
long sk_scenario_steps(const sk_scenario *s) { return s->steps; }
long sk_scenario_every(const sk_scenario *s) { return s->output_every; }
size_t sk_scenario_ropes(const sk_scenario *s) { return s->total_ropes; }
int sk_scenario_groups(const sk_scenario *s) { return s->n_groups; }

const size_t *sk_scenario_output_ropes(const sk_scenario *s, size_t *n)
{
    *n = s->n_output_ropes;
    return s->output_ropes;
}

bool sk_scenario_group(const sk_scenario *s, int group, sk_group_info *out)
{
    if (group < 0 || group >= s->n_groups)
        return false;
    const sk_group *g = &s->groups[group];
    *out = (sk_group_info){.count = g->count, .first_rope = g->first_rope, .particles = g->particles,
                           .sweeps = g->n_sweeps};
    return true;
}

const char *sk_scenario_sweep_key(const sk_scenario *s, int group, int k)
{
    if (group < 0 || group >= s->n_groups || k < 0 || k >= s->groups[group].n_sweeps)
        return NULL;
    return s->groups[group].sweeps[k].key;
}

sk_status sk_scenario_param(const sk_scenario *s, size_t rope, const char *key, double *value, sk_error *err)
{
    size_t local = 0;
    const int group = sk_scenario_find_rope(s, rope, &local);
    if (group < 0)
        return sk_fail(err, SK_ERR_INVALID, "%s: rope %zu is out of range (%zu ropes)", s->source, rope,
                       s->total_ropes);
    for (int i = 0; i < sk_scn_n_sweepables; i++)
        if (strcmp(sk_scn_sweepables[i].key, key) == 0) {
            sk_rope_params p;
            sk_group_rope_params(&s->groups[group], local, &p);
            sk_real x;
            memcpy(&x, (const char *)&p + sk_scn_sweepables[i].offset, sizeof x);
            *value = (double)x;
            return SK_OK;
        }
    return sk_fail(err, SK_ERR_INVALID, "%s: %s is not a rope's numeric parameter", s->source, key);
}
