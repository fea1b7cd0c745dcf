/* The engine seam: picks an implementation and forwards to it, answering for what an implementation lacks. */
#include <math.h>
#include <string.h>

#include "base/assert.h"
#include "base/parallel.h"
#include "engine/engine_impl.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"

/* A rope index a caller hands in: below the scenario's rope count. */
#define SK_ASSERT_ROPE(e, rope) SK_ASSERT((rope) < (e)->scenario->total_ropes)

sk_engine *sk_engine_create(const sk_scenario *s, const sk_engine_options *opt, sk_error *err)
{
    SK_ASSERT(s && s->normalized_json); /* a scenario that was loaded, not one being filled in */
    const char *name = opt && opt->engine ? opt->engine : "batch";
    sk_engine *e = NULL;
    if (strcmp(name, "reference") == 0)
        e = sk_reference_engine_create(s, opt, err);
    else if (strcmp(name, "batch") == 0)
        e = sk_batch_engine_create(s, opt, err);
    else
        sk_fail(err, SK_ERR_INVALID, "engine %s: unknown (batch, reference)", name);
    if (e && opt && opt->track_extremes && !sk_engine_track_extremes(e, true)) {
        sk_engine_destroy(e);
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the ropes' extremes", s->source);
        return NULL;
    }
    return e;
}

bool sk_engine_track_extremes(sk_engine *e, bool on)
{
    if (on && e->step != 0)
        return false;
    const bool ok = e->ext && e->ext->track_extremes && e->ext->track_extremes(e, on);
    e->tracking = ok && on;
    return ok;
}

bool sk_engine_tracks_extremes(const sk_engine *e) { return e->tracking; }

/* Extremes first and first + 1 of the rope (where not NULL), where the engine tracks them; -inf, a link's
 * figure before any link was present, reads as NaN (the supports' start at 0). */
static bool get_extremes(const sk_engine *e, size_t rope, int first, sk_real *a, sk_real *b)
{
    SK_ASSERT_ROPE(e, rope);
    sk_real x[SK_ENGINE_EXTREMES];
    if (!e->tracking || !e->ext->rope_extremes(e, rope, x))
        return false;
    sk_real *out[2] = {a, b};
    for (int k = 0; k < 2; k++)
        if (out[k])
            *out[k] = x[first + k] == -INFINITY ? (sk_real)NAN : x[first + k];
    return true;
}

/* Puts extremes first .. first + 1 of the rope back, where the engine tracks them. */
static bool put_extremes(sk_engine *e, size_t rope, int first, const sk_real x[2])
{
    SK_ASSERT_ROPE(e, rope);
    return e->tracking && e->ext->set_rope_extremes && e->ext->set_rope_extremes(e, rope, first, 2, x);
}

bool sk_engine_rope_extremes(const sk_engine *e, size_t rope, sk_real *max_tension, sk_real *max_strain)
{
    return get_extremes(e, rope, 0, max_tension, max_strain);
}

bool sk_engine_set_rope_extremes(sk_engine *e, size_t rope, sk_real max_tension, sk_real max_strain)
{
    /* NaN is how -inf (no link yet) is reported; a NaN is never a maximum */
    const sk_real x[2] = {isnan(max_tension) ? -INFINITY : max_tension, isnan(max_strain) ? -INFINITY : max_strain};
    return put_extremes(e, rope, 0, x);
}

bool sk_engine_rope_support_extremes(const sk_engine *e, size_t rope, sk_real *max_first, sk_real *max_last)
{
    return get_extremes(e, rope, 2, max_first, max_last);
}

bool sk_engine_set_rope_support_extremes(sk_engine *e, size_t rope, sk_real max_first, sk_real max_last)
{
    const sk_real x[2] = {isnan(max_first) ? 0 : max_first, isnan(max_last) ? 0 : max_last};
    return put_extremes(e, rope, 2, x);
}

uint64_t sk_engine_advance(sk_engine *e, long steps)
{
    if (steps <= 0)
        return 0;
    uint64_t done = e->vt->advance(e, steps);
    e->step += steps;
    return done;
}

long sk_engine_step(const sk_engine *e) { return e->step; }

int sk_engine_rope_particles(const sk_engine *e, size_t rope)
{
    SK_ASSERT_ROPE(e, rope);
    return e->vt->rope_particles(e, rope);
}

void sk_engine_read_rope(const sk_engine *e, size_t rope, sk_real *p, sk_real *v)
{
    SK_ASSERT_ROPE(e, rope);
    e->vt->read_rope(e, rope, p, v);
}

size_t sk_engine_check_frame(sk_engine *e)
{
    return e->ext && e->ext->check_frame ? e->ext->check_frame(e) : 0;
}

uint64_t sk_engine_advance_checked(sk_engine *e, long steps, size_t *diverged)
{
    SK_ASSERT(diverged);
    if (steps <= 0 || !e->ext || !e->ext->advance_checked || !e->ext->check_frame) {
        uint64_t done = sk_engine_advance(e, steps);
        *diverged = sk_engine_check_frame(e);
        return done;
    }
    uint64_t done = e->ext->advance_checked(e, steps, diverged);
    e->step += steps;
    return done;
}

long sk_engine_rope_diverged(const sk_engine *e, size_t rope)
{
    SK_ASSERT_ROPE(e, rope);
    return e->ext && e->ext->rope_diverged ? e->ext->rope_diverged(e, rope) : -1;
}

void sk_engine_rope_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    SK_ASSERT_ROPE(e, rope);
    SK_ASSERT(out);
    e->vt->rope_diagnostics(e, rope, out, tension);
}

void sk_engine_rope_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations)
{
    SK_ASSERT_ROPE(e, rope);
    SK_ASSERT(contacts && iterations);
    e->vt->rope_contacts(e, rope, contacts, iterations);
}

void sk_engine_rope_newton(const sk_engine *e, size_t rope, int *solves, long *unconverged)
{
    SK_ASSERT_ROPE(e, rope);
    SK_ASSERT(solves && unconverged);
    *solves = 0;
    *unconverged = 0;
    if (e->vt->rope_newton)
        e->vt->rope_newton(e, rope, solves, unconverged);
}

const char *sk_engine_kind(const sk_engine *e) { return e->ext && e->ext->kind ? e->ext->kind : "none"; }

unsigned sk_engine_state_fields(const sk_engine *e, int group)
{
    SK_ASSERT(group >= 0 && group < e->scenario->n_groups);
    return e->ext && e->ext->state_fields ? e->ext->state_fields(e, group) : 0;
}

bool sk_engine_export_rope(const sk_engine *e, size_t rope, sk_rope_state *st)
{
    SK_ASSERT_ROPE(e, rope);
    SK_ASSERT(st && st->p);
    if (!e->ext || !e->ext->export_rope)
        return false;
    e->ext->export_rope(e, rope, st);
    return true;
}

bool sk_engine_import_rope(sk_engine *e, size_t rope, const sk_rope_state *st)
{
    SK_ASSERT_ROPE(e, rope);
    SK_ASSERT(st);
    return e->ext && e->ext->import_rope && e->ext->import_rope(e, rope, st);
}

bool sk_engine_resume_at(sk_engine *e, long step)
{
    SK_ASSERT(step >= 0);
    if (!e->ext || !e->ext->resume_at || !e->ext->resume_at(e, step))
        return false;
    e->step = step;
    return true;
}

bool sk_engine_keep_start(sk_engine *e)
{
    SK_ASSERT(e->step == 0);
    return e->ext && e->ext->keep_start && e->ext->keep_start(e);
}

const char *sk_engine_isa(const sk_engine *e) { return e->isa; }

int sk_engine_threads(const sk_engine *e) { return e->threads; }

int sk_default_threads(void) { return sk_threads_resolve(0); }

const sk_scenario *sk_engine_scenario(const sk_engine *e) { return e->scenario; }

void sk_engine_destroy(sk_engine *e)
{
    if (e)
        e->vt->destroy(e);
}

bool sk_engine_rope_hold(const sk_engine *e, size_t rope, sk_rope_hold *out, bool *pinned)
{
    SK_ASSERT_ROPE(e, rope);
    if (!e->ext || !e->ext->rope_hold)
        return false;
    e->ext->rope_hold(e, rope, out, pinned);
    return true;
}

sk_status sk_engine_set_anchor(sk_engine *e, size_t rope, sk_vec3 point, sk_error *err)
{
    const sk_scenario *s = e->scenario;
    size_t local;
    const int g = sk_scenario_find_rope(s, rope, &local);
    if (g < 0)
        return sk_fail(err, SK_ERR_INVALID, "%s: rope %zu: out of range (%zu ropes)", s->source, rope,
                       s->total_ropes);
    if (s->groups[g].anchor == SK_ANCHOR_NONE && !s->groups[g].deploys)
        return sk_fail(err, SK_ERR_INVALID, "%s: rope %zu: groups[%d] has no anchor to move", s->source, rope, g);
    if (!isfinite(point.x) || !isfinite(point.y) || !isfinite(point.z))
        return sk_fail(err, SK_ERR_INVALID, "%s: rope %zu: anchor point must be finite", s->source, rope);
    if (!e->ext || !e->ext->set_anchor)
        return sk_fail(err, SK_ERR_INVALID, "%s: the %s engine cannot move anchors", s->source, sk_engine_kind(e));
    e->ext->set_anchor(e, rope, point);
    return SK_OK;
}
