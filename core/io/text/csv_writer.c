/* CSV output written to a temporary beside the target, fsync'd and renamed only on success. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "io/files/temp_file.h"
#include "skein/output.h"
#include "io/text/text_outputs.h"

/* Rows are small and many: a large stdio buffer turns them into few big writes. */
#define CSV_BUFFER_BYTES (1u << 20)

struct sk_csv_writer {
    sk_temp_file out;
    char *buffer;
    sk_real dt;
    size_t *ropes;
    size_t n_ropes;
    sk_real *p, *v; /* one rope's state, grown on demand (deploying ropes gain particles) */
    int capacity;
};

static void writer_free(sk_csv_writer *w)
{
    free(w->buffer);
    free(w->ropes);
    free(w->p);
    free(w->v);
    free(w);
}

static int io_fail(const sk_csv_writer *w, sk_error *err, const char *what, int e)
{
    return sk_temp_file_fail(&w->out, err, what, e);
}

sk_csv_writer *sk_csv_open(const char *path, sk_real dt, const size_t *ropes, size_t n_ropes,
                           sk_error *err)
{
    SK_ASSERT(sk_ropes_sorted_below(ropes, n_ropes, SIZE_MAX));
    sk_csv_writer *w = calloc(1, sizeof *w);
    if (w) {
        w->buffer = malloc(CSV_BUFFER_BYTES);
        w->ropes = malloc((n_ropes ? n_ropes : 1) * sizeof *ropes);
    }
    if (!w || !w->buffer || !w->ropes) {
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        if (w)
            writer_free(w);
        return NULL;
    }
    if (n_ropes)
        memcpy(w->ropes, ropes, n_ropes * sizeof *ropes);
    w->n_ropes = n_ropes;
    w->dt = dt;
    if (sk_temp_file_open(&w->out, path, err) != SK_OK) {
        writer_free(w);
        return NULL;
    }
    setvbuf(w->out.f, w->buffer, _IOFBF, CSV_BUFFER_BYTES);
    if (fputs(SK_CSV_HEADER "\n", w->out.f) == EOF) {
        io_fail(w, err, "write failed", errno);
        sk_csv_abort(w);
        return NULL;
    }
    return w;
}

const char *sk_csv_temp_path(const sk_csv_writer *w) { return w->out.temp; }

sk_status sk_csv_write_rope(sk_csv_writer *w, size_t rope, long step, int n, const sk_real *p,
                            const sk_real *v, sk_error *err)
{
    SK_ASSERT(n >= 0 && (n == 0 || (p && v)));
    const sk_real time = (sk_real)step * w->dt;
    for (int i = 0; i < n; i++) {
        const sk_real *pi = p + 3 * i, *vi = v + 3 * i;
        const int rc = fprintf(w->out.f,
                               "%zu,%ld," SK_REAL_FMT ",%d," SK_REAL_FMT "," SK_REAL_FMT
                               "," SK_REAL_FMT "," SK_REAL_FMT "," SK_REAL_FMT "," SK_REAL_FMT "\n",
                               rope, step, time, i, pi[0], pi[1], pi[2], vi[0], vi[1], vi[2]);
        if (rc < 0)
            return io_fail(w, err, "write failed", errno);
    }
    return 0;
}

sk_status sk_csv_write_frame(sk_csv_writer *w, const sk_engine *e, long step, sk_error *err)
{
    for (size_t k = 0; k < w->n_ropes; k++) {
        const size_t rope = w->ropes[k];
        const int n = sk_engine_rope_particles(e, rope);
        if (n > w->capacity) {
            sk_real *p = realloc(w->p, (size_t)n * 3 * sizeof *p);
            if (p)
                w->p = p;
            sk_real *v = realloc(w->v, (size_t)n * 3 * sizeof *v);
            if (v)
                w->v = v;
            if (!p || !v)
                return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->out.path);
            w->capacity = n;
        }
        sk_engine_read_rope(e, rope, w->p, w->v);
        const int rc = sk_csv_write_rope(w, rope, step, n, w->p, w->v, err);
        if (rc)
            return rc;
    }
    return 0;
}

sk_status sk_csv_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    return sk_csv_write_frame(ctx, e, step, err);
}

sk_status sk_csv_commit(sk_csv_writer *w, sk_error *err)
{
    const sk_status rc = sk_temp_file_commit(&w->out, false, err);
    writer_free(w);
    return rc;
}

sk_status sk_csv_keep_incomplete(sk_csv_writer *w, sk_error *err)
{
    const sk_status rc = sk_temp_file_commit(&w->out, true, err);
    writer_free(w);
    return rc;
}

void sk_csv_abort(sk_csv_writer *w)
{
    if (!w)
        return;
    sk_temp_file_abort(&w->out);
    writer_free(w);
}
