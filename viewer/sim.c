/* The viewer's ropes: each a reference engine over the rope alone, stepped together, with the measures the
 * viewer shows. */
#include "sim.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "skein/engine.h"
#include "skein/output.h"

static bool rope_finite(const sk_view_rope *v)
{
    for (int i = 0; i < 3 * v->n; i++)
        if (!isfinite(v->p[i]) || !isfinite(v->v[i]))
            return false;
    return true;
}

/* The state the scene draws, from the rope's engine. */
static void read_back(sk_view_rope *v)
{
    v->n = sk_engine_rope_particles(v->engine, 0);
    sk_engine_read_rope(v->engine, 0, v->p, v->v);
    sk_engine_rope_hold(v->engine, 0, &v->hold, v->pinned);
    v->held_last = v->hold.held > 0 && v->hold.held == v->n - 1;
}

/* A fresh reference engine over the rope alone, at the scenario's "initial" frame when warm. */
static sk_engine *start(const sk_view_sim *sim, const sk_view_rope *v, sk_error *err)
{
    sk_engine *e = sk_engine_create(v->alone, &(sk_engine_options){.engine = "reference", .threads = 1}, err);
    if (e && sim->warm && sk_warm_start_slice(e, sim->scenario, v->global, err) != SK_OK) {
        sk_engine_destroy(e);
        return NULL;
    }
    return e;
}

/* The scenario's ground, from its text with every default filled in: whether it has one, and its height. */
static bool ground(const sk_scenario *s, double *height)
{
    json_t *root = json_loads(sk_scenario_json(s), 0, NULL);
    json_t *h = json_object_get(json_object_get(root, "ground"), "height");
    const bool has = json_is_number(h);
    *height = has ? json_number_value(h) : 0;
    json_decref(root);
    return has;
}

int sk_view_sim_init(sk_view_sim *sim, const sk_scenario *s, const size_t *global, int n, sk_error *err)
{
    *sim = (sk_view_sim){.scenario = s};
    sim->has_ground = ground(s, &sim->ground_height);
    sim->ropes = calloc((size_t)(n > 0 ? n : 1), sizeof *sim->ropes);
    if (!sim->ropes)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    for (int k = 0; k < n; k++) {
        sk_view_rope *v = &sim->ropes[k];
        sim->n = k + 1;
        v->global = global[k];
        v->group = sk_scenario_find_rope(s, global[k], &v->local);
        sk_group_info g;
        if (v->group < 0 || !sk_scenario_group(s, v->group, &g)) {
            sk_view_sim_free(sim);
            return sk_fail(err, SK_ERR_INVALID, "rope %zu does not exist", global[k]);
        }
        v->capacity = g.particles;
        const size_t cap = (size_t)(g.particles > 0 ? g.particles : 1);
        v->p = calloc(3 * cap, sizeof *v->p);
        v->v = calloc(3 * cap, sizeof *v->v);
        v->pinned = calloc(cap, sizeof *v->pinned);
        v->alone = v->p && v->v && v->pinned ? sk_scenario_slice_new(s, global[k], 1, err) : NULL;
        v->engine = v->alone ? start(sim, v, err) : NULL;
        if (!v->engine) {
            const int rc = v->p && v->v && v->pinned ? err->status : sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
            sk_view_sim_free(sim);
            return rc;
        }
        read_back(v);
    }
    return 0;
}

int sk_view_sim_warm_start(sk_view_sim *sim, sk_error *err)
{
    sim->warm = true;
    int rc = sk_view_sim_reset(sim, err);
    if (rc)
        sk_view_sim_free(sim);
    return rc;
}

void sk_view_sim_free(sk_view_sim *sim)
{
    for (int k = 0; k < sim->n; k++) {
        sk_view_rope *v = &sim->ropes[k];
        sk_engine_destroy(v->engine);
        sk_scenario_destroy(v->alone);
        free(v->p);
        free(v->v);
        free(v->pinned);
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
        sk_engine_advance(v->engine, 1);
        read_back(v);
        v->diverged = !rope_finite(v);
    }
    sim->steps++;
}

int sk_view_sim_reset(sk_view_sim *sim, sk_error *err)
{
    /* All new engines first, so a failure leaves the old ones in place. */
    sk_engine **fresh = calloc((size_t)(sim->n > 0 ? sim->n : 1), sizeof *fresh);
    if (!fresh)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    int rc = 0;
    for (int k = 0; rc == 0 && k < sim->n; k++)
        if (!(fresh[k] = start(sim, &sim->ropes[k], err)))
            rc = err->status;
    if (rc) {
        for (int k = 0; k < sim->n; k++)
            sk_engine_destroy(fresh[k]);
        free(fresh);
        return rc;
    }
    for (int k = 0; k < sim->n; k++) {
        sk_view_rope *v = &sim->ropes[k];
        sk_engine_destroy(v->engine);
        v->engine = fresh[k];
        v->diverged = false;
        read_back(v);
    }
    free(fresh);
    sim->steps = 0;
    return 0;
}

double sk_view_sim_time(const sk_view_sim *sim) { return (double)sim->steps * sk_scenario_dt(sim->scenario); }

sk_vec3 sk_view_sim_position(const sk_view_sim *sim, int k, int i)
{
    const sk_real *p = &sim->ropes[k].p[3 * i];
    return (sk_vec3){p[0], p[1], p[2]};
}

double sk_view_sim_strain(const sk_view_sim *sim, int k, int i)
{
    sk_vec3 a = sk_view_sim_position(sim, k, i), b = sk_view_sim_position(sim, k, i + 1);
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    double rest = sim->ropes[k].hold.link_length;
    return sqrt(dx * dx + dy * dy + dz * dz) / rest - 1;
}

double sk_view_sim_max_strain(const sk_view_sim *sim)
{
    double m = 0;
    for (int k = 0; k < sim->n; k++) {
        int links = sim->ropes[k].n - 1;
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
    sk_engine_rope_diagnostics(sim->ropes[k].engine, 0, &d, NULL);
    return (double)d.kinetic + (double)d.gravity + (double)d.elastic;
}

bool sk_view_sim_anchor(const sk_view_sim *sim, int k, double point[3], int *held)
{
    const sk_view_rope *v = &sim->ropes[k];
    if (v->hold.held < 0)
        return false;
    point[0] = v->hold.anchor.x;
    point[1] = v->hold.anchor.y;
    point[2] = v->hold.anchor.z;
    *held = v->hold.held;
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
        for (int i = 0; i < sim->ropes[k].n; i++) {
            sk_vec3 p = sk_view_sim_position(sim, k, i);
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
