/* skein compare's core: step two engines frame by frame and keep the largest deviations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "skein/output.h"
#include "scenario/scenario.h"
#include "engine/run.h"
#include "engine/compare.h"

void sk_deviation_add(sk_deviation *d, const sk_real *a, const sk_real *b, size_t n, size_t rope,
                      long step)
{
    for (size_t i = 0; i < n; i++) {
        double dev = 0;
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) {
            d->differing++;
            /* Two finite numbers differ by their distance; anything else (inf against a number,
             * NaN) is as far apart as it gets. */
            dev = isfinite(a[i]) && isfinite(b[i]) ? fabs((double)a[i] - (double)b[i]) : INFINITY;
        }
        if (dev > d->max) {
            d->max = dev;
            d->rope = rope;
            d->step = step;
        }
    }
    d->compared += n;
}

bool sk_group_deviation_within(const sk_group_deviation *g, double tolerance)
{
    if (g->count_mismatches)
        return false;
    if (tolerance == 0)
        return g->position.differing == 0 && g->velocity.differing == 0 && g->contact_mismatches == 0 &&
               g->newton_mismatches == 0 &&
               g->extremes.differing == 0;
    return g->position.max <= tolerance && g->velocity.max <= tolerance;
}

typedef struct rope_state {
    sk_real *p, *v;
    int capacity;
} rope_state;

static bool read_state(const sk_engine *e, size_t rope, int n, rope_state *st)
{
    if (n > st->capacity) {
        sk_real *p = realloc(st->p, (size_t)n * 3 * sizeof *p);
        if (p)
            st->p = p;
        sk_real *v = realloc(st->v, (size_t)n * 3 * sizeof *v);
        if (v)
            st->v = v;
        if (!p || !v)
            return false;
        st->capacity = n;
    }
    sk_engine_read_rope(e, rope, st->p, st->v);
    return true;
}

static int compare_frame(const sk_scenario *s, const sk_engine *a, const sk_engine *b,
                         const size_t *ropes, size_t n_ropes, rope_state st[2],
                         sk_group_deviation *out, sk_error *err)
{
    const long step = sk_engine_step(a);
    for (size_t k = 0; k < n_ropes; k++) {
        size_t local;
        const int g = sk_scenario_find_rope(s, ropes[k], &local);
        sk_group_deviation *gd = &out[g];
        const int na = sk_engine_rope_particles(a, ropes[k]);
        const int nb = sk_engine_rope_particles(b, ropes[k]);
        if (!read_state(a, ropes[k], na, &st[0]) || !read_state(b, ropes[k], nb, &st[1]))
            return sk_fail(err, SK_ERR_NO_MEMORY, "compare: out of memory");
        if (na != nb) {
            gd->count_mismatches++;
            continue;
        }
        sk_deviation_add(&gd->position, st[0].p, st[1].p, (size_t)na * 3, ropes[k], step);
        sk_deviation_add(&gd->velocity, st[0].v, st[1].v, (size_t)na * 3, ropes[k], step);
        sk_real xa[4], xb[4];
        if (sk_engine_rope_extremes(a, ropes[k], &xa[0], &xa[1]) && sk_engine_rope_extremes(b, ropes[k], &xb[0], &xb[1]) &&
            sk_engine_rope_support_extremes(a, ropes[k], &xa[2], &xa[3]) &&
            sk_engine_rope_support_extremes(b, ropes[k], &xb[2], &xb[3]))
            sk_deviation_add(&gd->extremes, xa, xb, 4, ropes[k], step);
        int ca, ia, cb, ib;
        if (sk_group_has_contacts(s, &s->groups[g])) {
            sk_engine_rope_contacts(a, ropes[k], &ca, &ia);
            sk_engine_rope_contacts(b, ropes[k], &cb, &ib);
            gd->contact_compared++;
            gd->contact_mismatches += ca != cb || ia != ib;
        }
        int sa, sb;
        long ua, ub;
        if (sk_scenario_keeps_previous_step(s)) {
            sk_engine_rope_newton(a, ropes[k], &sa, &ua);
            sk_engine_rope_newton(b, ropes[k], &sb, &ub);
            gd->newton_compared++;
            gd->newton_mismatches += sa != sb || ua != ub;
        }
    }
    return 0;
}

sk_status sk_compare_engines(const sk_scenario *s, sk_engine *a, sk_engine *b, long steps, long every,
                             const size_t *ropes, size_t n_ropes, sk_group_deviation *out,
                             sk_error *err)
{
    memset(out, 0, (size_t)s->n_groups * sizeof *out);
    rope_state st[2] = {{0}, {0}};
    long step = sk_engine_step(a);
    int rc = compare_frame(s, a, b, ropes, n_ropes, st, out, err);
    while (rc == 0 && step < steps) {
        const long next = sk_run_next_frame(step, every, steps);
        sk_engine_advance(a, next - step);
        sk_engine_advance(b, next - step);
        step = next;
        rc = compare_frame(s, a, b, ropes, n_ropes, st, out, err);
    }
    for (int i = 0; i < 2; i++) {
        free(st[i].p);
        free(st[i].v);
    }
    return rc;
}
