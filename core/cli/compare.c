/* skein compare FILE: the batch engine against the reference, frame by frame, per group. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "skein/output.h"
#include "skein/engine.h"
#include "engine/run.h"
#include "engine/compare.h"

/* Counts both engines report per rope frame (one and two): in how many of the frames compared they differ, or
 * that they never do; nothing where none was compared. */
static void print_counts(const char *label, uint64_t mismatches, uint64_t compared, const char *one, const char *two)
{
    if (mismatches)
        printf("  %s differ in %llu of %llu rope frames (%s or %s)\n", label, (unsigned long long)mismatches,
               (unsigned long long)compared, one, two);
    else if (compared)
        printf("  %s the same in all %llu rope frames (%s and %s)\n", label, (unsigned long long)compared, one, two);
}

static void print_deviation(const char *what, const sk_deviation *d)
{
    if (d->compared == 0)
        printf("  %-9s nothing compared\n", what);
    else if (d->differing == 0)
        printf("  %-9s 0 (identical bits)\n", what);
    else if (d->max == 0)
        printf("  %-9s 0 (%llu components differ only in the sign of zero)\n", what,
               (unsigned long long)d->differing);
    else
        printf("  %-9s %.3g (rope %zu, step %ld; %llu of %llu components differ)\n", what, d->max,
               d->rope, d->step, (unsigned long long)d->differing,
               (unsigned long long)d->compared);
}

/* The smallest one-digit number (1e-16, 2e-16, ..., 9e-16, 1e-15, ...) at or above x > 0: a tolerance
 * that covers a deviation of x. */
static double covering(double x)
{
    const double scale = pow(10, floor(log10(x)));
    const double digit = ceil(x / scale);
    return digit >= 10 ? 10 * scale : digit * scale;
}

/* Whether a group's ropes have a driven anchor, whose sine differs by design between the engines (SLEEF's
 * in the kernels, libm's in the reference: docs/model.md section 9). */
static bool driven(const sk_group *g) { return g->anchor != SK_ANCHOR_NONE && g->motion_sine; }

int cli_compare(const cli_options *o, sk_error *err)
{
    sk_scenario s;
    memset(&s, 0, sizeof s);
    int rc = cli_load(o, &s, err);
    if (rc)
        return sk_exit_status(rc);
    cli_stability_report(&s, false);
    cli_plan plan = {0};
    sk_engine *a = NULL, *b = NULL;
    sk_group_deviation *dev = NULL;
    int beyond = 0; /* groups beyond tolerance */
    if ((rc = cli_plan_make(o, &s, &plan, err)))
        goto done;
    /* The engine under test first: when it cannot be built, say so before building the other. */
    const sk_engine_options bo = {.engine = "reference"};
    if (!(a = cli_engine_create(o, &s, NULL, 0, o->engine ? o->engine : "batch", err)) ||
        !(b = sk_engine_create(&s, &bo, err)) || sk_warm_start(b, err) || sk_equilibrium_start(b, err)) {
        rc = err->status;
        goto done;
    }
    if (!(dev = calloc((size_t)s.n_groups, sizeof *dev))) {
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "compare: out of memory");
        goto done;
    }
    if ((rc = sk_compare_engines(&s, a, b, plan.steps, plan.every, plan.ropes, plan.n_ropes, dev,
                                 err)))
        goto done;

    long frames = 1;
    for (long step = 0; step < plan.steps; step = sk_run_next_frame(step, plan.every, plan.steps))
        frames++;
    const char *isa = sk_engine_isa(a);
    const double tol = o->has_tolerance ? o->tolerance : 0;
    for (int g = 0; g < s.n_groups; g++)
        beyond += !sk_group_deviation_within(&dev[g], tol);
    if (!o->quiet) {
        printf("scenario     %s\n", s.source);
        printf("compared     %s engine (%s) against the reference: %ld steps, %ld frames, %zu "
               "rope%s\n",
               strcmp(isa, "reference") == 0 ? "reference" : "batch", isa, plan.steps, frames,
               plan.n_ropes, plan.n_ropes == 1 ? "" : "s");
        for (int g = 0; g < s.n_groups; g++) {
            size_t compared = 0;
            for (size_t k = 0; k < plan.n_ropes; k++)
                compared += plan.ropes[k] - s.groups[g].first_rope < s.groups[g].count; /* unsigned: below wraps */
            printf("group %-6d %zu rope%s, %zu compared: %s\n", g, s.groups[g].count, s.groups[g].count == 1 ? "" : "s",
                   compared, sk_group_deviation_within(&dev[g], tol) ? "within tolerance" : "BEYOND TOLERANCE");
            print_deviation("position", &dev[g].position);
            print_deviation("velocity", &dev[g].velocity);
            if (dev[g].count_mismatches)
                printf("  particle counts differ in %llu rope frames\n",
                       (unsigned long long)dev[g].count_mismatches);
            print_counts("contacts ", dev[g].contact_mismatches, dev[g].contact_compared, "contacts",
                         "resolver iterations");
            print_counts("newton   ", dev[g].newton_mismatches, dev[g].newton_compared, "solves",
                         "steps not converged");
            const double worst = fmax(dev[g].position.max, dev[g].velocity.max);
            if (driven(&s.groups[g]) && worst > 0 && isfinite(worst))
                printf("  driven    the anchor's sine is SLEEF's in the batch engine and libm's in the reference: they\n"
                       "            differ in the last bits by design; --tolerance %g covers this run\n",
                       covering(worst));
        }
        if (tol == 0)
            printf("tolerance    0 (identical bits)\n");
        else
            printf("tolerance    %g\n", tol);
    }
    if (beyond) {
        /* where only driven anchors' sine tells the engines apart, say so and what covers it */
        double cover = 0;
        bool by_design = true;
        for (int g = 0; g < s.n_groups; g++)
            if (!sk_group_deviation_within(&dev[g], tol)) {
                const double worst = fmax(dev[g].position.max, dev[g].velocity.max);
                by_design = by_design && driven(&s.groups[g]) && worst > 0 && isfinite(worst) &&
                            dev[g].count_mismatches == 0 && dev[g].contact_mismatches == 0 &&
                            dev[g].newton_mismatches == 0;
                cover = by_design ? fmax(cover, covering(worst)) : cover;
            }
        if (by_design)
            sk_fail(err, SK_ERR_INVALID,
                    "compare: %d of %d group%s beyond tolerance %g, where driven anchors take their sine from SLEEF "
                    "and libm by design; --tolerance %g covers it",
                    beyond, s.n_groups, s.n_groups == 1 ? "" : "s", tol, cover);
        else
            sk_fail(err, SK_ERR_INVALID, "compare: %d of %d group%s beyond tolerance %g", beyond, s.n_groups,
                    s.n_groups == 1 ? "" : "s", tol);
    }
done:
    free(dev);
    sk_engine_destroy(a);
    sk_engine_destroy(b);
    free(plan.ropes);
    sk_scenario_free(&s);
    /* a comparison beyond tolerance ran fine and found the engines apart: its own status */
    return rc ? sk_exit_status(rc) : beyond ? SK_EXIT_BEYOND : SK_EXIT_OK;
}
