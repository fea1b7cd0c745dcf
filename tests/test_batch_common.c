/* Helpers for the batch engine's tests (see test_batch_common.h). */
#include "scenario/scenario.h"
#include "test_batch_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int tb_isas(const char **names, int max)
{
    sk_isa_info list[8];
    int n = sk_isa_list(list, 8), k = 0;
    for (int i = 0; i < n && k < max; i++)
        if (list[i].compiled && list[i].usable)
            names[k++] = list[i].name;
#ifdef SKEIN_TEST_SANITIZED
    /* Under the sanitizers the scalar kernels (the same code at one lane, where no pack has padding lanes)
     * are left to the other builds where a vector ISA runs: they took 40 % of the sanitizer build's
     * comparisons. */
    if (k > 1 && strcmp(names[k - 1], "scalar") == 0)
        k--;
#endif
    return k;
}

int tb_load(sk_scenario *s, const char *fmt, ...)
{
    static char text[1 << 16];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sk_error err = {0};
    int rc = sk_scenario_load_string(text, "<test>", NULL, s, &err);
    if (rc)
        fprintf(stderr, "scenario rejected: %s\n", err.message);
    return rc;
}

sk_engine *tb_engine(const sk_scenario *s, const char *engine, const char *isa, int threads)
{
    sk_error err = {0};
    sk_engine_options opt = {.engine = engine, .isa = isa, .threads = threads};
    sk_engine *e = sk_engine_create(s, &opt, &err);
    if (e && sk_equilibrium_start(e, &err)) { /* "initial": {"equilibrium": true}, as the programs start it */
        sk_engine_destroy(e);
        e = NULL;
    }
    if (!e)
        fprintf(stderr, "engine %s/%s: %s\n", engine, isa ? isa : "-", err.message);
    return e;
}

typedef struct rope_buf {
    sk_real *p, *v;
} rope_buf;

static rope_buf read_rope(const sk_engine *e, size_t rope, int n)
{
    rope_buf b = {calloc((size_t)n * 3 + 1, sizeof(sk_real)), calloc((size_t)n * 3 + 1, sizeof(sk_real))};
    sk_engine_read_rope(e, rope, b.p, b.v);
    return b;
}

int tb_same_state(const sk_scenario *s, const sk_engine *a, const sk_engine *b, const char *what)
{
    for (size_t r = 0; r < s->total_ropes; r++) {
        int na = sk_engine_rope_particles(a, r), nb = sk_engine_rope_particles(b, r);
        if (na != nb) {
            fprintf(stderr, "%s: step %ld rope %zu: %d particles against %d\n", what, sk_engine_step(a), r, na, nb);
            return 1;
        }
        rope_buf x = read_rope(a, r, na), y = read_rope(b, r, nb);
        int rc = 0;
        for (int i = 0; i < 3 * na && !rc; i++)
            if (memcmp(&x.p[i], &y.p[i], sizeof(sk_real)) || memcmp(&x.v[i], &y.v[i], sizeof(sk_real))) {
                fprintf(stderr, "%s: step %ld rope %zu particle %d: p %.17g / %.17g, v %.17g / %.17g\n", what,
                        sk_engine_step(a), r, i / 3, (double)x.p[i], (double)y.p[i], (double)x.v[i],
                        (double)y.v[i]);
                rc = 1;
            }
        free(x.p), free(x.v), free(y.p), free(y.v);
        if (rc)
            return rc;
    }
    return 0;
}

void tb_max_deviation(const sk_scenario *s, const sk_engine *a, const sk_engine *b, double *dp, double *dv)
{
    *dp = *dv = 0;
    for (size_t r = 0; r < s->total_ropes; r++) {
        int n = sk_engine_rope_particles(a, r);
        if (n != sk_engine_rope_particles(b, r)) {
            *dp = *dv = -1;
            return;
        }
        rope_buf x = read_rope(a, r, n), y = read_rope(b, r, n);
        for (int i = 0; i < 3 * n; i++) {
            *dp = fmax(*dp, fabs((double)x.p[i] - (double)y.p[i]));
            *dv = fmax(*dv, fabs((double)x.v[i] - (double)y.v[i]));
        }
        free(x.p), free(x.v), free(y.p), free(y.v);
    }
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *c = data;
    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t tb_hash(const sk_scenario *s, const sk_engine *e)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t r = 0; r < s->total_ropes; r++) {
        int n = sk_engine_rope_particles(e, r);
        rope_buf x = read_rope(e, r, n);
        int32_t count = n;
        h = fnv1a(h, &count, sizeof count);
        h = fnv1a(h, x.p, (size_t)n * 3 * sizeof(sk_real));
        h = fnv1a(h, x.v, (size_t)n * 3 * sizeof(sk_real));
        free(x.p), free(x.v);
    }
    return h;
}

/* The state of every rope at one frame, and what BDF2's Newton did for it (sk_engine_rope_newton). */
typedef struct frame {
    int *count;
    rope_buf *ropes;
    int *solves;
    long *unconverged;
} frame;

static frame take_frame(const sk_scenario *s, const sk_engine *e)
{
    frame f = {calloc(s->total_ropes, sizeof(int)), calloc(s->total_ropes, sizeof(rope_buf)),
               calloc(s->total_ropes, sizeof(int)), calloc(s->total_ropes, sizeof(long))};
    for (size_t r = 0; r < s->total_ropes; r++) {
        f.count[r] = sk_engine_rope_particles(e, r);
        f.ropes[r] = read_rope(e, r, f.count[r]);
        sk_engine_rope_newton(e, r, &f.solves[r], &f.unconverged[r]);
    }
    return f;
}

static void free_frame(const sk_scenario *s, frame *f)
{
    for (size_t r = 0; r < s->total_ropes; r++)
        free(f->ropes[r].p), free(f->ropes[r].v);
    free(f->count);
    free(f->ropes);
    free(f->solves);
    free(f->unconverged);
}

static int same_as_frame(const sk_scenario *s, const frame *f, const sk_engine *e, const char *what)
{
    for (size_t r = 0; r < s->total_ropes; r++) {
        int n = sk_engine_rope_particles(e, r);
        if (n != f->count[r]) {
            fprintf(stderr, "%s: step %ld rope %zu: %d particles, the reference %d\n", what, sk_engine_step(e), r, n,
                    f->count[r]);
            return 1;
        }
        int solves;
        long unconverged;
        sk_engine_rope_newton(e, r, &solves, &unconverged);
        if (solves != f->solves[r] || unconverged != f->unconverged[r]) {
            fprintf(stderr, "%s: step %ld rope %zu: %d Newton solves, %ld steps not converged; the reference %d, %ld\n",
                    what, sk_engine_step(e), r, solves, unconverged, f->solves[r], f->unconverged[r]);
            return 1;
        }
        rope_buf x = read_rope(e, r, n);
        int rc = 0;
        for (int i = 0; i < 3 * n && !rc; i++)
            if (memcmp(&x.p[i], &f->ropes[r].p[i], sizeof(sk_real)) ||
                memcmp(&x.v[i], &f->ropes[r].v[i], sizeof(sk_real))) {
                fprintf(stderr, "%s: step %ld rope %zu particle %d: p %.17g, reference %.17g; v %.17g, reference %.17g\n",
                        what, sk_engine_step(e), r, i / 3, (double)x.p[i], (double)f->ropes[r].p[i], (double)x.v[i],
                        (double)f->ropes[r].v[i]);
                rc = 1;
            }
        free(x.p), free(x.v);
        if (rc)
            return rc;
    }
    return 0;
}

int tb_against_reference(const char *json, long steps, long every, tb_stats *stats)
{
    sk_scenario s;
    if (tb_load(&s, "%s", json))
        return 1;
    /* The reference once, every frame kept. */
    long n_frames = steps / every + 1;
    frame *frames = calloc((size_t)n_frames, sizeof *frames);
    sk_engine *ref = tb_engine(&s, "reference", NULL, 0);
    if (!ref || !frames) {
        sk_scenario_free(&s);
        return 1;
    }
    for (long f = 0; f < n_frames; f++) {
        if (f > 0)
            sk_engine_advance(ref, every);
        frames[f] = take_frame(&s, ref);
    }
    sk_engine_destroy(ref);

    /* A scenario whose reference blows up would compare NaNs: it would test nothing. */
    const frame *last = &frames[n_frames - 1];
    tb_stats st = {.min_count = last->count[0], .max_count = last->count[0]};
    for (size_t r = 0; r < s.total_ropes; r++) {
        st.min_count = last->count[r] < st.min_count ? last->count[r] : st.min_count;
        st.max_count = last->count[r] > st.max_count ? last->count[r] : st.max_count;
        for (int i = 0; i < 3 * last->count[r]; i++)
            if (!isfinite(last->ropes[r].p[i]) || !isfinite(last->ropes[r].v[i])) {
                fprintf(stderr, "the reference diverged (rope %zu): the scenario tests nothing\n", r);
                st.min_count = -1;
            }
    }
    if (stats)
        *stats = st;

    const char *isas[4];
    int n_isas = tb_isas(isas, 4);
    int rc = n_isas > 0 && st.min_count >= 0 ? 0 : 1;
    for (int i = 0; i < n_isas && !rc; i++)
        for (int threads = TB_FIRST_THREADS; threads <= 2 && !rc; threads++) {
            sk_engine *bat = tb_engine(&s, "batch", isas[i], threads);
            char what[64];
            snprintf(what, sizeof what, "batch %s, %d thread%s", isas[i], threads, threads > 1 ? "s" : "");
            rc = !bat;
            for (long f = 0; f < n_frames && !rc; f++) {
                if (f > 0)
                    sk_engine_advance(bat, every);
                rc = same_as_frame(&s, &frames[f], bat, what);
            }
            sk_engine_destroy(bat);
        }
    for (long f = 0; f < n_frames; f++)
        free_frame(&s, &frames[f]);
    free(frames);
    sk_scenario_free(&s);
    return rc;
}
