/* A frame of some ropes in memory as three flat arrays (counts, divergence marks, each rope's reals), and a
 * stand-in engine that reads them: how the ranks of a run split across processes send their ropes' frames to
 * the one that writes the outputs (skein/output.h). A rope's reals are what the frame journal records:
 * diagnostics, positions, velocities, link tensions, verlet's previous positions, a deploying rope's s. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "base/sorted.h"
#include "engine/engine_impl.h"
#include "io/records/rope_record.h"
#include "skein/output.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"
#include "io/records/frame_buffer.h"

/* kinetic, gravity, elastic, anchor force x y z, length, finite (0/1), contacts, iterations */

struct sk_frame_buffer {
    struct sk_engine base; /* the stand-in engine (sk_frame_buffer_engine) */
    const sk_scenario *s;
    size_t *ropes; /* sorted */
    size_t n_ropes;
    const sk_group **group; /* [n_ropes] */
    bool verlet;
    int32_t *counts;
    int64_t *marks;
    size_t *offset; /* [n_ropes + 1]: where each rope's reals start */
    sk_real *reals;
    size_t reals_room;
    sk_rope_state scratch; /* one rope's exported state */
};

static size_t rope_reals(const sk_frame_buffer *f, const sk_group *g, int n)
{
    return sk_rope_record_reals(f->verlet, g->deploys, n);
}

static size_t index_of(const sk_frame_buffer *f, size_t rope) { return sk_sorted_find(f->ropes, f->n_ropes, rope); }

static const sk_frame_buffer *buffer_of(const sk_engine *e) { return (const sk_frame_buffer *)e; }

static const sk_real *rope_data(const sk_engine *e, size_t rope, int *n)
{
    const sk_frame_buffer *f = buffer_of(e);
    const size_t i = index_of(f, rope);
    *n = i < f->n_ropes ? f->counts[i] : 0;
    return i < f->n_ropes ? f->reals + f->offset[i] : NULL;
}

static uint64_t held_advance(sk_engine *e, long steps)
{
    (void)e;
    (void)steps;
    return 0; /* a frame does not move */
}

static int held_particles(const sk_engine *e, size_t rope)
{
    int n;
    rope_data(e, rope, &n);
    return n;
}

static void held_read(const sk_engine *e, size_t rope, sk_real *p, sk_real *v)
{
    int n;
    const sk_real *d = rope_data(e, rope, &n);
    sk_rope_record_read(d, n, p, v);
}

static void held_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    int n;
    const sk_real *d = rope_data(e, rope, &n);
    sk_rope_record_diagnostics(d, n, out, tension);
}

static void held_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations)
{
    int n;
    sk_rope_record_contacts(rope_data(e, rope, &n), contacts, iterations);
}

static long held_diverged(const sk_engine *e, size_t rope)
{
    const sk_frame_buffer *f = buffer_of(e);
    const size_t i = index_of(f, rope);
    return i < f->n_ropes ? (long)f->marks[i] : -1;
}

static void held_destroy(sk_engine *e) { (void)e; }

/* What the frame holds of a rope's state, for the HDF5 output's previous and segment (as the journal's
 * stand-in gives it). */
static void held_export(const sk_engine *e, size_t rope, sk_rope_state *st)
{
    const sk_frame_buffer *f = buffer_of(e);
    const size_t i = index_of(f, rope);
    int n;
    const sk_real *d = rope_data(e, rope, &n);
    const bool held = i < f->n_ropes;
    sk_rope_record_export(d, n, held ? (size_t)f->group[i]->particles : 0, f->verlet, held && f->group[i]->deploys,
                          st);
    st->steps = e->step;
    st->diverged = held_diverged(e, rope);
}

static const sk_engine_vtbl held_vtbl = {.advance = held_advance,
                                         .rope_particles = held_particles,
                                         .read_rope = held_read,
                                         .rope_diagnostics = held_diagnostics,
                                         .rope_contacts = held_contacts,
                                         .destroy = held_destroy};
static const sk_engine_ext held_ext = {.rope_diverged = held_diverged, .export_rope = held_export};

void sk_frame_buffer_free(sk_frame_buffer *f)
{
    if (!f)
        return;
    free(f->ropes);
    free(f->group);
    free(f->counts);
    free(f->marks);
    free(f->offset);
    free(f->reals);
    sk_rope_state_free(&f->scratch);
    free(f);
}

sk_frame_buffer *sk_frame_buffer_create(const sk_scenario *s, const size_t *ropes, size_t n_ropes, sk_error *err)
{
    sk_frame_buffer *f = calloc(1, sizeof *f);
    int capacity = 1;
    for (int g = 0; g < s->n_groups; g++)
        capacity = s->groups[g].particles > capacity ? s->groups[g].particles : capacity;
    const size_t rn = n_ropes ? n_ropes : 1, cap = (size_t)capacity;
    if (f) {
        f->ropes = malloc(rn * sizeof *f->ropes);
        f->group = malloc(rn * sizeof *f->group);
        f->counts = calloc(rn, sizeof *f->counts);
        f->marks = calloc(rn, sizeof *f->marks);
        f->offset = calloc(rn + 1, sizeof *f->offset);
    }
    if (!f || !f->ropes || !f->group || !f->counts || !f->marks || !f->offset ||
        !sk_rope_state_alloc(&f->scratch, cap)) {
        sk_frame_buffer_free(f);
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for a frame's buffer", s->source);
        return NULL;
    }
    for (size_t r = 0; r < n_ropes; r++) {
        const int g = sk_scenario_find_rope(s, ropes[r], NULL);
        SK_ASSERT(g >= 0 && (r == 0 || ropes[r - 1] < ropes[r]));
        f->ropes[r] = ropes[r];
        f->group[r] = &s->groups[g];
    }
    f->n_ropes = n_ropes;
    f->s = s;
    f->verlet = s->integrator == SK_INTEGRATOR_VERLET;
    f->base.vt = &held_vtbl;
    f->base.ext = &held_ext;
    f->base.scenario = s;
    f->base.isa = "frame";
    f->base.threads = 1;
    return f;
}

int32_t *sk_frame_buffer_counts(sk_frame_buffer *f) { return f->counts; }
int64_t *sk_frame_buffer_marks(sk_frame_buffer *f) { return f->marks; }
sk_real *sk_frame_buffer_reals(sk_frame_buffer *f) { return f->reals; }
size_t sk_frame_buffer_n_reals(const sk_frame_buffer *f) { return f->offset[f->n_ropes]; }

sk_status sk_frame_buffer_set_counts(sk_frame_buffer *f, sk_error *err)
{
    for (size_t r = 0; r < f->n_ropes; r++) {
        const sk_group *g = f->group[r];
        if (f->counts[r] < (g->deploys ? g->deploy_initial : g->particles) || f->counts[r] > g->particles)
            return sk_fail(err, SK_ERR_CORRUPT, "%s: a frame's particle count of rope %zu is %d, which its group "
                           "cannot have", f->s->source, f->ropes[r], (int)f->counts[r]);
        f->offset[r + 1] = f->offset[r] + rope_reals(f, g, f->counts[r]);
    }
    const size_t need = f->offset[f->n_ropes];
    if (need > f->reals_room) {
        sk_real *grown = realloc(f->reals, need * sizeof *grown);
        if (!grown)
            return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for a frame's buffer", f->s->source);
        f->reals = grown;
        f->reals_room = need;
    }
    return SK_OK;
}

sk_status sk_frame_buffer_fill(sk_frame_buffer *f, const sk_engine *e, size_t first, sk_error *err)
{
    for (size_t r = 0; r < f->n_ropes; r++) {
        SK_ASSERT(f->ropes[r] >= first);
        f->counts[r] = sk_engine_rope_particles(e, f->ropes[r] - first);
        f->marks[r] = sk_engine_rope_diverged(e, f->ropes[r] - first);
    }
    sk_status rc = sk_frame_buffer_set_counts(f, err);
    for (size_t r = 0; rc == SK_OK && r < f->n_ropes; r++) {
        const size_t rope = f->ropes[r] - first;
        const int n = f->counts[r];
        sk_rope_record_pack(e, rope, n, f->verlet, f->group[r]->deploys, &f->scratch, f->reals + f->offset[r]);
    }
    return rc;
}

const sk_engine *sk_frame_buffer_engine(sk_frame_buffer *f, long step)
{
    f->base.step = step;
    return &f->base;
}
