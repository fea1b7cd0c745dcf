/* The explicit stability limit of each group (sk_group_stable_dt): a warning before a run whose step is above
 * it, the limits listed by skein validate, and after a run that tracked extremes the ropes that gained energy
 * nothing could give them. All on stderr: validate's standard output stays the scenario's JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char *integrator_name(sk_integrator i)
{
    static const char *const names[] = {"cyclone", "euler", "symplectic", "verlet", "implicit"};
    return (unsigned)i < sizeof names / sizeof names[0] ? names[i] : "?";
}

void cli_stability_report(const sk_scenario *s, bool list)
{
    for (int g = 0; g < s->n_groups; g++) {
        const double limit = sk_group_stable_dt(s, g);
        const char *what = s->integrator == SK_INTEGRATOR_IMPLICIT ? "bending's explicit" : "explicit";
        if (list && isinf(limit))
            fprintf(stderr, "skein: group %d: no explicit stability limit (%s)\n", g, integrator_name(s->integrator));
        else if (list)
            fprintf(stderr, "skein: group %d: %s stability limit dt < %.3g s (%s, dt %g s)\n", g, what, limit,
                    integrator_name(s->integrator), (double)s->dt);
        else if ((double)s->dt > limit)
            fprintf(stderr,
                    "skein: warning: group %d: dt %g s is above the %s stability limit %.3g s of its stiffest rope "
                    "(%s): its ropes may grow without bound; take a smaller dt%s\n",
                    g, (double)s->dt, what, limit, integrator_name(s->integrator),
                    s->integrator == SK_INTEGRATOR_IMPLICIT ? " or a smaller bending stiffness" : " or the implicit integrator");
    }
}

sk_rope_diagnostics *cli_energy_start(const sk_engine *e, const sk_scenario *s)
{
    sk_rope_diagnostics *d = malloc((s->total_ropes ? s->total_ropes : 1) * sizeof *d);
    for (size_t r = 0; d && r < s->total_ropes; r++)
        sk_engine_rope_diagnostics(e, r, &d[r], NULL);
    return d;
}

void cli_energy_excess(const sk_engine *e, int group, const sk_rope_diagnostics *start, size_t *flagged,
                       size_t *first, double *first_gain)
{
    const sk_group *grp = &sk_engine_scenario(e)->groups[group];
    *flagged = 0;
    for (size_t r = grp->first_rope; start && r < grp->first_rope + grp->count; r++) {
        double gain;
        if (sk_engine_rope_diverged(e, r) >= 0 || !sk_engine_rope_energy_excess(e, r, &start[r], &gain))
            continue;
        if ((*flagged)++ == 0) {
            *first = r;
            *first_gain = gain;
        }
    }
}

void cli_energy_warn(const sk_scenario *s, int group, size_t flagged, size_t first, double first_gain)
{
    if (flagged)
        fprintf(stderr,
                "skein: warning: group %d: %zu rope%s gained energy no load can give (rope %zu: %.3g J more than at "
                "the start): a step above the stability limit (dt %g s, limit %.3g s)?\n",
                group, flagged, flagged == 1 ? "" : "s", first, first_gain, (double)s->dt,
                sk_group_stable_dt(s, group));
}

void cli_energy_report(const sk_engine *e, const sk_scenario *s, const sk_rope_diagnostics *start)
{
    for (int g = 0; start && g < s->n_groups; g++) {
        size_t flagged = 0, first = 0;
        double gain = 0;
        cli_energy_excess(e, g, start, &flagged, &first, &gain);
        cli_energy_warn(s, g, flagged, first, gain);
    }
}
