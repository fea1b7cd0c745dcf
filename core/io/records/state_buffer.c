/* Ropes' full states in chunks, and a stand-in engine that exports them as they arrive: how the ranks of a run
 * split across processes stream one checkpoint to rank 0's writer (skein/checkpoint.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "engine/engine_impl.h"
#include "io/checkpoint/checkpoint.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"

#define INTS 8
#define CHUNK_BYTES ((size_t)4 << 20)

struct sk_state_buffer {
    const sk_scenario *s;
    size_t room, reals_room; /* ropes and reals it has room for */
    size_t first, count;     /* the ropes placed */
    size_t *real_at;         /* [room + 1]: where each placed rope's reals start */
    sk_real *reals;
    int64_t *ints;
};

static int largest_capacity(const sk_scenario *s)
{
    int cap = 1;
    for (int g = 0; g < s->n_groups; g++)
        cap = s->groups[g].particles > cap ? s->groups[g].particles : cap;
    return cap;
}

/* p, v, q, impulse, BDF2's p and v a step before and v two steps before, s, then the extremes (tension,
 * strain, support first, support last) when the engine tracks them: the tail of TAIL reals */
enum { TAIL = 1 + SK_ENGINE_EXTREMES };
static size_t record_reals(int capacity) { return 19 * (size_t)capacity + TAIL; }

size_t sk_state_chunk_ropes(const sk_scenario *s)
{
    const size_t rope = record_reals(largest_capacity(s)) * sizeof(sk_real) + INTS * sizeof(int64_t);
    return CHUNK_BYTES / rope > 0 ? CHUNK_BYTES / rope : 1;
}

void sk_state_buffer_free(sk_state_buffer *b)
{
    if (!b)
        return;
    free(b->real_at);
    free(b->reals);
    free(b->ints);
    free(b);
}

sk_state_buffer *sk_state_buffer_create(const sk_scenario *s, size_t chunk, sk_error *err)
{
    sk_state_buffer *b = calloc(1, sizeof *b);
    const size_t room = chunk ? chunk : 1, reals = room * record_reals(largest_capacity(s));
    if (b) {
        b->real_at = calloc(room + 1, sizeof *b->real_at);
        b->reals = calloc(reals, sizeof *b->reals);
        b->ints = calloc(INTS * room, sizeof *b->ints);
    }
    if (!b || !b->real_at || !b->reals || !b->ints) {
        sk_state_buffer_free(b);
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the ropes' states of a checkpoint", s->source);
        return NULL;
    }
    b->s = s;
    b->room = room;
    b->reals_room = reals;
    return b;
}

void sk_state_buffer_place(sk_state_buffer *b, size_t first, size_t count)
{
    SK_ASSERT(count <= b->room && first + count <= b->s->total_ropes);
    b->first = first;
    b->count = count;
    for (size_t i = 0; i < count; i++) {
        const int g = sk_scenario_find_rope(b->s, first + i, NULL);
        b->real_at[i + 1] = b->real_at[i] + record_reals(b->s->groups[g].particles);
    }
    SK_ASSERT(b->real_at[count] <= b->reals_room);
}

/* Rope i of the placed ones as a rope state (pointers into the buffer). */
static sk_rope_state record(const sk_state_buffer *b, size_t i, int capacity, unsigned fields)
{
    sk_real *r = b->reals + b->real_at[i];
    const size_t vec = 3 * (size_t)capacity;
    return (sk_rope_state){.p = r,
                           .v = fields & SK_STATE_VELOCITY ? r + vec : NULL,
                           .q = fields & SK_STATE_PREVIOUS ? r + 2 * vec : NULL,
                           .impulse = fields & SK_STATE_CONTACTS ? r + 3 * vec : NULL,
                           .prev_p = fields & SK_STATE_HISTORY ? r + 3 * vec + (size_t)capacity : NULL,
                           .prev_v = fields & SK_STATE_HISTORY ? r + 4 * vec + (size_t)capacity : NULL,
                           .prev_v2 = fields & SK_STATE_HISTORY ? r + 5 * vec + (size_t)capacity : NULL};
}

bool sk_state_buffer_fill(sk_state_buffer *b, const sk_engine *e, size_t e_first)
{
    const sk_scenario *mine = sk_engine_scenario(e);
    SK_ASSERT(b->first >= e_first && b->first + b->count <= e_first + mine->total_ropes);
    for (size_t i = 0; i < b->count; i++) {
        const size_t rope = b->first + i - e_first;
        const int g = sk_scenario_find_rope(mine, rope, NULL);
        sk_rope_state st = record(b, i, mine->groups[g].particles, sk_engine_state_fields(e, g));
        if (!sk_engine_export_rope(e, rope, &st))
            return false;
        sk_real *tail = b->reals + b->real_at[i + 1] - TAIL;
        tail[0] = st.s;
        tail[1] = tail[2] = tail[3] = tail[4] = (sk_real)NAN;
        sk_engine_rope_extremes(e, rope, &tail[1], &tail[2]); /* NaN: untracked, or no link yet */
        sk_engine_rope_support_extremes(e, rope, &tail[3], &tail[4]);
        const int64_t ints[INTS] = {st.n,         st.steps,    st.diverged, st.contacts,
                                    st.iterations, st.prev_steps, st.solves, st.unconverged};
        memcpy(b->ints + INTS * i, ints, sizeof ints);
    }
    return true;
}

sk_real *sk_state_buffer_reals(sk_state_buffer *b) { return b->reals; }
int64_t *sk_state_buffer_ints(sk_state_buffer *b) { return b->ints; }
size_t sk_state_buffer_n_reals(const sk_state_buffer *b) { return b->real_at[b->count]; }
size_t sk_state_buffer_n_ints(const sk_state_buffer *b) { return INTS * b->count; }

bool sk_state_buffer_holds(const sk_state_buffer *b, size_t rope)
{
    return rope >= b->first && rope < b->first + b->count;
}

/* ---- the stand-in engine --------------------------------------------------------------------------------- */

struct sk_state_engine {
    struct sk_engine base;
    sk_engine_ext ext;
    const unsigned *fields;
    sk_state_fetch fetch;
    void *ctx;
};

static const sk_state_engine *state_engine_of(const sk_engine *e) { return (const sk_state_engine *)e; }

static void held_export(const sk_engine *e, size_t rope, sk_rope_state *st)
{
    const sk_state_engine *se = state_engine_of(e);
    const sk_state_buffer *b = se->fetch(se->ctx, rope);
    SK_ASSERT(b && sk_state_buffer_holds(b, rope));
    const size_t i = rope - b->first;
    const int g = sk_scenario_find_rope(e->scenario, rope, NULL);
    const size_t cap = (size_t)e->scenario->groups[g].particles;
    const sk_rope_state held = record(b, i, (int)cap, se->fields[g]);
    memcpy(st->p, held.p, 3 * cap * sizeof *st->p);
    if (st->v && held.v)
        memcpy(st->v, held.v, 3 * cap * sizeof *st->v);
    if (st->q && held.q)
        memcpy(st->q, held.q, 3 * cap * sizeof *st->q);
    if (st->impulse && held.impulse)
        memcpy(st->impulse, held.impulse, cap * sizeof *st->impulse);
    if (st->prev_p && st->prev_v && st->prev_v2 && held.prev_p) {
        memcpy(st->prev_p, held.prev_p, 3 * cap * sizeof *st->prev_p);
        memcpy(st->prev_v, held.prev_v, 3 * cap * sizeof *st->prev_v);
        memcpy(st->prev_v2, held.prev_v2, 3 * cap * sizeof *st->prev_v2);
    }
    const int64_t *ints = b->ints + INTS * i;
    st->n = (int)ints[0];
    st->steps = (long)ints[1];
    st->diverged = (long)ints[2];
    st->contacts = (int)ints[3];
    st->iterations = (int)ints[4];
    st->prev_steps = (int)ints[5];
    st->solves = (int)ints[6];
    st->unconverged = (long)ints[7];
    st->s = b->reals[b->real_at[i + 1] - TAIL];
}

/* As the engine that sent the rope gave them: NaN for no link yet, which an engine's own extremes hold as -inf. */
static bool held_extremes(const sk_engine *e, size_t rope, sk_real out[SK_ENGINE_EXTREMES])
{
    const sk_state_engine *se = state_engine_of(e);
    const sk_state_buffer *b = se->fetch(se->ctx, rope);
    SK_ASSERT(b && sk_state_buffer_holds(b, rope));
    const sk_real *x = b->reals + b->real_at[rope - b->first + 1] - (TAIL - 1);
    for (int k = 0; k < SK_ENGINE_EXTREMES; k++)
        out[k] = isnan(x[k]) ? (k < 2 ? -INFINITY : 0) : x[k];
    return true;
}

static unsigned held_fields(const sk_engine *e, int group) { return state_engine_of(e)->fields[group]; }

/* A checkpoint is only written from it: it neither moves nor is read as frames. */
static uint64_t held_advance(sk_engine *e, long steps)
{
    (void)e;
    (void)steps;
    return 0;
}

static int held_particles(const sk_engine *e, size_t rope)
{
    (void)e;
    (void)rope;
    return 0;
}

static void held_read(const sk_engine *e, size_t rope, sk_real *p, sk_real *v)
{
    (void)e;
    (void)rope;
    (void)p;
    (void)v;
}

static void held_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    (void)e;
    (void)rope;
    (void)tension;
    *out = (sk_rope_diagnostics){.finite = true};
}

static void held_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations)
{
    (void)e;
    (void)rope;
    *contacts = 0;
    *iterations = 0;
}

static void held_destroy(sk_engine *e) { (void)e; }

static const sk_engine_vtbl held_vtbl = {.advance = held_advance,
                                         .rope_particles = held_particles,
                                         .read_rope = held_read,
                                         .rope_diagnostics = held_diagnostics,
                                         .rope_contacts = held_contacts,
                                         .destroy = held_destroy};

sk_state_engine *sk_state_engine_create(const sk_scenario *s, const char *kind, const char *isa,
                                        const unsigned *fields, bool extremes, sk_state_fetch fetch, void *ctx,
                                        sk_error *err)
{
    sk_state_engine *se = calloc(1, sizeof *se);
    if (!se) {
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", s->source);
        return NULL;
    }
    se->fields = fields;
    se->fetch = fetch;
    se->ctx = ctx;
    se->ext = (sk_engine_ext){
        .kind = kind, .state_fields = held_fields, .export_rope = held_export, .rope_extremes = held_extremes};
    se->base = (struct sk_engine){
        .vt = &held_vtbl, .scenario = s, .isa = isa, .threads = 1, .ext = &se->ext, .tracking = extremes};
    return se;
}

const sk_engine *sk_state_engine_at(sk_state_engine *se, long step)
{
    se->base.step = step;
    return &se->base;
}

void sk_state_engine_free(sk_state_engine *se) { free(se); }
