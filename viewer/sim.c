/* The viewer's ropes: reference ropes stepped together, with the measures the viewer shows. */
#include "scenario/scenario.h"
#include "sim.h"

#include <math.h>
#include <stdlib.h>

#include "skein/engine.h"
#include "skein/output.h"
#include "engine/engine_state.h"

static bool rope_finite(const sk_ref_rope *r)
{
    int n = sk_ref_rope_count(r);
    for (int i = 0; i < n; i++) {
        sk_vec3 p = sk_ref_rope_position(r, i), v = sk_ref_rope_velocity(r, i);
        if (!(isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(v.x) && isfinite(v.y) &&
              isfinite(v.z)))
            return false;
    }
    return true;
}

static void state_free(sk_rope_state *st)
{
    if (!st)
        return;
    free(st->p);
    free(st->v);
    free(st->q);
    free(st->impulse);
    free(st);
}

static sk_rope_state *state_alloc(int capacity)
{
    sk_rope_state *st = calloc(1, sizeof *st);
    size_t n = (size_t)(capacity > 0 ? capacity : 1);
    if (!st)
        return NULL;
    st->p = calloc(3 * n, sizeof *st->p);
    st->v = calloc(3 * n, sizeof *st->v);
    st->q = calloc(3 * n, sizeof *st->q);
    st->impulse = calloc(n, sizeof *st->impulse);
    if (!st->p || !st->v || !st->q || !st->impulse) {
        state_free(st);
        return NULL;
    }
    return st;
}

/* A warm start: the file holds every rope, read by a reference engine of the whole scenario (sk_warm_start
 * checks the file against it); each shown rope takes its state from there and keeps it for a reset. */
static int warm_start(sk_view_sim *sim, sk_error *err)
{
    const sk_scenario *s = sim->scenario;
    sk_engine *e = sk_engine_create(s, &(sk_engine_options){.engine = "reference", .threads = 1}, err);
    if (!e)
        return err->status;
    int rc = sk_warm_start(e, err);
    for (int k = 0; rc == 0 && k < sim->n; k++) {
        sk_view_rope *v = &sim->ropes[k];
        v->start = state_alloc(s->groups[v->group].particles);
        if (!v->start)
            rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
        else if (!sk_engine_export_rope(e, v->global, v->start) || !sk_ref_rope_import(v->rope, v->start))
            rc = sk_fail(err, SK_ERR_INVALID, "%s: initial: rope %zu's state cannot be taken", s->source, v->global);
    }
    sk_engine_destroy(e);
    return rc;
}

int sk_view_sim_init(sk_view_sim *sim, const sk_scenario *s, const size_t *global, int n, sk_error *err)
{
    *sim = (sk_view_sim){.scenario = s};
    sim->ropes = calloc((size_t)(n > 0 ? n : 1), sizeof *sim->ropes);
    if (!sim->ropes)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    for (int k = 0; k < n; k++) {
        sk_view_rope *v = &sim->ropes[k];
        v->global = global[k];
        v->group = sk_scenario_find_rope(s, global[k], &v->local);
        v->rope = v->group >= 0 ? sk_ref_rope_create(s, v->group, v->local) : NULL;
        sim->n = k + 1;
        if (!v->rope) {
            sk_view_sim_free(sim);
            return v->group >= 0 ? sk_fail(err, SK_ERR_NO_MEMORY, "out of memory")
                                 : sk_fail(err, SK_ERR_INVALID, "rope %zu does not exist", global[k]);
        }
    }
    return 0;
}

int sk_view_sim_warm_start(sk_view_sim *sim, sk_error *err)
{
    int rc = sim->scenario->has_initial ? warm_start(sim, err) : 0;
    if (rc)
        sk_view_sim_free(sim);
    return rc;
}

void sk_view_sim_free(sk_view_sim *sim)
{
    for (int k = 0; k < sim->n; k++) {
        sk_ref_rope_destroy(sim->ropes[k].rope);
        state_free(sim->ropes[k].start);
    }
    free(sim->ropes);
    sim->ropes = NULL;
    sim->n = 0;
}

void sk_view_sim_step(sk_view_sim *sim)
{
    for (int k = 0; k < sim->n; k++) {
        sk_view_rope *v = &sim->ropes[k];
        if (v->diverged)
            continue;
        sk_ref_rope_step(v->rope);
        v->diverged = !rope_finite(v->rope);
    }
    sim->steps++;
}

int sk_view_sim_reset(sk_view_sim *sim, sk_error *err)
{
    /* All new ropes first, so a failure leaves the old ones in place. */
    sk_ref_rope **fresh = calloc((size_t)(sim->n > 0 ? sim->n : 1), sizeof *fresh);
    bool ok = fresh != NULL;
    for (int k = 0; ok && k < sim->n; k++) {
        fresh[k] = sk_ref_rope_create(sim->scenario, sim->ropes[k].group, sim->ropes[k].local);
        ok = fresh[k] != NULL && (!sim->ropes[k].start || sk_ref_rope_import(fresh[k], sim->ropes[k].start));
    }
    if (!ok) {
        for (int k = 0; fresh && k < sim->n; k++)
            sk_ref_rope_destroy(fresh[k]);
        free(fresh);
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    }
    for (int k = 0; k < sim->n; k++) {
        sk_ref_rope_destroy(sim->ropes[k].rope);
        sim->ropes[k].rope = fresh[k];
        sim->ropes[k].diverged = false;
    }
    free(fresh);
    sim->steps = 0;
    return 0;
}

double sk_view_sim_time(const sk_view_sim *sim) { return (double)sim->steps * (double)sim->scenario->dt; }

double sk_view_sim_strain(const sk_view_sim *sim, int k, int i)
{
    const sk_ref_rope *r = sim->ropes[k].rope;
    sk_vec3 a = sk_ref_rope_position(r, i), b = sk_ref_rope_position(r, i + 1);
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    double rest = sk_ref_rope_constants(r)->link_length;
    return sqrt(dx * dx + dy * dy + dz * dz) / rest - 1;
}

double sk_view_sim_max_strain(const sk_view_sim *sim)
{
    double m = 0;
    for (int k = 0; k < sim->n; k++) {
        int links = sk_ref_rope_count(sim->ropes[k].rope) - 1;
        for (int i = 0; i < links; i++) {
            double s = fabs(sk_view_sim_strain(sim, k, i));
            if (isfinite(s) && s > m)
                m = s;
        }
    }
    return m;
}

double sk_view_sim_energy(const sk_view_sim *sim, int k)
{
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(sim->ropes[k].rope, &d, NULL);
    return (double)d.kinetic + (double)d.gravity + (double)d.elastic;
}

bool sk_view_sim_anchor(const sk_view_sim *sim, int k, double point[3], int *held)
{
    const sk_view_rope *v = &sim->ropes[k];
    if (sim->scenario->groups[v->group].anchor == SK_ANCHOR_NONE)
        return false;
    sk_vec3 x = sk_ref_rope_anchor(v->rope);
    point[0] = x.x;
    point[1] = x.y;
    point[2] = x.z;
    *held = sk_ref_rope_held(v->rope);
    return true;
}

static bool grow(double lo[3], double hi[3], const double p[3], bool any)
{
    if (!(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2])))
        return any;
    for (int i = 0; i < 3; i++) {
        if (!any || p[i] < lo[i])
            lo[i] = p[i];
        if (!any || p[i] > hi[i])
            hi[i] = p[i];
    }
    return true;
}

bool sk_view_sim_bounds(const sk_view_sim *sim, double lo[3], double hi[3])
{
    bool any = false;
    for (int i = 0; i < 3; i++)
        lo[i] = hi[i] = 0;
    for (int k = 0; k < sim->n; k++) {
        const sk_ref_rope *r = sim->ropes[k].rope;
        int n = sk_ref_rope_count(r);
        for (int i = 0; i < n; i++) {
            sk_vec3 p = sk_ref_rope_position(r, i);
            double q[3] = {p.x, p.y, p.z};
            any = grow(lo, hi, q, any);
        }
        double x[3];
        int held;
        if (sk_view_sim_anchor(sim, k, x, &held))
            any = grow(lo, hi, x, any);
    }
    return any;
}
