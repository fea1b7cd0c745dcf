/* What the stepping commands share: loading the scenario and applying --steps, --every, --ropes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "skein/scenario.h"
#include "io/hdf5/hdf5_output.h"

int cli_load(const cli_options *o, sk_scenario *s, sk_error *err)
{
    return cli_load_shared(o, 1, s, err);
}

int cli_load_shared(const cli_options *o, int processes, sk_scenario *s, sk_error *err)
{
    const sk_load_options lo = {.sets = o->sets,
                                .n_sets = o->n_sets,
                                .label = "--set",
                                .processes = processes,
                                .output_ropes_replaced = o->ropes || o->recalled_ropes};
    if (o->command == CLI_DEFAULT)
        return sk_scenario_load_default(&lo, s, err);
    if (o->scenario_text)
        return sk_scenario_load_string(o->scenario_text, o->scenario_source, &lo, s, err);
    return sk_scenario_load_file(o->file, &lo, s, err);
}

sk_vtk_layout cli_vtk_layout(const cli_options *o)
{
    return o->vtk_cells && strcmp(o->vtk_cells, "ropes") == 0 ? SK_VTK_POLYLINES : SK_VTK_LINKS;
}

int cli_plan_make(const cli_options *o, const sk_scenario *s, cli_plan *plan, sk_error *err)
{
    *plan = (cli_plan){.steps = s->steps, .every = s->output_every};
    if (o->has_steps)
        plan->steps = o->steps;
    if (o->has_duration) {
        /* Whole steps, as the scenario's own "duration" key. */
        const double n = round(o->duration / (double)s->dt);
        if (!(n <= 1e15))
            return sk_fail(err, SK_ERR_INVALID, "--duration: %g s is too many steps of %g s",
                           o->duration, (double)s->dt);
        plan->steps = (long)n;
    }
    /* A scenario whose frames were only the first and the last (output.every absent, or as long
     * as the run) keeps that meaning when --steps or --duration changes the length. */
    if ((o->has_steps || o->has_duration) && s->output_every >= s->steps)
        plan->every = plan->steps;
    if (o->has_every)
        plan->every = o->every;
    if (plan->every < 1) /* a run of 0 steps has the single frame 0 */
        plan->every = 1;

    if (o->ropes)
        return cli_parse_ropes(o->ropes, s->total_ropes, &plan->ropes, &plan->n_ropes, err);
    const size_t *ropes = o->recalled_ropes ? o->recalled_ropes : s->output_ropes;
    plan->n_ropes = o->recalled_ropes ? o->n_recalled_ropes : s->n_output_ropes;
    plan->ropes = malloc((plan->n_ropes ? plan->n_ropes : 1) * sizeof *plan->ropes);
    if (!plan->ropes)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    if (plan->n_ropes)
        memcpy(plan->ropes, ropes, plan->n_ropes * sizeof *plan->ropes);
    return 0;
}

/* Refuses, naming --isa, an ISA this build did not compile or this CPU cannot run. */
static int check_isa(const cli_options *o, sk_error *err)
{
    if (!o->isa || strcmp(o->isa, "auto") == 0)
        return 0;
    sk_isa_info list[8];
    const int n = sk_isa_list(list, 8);
    for (int i = 0; i < n; i++) {
        if (strcmp(list[i].name, o->isa) != 0)
            continue;
        if (!list[i].compiled)
            return sk_fail(err, SK_ERR_UNSUPPORTED, "--isa %s: this build of skein has no %s kernels; use --isa auto",
                           o->isa, o->isa);
        if (!list[i].usable)
            return sk_fail(err, SK_ERR_UNSUPPORTED,
                           "--isa %s: this CPU does not support %s; use --isa auto (skein info lists what it can run)",
                           o->isa, o->isa);
    }
    return 0;
}

sk_engine *cli_engine_create(const cli_options *o, const sk_scenario *s, const sk_scenario *whole, size_t first,
                             const char *engine, sk_error *err)
{
    if (check_isa(o, err))
        return NULL;
    const sk_engine_options eo = {.engine = engine,
                                  .isa = o->isa,
                                  .threads = o->has_threads ? o->threads : 0,
                                  .track_extremes = o->results != NULL};
    sk_engine *e = sk_engine_create(s, &eo, err);
    /* a resumed run's state is the checkpoint's, put in after this: the warm start is still the start a
     * diverging rope is stepped again from */
    if (e && (sk_warm_start_slice(e, whole ? whole : s, whole ? first : 0, err) || sk_equilibrium_start(e, err))) {
        sk_engine_destroy(e);
        return NULL;
    }
    return e;
}
