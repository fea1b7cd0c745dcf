/* The reference engine behind sk_engine: one sk_ref_rope per rope, advanced one after another on
 * one thread. It is the oracle the batch engine is checked against, so it stays plain. */
#include <stdlib.h>

#include "engine_impl.h"
#include "skein/reference.h"

typedef struct reference_engine {
    struct sk_engine base;
    sk_ref_rope **ropes; /* by global rope index */
    size_t n_ropes;
} reference_engine;

/* Particle-steps: the particles present after each step, which are the ones it advanced (a particle
 * inserted by deployment is integrated in the step that inserts it). */
static uint64_t reference_advance(sk_engine *e, long steps)
{
    reference_engine *re = (reference_engine *)e;
    uint64_t done = 0;
    for (size_t i = 0; i < re->n_ropes; i++)
        for (long k = 0; k < steps; k++) {
            sk_ref_rope_step(re->ropes[i]);
            done += (uint64_t)sk_ref_rope_count(re->ropes[i]);
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
    free(re);
}

static const sk_engine_vtbl reference_vtbl = {
    reference_advance,
    reference_rope_particles,
    reference_read_rope,
    reference_destroy,
};

sk_engine *sk_reference_engine_create(const sk_scenario *s, const sk_engine_options *opt,
                                      sk_error *err)
{
    (void)opt; /* one thread, no ISA: the options concern the batch engine */
    reference_engine *re = calloc(1, sizeof *re);
    if (re)
        re->ropes = calloc(s->total_ropes > 0 ? s->total_ropes : 1, sizeof *re->ropes);
    if (!re || !re->ropes) {
        free(re);
        sk_fail(err, SK_EXIT_FAILURE, "%s: out of memory for the reference engine", s->source);
        return NULL;
    }
    re->base.vt = &reference_vtbl;
    re->base.scenario = s;
    re->base.step = 0;
    re->base.isa = "reference";
    re->base.threads = 1;
    re->n_ropes = s->total_ropes;
    for (int g = 0; g < s->n_groups; g++)
        for (size_t r = 0; r < s->groups[g].count; r++) {
            size_t global = s->groups[g].first_rope + r;
            re->ropes[global] = sk_ref_rope_create(s, g, r);
            if (!re->ropes[global]) {
                reference_destroy(&re->base);
                sk_fail(err, SK_EXIT_FAILURE, "%s: out of memory for rope %zu", s->source, global);
                return NULL;
            }
        }
    return &re->base;
}
