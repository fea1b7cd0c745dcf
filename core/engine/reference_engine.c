/* The reference engine behind sk_engine: one sk_ref_rope per rope, advanced one after another on
 * one thread. It is the oracle the batch engine is checked against, so it stays plain. */
#include <math.h>
#include <stdlib.h>

#include "base/fingerprint.h"
#include "engine/engine_impl.h"
#include "model/profile.h"
#include "model/vec3.h"
#include "reference/reference.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"

/* figures per rope while tracked */
#define EXTREMES ((size_t)SK_ENGINE_EXTREMES)

typedef struct reference_engine {
    struct sk_engine base;
    sk_ref_rope **ropes; /* by global rope index */
    size_t n_ropes;
    /* Frame checks (docs/model.md section 10): the step each rope diverged at (-1: never), how many did, and
     * the step of the last check, which a diverging rope goes back to (-1 before the first). */
    long *diverged;
    size_t n_diverged;
    long checked;
    sk_real *tension; /* scratch for one rope's link tensions */
    /* After a resume: the step, and a fingerprint of each rope's state there, which a rope replayed from step 0
     * must meet (docs/model.md section 10.2); -1 and NULL for a run from step 0. */
    long resumed;
    uint64_t *resumed_print;
    /* After sk_engine_keep_start (a warm start): each rope's step-0 state, which a diverged rope is stepped
     * again from instead of its group's shape; NULL for a run that started from the shapes. */
    sk_rope_state *start;
    sk_real *start_reals;
    /* While tracked (sk_engine_track_extremes): each rope's largest link tension and strain and held ends'
     * support forces so far, and what it had at the last check, which a diverging rope goes back to with its
     * state ([n_ropes][SK_ENGINE_EXTREMES] each); NULL when not tracked. */
    sk_real *extremes;
    sk_real *checked_extremes;
} reference_engine;

/* Particle-steps: the particles present after each step, which are the ones it advanced (a particle
 * inserted by deployment is integrated in the step that inserts it). */
static uint64_t reference_advance(sk_engine *e, long steps)
{
    reference_engine *re = (reference_engine *)e;
    uint64_t done = 0;
    for (size_t i = 0; i < re->n_ropes; i++)
        for (long k = 0; k < steps && re->diverged[i] < 0; k++) { /* a diverged rope takes no steps */
            sk_ref_rope_step(re->ropes[i]);
            done += (uint64_t)sk_ref_rope_count(re->ropes[i]);
            if (re->extremes)
                sk_ref_rope_track_extremes(re->ropes[i], re->tension, &re->extremes[EXTREMES * i]);
        }
    return done;
}

static int reference_rope_particles(const sk_engine *e, size_t rope)
{
    const reference_engine *re = (const reference_engine *)e;
    return sk_ref_rope_count(re->ropes[rope]);
}

static void reference_read_rope(const sk_engine *e, size_t rope, sk_real *p, sk_real *v)
{
    const reference_engine *re = (const reference_engine *)e;
    const sk_ref_rope *r = re->ropes[rope];
    int n = sk_ref_rope_count(r);
    for (int i = 0; i < n; i++) {
        if (p) {
            sk_vec3 x = sk_ref_rope_position(r, i);
            p[3 * i + 0] = x.x;
            p[3 * i + 1] = x.y;
            p[3 * i + 2] = x.z;
        }
        if (v) {
            sk_vec3 u = sk_ref_rope_velocity(r, i);
            v[3 * i + 0] = u.x;
            v[3 * i + 1] = u.y;
            v[3 * i + 2] = u.z;
        }
    }
}

static void reference_destroy(sk_engine *e)
{
    reference_engine *re = (reference_engine *)e;
    if (re->ropes)
        for (size_t i = 0; i < re->n_ropes; i++)
            sk_ref_rope_destroy(re->ropes[i]);
    free(re->ropes);
    free(re->diverged);
    free(re->tension);
    free(re->resumed_print);
    free(re->start);
    free(re->start_reals);
    free(re->extremes);
    free(re->checked_extremes);
    free(re);
}

/* A fingerprint of a rope's state: what a checkpoint keeps of it, but its step count. */
static bool rope_print(const sk_ref_rope *r, uint64_t *print)
{
    const int cap = sk_ref_rope_group(r)->particles;
    sk_real *buf = calloc((size_t)cap * 10, sizeof *buf);
    if (!buf)
        return false;
    sk_rope_state st = {.p = buf, .v = buf + 3 * cap, .q = buf + 6 * cap, .impulse = buf + 9 * cap};
    sk_ref_rope_export(r, &st);
    uint64_t h = sk_fingerprint(SK_FINGERPRINT_START, buf, (size_t)cap * 10 * sizeof *buf);
    h = sk_fingerprint(h, &st.n, sizeof st.n);
    h = sk_fingerprint(h, &st.s, sizeof st.s);
    h = sk_fingerprint(h, &st.contacts, sizeof st.contacts);
    *print = sk_fingerprint(h, &st.iterations, sizeof st.iterations);
    free(buf);
    return true;
}

static bool finite3(sk_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* A rope is sound when its p, v (and verlet's q) are finite, and so is every figure the outputs derive
 * from them (energies, tensions, anchor force): a finite state can still overflow those. Only verlet's q is
 * part of the state: the other integrators never read the start value q = p - v dt they are given, so it
 * is not checked (the batch engine does not keep it at all). And it is within the divergence bounds: no
 * particle faster than max_speed, no link longer than (1 + max_strain) rest lengths (squares compared). */
static bool rope_sound(const reference_engine *re, const sk_ref_rope *r)
{
    const int n = sk_ref_rope_count(r);
    const bool verlet = re->base.scenario->integrator == SK_INTEGRATOR_VERLET;
    const bool links = sk_ref_rope_group(r)->link != SK_LINK_NONE;
    const sk_rope_constants *c = sk_ref_rope_constants(r);
    for (int i = 0; i < n; i++) {
        const sk_particle *p = sk_ref_rope_particle(r, i);
        const sk_vec3 v = sk_ref_rope_velocity(r, i);
        if (!finite3(p->p) || (verlet && !finite3(p->q)) || !finite3(v) || sk_vec3_dot(v, v) > c->max_speed2)
            return false;
        if (links && i + 1 < n) {
            const sk_vec3 d = sk_vec3_sub(sk_ref_rope_particle(r, i + 1)->p, p->p);
            const sk_real max2 = sk_ref_rope_group(r)->has_profiles
                                     ? sk_rope_link_max2(re->base.scenario, sk_rope_link_length(sk_ref_rope_group(r),
                                                             sk_ref_rope_params(r), c, i))
                                     : c->max_link2;
            if (sk_vec3_dot(d, d) > max2)
                return false;
        }
    }
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(r, &d, re->tension);
    bool ok = isfinite(d.kinetic) && isfinite(d.gravity) && isfinite(d.elastic) && finite3(d.anchor_force) &&
              isfinite(d.length) && finite3(d.support[0]) && finite3(d.support[1]);
    for (int i = 0; ok && i + 1 < n; i++)
        ok = isfinite(re->tension[i]);
    return ok;
}

/* A diverged rope goes back to the last checked step by replaying it from the start: ropes are
 * deterministic, so the replay gives that state to the bit, and no copy of every rope is kept. Past a resumed
 * step the replay must meet the resumed state; a rope it does not meet stays where it was found. */
static size_t reference_check_frame(sk_engine *e)
{
    reference_engine *re = (reference_engine *)e;
    const long back_to = re->checked >= 0 ? re->checked : 0;
    for (size_t i = 0; i < re->n_ropes; i++) {
        if (re->diverged[i] >= 0 || rope_sound(re, re->ropes[i]))
            continue;
        re->diverged[i] = e->step;
        re->n_diverged++;
        size_t local;
        const int g = sk_scenario_find_rope(e->scenario, i, &local);
        sk_ref_rope *fresh = sk_ref_rope_create(e->scenario, g, local);
        if (!fresh)
            continue; /* out of memory: it keeps its state (still marked, stepped no more) */
        if (re->start && !sk_ref_rope_import(fresh, &re->start[i])) {
            sk_ref_rope_destroy(fresh); /* cannot be: the start was exported from a rope of this group */
            continue;
        }
        long at = 0;
        if (re->resumed >= 0 && back_to >= re->resumed) {
            sk_ref_rope_advance(fresh, re->resumed);
            uint64_t print;
            if (!rope_print(fresh, &print) || print != re->resumed_print[i]) {
                sk_ref_rope_destroy(fresh);
                continue;
            }
            at = re->resumed;
        }
        sk_ref_rope_advance(fresh, back_to - at);
        sk_ref_rope_destroy(re->ropes[i]);
        re->ropes[i] = fresh;
    }
    /* the extremes go back with the state: a diverged rope's to the check before, a sound rope's are kept */
    for (size_t i = 0; re->extremes && i < re->n_ropes; i++)
        for (size_t x = 0; x < EXTREMES; x++) {
            if (re->diverged[i] >= 0)
                re->extremes[EXTREMES * i + x] = re->checked_extremes[EXTREMES * i + x];
            else
                re->checked_extremes[EXTREMES * i + x] = re->extremes[EXTREMES * i + x];
        }
    re->checked = e->step;
    return re->n_diverged;
}

static long reference_rope_diverged(const sk_engine *e, size_t rope)
{
    return ((const reference_engine *)e)->diverged[rope];
}

static void reference_rope_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    sk_ref_rope_diagnose(((const reference_engine *)e)->ropes[rope], out, tension);
}

static void reference_rope_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations)
{
    const sk_ref_rope *r = ((const reference_engine *)e)->ropes[rope];
    *contacts = sk_ref_rope_contacts(r);
    *iterations = sk_ref_rope_iterations(r);
}

static void reference_rope_newton(const sk_engine *e, size_t rope, int *solves, long *unconverged)
{
    sk_ref_rope_newton(((const reference_engine *)e)->ropes[rope], solves, unconverged);
}

/* ---- checkpoints: the ropes' own state, and the engine's marks and last check --------------------- */

static unsigned reference_state_fields(const sk_engine *e, int group)
{
    return sk_ref_rope_state_fields(e->scenario, &e->scenario->groups[group]);
}

static void reference_export_rope(const sk_engine *e, size_t rope, sk_rope_state *st)
{
    const reference_engine *re = (const reference_engine *)e;
    sk_ref_rope_export(re->ropes[rope], st);
    st->diverged = re->diverged[rope];
}

static bool reference_import_rope(sk_engine *e, size_t rope, const sk_rope_state *st)
{
    reference_engine *re = (reference_engine *)e;
    if (!sk_ref_rope_import(re->ropes[rope], st))
        return false;
    re->diverged[rope] = st->diverged < 0 ? -1 : st->diverged;
    return true;
}

/* The last check was at `step`: a rope diverging later is replayed to it, through the fingerprints. */
static bool reference_resume_at(sk_engine *e, long step)
{
    reference_engine *re = (reference_engine *)e;
    if (!re->resumed_print)
        re->resumed_print = malloc((re->n_ropes ? re->n_ropes : 1) * sizeof *re->resumed_print);
    if (!re->resumed_print)
        return false;
    for (size_t i = 0; i < re->n_ropes; i++)
        if (!rope_print(re->ropes[i], &re->resumed_print[i]))
            return false;
    re->resumed = step;
    re->checked = step;
    re->n_diverged = 0;
    for (size_t i = 0; i < re->n_ropes; i++)
        re->n_diverged += re->diverged[i] >= 0;
    return true;
}

/* Every rope's current state, copied: the start a diverged rope is replayed from. */
static bool reference_keep_start(sk_engine *e)
{
    reference_engine *re = (reference_engine *)e;
    size_t reals = 0;
    for (size_t i = 0; i < re->n_ropes; i++)
        reals += 10 * (size_t)e->scenario->groups[sk_scenario_find_rope(e->scenario, i, NULL)].particles;
    free(re->start);
    free(re->start_reals);
    re->start = calloc(re->n_ropes ? re->n_ropes : 1, sizeof *re->start);
    re->start_reals = malloc((reals ? reals : 1) * sizeof *re->start_reals);
    if (!re->start || !re->start_reals) {
        free(re->start);
        free(re->start_reals);
        re->start = NULL;
        re->start_reals = NULL;
        return false;
    }
    sk_real *at = re->start_reals;
    for (size_t i = 0; i < re->n_ropes; i++) {
        const size_t cap = (size_t)e->scenario->groups[sk_scenario_find_rope(e->scenario, i, NULL)].particles;
        sk_rope_state *st = &re->start[i];
        *st = (sk_rope_state){.p = at, .v = at + 3 * cap, .q = at + 6 * cap, .impulse = at + 9 * cap};
        at += 10 * cap;
        sk_ref_rope_export(re->ropes[i], st);
        st->diverged = -1;
    }
    return true;
}

/* Tracking starts from every rope's current state; both copies hold it. */
static bool reference_track_extremes(sk_engine *e, bool on)
{
    reference_engine *re = (reference_engine *)e;
    free(re->extremes);
    free(re->checked_extremes);
    re->extremes = re->checked_extremes = NULL;
    if (!on)
        return true;
    const size_t n = EXTREMES * (re->n_ropes ? re->n_ropes : 1);
    re->extremes = malloc(n * sizeof *re->extremes);
    re->checked_extremes = malloc(n * sizeof *re->checked_extremes);
    if (!re->extremes || !re->checked_extremes) {
        free(re->extremes);
        free(re->checked_extremes);
        re->extremes = re->checked_extremes = NULL;
        return false;
    }
    for (size_t i = 0; i < re->n_ropes; i++) {
        /* no link seen yet: -inf; no end held: 0, which every magnitude at least equals */
        sk_real *x = &re->extremes[EXTREMES * i];
        x[0] = x[1] = -INFINITY;
        x[2] = x[3] = 0;
        sk_ref_rope_track_extremes(re->ropes[i], re->tension, x);
        for (size_t k = 0; k < EXTREMES; k++)
            re->checked_extremes[EXTREMES * i + k] = x[k];
    }
    return true;
}

static bool reference_rope_extremes(const sk_engine *e, size_t rope, sk_real out[SK_ENGINE_EXTREMES])
{
    const reference_engine *re = (const reference_engine *)e;
    if (!re->extremes)
        return false;
    const sk_real *from = re->diverged[rope] >= 0 ? re->checked_extremes : re->extremes;
    for (size_t k = 0; k < EXTREMES; k++)
        out[k] = from[EXTREMES * rope + k];
    return true;
}

static bool reference_set_rope_extremes(sk_engine *e, size_t rope, int from, int count, const sk_real *x)
{
    reference_engine *re = (reference_engine *)e;
    if (!re->extremes)
        return false;
    for (int j = 0; j < count; j++) {
        const size_t k = EXTREMES * rope + (size_t)(from + j);
        re->extremes[k] = re->checked_extremes[k] = x[j];
    }
    return true;
}

static const sk_engine_vtbl reference_vtbl = {
    .advance = reference_advance,
    .rope_particles = reference_rope_particles,
    .read_rope = reference_read_rope,
    .rope_diagnostics = reference_rope_diagnostics,
    .rope_contacts = reference_rope_contacts,
    .rope_newton = reference_rope_newton,
    .destroy = reference_destroy,
};

static void reference_set_anchor(sk_engine *e, size_t rope, sk_vec3 point)
{
    sk_ref_rope_set_anchor_point(((reference_engine *)e)->ropes[rope], point);
}

static void reference_rope_hold(const sk_engine *e, size_t rope, sk_rope_hold *out, bool *pinned)
{
    const sk_ref_rope *r = ((const reference_engine *)e)->ropes[rope];
    const sk_scenario *s = e->scenario;
    const int g = sk_scenario_find_rope(s, rope, NULL);
    out->link_length = sk_ref_rope_constants(r)->link_length;
    out->anchor = sk_ref_rope_anchor(r);
    out->held = s->groups[g].anchor == SK_ANCHOR_NONE ? -1 : sk_ref_rope_held(r);
    for (int i = 0; pinned && i < sk_ref_rope_count(r); i++)
        pinned[i] = sk_ref_rope_particle(r, i)->w == 0;
}

static const sk_engine_ext reference_ext = {
    .check_frame = reference_check_frame,
    .rope_diverged = reference_rope_diverged,
    .kind = "reference",
    .state_fields = reference_state_fields,
    .export_rope = reference_export_rope,
    .import_rope = reference_import_rope,
    .resume_at = reference_resume_at,
    .keep_start = reference_keep_start,
    .set_anchor = reference_set_anchor,
    .rope_hold = reference_rope_hold,
    .track_extremes = reference_track_extremes,
    .rope_extremes = reference_rope_extremes,
    .set_rope_extremes = reference_set_rope_extremes,
};

sk_engine *sk_reference_engine_create(const sk_scenario *s, const sk_engine_options *opt,
                                      sk_error *err)
{
    (void)opt; /* one thread, no ISA: the options concern the batch engine */
    reference_engine *re = calloc(1, sizeof *re);
    int capacity = 1;
    for (int g = 0; g < s->n_groups; g++)
        capacity = s->groups[g].particles > capacity ? s->groups[g].particles : capacity;
    const size_t n = s->total_ropes > 0 ? s->total_ropes : 1;
    if (re) {
        re->ropes = calloc(n, sizeof *re->ropes);
        re->diverged = malloc(n * sizeof *re->diverged);
        re->tension = malloc((size_t)capacity * sizeof *re->tension);
    }
    if (!re || !re->ropes || !re->diverged || !re->tension) {
        if (re) {
            free(re->ropes);
            free(re->diverged);
            free(re->tension);
        }
        free(re);
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the reference engine", s->source);
        return NULL;
    }
    re->base.vt = &reference_vtbl;
    re->base.ext = &reference_ext;
    re->base.scenario = s;
    re->base.step = 0;
    re->base.isa = "reference";
    re->base.threads = 1;
    re->n_ropes = s->total_ropes;
    re->checked = -1;
    re->resumed = -1;
    for (size_t i = 0; i < re->n_ropes; i++)
        re->diverged[i] = -1;
    for (int g = 0; g < s->n_groups; g++)
        for (size_t r = 0; r < s->groups[g].count; r++) {
            size_t global = s->groups[g].first_rope + r;
            re->ropes[global] = sk_ref_rope_create(s, g, r);
            if (!re->ropes[global]) {
                reference_destroy(&re->base);
                sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for rope %zu", s->source, global);
                return NULL;
            }
        }
    return &re->base;
}
