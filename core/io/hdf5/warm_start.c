/* Warm starts: every rope of a run put at a frame of an earlier run's HDF5 output (skein/output.h,
 * sk_warm_start). The file may come from anyone: its groups, ropes and extents must be the scenario's before
 * anything is read, every read is sized by the scenario, and every value read is checked before an engine
 * takes it. */
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/checked.h"
#include "io/hdf5/h5_common.h"
#include "io/records/rope_record.h"
#include "skein/output.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"
#include "io/hdf5/hdf5_output.h"

#ifdef SKEIN_REAL_FLOAT
#define H5T_REAL H5T_NATIVE_FLOAT
#else
#define H5T_REAL H5T_NATIVE_DOUBLE
#endif

/* Ropes read at a time: about this many bytes of positions, whatever the batch size. */
#define BLOCK_BYTES ((size_t)1 << 20)

typedef struct warm {
    sk_engine *e;
    const sk_scenario *s; /* the whole scenario, whose ropes the file holds */
    size_t first, count;  /* the engine's ropes: the whole's first .. first + count - 1 (a slice's) */
    sk_error *err;
    hid_t file;
    hsize_t frames; /* frames every dataset holds */
    hsize_t frame;  /* the one taken */
} warm;

/* "<scenario>: initial.from: <file>: <what>" */
static int fail(const warm *w, sk_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(const warm *w, sk_status status, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return sk_fail(w->err, status, "%s: initial.from: %s: %s", w->s->source, w->s->initial_path, what);
}

static int not_skein(const warm *w, const char *why)
{
    return fail(w, SK_ERR_CORRUPT, "not a skein HDF5 output, or damaged (%s)", why);
}

/* The library reports its own words; a reason HDF5 kept for a failed call is dropped (it would be taken as
 * the cause of a later failure). */
static void forget_reason(void)
{
    char why[8];
    sk_h5_failure_reason(why, sizeof why);
}

/* Reads frame w->frame of ropes r0 .. r0 + nb - 1 of dataset loc/name (rank 2 or 4: [frame][rope]..., the
 * dimensions after the rope's those of dims) into out. */
static bool read_frame(const warm *w, hid_t loc, const char *name, hid_t memtype, int rank, const hsize_t *dims,
                       hsize_t r0, hsize_t nb, void *out)
{
    hsize_t start[4] = {w->frame, r0, 0, 0}, count[4] = {1, nb, 0, 0};
    for (int i = 2; i < rank; i++)
        count[i] = dims[i];
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    const bool ok = d >= 0 && sk_h5_read_block(d, memtype, rank, start, count, out) == 0;
    sk_h5_close(&d, H5Dclose);
    forget_reason();
    return ok;
}

/* The root: a skein output of this real type, and the frames it holds (lowered by each group's datasets). */
static int check_root(warm *w)
{
    char *real = sk_h5_get_text(w->file, "real"), *scenario = sk_h5_get_text(w->file, "scenario");
    int64_t steps;
    hsize_t dims[1];
    int rc = 0;
    if (!real || !scenario || !sk_h5_get_scalar(w->file, "steps", H5T_NATIVE_INT64, &steps) ||
        !sk_h5_get_dims(w->file, "step", 1, dims, sizeof(int64_t)))
        rc = not_skein(w, "no scenario, real type or steps");
    else if (strcmp(real, SK_REAL_NAME) != 0)
        rc = fail(w, SK_ERR_MISMATCH, "written by a build of skein with %s reals, this one has %s",
                  sk_h5_printable(real), SK_REAL_NAME);
    w->frames = rc ? 0 : dims[0];
    free(real);
    free(scenario);
    forget_reason();
    return rc;
}

/* Group g's shape and what it stores match the scenario's: every rope, and the state its integrator and
 * deployment need; lowers w->frames to what its datasets hold. */
static int check_group(warm *w, hid_t gid, int gi)
{
    const sk_group *g = &w->s->groups[gi];
    const bool verlet = w->s->integrator == SK_INTEGRATOR_VERLET;
    int64_t first, count, particles;
    if (!sk_h5_get_scalar(gid, "first_rope", H5T_NATIVE_INT64, &first) ||
        !sk_h5_get_scalar(gid, "count", H5T_NATIVE_INT64, &count) ||
        !sk_h5_get_scalar(gid, "particles", H5T_NATIVE_INT64, &particles))
        return not_skein(w, "a group without its first_rope, count or particles");
    if (count != (int64_t)g->count || particles != g->particles || first != (int64_t)g->first_rope)
        return fail(w, SK_ERR_MISMATCH,
                    "groups[%d] has %lld ropes of %lld particles there (from rope %lld), the scenario's %zu of %d "
                    "(from rope %zu): a warm start needs the same ropes",
                    gi, (long long)count, (long long)particles, (long long)first, g->count, g->particles,
                    g->first_rope);
    hsize_t d1[1], d2[2], d4[4];
    if (!sk_h5_get_dims(gid, "ropes", 1, d1, sizeof(uint64_t)))
        return not_skein(w, "a group without its rope index");
    if (d1[0] != g->count)
        return fail(w, SK_ERR_MISMATCH,
                    "groups[%d]: it stores %llu of the group's %zu ropes (written with a selection of ropes): a "
                    "warm start needs every rope",
                    gi, (unsigned long long)d1[0], g->count);
    /* every rope stored, so the index must be the group's ropes in order: it is checked rather than trusted */
    uint64_t *index = sk_alloc_array(g->count, sizeof *index);
    if (!index)
        return sk_fail(w->err, SK_ERR_NO_MEMORY, "%s: out of memory", w->s->initial_path);
    hid_t d = H5Dopen2(gid, "ropes", H5P_DEFAULT);
    bool ok = d >= 0 && (g->count == 0 || H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, index) >= 0);
    for (size_t r = 0; ok && r < g->count; r++)
        ok = index[r] == g->first_rope + r;
    sk_h5_close(&d, H5Dclose);
    free(index);
    forget_reason();
    if (!ok)
        return not_skein(w, "a group's rope index is not its ropes");
    const hsize_t cap = (hsize_t)g->particles, n = g->count;
    const struct {
        const char *name;
        bool needed;
        int rank;
        size_t size;
        const char *what;
    } sets[] = {
        {"position", true, 4, sizeof(sk_real), "positions"},
        {"velocity", true, 4, sizeof(sk_real), "velocities"},
        {"count", true, 2, sizeof(int), "particle counts"},
        {"previous", verlet, 4, sizeof(sk_real), "previous positions, which verlet needs"},
        {"segment", g->deploys, 2, sizeof(sk_real), "anchored segments, which a deploying group needs"},
    };
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        if (!sets[k].needed)
            continue;
        hsize_t *dims = sets[k].rank == 4 ? d4 : d2;
        if (H5Lexists(gid, sets[k].name, H5P_DEFAULT) <= 0) {
            forget_reason();
            return fail(w, SK_ERR_MISMATCH,
                        "groups[%d] has no %s (dataset %s): written by an older skein, or by a run with another "
                        "integrator or deployment",
                        gi, sets[k].what, sets[k].name);
        }
        if (!sk_h5_get_dims(gid, sets[k].name, sets[k].rank, dims, sets[k].size) || dims[1] != n ||
            (sets[k].rank == 4 && (dims[2] != cap || dims[3] != 3))) {
            forget_reason();
            return not_skein(w, "a group's datasets do not have the scenario's shape, or are larger than the file");
        }
        if (dims[0] < w->frames)
            w->frames = dims[0];
    }
    return 0;
}

/* What a warm-started rope takes from the file, one block of a group's ropes at a time. */
typedef struct block {
    size_t rows;
    sk_real *p, *v, *q, *segment; /* [rows][cap][3] (q with verlet), [rows] (deploying) */
    int *count;                   /* [rows] */
    sk_rope_state state;          /* one rope's (cap) */
} block;

static void block_free(block *b)
{
    free(b->p);
    free(b->v);
    free(b->q);
    free(b->segment);
    free(b->count);
    sk_rope_state_free(&b->state);
}

static bool finite3(const sk_real *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return false;
    return true;
}

/* Puts rope j of the block (global rope `rope`) into the engine: the state a fresh rope has at step 0 (its
 * anchored length, no contacts yet, its slots past the particles present) with the frame's particles. */
static int put_rope(warm *w, int gi, const sk_group *g, block *b, size_t j, size_t rope)
{
    const size_t cap = (size_t)g->particles, row = j * cap * 3;
    const int n = b->count[j];
    const bool verlet = w->s->integrator == SK_INTEGRATOR_VERLET;
    sk_rope_state st = b->state;
    sk_engine_export_rope(w->e, rope, &st);
    if (n < 1 || n > g->particles || (!g->deploys && n != g->particles) || (g->deploys && n < g->deploy_initial))
        return fail(w, SK_ERR_MISMATCH,
                    "groups[%d]: rope %zu has %d particles at frame %llu, which the group's ropes cannot have", gi,
                    rope, n, (unsigned long long)w->frame);
    const size_t m = 3 * (size_t)n;
    if (!finite3(b->p + row, m) || !finite3(b->v + row, m) || (verlet && !finite3(b->q + row, m)) ||
        (g->deploys && !isfinite(b->segment[j])))
        return fail(w, SK_ERR_MISMATCH,
                    "groups[%d]: rope %zu has no finite state at frame %llu (written by an engine that keeps none)",
                    gi, rope, (unsigned long long)w->frame);
    memcpy(st.p, b->p + row, m * sizeof(sk_real));
    memcpy(st.v, b->v + row, m * sizeof(sk_real));
    if (verlet)
        memcpy(st.q, b->q + row, m * sizeof(sk_real));
    else /* the start state every other integrator's particle keeps beside its velocity (read by none) */
        for (size_t i = 0; i < m; i++)
            st.q[i] = st.p[i] - st.v[i] * w->s->dt;
    st.n = n;
    if (g->deploys)
        st.s = b->segment[j];
    st.steps = 0;
    st.diverged = -1;
    st.contacts = st.iterations = 0;
    for (size_t i = 0; i < cap; i++)
        st.impulse[i] = 0;
    if (!sk_engine_import_rope(w->e, rope, &st))
        return fail(w, SK_ERR_MISMATCH, "groups[%d]: rope %zu's state at frame %llu does not fit the group", gi, rope,
                    (unsigned long long)w->frame);
    return 0;
}

static int load_group(warm *w, hid_t gid, int gi)
{
    const sk_group *g = &w->s->groups[gi];
    const bool verlet = w->s->integrator == SK_INTEGRATOR_VERLET;
    const size_t cap = (size_t)g->particles, rope_bytes = cap * 3 * sizeof(sk_real);
    block b = {.rows = BLOCK_BYTES / rope_bytes};
    if (b.rows > g->count)
        b.rows = g->count;
    if (b.rows < 1)
        b.rows = 1;
    size_t reals;
    int rc = 0;
    if (!sk_size_mul(b.rows, cap * 3, &reals) || !(b.p = sk_alloc_array(reals, sizeof(sk_real))) ||
        !(b.v = sk_alloc_array(reals, sizeof(sk_real))) ||
        (verlet && !(b.q = sk_alloc_array(reals, sizeof(sk_real)))) ||
        !(b.segment = sk_alloc_array(b.rows, sizeof(sk_real))) || !(b.count = sk_alloc_array(b.rows, sizeof(int))) ||
        !sk_rope_state_alloc(&b.state, cap))
        rc = sk_fail(w->err, SK_ERR_NO_MEMORY, "%s: out of memory", w->s->initial_path);
    const hsize_t vec[4] = {0, 0, cap, 3}, one[2] = {0, 0};
    /* the group's ropes that are the engine's */
    const size_t stop = w->first + w->count; /* one past the engine's last rope, globally */
    const size_t lo = w->first > g->first_rope ? w->first - g->first_rope : 0;
    const size_t end = stop <= g->first_rope ? 0 : stop - g->first_rope < g->count ? stop - g->first_rope : g->count;
    for (size_t r0 = lo; rc == 0 && r0 < end; r0 += b.rows) {
        const size_t nb = end - r0 < b.rows ? end - r0 : b.rows;
        if (!read_frame(w, gid, "position", H5T_REAL, 4, vec, r0, nb, b.p) ||
            !read_frame(w, gid, "velocity", H5T_REAL, 4, vec, r0, nb, b.v) ||
            !read_frame(w, gid, "count", H5T_NATIVE_INT, 2, one, r0, nb, b.count) ||
            (verlet && !read_frame(w, gid, "previous", H5T_REAL, 4, vec, r0, nb, b.q)) ||
            (g->deploys && !read_frame(w, gid, "segment", H5T_REAL, 2, one, r0, nb, b.segment)))
            rc = not_skein(w, "a frame of a group cannot be read");
        for (size_t j = 0; rc == 0 && j < nb; j++)
            rc = put_rope(w, gi, g, &b, j, g->first_rope + r0 + j - w->first);
    }
    block_free(&b);
    return rc;
}

static sk_status warm_start(sk_engine *e, const sk_scenario *s, size_t first, size_t count, sk_error *err);

sk_status sk_warm_start(sk_engine *e, sk_error *err)
{
    const sk_scenario *s = sk_engine_scenario(e);
    return warm_start(e, s, 0, s->total_ropes, err);
}

sk_status sk_warm_start_slice(sk_engine *e, const sk_scenario *whole, size_t first, sk_error *err)
{
    const sk_scenario *mine = sk_engine_scenario(e);
    if (!whole->has_initial)
        return SK_OK;
    if (first > whole->total_ropes || mine->total_ropes > whole->total_ropes - first)
        return sk_fail(err, SK_ERR_INVALID, "%s: initial: ropes %zu to %zu are not the scenario's", whole->source,
                       first, first + mine->total_ropes);
    return warm_start(e, whole, first, mine->total_ropes, err);
}

static sk_status warm_start(sk_engine *e, const sk_scenario *s, size_t first, size_t count, sk_error *err)
{
    if (!s->has_initial)
        return SK_OK;
    /* one line through err; HDF5's stack dumps would only repeat it (and its exit clean-up: see h5_writer.c) */
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    warm w = {.e = e, .s = s, .first = first, .count = count, .err = err, .file = H5I_INVALID_HID};
    struct stat sb;
    if (stat(s->initial_path, &sb) != 0)
        return fail(&w, errno == ENOENT ? SK_ERR_INVALID : SK_ERR_IO, "cannot open: %s", strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return fail(&w, SK_ERR_INVALID, "not a regular file");
    if (H5Fis_hdf5(s->initial_path) <= 0) {
        forget_reason();
        return not_skein(&w, "not an HDF5 file");
    }
    if ((w.file = H5Fopen(s->initial_path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
        forget_reason();
        return not_skein(&w, "HDF5 cannot open it");
    }
    int rc = check_root(&w);
    char name[48];
    if (rc == 0) {
        snprintf(name, sizeof name, "groups/%d", s->n_groups);
        if (H5Lexists(w.file, "groups", H5P_DEFAULT) <= 0)
            rc = not_skein(&w, "no groups");
        else if (H5Lexists(w.file, name, H5P_DEFAULT) > 0)
            rc = fail(&w, SK_ERR_MISMATCH, "it has more groups than the scenario's %d: a warm start needs the same "
                                           "groups", s->n_groups);
        forget_reason();
    }
    hid_t *gids = calloc((size_t)(s->n_groups > 0 ? s->n_groups : 1), sizeof *gids);
    if (rc == 0 && !gids)
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", s->initial_path);
    for (int i = 0; gids && i < s->n_groups; i++)
        gids[i] = H5I_INVALID_HID;
    for (int i = 0; rc == 0 && i < s->n_groups; i++) {
        snprintf(name, sizeof name, "groups/%d", i);
        if (H5Lexists(w.file, name, H5P_DEFAULT) <= 0 || (gids[i] = H5Gopen2(w.file, name, H5P_DEFAULT)) < 0)
            rc = fail(&w, SK_ERR_MISMATCH, "it has %d groups, the scenario %d: a warm start needs the same groups", i,
                      s->n_groups);
        else
            rc = check_group(&w, gids[i], i);
        forget_reason();
    }
    if (rc == 0) {
        const long frames = (long)w.frames, at = s->initial_frame < 0 ? frames + s->initial_frame : s->initial_frame;
        if (frames == 0)
            rc = fail(&w, SK_ERR_INVALID, "it holds no frames");
        else if (at < 0 || at >= frames)
            rc = sk_fail(err, SK_ERR_INVALID,
                         "%s: initial.frame: %ld is out of range: %s holds %ld frames (0 to %ld, or -%ld to -1 from "
                         "the end)",
                         s->source, s->initial_frame, s->initial_path, frames, frames - 1, frames);
        w.frame = (hsize_t)(at < 0 ? 0 : at);
    }
    for (int i = 0; rc == 0 && i < s->n_groups; i++)
        rc = load_group(&w, gids[i], i);
    /* time starts again at 0, from here: a rope diverging later is stepped again from this state, not from its
     * group's shape, to its last sound frame */
    if (rc == 0 && !sk_engine_keep_start(e))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", s->initial_path);
    /* tracked extremes start from the state the run starts from, this one */
    if (rc == 0 && sk_engine_tracks_extremes(e) && !sk_engine_track_extremes(e, true))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", s->initial_path);
    for (int i = 0; gids && i < s->n_groups; i++)
        sk_h5_close(&gids[i], H5Gclose);
    free(gids);
    sk_h5_close(&w.file, H5Fclose);
    forget_reason();
    return rc;
}
