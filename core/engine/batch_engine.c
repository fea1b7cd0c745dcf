/* The batch engine behind sk_engine: the seam's calls forwarded to sk_batch. */
#include <stdlib.h>

#include "scenario/scenario.h"
#include "engine/engine_impl.h"
#include "batch/batch.h"
#include "engine/engine_state.h"

typedef struct batch_engine {
    struct sk_engine base;
    sk_batch *batch;
} batch_engine;

static sk_batch *batch_of(const sk_engine *e) { return ((const batch_engine *)e)->batch; }

static uint64_t advance(sk_engine *e, long steps) { return sk_batch_advance(batch_of(e), steps); }

static int rope_particles(const sk_engine *e, size_t rope) { return sk_batch_rope_particles(batch_of(e), rope); }

static void read_rope(const sk_engine *e, size_t rope, sk_real *p, sk_real *v)
{
    sk_batch_read_rope(batch_of(e), rope, p, v);
}

static void destroy(sk_engine *e)
{
    sk_batch_destroy(batch_of(e));
    free(e);
}

static size_t check_frame(sk_engine *e) { return sk_batch_check_frame(batch_of(e)); }

static uint64_t advance_checked(sk_engine *e, long steps, size_t *diverged)
{
    return sk_batch_advance_checked(batch_of(e), steps, diverged);
}

static long rope_diverged(const sk_engine *e, size_t rope) { return sk_batch_rope_diverged(batch_of(e), rope); }

static void rope_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    sk_batch_rope_diagnostics(batch_of(e), rope, out, tension);
}

static void rope_newton(const sk_engine *e, size_t rope, int *solves, long *unconverged)
{
    sk_batch_rope_newton(batch_of(e), rope, solves, unconverged);
}

static void rope_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations)
{
    sk_batch_rope_contacts(batch_of(e), rope, contacts, iterations);
}

static unsigned state_fields(const sk_engine *e, int group) { return sk_batch_state_fields(batch_of(e), group); }

static void export_rope(const sk_engine *e, size_t rope, sk_rope_state *st)
{
    sk_batch_export_rope(batch_of(e), rope, st);
}

static bool import_rope(sk_engine *e, size_t rope, const sk_rope_state *st)
{
    return sk_batch_import_rope(batch_of(e), rope, st);
}

static bool resume_at(sk_engine *e, long step) { return sk_batch_resume_at(batch_of(e), step); }

static bool keep_start(sk_engine *e) { return sk_batch_keep_start(batch_of(e)); }

static void set_anchor(sk_engine *e, size_t rope, sk_vec3 point)
{
    sk_batch_set_anchor_point(((batch_engine *)e)->batch, rope, point);
}

static bool track_extremes(sk_engine *e, bool on) { return sk_batch_track_extremes(batch_of(e), on); }

_Static_assert((int)SK_BATCH_EXTREMES == (int)SK_ENGINE_EXTREMES, "the engines' extremes in one order");

static bool rope_extremes(const sk_engine *e, size_t rope, sk_real out[SK_ENGINE_EXTREMES])
{
    return sk_batch_rope_extremes(batch_of(e), rope, out);
}

static bool set_rope_extremes(sk_engine *e, size_t rope, int from, int count, const sk_real *x)
{
    return sk_batch_set_rope_extremes(batch_of(e), rope, from, count, x);
}

static const sk_engine_vtbl batch_vtbl = {
    .advance = advance,
    .rope_particles = rope_particles,
    .read_rope = read_rope,
    .rope_diagnostics = rope_diagnostics,
    .rope_contacts = rope_contacts,
    .rope_newton = rope_newton,
    .destroy = destroy,
};

static const sk_engine_ext batch_ext = {
    .check_frame = check_frame,
    .rope_diverged = rope_diverged,
    .advance_checked = advance_checked,
    .kind = "batch",
    .state_fields = state_fields,
    .export_rope = export_rope,
    .import_rope = import_rope,
    .resume_at = resume_at,
    .keep_start = keep_start,
    .set_anchor = set_anchor,
    .track_extremes = track_extremes,
    .rope_extremes = rope_extremes,
    .set_rope_extremes = set_rope_extremes,
};

sk_engine *sk_batch_engine_create(const sk_scenario *s, const sk_engine_options *opt, sk_error *err)
{
    sk_batch_options bo = {.isa = opt ? opt->isa : NULL, .threads = opt ? opt->threads : 0};
    sk_batch *b = sk_batch_create(s, &bo, err);
    if (!b)
        return NULL;
    batch_engine *e = calloc(1, sizeof *e);
    if (!e) {
        sk_batch_destroy(b);
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the batch engine", s->source);
        return NULL;
    }
    e->batch = b;
    e->base.vt = &batch_vtbl;
    e->base.ext = &batch_ext;
    e->base.scenario = s;
    e->base.isa = sk_batch_isa(b);
    e->base.threads = sk_batch_threads(b);
    return &e->base;
}
