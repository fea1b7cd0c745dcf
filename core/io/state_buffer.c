/* Every rope's full state in two flat arrays, and a stand-in engine that exports it: how the ranks of a run
 * split across processes put one checkpoint together on rank 0 (skein/checkpoint.h). A rope's record is
 * fixed by its group: reals p, v, q [capacity][3], impulse [capacity], s; integers n, steps, diverged,
 * contacts, iterations. */
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "engine/engine_impl.h"
#include "skein/checkpoint.h"

#define INTS 5

struct sk_state_buffer {
    struct sk_engine base; /* the stand-in engine (sk_state_buffer_engine) */
    sk_engine_ext ext;
    const sk_scenario *s;
    size_t first, count;
    size_t *real_at; /* [count + 1] */
    sk_real *reals;
    int64_t *ints;
    unsigned *fields; /* [groups] */
};

static size_t record_reals(const sk_group *g) { return 10 * (size_t)g->particles + 1; }

static sk_rope_state record(const sk_state_buffer *b, size_t i, int capacity, unsigned fields)
{
    sk_real *r = b->reals + b->real_at[i];
    const size_t vec = 3 * (size_t)capacity;
    return (sk_rope_state){.p = r,
                           .v = fields & SK_STATE_VELOCITY ? r + vec : NULL,
                           .q = fields & SK_STATE_PREVIOUS ? r + 2 * vec : NULL,
                           .impulse = fields & SK_STATE_CONTACTS ? r + 3 * vec : NULL};
}

void sk_state_buffer_free(sk_state_buffer *b)
{
    if (!b)
        return;
    free(b->real_at);
    free(b->reals);
    free(b->ints);
    free(b->fields);
    free(b);
}

sk_state_buffer *sk_state_buffer_create(const sk_scenario *s, size_t first, size_t count, sk_error *err)
{
    SK_ASSERT(first + count <= s->total_ropes);
    sk_state_buffer *b = calloc(1, sizeof *b);
    if (b && (b->real_at = malloc((count + 1) * sizeof *b->real_at))) {
        b->real_at[0] = 0;
        for (size_t i = 0; i < count; i++) {
            const int g = sk_scenario_find_rope(s, first + i, NULL);
            b->real_at[i + 1] = b->real_at[i] + record_reals(&s->groups[g]);
        }
        b->reals = calloc(b->real_at[count] ? b->real_at[count] : 1, sizeof *b->reals);
        b->ints = calloc(count ? INTS * count : 1, sizeof *b->ints);
        b->fields = calloc(s->n_groups > 0 ? (size_t)s->n_groups : 1, sizeof *b->fields);
    }
    if (!b || !b->real_at || !b->reals || !b->ints || !b->fields) {
        sk_state_buffer_free(b);
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the ropes' states of a checkpoint", s->source);
        return NULL;
    }
    b->s = s;
    b->first = first;
    b->count = count;
    return b;
}

bool sk_state_buffer_fill(sk_state_buffer *b, const sk_engine *e)
{
    const sk_scenario *mine = sk_engine_scenario(e);
    SK_ASSERT(mine->total_ropes == b->count);
    for (size_t i = 0; i < b->count; i++) {
        const int g = sk_scenario_find_rope(mine, i, NULL);
        sk_rope_state st = record(b, i, mine->groups[g].particles, sk_engine_state_fields(e, g));
        if (!sk_engine_export_rope(e, i, &st))
            return false;
        b->reals[b->real_at[i + 1] - 1] = st.s;
        const int64_t ints[INTS] = {st.n, st.steps, st.diverged, st.contacts, st.iterations};
        memcpy(b->ints + INTS * i, ints, sizeof ints);
    }
    return true;
}

sk_real *sk_state_buffer_reals(sk_state_buffer *b) { return b->reals; }
int64_t *sk_state_buffer_ints(sk_state_buffer *b) { return b->ints; }

size_t sk_state_buffer_real_at(const sk_state_buffer *b, size_t rope)
{
    SK_ASSERT(rope >= b->first && rope <= b->first + b->count);
    return b->real_at[rope - b->first];
}

size_t sk_state_buffer_int_at(const sk_state_buffer *b, size_t rope)
{
    SK_ASSERT(rope >= b->first && rope <= b->first + b->count);
    return INTS * (rope - b->first);
}

static const sk_state_buffer *buffer_of(const sk_engine *e) { return (const sk_state_buffer *)e; }

static void held_export(const sk_engine *e, size_t rope, sk_rope_state *st)
{
    const sk_state_buffer *b = buffer_of(e);
    SK_ASSERT(b->first == 0 && rope < b->count);
    const int g = sk_scenario_find_rope(b->s, rope, NULL);
    const size_t cap = (size_t)b->s->groups[g].particles;
    const sk_rope_state held = record(b, rope, (int)cap, b->fields[g]);
    memcpy(st->p, held.p, 3 * cap * sizeof *st->p);
    if (st->v && held.v)
        memcpy(st->v, held.v, 3 * cap * sizeof *st->v);
    if (st->q && held.q)
        memcpy(st->q, held.q, 3 * cap * sizeof *st->q);
    if (st->impulse && held.impulse)
        memcpy(st->impulse, held.impulse, cap * sizeof *st->impulse);
    const int64_t *ints = b->ints + INTS * rope;
    st->n = (int)ints[0];
    st->steps = (long)ints[1];
    st->diverged = (long)ints[2];
    st->contacts = (int)ints[3];
    st->iterations = (int)ints[4];
    st->s = b->reals[b->real_at[rope + 1] - 1];
}

static unsigned held_fields(const sk_engine *e, int group) { return buffer_of(e)->fields[group]; }

static uint64_t held_advance(sk_engine *e, long steps)
{
    (void)e;
    (void)steps;
    return 0; /* a checkpoint's state does not move */
}

static int held_particles(const sk_engine *e, size_t rope) { return (int)buffer_of(e)->ints[INTS * rope]; }

static void held_read(const sk_engine *e, size_t rope, sk_real *p, sk_real *v)
{
    const sk_state_buffer *b = buffer_of(e);
    const int g = sk_scenario_find_rope(b->s, rope, NULL);
    const sk_rope_state held = record(b, rope, b->s->groups[g].particles, b->fields[g]);
    const size_t n = 3 * (size_t)held_particles(e, rope);
    if (p)
        memcpy(p, held.p, n * sizeof *p);
    if (v && held.v)
        memcpy(v, held.v, n * sizeof *v);
}

static void held_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    (void)e;
    (void)rope;
    (void)tension;
    *out = (sk_rope_diagnostics){.finite = true}; /* a checkpoint is written, never summed up */
}

static void held_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations)
{
    const int64_t *ints = buffer_of(e)->ints + INTS * rope;
    *contacts = (int)ints[3];
    *iterations = (int)ints[4];
}

static void held_destroy(sk_engine *e) { (void)e; }

static const sk_engine_vtbl held_vtbl = {.advance = held_advance,
                                         .rope_particles = held_particles,
                                         .read_rope = held_read,
                                         .rope_diagnostics = held_diagnostics,
                                         .rope_contacts = held_contacts,
                                         .destroy = held_destroy};

const sk_engine *sk_state_buffer_engine(sk_state_buffer *b, long step, const char *kind, const char *isa,
                                        const unsigned *fields)
{
    SK_ASSERT(b->first == 0 && b->count == b->s->total_ropes);
    memcpy(b->fields, fields, (size_t)b->s->n_groups * sizeof *fields);
    b->ext = (sk_engine_ext){.kind = kind, .state_fields = held_fields, .export_rope = held_export};
    b->base = (struct sk_engine){
        .vt = &held_vtbl, .scenario = b->s, .step = step, .isa = isa, .threads = 1, .ext = &b->ext};
    return &b->base;
}
