/* Checkpoint files with libhdf5: every rope's state and the run's place, written atomically, read back
 * with every check a resumed run needs (skein/checkpoint.h). */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zlib.h>

#include "base/assert.h"
#include "util/checked.h"
#include "model/bdf2.h"
#include "engine/engine_impl.h"
#include "io/hdf5/h5_common.h"
#include "io/checkpoint/checkpoint.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"
#include "engine/summary.h"
#include "io/text/text_outputs.h"

#ifdef SKEIN_REAL_FLOAT
#define H5T_REAL H5T_NATIVE_FLOAT
#else
#define H5T_REAL H5T_NATIVE_DOUBLE
#endif

#define FORMAT_NAME "skein checkpoint"
/* 2: extremes [count][4], the support forces beside tension and strain; 3: BDF2's velocities two steps before.
 * Version 2 is read too: its BDF2 ropes resume with one step before them (a linear start for one step). */
#define FORMAT_VERSION 3
#define FORMAT_OLDEST 2
/* Ropes per chunk (and per read or write): about this many bytes of positions, so a batch of any size is
 * saved and restored with a few MiB of buffers. */
#define BLOCK_BYTES ((size_t)1 << 20)
/* Reals of a group's start totals in /summary_start. */
#define TOTALS 8

enum {
    SET_N, SET_S, SET_STEPS, SET_DIVERGED, SET_P, SET_V, SET_Q, SET_IMPULSE, SET_CONTACTS, SET_EXTREMES,
    SET_PREV_P, SET_PREV_V, SET_PREV_V2, SET_NEWTON, SET_COUNT
};
static const char *const set_names[SET_COUNT] = {
    "n",        "s",        "steps",    "diverged",          "position",          "velocity", "previous",
    "impulse",  "contacts", "extremes", "history_position", "history_velocity", "history_velocity_2", "newton"};
/* BDF2's Newton per rope (SK_STATE_HISTORY): how many steps before there are (0 to 2), the last step's solves,
 * the steps that did not converge. */
#define NEWTON 3
/* Beside a group's SK_STATE_* fields, which datasets it has: the extremes when the engine tracks them, and
 * BDF2's velocities two steps before unless the file is of version 2. */
#define SETS_EXTREMES (1u << 31)
#define SETS_NO_SECOND_VELOCITY (1u << 30)
/* Each rope's extremes: max tension, max strain, max support at the first and at the last particle. */
#define EXTREMES 4

/* ---- HDF5's reason for a failure --------------------------------------------------------------------- */

/* The remembered reason (sk_h5_failure_reason), "HDF5 gave no reason" where there is none; clears it. */
static void take_reason(char *out, size_t size)
{
    if (sk_h5_failure_reason(out, size) == SK_H5_NO_REASON)
        snprintf(out, size, "HDF5 gave no reason");
}

/* The library reports through sk_error, one line: HDF5's stack dumps off. HDF5 1.10's own clean-up at exit
 * crashes on a file whose close failed (HDFFV-11052): off while it still can be, before any other call. */
static void quiet_hdf5(void)
{
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ---- the seal: the file's length and CRC-32 in its HDF5 user block ----------------------------------- */

/* HDF5 1.10 checksums most of its metadata (latest format) and our datasets carry Fletcher-32, but not all
 * of a file (its global heap, where variable-length strings live, has no checksum, and reading a damaged
 * one crashes the library). So the whole file past the user block is checked before HDF5 reads it. */
#define SEAL_BYTES 512
static const char seal_magic[16] = {'s', 'k', 'e', 'i', 'n', ' ', 'c', 'h', 'e', 'c', 'k', 'p', 'o', 'i', 'n', 't'};

typedef struct seal {
    char magic[16];
    uint32_t version, crc;
    uint64_t length; /* the whole file's */
} seal;

/* CRC-32 of the file's bytes from SEAL_BYTES to its end; errno-style status. */
static int file_crc(int fd, uint64_t length, uint32_t *out)
{
    unsigned char *buf = malloc(BLOCK_BYTES);
    if (!buf)
        return ENOMEM;
    uLong crc = crc32_z(0L, Z_NULL, 0);
    int e = 0;
    for (uint64_t at = SEAL_BYTES; at < length && !e;) {
        const size_t want = length - at < BLOCK_BYTES ? (size_t)(length - at) : BLOCK_BYTES;
        const ssize_t got = pread(fd, buf, want, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            e = got < 0 ? errno : EIO;
        else {
            crc = crc32_z(crc, buf, (size_t)got);
            at += (uint64_t)got;
        }
    }
    free(buf);
    *out = (uint32_t)crc;
    return e;
}

int sk_checkpoint_seal(const char *path)
{
    const int fd = open(path, O_RDWR);
    if (fd < 0)
        return errno;
    struct stat st;
    seal sl = {.version = 1};
    memcpy(sl.magic, seal_magic, sizeof sl.magic);
    int e = fstat(fd, &st) != 0 ? errno : 0;
    if (e == 0 && st.st_size < SEAL_BYTES)
        e = EINVAL;
    if (e == 0) {
        sl.length = (uint64_t)st.st_size;
        e = file_crc(fd, sl.length, &sl.crc);
    }
    if (e == 0 && pwrite(fd, &sl, sizeof sl, 0) != (ssize_t)sizeof sl)
        e = errno ? errno : EIO;
    if (e == 0 && fsync(fd) != 0)
        e = errno;
    close(fd);
    return e;
}

/* Refuses (SK_ERR_CORRUPT) a file without a seal, of another length than its seal says, or whose bytes do
 * not match its checksum. */
static int check_seal(const char *path, sk_error *err)
{
    const int fd = open(path, O_RDONLY);
    if (fd < 0)
        return sk_fail(err, errno == ENOENT ? SK_ERR_INVALID : SK_ERR_IO, "%s: cannot open the checkpoint: %s", path,
                       strerror(errno));
    struct stat st;
    seal sl;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = sk_fail(err, SK_ERR_IO, "%s: cannot read the checkpoint: %s", path, strerror(errno));
    else if (st.st_size < SEAL_BYTES || pread(fd, &sl, sizeof sl, 0) != (ssize_t)sizeof sl ||
             memcmp(sl.magic, seal_magic, sizeof sl.magic) != 0 || sl.version != 1)
        rc = sk_fail(err, SK_ERR_CORRUPT, "%s: not a skein checkpoint, or damaged or cut short (no checkpoint header)",
                     path);
    else if (sl.length != (uint64_t)st.st_size)
        rc = sk_fail(err, SK_ERR_CORRUPT, "%s: the checkpoint is damaged or cut short (%lld bytes where it had %llu)",
                     path, (long long)st.st_size, (unsigned long long)sl.length);
    else {
        uint32_t crc = 0;
        const int e = file_crc(fd, sl.length, &crc);
        if (e)
            rc = sk_fail(err, SK_ERR_IO, "%s: cannot read the checkpoint: %s", path, strerror(e));
        else if (crc != sl.crc)
            rc = sk_fail(err, SK_ERR_CORRUPT, "%s: the checkpoint is damaged (its checksum does not match)", path);
    }
    close(fd);
    return rc;
}

/* ---- writing ----------------------------------------------------------------------------------------- */

static int set_u64(hid_t loc, const char *name, uint64_t v) { return sk_h5_set_attr(loc, name, H5T_NATIVE_UINT64, &v); }

/* A dataset of shape dims (rank <= 3), chunked by `block` rows of dimension 0 and checksummed (Fletcher-32);
 * an empty one is contiguous (a chunk cannot be empty). */
static hid_t make_set(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims, hsize_t block)
{
    hsize_t chunk[3];
    for (int i = 0; i < rank; i++)
        chunk[i] = i == 0 ? (block < dims[0] ? block : dims[0]) : dims[i];
    hid_t space = H5Screate_simple(rank, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE), d = H5I_INVALID_HID;
    bool ok = space >= 0 && dcpl >= 0;
    if (ok && dims[0] > 0)
        ok = H5Pset_chunk(dcpl, rank, chunk) >= 0 && H5Pset_fletcher32(dcpl) >= 0;
    if (ok)
        d = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d < 0)
        sk_h5_failed();
    sk_h5_close(&dcpl, H5Pclose);
    sk_h5_close(&space, H5Sclose);
    return d;
}

/* Rows r0 .. r0 + nb - 1 of dimension 0 of d, every other dimension whole: written from buf, or read into it. */
static int rows_io(hid_t d, hid_t type, hsize_t r0, hsize_t nb, void *buf, bool write)
{
    return write ? sk_h5_write_block(d, type, H5P_DEFAULT, 1, &r0, &nb, buf)
                 : sk_h5_read_block(d, type, 1, &r0, &nb, buf);
}

/* One block of a group's ropes, as the datasets hold them. */
typedef struct rope_block {
    size_t rows;  /* ropes it holds */
    int capacity; /* particles per rope */
    int32_t *n, *contacts;
    int64_t *steps, *diverged;
    sk_real *s, *p, *v, *q, *impulse;
    sk_real *extremes;       /* [rows][EXTREMES] */
    sk_real *prev_p, *prev_v, *prev_v2; /* BDF2's step before, and its velocities two steps before */
    int64_t *newton;         /* [rows][NEWTON] */
} rope_block;

static void block_free(rope_block *b)
{
    free(b->n);
    free(b->contacts);
    free(b->steps);
    free(b->diverged);
    free(b->s);
    free(b->p);
    free(b->v);
    free(b->q);
    free(b->impulse);
    free(b->extremes);
    free(b->prev_p);
    free(b->prev_v);
    free(b->prev_v2);
    free(b->newton);
    *b = (rope_block){0};
}

static bool block_alloc(rope_block *b, size_t rows, int capacity)
{
    const size_t vec = rows * (size_t)capacity * 3;
    *b = (rope_block){.rows = rows, .capacity = capacity};
    b->n = malloc(rows * sizeof *b->n);
    b->contacts = calloc(2 * rows, sizeof *b->contacts);
    b->steps = malloc(rows * sizeof *b->steps);
    b->diverged = malloc(rows * sizeof *b->diverged);
    b->s = malloc(rows * sizeof *b->s);
    b->p = calloc(vec, sizeof *b->p);
    b->v = calloc(vec, sizeof *b->v);
    b->q = calloc(vec, sizeof *b->q);
    b->impulse = calloc(rows * (size_t)capacity, sizeof *b->impulse);
    b->extremes = calloc(EXTREMES * rows, sizeof *b->extremes);
    b->prev_p = calloc(vec, sizeof *b->prev_p);
    b->prev_v = calloc(vec, sizeof *b->prev_v);
    b->prev_v2 = calloc(vec, sizeof *b->prev_v2);
    b->newton = calloc(NEWTON * rows, sizeof *b->newton);
    if (b->n && b->contacts && b->steps && b->diverged && b->s && b->p && b->v && b->q && b->impulse && b->extremes &&
        b->prev_p && b->prev_v && b->prev_v2 && b->newton)
        return true;
    block_free(b);
    return false;
}

/* Rope j of a block seen as a rope state (pointers into the block). */
static sk_rope_state block_state(const rope_block *b, size_t j, unsigned fields)
{
    const size_t vec = (size_t)b->capacity * 3;
    return (sk_rope_state){
        .p = b->p + j * vec,
        .v = fields & SK_STATE_VELOCITY ? b->v + j * vec : NULL,
        .q = fields & SK_STATE_PREVIOUS ? b->q + j * vec : NULL,
        .impulse = fields & SK_STATE_CONTACTS ? b->impulse + j * (size_t)b->capacity : NULL,
        .prev_p = fields & SK_STATE_HISTORY ? b->prev_p + j * vec : NULL,
        .prev_v = fields & SK_STATE_HISTORY ? b->prev_v + j * vec : NULL,
        .prev_v2 = fields & SK_STATE_HISTORY ? b->prev_v2 + j * vec : NULL,
    };
}

static size_t block_rows(const sk_group *g)
{
    const size_t per_rope = (size_t)g->particles * 3 * sizeof(sk_real);
    const size_t rows = BLOCK_BYTES / per_rope;
    return rows < 1 ? 1 : rows > g->count ? g->count : rows;
}

/* The datasets of one group: which exist follows the fields. */
typedef struct group_sets {
    hid_t id[SET_COUNT];
} group_sets;

static group_sets sets_none(void)
{
    group_sets gs;
    for (int k = 0; k < SET_COUNT; k++)
        gs.id[k] = H5I_INVALID_HID;
    return gs;
}

static void sets_close(group_sets *gs)
{
    for (int k = 0; k < SET_COUNT; k++)
        sk_h5_close(&gs->id[k], H5Dclose);
}

static bool set_used(int k, unsigned fields)
{
    if (k == SET_V)
        return fields & SK_STATE_VELOCITY;
    if (k == SET_Q)
        return fields & SK_STATE_PREVIOUS;
    if (k == SET_IMPULSE || k == SET_CONTACTS)
        return fields & SK_STATE_CONTACTS;
    if (k == SET_EXTREMES)
        return fields & SETS_EXTREMES;
    if (k == SET_PREV_V2)
        return (fields & SK_STATE_HISTORY) && !(fields & SETS_NO_SECOND_VELOCITY);
    if (k == SET_PREV_P || k == SET_PREV_V || k == SET_NEWTON)
        return fields & SK_STATE_HISTORY;
    return true;
}

static hid_t set_type(int k)
{
    switch (k) {
    case SET_N:
    case SET_CONTACTS: return H5T_NATIVE_INT32;
    case SET_STEPS:
    case SET_DIVERGED:
    case SET_NEWTON: return H5T_NATIVE_INT64;
    default: return H5T_REAL;
    }
}

/* Buffer of dataset k in a block. */
static void *set_buffer(const rope_block *b, int k)
{
    void *const buffers[SET_COUNT] = {b->n,       b->s,        b->steps,     b->diverged, b->p,
                                      b->v,       b->q,        b->impulse,   b->contacts, b->extremes,
                                      b->prev_p,  b->prev_v,   b->prev_v2,   b->newton};
    return buffers[k];
}

static void set_shape(int k, const sk_group *g, int *rank, hsize_t dims[3])
{
    dims[0] = g->count;
    dims[1] = (hsize_t)g->particles;
    dims[2] = 3;
    *rank = 1;
    if (k == SET_P || k == SET_V || k == SET_Q || k == SET_PREV_P || k == SET_PREV_V || k == SET_PREV_V2)
        *rank = 3;
    else if (k == SET_IMPULSE)
        *rank = 2;
    else if (k == SET_CONTACTS || k == SET_EXTREMES || k == SET_NEWTON) {
        *rank = 2;
        dims[1] = k == SET_EXTREMES ? EXTREMES : k == SET_NEWTON ? NEWTON : 2;
    }
}

/* Opens dataset name of loc, checking its rank and shape. */
static hid_t open_set(hid_t loc, const char *name, int rank, const hsize_t *dims)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hsize_t got[3];
    bool ok = space >= 0 && H5Sget_simple_extent_ndims(space) == rank &&
              H5Sget_simple_extent_dims(space, got, NULL) == rank;
    for (int i = 0; ok && i < rank; i++)
        ok = got[i] == dims[i];
    if (space < 0 || d < 0)
        sk_h5_failed();
    sk_h5_close(&space, H5Sclose);
    if (!ok) {
        if (!sk_h5_has_failure())
            sk_h5_note("%s has the wrong shape", name);
        sk_h5_close(&d, H5Dclose);
    }
    return d;
}

/* Group gid's datasets that `sets` uses, in gs (the others invalid): created with chunks of `rows` ropes, or
 * with rows 0 opened, their shapes checked. False at the first that fails. */
static bool sets_open(hid_t gid, const sk_group *g, unsigned sets, size_t rows, group_sets *gs)
{
    *gs = sets_none();
    for (int k = 0; k < SET_COUNT; k++) {
        if (!set_used(k, sets))
            continue;
        int rank;
        hsize_t dims[3];
        set_shape(k, g, &rank, dims);
        gs->id[k] = rows ? make_set(gid, set_names[k], set_type(k), rank, dims, rows)
                         : open_set(gid, set_names[k], rank, dims);
        if (gs->id[k] < 0)
            return false;
    }
    return true;
}

static int write_group(hid_t groups, const sk_engine *e, int gi)
{
    const sk_group *g = &e->scenario->groups[gi];
    const unsigned fields = sk_engine_state_fields(e, gi);
    const unsigned sets = fields | (sk_engine_tracks_extremes(e) ? SETS_EXTREMES : 0);
    char name[32];
    snprintf(name, sizeof name, "%d", gi);
    hid_t gid = H5Gcreate2(groups, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    group_sets gs = sets_none();
    rope_block b;
    const size_t rows = block_rows(g);
    if (!block_alloc(&b, rows, g->particles)) {
        sk_h5_close(&gid, H5Gclose);
        sk_h5_note("out of memory");
        return -1;
    }
    int rc = gid < 0 ? sk_h5_failed() : 0;
    if (rc == 0)
        rc = sk_h5_set_i64(gid, "count", (int64_t)g->count) || sk_h5_set_i64(gid, "particles", g->particles) ||
                     sk_h5_set_i64(gid, "fields", fields)
                 ? -1
                 : 0;
    if (rc == 0 && !sets_open(gid, g, sets, rows, &gs))
        rc = -1;
    for (size_t r0 = 0; rc == 0 && r0 < g->count; r0 += rows) {
        const size_t nb = g->count - r0 < rows ? g->count - r0 : rows;
        for (size_t j = 0; j < nb; j++) {
            sk_rope_state st = block_state(&b, j, fields);
            if (!sk_engine_export_rope(e, g->first_rope + r0 + j, &st)) {
                sk_h5_note("the %s engine cannot save its ropes", sk_engine_kind(e));
                rc = -1;
                break;
            }
            b.n[j] = st.n;
            b.s[j] = st.s;
            b.steps[j] = st.steps;
            b.diverged[j] = st.diverged;
            b.contacts[2 * j] = st.contacts;
            b.contacts[2 * j + 1] = st.iterations;
            b.newton[NEWTON * j] = st.prev_steps;
            b.newton[NEWTON * j + 1] = st.solves;
            b.newton[NEWTON * j + 2] = st.unconverged;
            if (sets & SETS_EXTREMES) {
                sk_real *x = &b.extremes[EXTREMES * j];
                sk_engine_rope_extremes(e, g->first_rope + r0 + j, &x[0], &x[1]);
                sk_engine_rope_support_extremes(e, g->first_rope + r0 + j, &x[2], &x[3]);
            }
        }
        for (int k = 0; rc == 0 && k < SET_COUNT; k++)
            if (set_used(k, sets))
                rc = rows_io(gs.id[k], set_type(k), r0, nb, set_buffer(&b, k), true);
    }
    block_free(&b);
    sets_close(&gs);
    sk_h5_close(&gid, H5Gclose);
    return rc;
}

static int write_contents(hid_t file, const sk_engine *e, const sk_checkpoint_info *info)
{
    const sk_scenario *s = e->scenario;
    if (sk_h5_set_text(file, "format", FORMAT_NAME) || sk_h5_set_i64(file, "version", FORMAT_VERSION) ||
        sk_h5_set_text(file, "real", SK_REAL_NAME) || sk_h5_set_text(file, "engine", sk_engine_kind(e)) ||
        sk_h5_set_text(file, "isa", sk_engine_isa(e)) || sk_h5_set_text(file, "scenario", s->normalized_json) ||
        sk_h5_set_text(file, "source", s->source) || sk_h5_set_i64(file, "step", sk_engine_step(e)) ||
        sk_h5_set_i64(file, "steps", info->steps) || sk_h5_set_i64(file, "every", info->every) ||
        sk_h5_set_i64(file, "checkpoint_every", info->checkpoint_every) || sk_h5_set_text(file, "csv", info->csv) ||
        sk_h5_set_text(file, "h5", info->h5) || sk_h5_set_text(file, "csv_temp", info->csv_temp) ||
        sk_h5_set_text(file, "h5_temp", info->h5_temp) || sk_h5_set_text(file, "vtk", info->vtk) ||
        sk_h5_set_i64(file, "vtk_cells", info->vtk_cells) || sk_h5_set_text(file, "vtk_temp", info->vtk_temp) ||
        sk_h5_set_text(file, "results", info->results) || sk_h5_set_text(file, "results_temp", info->results_temp) ||
        set_u64(file, "journal_id", info->journal_id) ||
        set_u64(file, "journal_bytes", info->journal_bytes) ||
        sk_h5_set_i64(file, "journal_frames", info->journal_frames))
        return -1;

    uint64_t *ropes = malloc((info->n_ropes ? info->n_ropes : 1) * sizeof *ropes);
    double *totals = calloc((size_t)(s->n_groups > 0 ? s->n_groups : 1) * TOTALS, sizeof *totals);
    if (!ropes || !totals) {
        free(ropes);
        free(totals);
        sk_h5_note("out of memory");
        return -1;
    }
    for (size_t i = 0; i < info->n_ropes; i++)
        ropes[i] = info->ropes[i];
    for (int g = 0; info->start && g < s->n_groups; g++) {
        const sk_group_totals *t = &info->start[g];
        const double row[TOTALS] = {(double)t->ropes, (double)t->particles, (double)t->diverged, t->kinetic,
                                    t->gravity,       t->elastic,           t->has_links ? 1 : 0, t->max_tension};
        memcpy(totals + (size_t)g * TOTALS, row, sizeof row);
    }
    const hsize_t rdims[1] = {info->n_ropes}, tdims[2] = {(hsize_t)s->n_groups, TOTALS};
    hid_t d = make_set(file, "ropes", H5T_NATIVE_UINT64, 1, rdims, 1 << 16);
    int rc = d < 0 ? -1 : rows_io(d, H5T_NATIVE_UINT64, 0, info->n_ropes, ropes, true);
    sk_h5_close(&d, H5Dclose);
    if (rc == 0) {
        d = make_set(file, "summary_start", H5T_NATIVE_DOUBLE, 2, tdims, tdims[0] ? tdims[0] : 1);
        rc = d < 0 ? -1 : rows_io(d, H5T_NATIVE_DOUBLE, 0, tdims[0], totals, true);
        sk_h5_close(&d, H5Dclose);
    }
    free(ropes);
    free(totals);
    hid_t groups = rc == 0 ? H5Gcreate2(file, "groups", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : H5I_INVALID_HID;
    if (rc == 0 && groups < 0)
        rc = sk_h5_failed();
    for (int g = 0; rc == 0 && g < s->n_groups; g++)
        rc = write_group(groups, e, g);
    sk_h5_close(&groups, H5Gclose);
    return rc;
}

/* The directory holding path, malloc'd ("." for a bare name). */
static char *directory_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    return slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
}

/* About how many bytes the checkpoint takes (a little more rather than less): the ropes' data, the scenario,
 * the ropes written and HDF5's own metadata. */
static uint64_t estimated_bytes(const sk_engine *e, const sk_checkpoint_info *info)
{
    const sk_scenario *s = e->scenario;
    uint64_t bytes = ((uint64_t)1 << 20) + (s->normalized_json ? strlen(s->normalized_json) : 0) +
                     8 * (uint64_t)info->n_ropes + 8 * TOTALS * (uint64_t)s->n_groups;
    for (int g = 0; g < s->n_groups; g++) {
        const unsigned fields = sk_engine_state_fields(e, g);
        const uint64_t cap = (uint64_t)s->groups[g].particles, vec = cap * 3 * sizeof(sk_real);
        uint64_t rope = 4 + sizeof(sk_real) + 16 + vec * (1 + !!(fields & SK_STATE_VELOCITY) + !!(fields & SK_STATE_PREVIOUS));
        if (fields & SK_STATE_CONTACTS)
            rope += cap * sizeof(sk_real) + 8;
        if (fields & SK_STATE_HISTORY)
            rope += 3 * vec + 8 * NEWTON;
        bytes += rope * s->groups[g].count + 9 * 256 * (s->groups[g].count / block_rows(&s->groups[g]) + 1);
    }
    return bytes + bytes / 20;
}

/* Whether the checkpoint fits: the file system's free space and the process's file size limit, checked
 * before HDF5 writes anything (HDF5 1.10 leaks its buffers when a write fails while a file closes, and a
 * full disk found early is a clearer message). 0 or an errno value; need and free in *need, *avail. */
static int room_for(const char *path, uint64_t need, uint64_t *avail)
{
    struct rlimit rl;
    *avail = UINT64_MAX;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && need > (uint64_t)rl.rlim_cur) {
        *avail = (uint64_t)rl.rlim_cur;
        return EFBIG;
    }
    char *dir = directory_of(path);
    struct statvfs v;
    const bool known = dir && statvfs(dir, &v) == 0;
    free(dir);
    if (known) {
        *avail = (uint64_t)v.f_bavail * (uint64_t)v.f_frsize;
        if (need > *avail)
            return ENOSPC;
    }
    return 0;
}

/* fsync of the directory holding path, so that a rename in it is durable. */
static int sync_directory(const char *name)
{
    const int fd = open(name, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return errno;
    int e = fsync(fd) != 0 ? errno : 0;
    close(fd);
    /* some file systems cannot sync a directory; a rename there is as durable as they make it */
    return e == EINVAL || e == EROFS ? 0 : e;
}

static int sync_directory_of(const char *path)
{
    char *dir = directory_of(path);
    if (!dir)
        return ENOMEM;
    const int e = sync_directory(dir);
    free(dir);
    return e;
}

/* The temporary a run's checkpoints at path are written through, malloc'd: PATH.tmp. and six letters and
 * digits from the run's journal id, so that it is the run's own and a resumed run knows it (its checkpoint
 * records the id) without looking at any other file. */
static char *temp_name(const char *path, uint64_t id)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const size_t len = strlen(path);
    char *temp = malloc(len + sizeof ".tmp.XXXXXX");
    if (!temp)
        return NULL;
    memcpy(temp, path, len);
    memcpy(temp + len, ".tmp.", 5);
    uint64_t h = id * 0x9e3779b97f4a7c15ull ^ 0x5eed;
    for (int i = 0; i < 6; i++, h /= 62)
        temp[len + 5 + i] = digits[h % 62];
    temp[len + 11] = '\0';
    return temp;
}

sk_status sk_checkpoint_write(const char *path, const sk_engine *e, const sk_checkpoint_info *info, sk_error *err)
{
    quiet_hdf5();
    uint64_t avail;
    const uint64_t need = estimated_bytes(e, info);
    const int room = room_for(path, need, &avail);
    if (room)
        return sk_fail(err, SK_ERR_IO, "%s: cannot write the checkpoint: %s (it needs about %.1f MB, %.1f MB %s)",
                       path, strerror(room), (double)need / 1e6, (double)avail / 1e6,
                       room == EFBIG ? "is the file size limit" : "are free");
    char *temp = temp_name(path, info->journal_id);
    if (!temp)
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the checkpoint", path);
    /* Created, never opened through what is there: a file left by this run's own killed write (the name is
     * this run's) is removed first; a link planted meanwhile makes the create fail rather than be followed. */
    int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST && unlink(temp) == 0)
        fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        const int e0 = errno;
        free(temp);
        return sk_fail(err, SK_ERR_IO, "%s: cannot write the checkpoint: %s", path, strerror(e0));
    }
    close(fd);
    int rc = 0;

    /* The latest format: its metadata carries checksums. A user block holds the seal. */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), fcpl = H5Pcreate(H5P_FILE_CREATE), file = H5I_INVALID_HID;
    if (fapl >= 0 && fcpl >= 0 && H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST) >= 0 &&
        H5Pset_userblock(fcpl, SEAL_BYTES) >= 0)
        file = H5Fcreate(temp, H5F_ACC_TRUNC, fcpl, fapl);
    sk_h5_close(&fapl, H5Pclose);
    sk_h5_close(&fcpl, H5Pclose);
    rc = file < 0 ? sk_h5_failed() : write_contents(file, e, info);
    if (file >= 0 && H5Fclose(file) < 0 && rc == 0)
        rc = sk_h5_failed();
    char why[256] = "";
    if (rc)
        take_reason(why, sizeof why);
    int sys = 0;
    if (rc == 0 && (sys = sk_checkpoint_seal(temp)) != 0) /* writes the seal and syncs the file */
        snprintf(why, sizeof why, "%s", strerror(sys));
    else if (rc == 0 && rename(temp, path) != 0)
        snprintf(why, sizeof why, "cannot rename it into place: %s", strerror(sys = errno));
    if (rc || sys) {
        unlink(temp);
        free(temp);
        return sk_fail(err, SK_ERR_IO, "%s: cannot write the checkpoint: %s", path, why);
    }
    free(temp);
    if ((sys = sync_directory_of(path)) != 0)
        return sk_fail(err, SK_ERR_IO, "%s: cannot sync the directory of the checkpoint: %s", path,
                       strerror(sys));
    return 0;
}

/* ---- reading ----------------------------------------------------------------------------------------- */

struct sk_checkpoint {
    char *path;
    hid_t file;
    const sk_scenario *scenario;
    sk_scenario recorded; /* opened without a scenario: the one it recorded, loaded (scenario points here) */
    bool loaded;
    sk_checkpoint_info info;
    char *csv, *h5, *engine, *scenario_text, *source, *csv_temp, *h5_temp, *checkpoint_temp;
    char *vtk, *vtk_temp, *results, *results_temp;
    size_t *ropes;
    sk_group_totals *start;
    int64_t version; /* the file's format version */
};

static int refuse(const sk_checkpoint *c, sk_error *err, const char *what)
{
    return sk_fail(err, SK_ERR_CORRUPT, "%s: %s", c->path, what);
}

/* HDF5 found the file damaged: its reason, for the one line. */
static int damaged(const sk_checkpoint *c, sk_error *err, const char *what)
{
    char why[256];
    take_reason(why, sizeof why);
    return sk_fail(err, SK_ERR_CORRUPT, "%s: the checkpoint is damaged or cut short (%s: %s)", c->path, what, why);
}

/* Attributes as the file holds them (io/hdf5/h5_common.h): missing, of another type or holding more than one
 * value, they are not read. */
static char *get_text(hid_t loc, const char *name) { return sk_h5_get_text(loc, name); }

static bool get_i64(hid_t loc, const char *name, int64_t *out)
{
    return sk_h5_get_scalar(loc, name, H5T_NATIVE_INT64, out);
}

static bool get_u64(hid_t loc, const char *name, uint64_t *out)
{
    return sk_h5_get_scalar(loc, name, H5T_NATIVE_UINT64, out);
}

void sk_checkpoint_close(sk_checkpoint *c)
{
    if (!c)
        return;
    sk_h5_close(&c->file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
    free(c->path);
    free(c->csv);
    free(c->h5);
    free(c->csv_temp);
    free(c->checkpoint_temp);
    free(c->h5_temp);
    free(c->vtk);
    free(c->vtk_temp);
    free(c->results);
    free(c->results_temp);
    free(c->engine);
    free(c->scenario_text);
    free(c->source);
    free(c->ropes);
    free(c->start);
    if (c->loaded)
        sk_scenario_free(&c->recorded);
    free(c);
}

/* An attribute later skeins added: "" where the file lacks it; NULL when it is there and cannot be read. */
static char *optional_text(hid_t loc, const char *name)
{
    return H5Aexists(loc, name) > 0 ? get_text(loc, name) : strdup("");
}

/* Whether x is a whole number in [0, most]: false for NaN. */
static bool whole_in(double x, double most) { return x >= 0 && x <= most && x == floor(x); }

/* Whether temp is a temporary of output (OUTPUT.tmp. and six letters or digits, what mkstemp makes), or for
 * a relative output one recorded absolute (DIR/OUTPUT.tmp.XXXXXX, DIR the run's working directory, so that a
 * run resumed from elsewhere finds it): a checkpoint made on purpose must not name another file for a resumed
 * run to remove. "" (none) fits. */
static bool temp_of(const char *temp, const char *output)
{
    const size_t n = strlen(output);
    if (!temp[0])
        return true;
    const size_t t = strlen(temp);
    if (output[0] != '/' && temp[0] == '/' && t > n + 12 && temp[t - n - 12] == '/')
        temp += t - n - 11; /* the part after DIR/ */
    if (!n || strlen(temp) != n + 11 || strncmp(temp, output, n) != 0 || strncmp(temp + n, ".tmp.", 5) != 0)
        return false;
    for (const char *p = temp + n + 5; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return false;
    return true;
}

/* The run's place: attributes, the ropes written, the summary's start. */
static int read_meta(sk_checkpoint *c, sk_error *err)
{
    const sk_scenario *s = c->scenario;
    int64_t step, steps, every, k, frames;
    uint64_t id, bytes;
    c->csv = get_text(c->file, "csv");
    c->h5 = get_text(c->file, "h5");
    if (!c->csv || !c->h5 || !get_i64(c->file, "step", &step) || !get_i64(c->file, "steps", &steps) ||
        !get_i64(c->file, "every", &every) || !get_i64(c->file, "checkpoint_every", &k) ||
        !get_u64(c->file, "journal_id", &id) || !get_u64(c->file, "journal_bytes", &bytes) ||
        !get_i64(c->file, "journal_frames", &frames))
        return damaged(c, err, "its attributes");
    /* The outputs' names go into messages and, for --resume alone, into the run: no control characters (a
     * path that had them no longer matches, and the run is refused as another's). */
    sk_h5_printable(c->csv);
    sk_h5_printable(c->h5);
    /* The journal holds the frames up to the checkpoint's, step 0 and every `every` steps: no more (a count
     * is only a number in the file, and the journal's reader sizes its index of frames by it). */
    if (step < 0 || steps < step || every < 1 || k < 1 || frames < 0 || frames > step / every + 1)
        return refuse(c, err, "the checkpoint is damaged (its step, plan or journal make no sense)");
    /* the outputs' temporaries, the VTK directory and the results table (optional attributes: none when absent) */
    c->csv_temp = optional_text(c->file, "csv_temp");
    c->h5_temp = optional_text(c->file, "h5_temp");
    c->vtk = optional_text(c->file, "vtk");
    c->vtk_temp = optional_text(c->file, "vtk_temp");
    c->results = optional_text(c->file, "results");
    c->results_temp = optional_text(c->file, "results_temp");
    int64_t vtk_cells = SK_VTK_LINKS;
    if (H5Aexists(c->file, "vtk_cells") > 0 && !get_i64(c->file, "vtk_cells", &vtk_cells))
        return damaged(c, err, "its attributes");
    c->checkpoint_temp = temp_name(c->path, id);
    if (!c->csv_temp || !c->h5_temp || !c->vtk || !c->vtk_temp || !c->results || !c->results_temp ||
        !c->checkpoint_temp)
        return damaged(c, err, "its attributes");
    sk_h5_printable(c->vtk);
    sk_h5_printable(c->results);
    if (vtk_cells != SK_VTK_LINKS && vtk_cells != SK_VTK_POLYLINES)
        return refuse(c, err, "the checkpoint is damaged (its vtk_cells is no layout)");
    /* the VTK writer names its temporary after the directory without its trailing slashes */
    char *vtk_dir = strdup(c->vtk);
    if (!vtk_dir)
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", c->path);
    sk_vtk_strip_slashes(vtk_dir);
    const bool temps_fit = temp_of(c->csv_temp, c->csv) && temp_of(c->h5_temp, c->h5) &&
                           temp_of(c->vtk_temp, vtk_dir) && temp_of(c->results_temp, c->results);
    free(vtk_dir);
    if (!temps_fit)
        return refuse(c, err, "the checkpoint is damaged (it names a temporary that is not its output's)");
    c->info = (sk_checkpoint_info){.step = step, .steps = steps, .every = every, .checkpoint_every = k,
                                   .csv = c->csv[0] ? c->csv : NULL, .h5 = c->h5[0] ? c->h5 : NULL,
                                   .csv_temp = c->csv_temp[0] ? c->csv_temp : NULL,
                                   .h5_temp = c->h5_temp[0] ? c->h5_temp : NULL,
                                   .vtk = c->vtk[0] ? c->vtk : NULL, .vtk_cells = (int)vtk_cells,
                                   .vtk_temp = c->vtk_temp[0] ? c->vtk_temp : NULL,
                                   .results = c->results[0] ? c->results : NULL,
                                   .results_temp = c->results_temp[0] ? c->results_temp : NULL,
                                   .checkpoint_temp = c->checkpoint_temp,
                                   .engine = c->engine, .scenario = c->scenario_text, .source = c->source,
                                   .journal_id = id, .journal_bytes = bytes, .journal_frames = frames};

    hid_t d = H5Dopen2(c->file, "ropes", H5P_DEFAULT), space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hsize_t n = 0;
    bool ok = space >= 0 && H5Sget_simple_extent_ndims(space) == 1 && H5Sget_simple_extent_dims(space, &n, NULL) == 1 &&
              n <= s->total_ropes;
    if (!ok)
        sk_h5_failed();
    sk_h5_close(&space, H5Sclose);
    uint64_t *ropes = ok ? sk_alloc_array(n, sizeof *ropes) : NULL;
    c->ropes = ok ? sk_alloc_array(n, sizeof *c->ropes) : NULL;
    if (ok && (!ropes || !c->ropes)) {
        free(ropes);
        sk_h5_close(&d, H5Dclose);
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", c->path);
    }
    ok = ok && rows_io(d, H5T_NATIVE_UINT64, 0, n, ropes, false) == 0;
    sk_h5_close(&d, H5Dclose);
    for (hsize_t i = 0; ok && i < n; i++) {
        ok = ropes[i] < s->total_ropes && (i == 0 || ropes[i] > ropes[i - 1]);
        c->ropes[i] = (size_t)ropes[i];
    }
    free(ropes);
    if (!ok)
        return damaged(c, err, "its list of ropes");
    c->info.ropes = c->ropes;
    c->info.n_ropes = (size_t)n;

    const hsize_t tdims[2] = {(hsize_t)s->n_groups, TOTALS};
    double *totals = malloc((size_t)(s->n_groups > 0 ? s->n_groups : 1) * TOTALS * sizeof *totals);
    c->start = calloc((size_t)(s->n_groups > 0 ? s->n_groups : 1), sizeof *c->start);
    if (!totals || !c->start) {
        free(totals);
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", c->path);
    }
    d = open_set(c->file, "summary_start", 2, tdims);
    ok = d >= 0 && rows_io(d, H5T_NATIVE_DOUBLE, 0, tdims[0], totals, false) == 0;
    sk_h5_close(&d, H5Dclose);
    bool fit = ok;
    for (int g = 0; fit && g < s->n_groups; g++) {
        const double *t = totals + (size_t)g * TOTALS;
        const sk_group *sg = &s->groups[g];
        /* the counts are whole numbers the group can have, checked before they become integers */
        fit = whole_in(t[0], (double)sg->count) && whole_in(t[1], (double)sg->count * sg->particles) &&
              whole_in(t[2], (double)sg->count) && (t[6] == 0 || t[6] == 1);
        if (fit)
            c->start[g] = (sk_group_totals){.ropes = (size_t)t[0], .particles = (size_t)t[1], .diverged = (size_t)t[2],
                                            .kinetic = t[3], .gravity = t[4], .elastic = t[5], .has_links = t[6] != 0,
                                            .max_tension = t[7]};
    }
    free(totals);
    if (!ok)
        return damaged(c, err, "the summary's start");
    if (!fit)
        return refuse(c, err, "the checkpoint is damaged (the summary's start counts more than the scenario holds)");
    c->info.start = c->start;
    return 0;
}

sk_checkpoint *sk_checkpoint_open(const char *path, const sk_scenario *s, sk_error *err)
{
    quiet_hdf5();
    sk_checkpoint *c = calloc(1, sizeof *c);
    if (!c || !(c->path = strdup(path))) {
        free(c);
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        return NULL;
    }
    c->file = H5I_INVALID_HID;
    c->scenario = s;
    int rc = 0;
    char *text = NULL;
    if ((rc = check_seal(path, err)))
        goto done;
    if ((c->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
        char why[256];
        take_reason(why, sizeof why);
        rc = sk_fail(err, SK_ERR_CORRUPT, "%s: not a skein checkpoint, or damaged or cut short (%s)", path, why);
        goto done;
    }
    int64_t version = 0;
    text = get_text(c->file, "format");
    if (!text || strcmp(text, FORMAT_NAME) != 0) {
        rc = refuse(c, err, "not a skein checkpoint (no format attribute \"" FORMAT_NAME "\")");
        goto done;
    }
    if (!get_i64(c->file, "version", &version) || version < FORMAT_OLDEST || version > FORMAT_VERSION) {
        rc = sk_fail(err, SK_ERR_MISMATCH, "%s: checkpoint format version %lld; this skein reads versions %d to %d",
                     path, (long long)version, FORMAT_OLDEST, FORMAT_VERSION);
        goto done;
    }
    c->version = version;
    free(text);
    if (!(text = get_text(c->file, "real")) || strcmp(text, SK_REAL_NAME) != 0) {
        rc = sk_fail(err, SK_ERR_MISMATCH, "%s: written by a skein that computes in %s; this one computes in %s", path,
                     text ? sk_h5_printable(text) : "an unknown real type", SK_REAL_NAME);
        goto done;
    }
    free(text);
    text = NULL;
    c->scenario_text = get_text(c->file, "scenario");
    c->source = get_text(c->file, "source");
    if (!c->scenario_text || !c->source) {
        rc = refuse(c, err, "the checkpoint is damaged (it does not record its scenario)");
        goto done;
    }
    sk_h5_printable(c->source); /* messages name it */
    if (!s) {
        /* No scenario given: the one it recorded, through the loader's checks like any scenario text; the
         * ropes written are the checkpoint's own list, which replaces output.ropes. */
        sk_error why = {0};
        const sk_load_options lo = {.output_ropes_replaced = true};
        if (sk_scenario_load_string(c->scenario_text, c->source, &lo, &c->recorded, &why)) {
            rc = sk_fail(err, why.status == SK_ERR_NO_MEMORY ? SK_ERR_NO_MEMORY : SK_ERR_CORRUPT,
                         "%s: its recorded scenario does not load (%s)", path, why.message);
            goto done;
        }
        c->loaded = true;
        s = c->scenario = &c->recorded;
    } else if (!s->normalized_json || strcmp(c->scenario_text, s->normalized_json) != 0) {
        rc = sk_fail(err, SK_ERR_MISMATCH,
                     "%s: written for another scenario than %s (the file, or its overrides, differ)", path,
                     s->source);
        goto done;
    }
    if (!(c->engine = get_text(c->file, "engine"))) {
        rc = refuse(c, err, "the checkpoint is damaged (it does not say which engine wrote it)");
        goto done;
    }
    sk_h5_printable(c->engine); /* messages name it; an engine's name has no control characters */
    rc = read_meta(c, err);
done:
    free(text);
    if (rc) {
        sk_checkpoint_close(c);
        return NULL;
    }
    return c;
}

const sk_checkpoint_info *sk_checkpoint_meta(const sk_checkpoint *c) { return &c->info; }

/* A rope's marks must fit the checkpoint's step: a sound rope stands at it, a diverged one holds an earlier
 * frame than the one it was marked at. */
static bool marks_fit(long step, long steps, long diverged)
{
    if (diverged < 0)
        return diverged == -1 && steps == step;
    return diverged <= step && steps <= diverged;
}

/* The ropes lo .. hi - 1 of group gi (global indices, within the group) into e, whose rope 0 is rope `first`. */
static int restore_group(sk_checkpoint *c, sk_engine *e, size_t first, int gi, size_t lo, size_t hi, sk_error *err)
{
    const sk_group *g = &c->scenario->groups[gi];
    /* e's own group of these ropes (a slice's groups are those holding some of its ropes) */
    const int local = sk_scenario_find_rope(sk_engine_scenario(e), lo - first, NULL);
    SK_ASSERT(local >= 0);
    const unsigned fields = sk_engine_state_fields(e, local);
    const bool one_step_kept = c->version < 3; /* a version-2 file: BDF2's history without v two steps before */
    const unsigned sets = fields | (sk_engine_tracks_extremes(e) ? SETS_EXTREMES : 0) |
                          (one_step_kept ? SETS_NO_SECOND_VELOCITY : 0);
    const int steps_kept = one_step_kept ? 1 : SK_BDF2_STEPS_KEPT; /* the steps before a rope's history can hold */
    char name[48];
    snprintf(name, sizeof name, "groups/%d", gi);
    hid_t gid = H5Gopen2(c->file, name, H5P_DEFAULT);
    if (gid < 0)
        return damaged(c, err, name);
    int64_t count = -1, particles = -1, have = -1;
    if (!get_i64(gid, "count", &count) || !get_i64(gid, "particles", &particles) || !get_i64(gid, "fields", &have) ||
        count != (int64_t)g->count || particles != g->particles || have != (int64_t)fields) {
        sk_h5_close(&gid, H5Gclose);
        return damaged(c, err, name);
    }
    /* the extremes a tracking engine needs: a run that did not track them has none to give */
    if ((sets & SETS_EXTREMES) && H5Lexists(gid, set_names[SET_EXTREMES], H5P_DEFAULT) <= 0) {
        sk_h5_close(&gid, H5Gclose);
        H5Eclear2(H5E_DEFAULT);
        return sk_fail(err, SK_ERR_MISMATCH,
                       "%s: taken by a run that did not track the ropes' largest tensions and strains; "
                       "it cannot go on tracking them",
                       c->path);
    }
    group_sets gs;
    int rc = sets_open(gid, g, sets, 0, &gs) ? 0 : damaged(c, err, name);
    rope_block b = {0};
    const size_t rows = block_rows(g);
    if (rc == 0 && !block_alloc(&b, rows, g->particles)) {
        sets_close(&gs);
        sk_h5_close(&gid, H5Gclose);
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", c->path);
    }
    const size_t end = hi - g->first_rope;
    for (size_t r0 = lo - g->first_rope; rc == 0 && r0 < end; r0 += rows) {
        const size_t nb = end - r0 < rows ? end - r0 : rows;
        for (int k = 0; rc == 0 && k < SET_COUNT; k++)
            if (set_used(k, sets) && rows_io(gs.id[k], set_type(k), r0, nb, set_buffer(&b, k), false))
                rc = damaged(c, err, name);
        for (size_t j = 0; rc == 0 && j < nb; j++) {
            sk_rope_state st = block_state(&b, j, fields);
            st.n = b.n[j];
            st.s = b.s[j];
            st.steps = (long)b.steps[j];
            st.diverged = (long)b.diverged[j];
            st.contacts = b.contacts[2 * j];
            st.iterations = b.contacts[2 * j + 1];
            /* BDF2's: out of range reads as damage (the import refuses negative counts) */
            const int64_t *nw = &b.newton[NEWTON * j];
            const bool newton_fits = !(fields & SK_STATE_HISTORY) ||
                                     (nw[0] >= 0 && nw[0] <= steps_kept && nw[1] >= 0 && nw[1] <= INT32_MAX &&
                                      nw[2] >= 0 && nw[2] <= c->info.step);
            st.prev_steps = newton_fits ? (int)nw[0] : 0;
            st.solves = newton_fits ? (int)nw[1] : -1;
            st.unconverged = newton_fits ? (long)nw[2] : -1;
            if (!newton_fits || !marks_fit(c->info.step, st.steps, st.diverged) ||
                !sk_engine_import_rope(e, g->first_rope + r0 + j - first, &st))
                rc = sk_fail(err, SK_ERR_CORRUPT, "%s: the checkpoint is damaged (rope %zu's state cannot be a rope of %s)",
                             c->path, g->first_rope + r0 + j, c->scenario->source);
            else if ((sets & SETS_EXTREMES) &&
                     (!sk_engine_set_rope_extremes(e, g->first_rope + r0 + j - first, b.extremes[EXTREMES * j],
                                                  b.extremes[EXTREMES * j + 1]) ||
                      !sk_engine_set_rope_support_extremes(e, g->first_rope + r0 + j - first,
                                                           b.extremes[EXTREMES * j + 2], b.extremes[EXTREMES * j + 3])))
                rc = sk_fail(err, SK_ERR_CORRUPT, "%s: the %s engine cannot take back rope %zu's extremes", c->path,
                             sk_engine_kind(e), g->first_rope + r0 + j);
        }
    }
    block_free(&b);
    sets_close(&gs);
    sk_h5_close(&gid, H5Gclose);
    return rc;
}

sk_status sk_checkpoint_restore(sk_checkpoint *c, sk_engine *e, sk_error *err)
{
    return sk_checkpoint_restore_slice(c, e, 0, err);
}

sk_status sk_checkpoint_restore_slice(sk_checkpoint *c, sk_engine *e, size_t first, sk_error *err)
{
    if (strcmp(c->engine, sk_engine_kind(e)) != 0)
        return sk_fail(err, SK_ERR_MISMATCH, "%s: written by the %s engine; only that engine resumes it", c->path,
                       c->engine);
    const size_t last = first + sk_engine_scenario(e)->total_ropes;
    SK_ASSERT(last <= c->scenario->total_ropes);
    for (int g = 0; g < c->scenario->n_groups; g++) {
        const sk_group *grp = &c->scenario->groups[g];
        const size_t lo = grp->first_rope > first ? grp->first_rope : first,
                     hi = grp->first_rope + grp->count < last ? grp->first_rope + grp->count : last;
        int rc = lo < hi ? restore_group(c, e, first, g, lo, hi, err) : 0;
        if (rc)
            return rc;
    }
    if (!sk_engine_resume_at(e, c->info.step))
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the frame snapshot", c->path);
    return 0;
}
