/* "initial": {"equilibrium": true}: every rope of an engine put at rest in its static equilibrium before step 0.
 * Each rope is solved by the reference engine's static Newton (reference/equilibrium.c) and its state put into
 * the engine, so both engines start from the same bits. Ropes are solved in parallel a chunk at a time and put
 * in serially (an engine takes one rope's state at a time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parallel.h"
#include "engine/engine_impl.h"
#include "reference/reference.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"

enum { CHUNK = 256, NAMED = 5 };

typedef struct solve_ctx {
    const sk_scenario *s;
    size_t first;       /* the chunk's first rope */
    sk_rope_state *st;  /* per rope of the chunk */
    int *solves;        /* per rope of the chunk: the solves it took, -1 when it did not converge, -2 out of memory */
} solve_ctx;

static void solve_rope(void *ctx, size_t item, int thread)
{
    (void)thread;
    solve_ctx *c = ctx;
    const size_t rope = c->first + item;
    size_t local = 0;
    const int g = sk_scenario_find_rope(c->s, rope, &local);
    sk_ref_rope *r = sk_ref_rope_create(c->s, g, local);
    if (!r) {
        c->solves[item] = -2;
        return;
    }
    c->solves[item] = sk_ref_rope_equilibrium(r, c->s->equilibrium_tolerance, c->s->equilibrium_iterations);
    sk_ref_rope_export(r, &c->st[item]);
    c->st[item].steps = 0;
    c->st[item].diverged = -1;
    sk_ref_rope_destroy(r);
}

bool sk_engine_equilibrium(const sk_engine *e, size_t *ropes, long *solves, int *most)
{
    *ropes = e->equilibrium_solved ? e->equilibrium_ropes : 0;
    *solves = e->equilibrium_solved ? e->equilibrium_solves : 0;
    *most = e->equilibrium_solved ? e->equilibrium_most : 0;
    return e->equilibrium_solved;
}

sk_status sk_equilibrium_start(sk_engine *e, sk_error *err)
{
    const sk_scenario *s = e->scenario;
    if (!s->initial_equilibrium)
        return SK_OK;
    int capacity = 1;
    for (int g = 0; g < s->n_groups; g++)
        capacity = s->groups[g].particles > capacity ? s->groups[g].particles : capacity;
    const size_t cap = (size_t)capacity;
    sk_rope_state *st = calloc(CHUNK, sizeof *st);
    int *solves = calloc(CHUNK, sizeof *solves);
    sk_real *buf = calloc((size_t)CHUNK * cap * 10, sizeof *buf);
    if (!st || !solves || !buf) {
        free(st), free(solves), free(buf);
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the equilibrium", s->source);
    }
    for (size_t k = 0; k < CHUNK; k++) {
        sk_real *b = buf + k * cap * 10;
        st[k] = (sk_rope_state){.p = b, .v = b + 3 * cap, .q = b + 6 * cap, .impulse = b + 9 * cap};
    }
    size_t failed = 0, named[NAMED];
    int rc = 0;
    for (size_t first = 0; first < s->total_ropes && rc == 0; first += CHUNK) {
        const size_t n = s->total_ropes - first < CHUNK ? s->total_ropes - first : CHUNK;
        solve_ctx c = {s, first, st, solves};
        sk_parallel_for(n, e->threads, solve_rope, &c);
        for (size_t k = 0; k < n && rc == 0; k++) {
            if (solves[k] == -2) {
                rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the equilibrium", s->source);
                break;
            }
            if (solves[k] < 0 && failed < NAMED)
                named[failed] = first + k;
            failed += solves[k] < 0;
            if (solves[k] >= 0) {
                e->equilibrium_ropes++;
                e->equilibrium_solves += solves[k];
                e->equilibrium_most = solves[k] > e->equilibrium_most ? solves[k] : e->equilibrium_most;
            }
            if (!sk_engine_import_rope(e, first + k, &st[k]))
                rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: the equilibrium of rope %zu does not fit the engine",
                             s->source, first + k);
        }
    }
    free(st), free(solves), free(buf);
    if (rc == 0 && failed) {
        char list[NAMED * 24] = "", *at = list;
        for (size_t i = 0; i < failed && i < NAMED; i++)
            at += snprintf(at, sizeof list - (size_t)(at - list), "%s%zu", i ? ", " : "", named[i]);
        return sk_fail(err, SK_ERR_INVALID,
                       "%s: initial.equilibrium: %zu rope%s did not come to rest within %g N in %d solves: %s%s "
                       "(raise initial.iterations or initial.tolerance)",
                       s->source, failed, failed == 1 ? "" : "s", (double)s->equilibrium_tolerance,
                       s->equilibrium_iterations, list, failed > NAMED ? ", ..." : "");
    }
    e->equilibrium_solved = rc == 0;
    /* a rope diverging later is stepped again from this state; tracked extremes start from it */
    if (rc == 0 && !sk_engine_keep_start(e))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", s->source);
    if (rc == 0 && sk_engine_tracks_extremes(e) && !sk_engine_track_extremes(e, true))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", s->source);
    return rc;
}
