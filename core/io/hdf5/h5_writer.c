/* HDF5 output with libhdf5: the layout skein/output.h gives, a frame appended and flushed at a time,
 * written to a temporary beside the target and renamed onto it at the end. Compiled against parallel HDF5
 * (SKEIN_PARALLEL_HDF5) it also writes one file collectively from the processes of an MPI run
 * (sk_h5_open_collective): the same layout, each process its own ropes' rows, through MPI-IO. */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#ifdef SKEIN_PARALLEL_HDF5
#include <mpi.h>
#endif

#include "io/hdf5/h5_common.h"
#include "io/records/rope_record.h"
#include "base/assert.h"
#include "base/parallel.h"
#include "model/output_budget.h"
#include "skein/output.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"
#include "io/hdf5/hdf5_output.h"

#ifdef SKEIN_REAL_FLOAT
#define H5T_REAL H5T_NATIVE_FLOAT
#else
#define H5T_REAL H5T_NATIVE_DOUBLE
#endif

/* A chunk is one frame of a bounded number of whole ropes, about this many bytes of positions: big
 * enough that deflate and HDF5's per-chunk bookkeeping pay off, small enough that the buffers of one
 * block of ropes stay a few MiB whatever the batch size. */
#define CHUNK_BYTES ((size_t)1 << 20)
/* Level 1 with the byte shuffle: most of the gain of higher levels at a fraction of the time. */
#define DEFLATE_LEVEL 1
/* Frames per chunk of /time and /step. */
#define TIME_CHUNK 1024
/* Blocks of ropes gathered per thread before they are compressed together, within a budget of bytes for
 * all of them (ropes of many thousand particles make big chunks): the writer's memory stays bounded. */
#define SLOTS_PER_THREAD 2
#define SLOTS_BUDGET ((size_t)SK_OUTPUT_BUFFER_BYTES)

/* D_PREVIOUS and D_SEGMENT are the state a warm start (io/hdf5/warm_start.c) needs beyond positions, velocities and
 * counts to continue a run to the bit: verlet's previous positions, a deploying rope's anchored segment. */
enum { D_POSITION, D_VELOCITY, D_COUNT, D_ENERGY, D_TENSION, D_CONTACTS, D_PREVIOUS, D_SEGMENT, D_SUPPORT, D_FRAME_SETS };

typedef struct h5_group {
    const sk_group *group;
    size_t *ropes; /* global indices of the stored ropes */
    size_t n;
    int capacity, links;
    bool contacts; /* its ropes have contacts: the contacts dataset exists */
    bool previous; /* verlet: the previous dataset exists */
    bool segment;  /* its ropes deploy: the segment dataset exists */
    bool support;  /* its first or last particle is held (pinned, or a pin anchor's): the support_force dataset */
    size_t block;  /* ropes per chunk, and per write */
    /* collective: this process's stored ropes mine0 .. mine1 - 1, written in `rounds` collective writes a
     * frame (the most any process needs: each takes part in every one) */
    size_t mine0, mine1;
    int rounds;
    hid_t gid;
    hid_t sets[D_FRAME_SETS];
    hid_t diverged;
} h5_group;

/* One block of ropes on its way to the file: its chunk of each frame dataset, as gathered ([block] ropes:
 * positions and velocities [capacity][3], counts, energies [3], tensions [links], contacts and iterations
 * [2]; zeros past the ropes and particles present) and compressed. */
typedef struct h5_slot {
    unsigned char *raw[D_FRAME_SETS];
    unsigned char *packed[D_FRAME_SETS];
    size_t packed_len[D_FRAME_SETS];
    int status[D_FRAME_SETS]; /* zlib's answer */
    size_t r0;                /* the block's first rope (index among the group's stored ropes) */
} h5_slot;

struct sk_h5_writer {
    char *path, *temp;
    const sk_scenario *scenario;
    hid_t file, time, step;
    h5_group *groups;
    int n_groups;
    hsize_t frames;
    size_t chunk_max[D_FRAME_SETS]; /* the largest chunk of each dataset over the groups, in bytes */
    /* Chunks are compressed in parallel, threads x SLOTS_PER_THREAD blocks at a time (allocated by the
     * first frame, for the writer's threads), then written in order: the shuffle and deflate filters
     * the datasets declare, applied here rather than by HDF5, one chunk at a time. */
    h5_slot *slots;
    int n_slots, threads;
    unsigned char **shuffled; /* per thread: one chunk, bytes regrouped by the shuffle filter */
    int64_t *diverged;        /* the diverged steps of the largest group */
    /* one rope's complete state, exported for D_PREVIOUS and D_SEGMENT ([largest capacity] rows) */
    sk_rope_state state;
    /* collective (an MPI run): the file is shared by every process, each writing ropes first .. end - 1 through
     * HDF5's own filters, round_chunks chunks of rows at a time, with transfers dxpl; rank 0 names and renames */
    bool collective;
    int rank;
    size_t first, end, round_chunks, rows_written;
    hid_t dxpl;
};

static size_t elem_size(int set) { return set == D_COUNT || set == D_CONTACTS ? sizeof(int) : sizeof(sk_real); }

static hid_t elem_type(int set) { return set == D_COUNT || set == D_CONTACTS ? H5T_NATIVE_INT : H5T_REAL; }

/* Whether group g has dataset `set`: the contacts only where its ropes have contacts. */
static bool has_set(const h5_group *g, int set)
{
    return set == D_CONTACTS ? g->contacts
           : set == D_PREVIOUS ? g->previous
           : set == D_SEGMENT  ? g->segment
           : set == D_SUPPORT  ? g->support
                               : true;
}

/* Whether frames of dataset `set` hold anything: a group of ropes without links has no tension to store
 * (its chunks would lie outside the dataset). */
static bool writes_set(const h5_group *g, int set) { return has_set(g, set) && (set != D_TENSION || g->links > 0); }

/* Bytes of one chunk of dataset `set` of group g (a zero extent is chunked by 1). */
static size_t chunk_bytes(const h5_group *g, int set)
{
    const size_t b = g->block, cap = (size_t)g->capacity, links = g->links > 0 ? (size_t)g->links : 1;
    switch (set) {
    case D_POSITION:
    case D_VELOCITY:
    case D_PREVIOUS: return b * cap * 3 * sizeof(sk_real);
    case D_SEGMENT: return b * sizeof(sk_real);
    case D_COUNT: return b * sizeof(int);
    case D_ENERGY: return b * 3 * sizeof(sk_real);
    case D_SUPPORT: return b * 6 * sizeof(sk_real);
    case D_CONTACTS: return b * 2 * sizeof(int);
    default: return b * links * sizeof(sk_real);
    }
}

/* Fails the output naming the target, with the reason HDF5 gave for the first failure: the system's own
 * words for an I/O error ("error message = 'No space left on device'"), else HDF5's description. */
static int h5_fail(const sk_h5_writer *w, sk_error *err, const char *what)
{
    char why[256];
    switch (sk_h5_failure_reason(why, sizeof why)) {
    case SK_H5_SYSTEM_REASON: return sk_fail(err, SK_ERR_IO, "%s: %s: %s", w->path, what, why);
    case SK_H5_HDF5_REASON: return sk_fail(err, SK_ERR_IO, "%s: %s (HDF5: %s)", w->path, what, why);
    default: return sk_fail(err, SK_ERR_IO, "%s: %s", w->path, what);
    }
}

static int oom(const sk_h5_writer *w, sk_error *err)
{
    return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);
}

/* ---- attributes ---------------------------------------------------------------------------------- */

/* units and a description; either may be NULL */
static int label(hid_t d, const char *units, const char *about)
{
    if (units && sk_h5_set_text(d, "units", units))
        return -1;
    return about ? sk_h5_set_text(d, "description", about) : 0;
}

/* ---- datasets -------------------------------------------------------------------------------------- */

/* A dataset growing by frames: shape [0][inner...], chunks [1][block][inner...] (a zero extent is
 * unlimited, chunked by 1), shuffled and deflated. No chunk cache: the frame datasets get whole chunks,
 * compressed already (H5Dwrite_chunk), and /time and /step one value a frame, nothing worth keeping. */
static hid_t frame_set(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *inner, size_t block,
                       const char *units, const char *about)
{
    hsize_t dims[4] = {0}, max[4] = {H5S_UNLIMITED}, chunk[4] = {1};
    for (int i = 1; i < rank; i++) {
        dims[i] = inner[i - 1];
        max[i] = inner[i - 1] ? inner[i - 1] : H5S_UNLIMITED;
        chunk[i] = i == 1 ? block : (inner[i - 1] ? inner[i - 1] : 1);
    }
    hid_t space = H5Screate_simple(rank, dims, max);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), dapl = H5Pcreate(H5P_DATASET_ACCESS);
    hid_t d = H5I_INVALID_HID;
    if (space >= 0 && dcpl >= 0 && dapl >= 0 && H5Pset_chunk(dcpl, rank, chunk) >= 0 &&
        H5Pset_shuffle(dcpl) >= 0 && H5Pset_deflate(dcpl, DEFLATE_LEVEL) >= 0 &&
        H5Pset_chunk_cache(dapl, H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0, H5D_CHUNK_CACHE_W0_DEFAULT) >= 0)
        d = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, dcpl, dapl);
    if (d < 0)
        sk_h5_failed();
    else if (label(d, units, about))
        sk_h5_close(&d, H5Dclose);
    sk_h5_close(&dapl, H5Pclose);
    sk_h5_close(&dcpl, H5Pclose);
    sk_h5_close(&space, H5Sclose);
    return d;
}

/* A fixed one-dimensional dataset of n values, written at once when data is given. */
static hid_t rope_set(hid_t loc, const char *name, hid_t type, size_t n, const void *data, const char *units,
                      const char *about)
{
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL), d = H5I_INVALID_HID;
    if (space >= 0)
        d = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (d < 0)
        sk_h5_failed();
    else if ((data && n && H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0 && sk_h5_failed()) ||
             label(d, units, about))
        sk_h5_close(&d, H5Dclose);
    sk_h5_close(&space, H5Sclose);
    return d;
}

/* Grows dimension 0 of d to `frames`. */
static int extend(hid_t d, hsize_t frames)
{
    hsize_t dims[4];
    hid_t space = H5Dget_space(d);
    int rank = space >= 0 ? H5Sget_simple_extent_dims(space, dims, NULL) : -1;
    if (rank < 1)
        sk_h5_failed();
    sk_h5_close(&space, H5Sclose);
    if (rank < 1)
        return -1;
    dims[0] = frames;
    return H5Dset_extent(d, dims) < 0 ? sk_h5_failed() : 0;
}

/* Writes buf as the block of d whose first `lead` dimensions start at start[] and span count[] (the rest whole),
 * with transfers dxpl; an empty part when !selected (a collective write this process takes part in with none
 * of its rows). */
static int write_block(hid_t d, hid_t type, hid_t dxpl, bool selected, int lead, const hsize_t *start,
                       const hsize_t *count, const void *buf)
{
    return selected ? sk_h5_write_block(d, type, dxpl, lead, start, count, buf)
                    : sk_h5_block_none(d, type, dxpl, buf);
}

/* ---- opening ---------------------------------------------------------------------------------------- */

/* Every object the file has open, the file itself left open. */
static void close_objects(sk_h5_writer *w)
{
    for (int i = 0; w->groups && i < w->n_groups; i++) {
        h5_group *g = &w->groups[i];
        for (int k = 0; k < D_FRAME_SETS; k++)
            sk_h5_close(&g->sets[k], H5Dclose);
        sk_h5_close(&g->diverged, H5Dclose);
        sk_h5_close(&g->gid, H5Gclose);
    }
    sk_h5_close(&w->time, H5Dclose);
    sk_h5_close(&w->step, H5Dclose);
    if (w->dxpl != H5P_DEFAULT)
        sk_h5_close(&w->dxpl, H5Pclose);
}

static void close_all(sk_h5_writer *w)
{
    close_objects(w);
    sk_h5_close(&w->file, H5Fclose);
}

static void writer_free(sk_h5_writer *w)
{
    for (int i = 0; w->groups && i < w->n_groups; i++)
        free(w->groups[i].ropes);
    free(w->groups);
    for (int i = 0; w->slots && i < w->n_slots; i++)
        for (int k = 0; k < D_FRAME_SETS; k++) {
            free(w->slots[i].raw[k]);
            free(w->slots[i].packed[k]);
        }
    free(w->slots);
    for (int t = 0; w->shuffled && t < w->threads; t++)
        free(w->shuffled[t]);
    free(w->shuffled);
    free(w->path);
    free(w->temp);
    free(w->diverged);
    sk_rope_state_free(&w->state);
    free(w);
}

/* Splits the selection by group, sizes the blocks and allocates the buffers. */
static int plan_groups(sk_h5_writer *w, const size_t *ropes, size_t n_ropes, sk_error *err)
{
    const sk_scenario *s = w->scenario;
    w->n_groups = s->n_groups;
    w->groups = calloc((size_t)(s->n_groups > 0 ? s->n_groups : 1), sizeof *w->groups);
    if (!w->groups)
        return oom(w, err);
    size_t max_n = 1, max_cap = 0;
    for (int i = 0; i < s->n_groups; i++) {
        h5_group *g = &w->groups[i];
        g->group = &s->groups[i];
        g->gid = g->diverged = H5I_INVALID_HID;
        for (int k = 0; k < D_FRAME_SETS; k++)
            g->sets[k] = H5I_INVALID_HID;
        g->capacity = g->group->particles;
        g->links = g->capacity > 1 ? g->capacity - 1 : 0;
        g->contacts = sk_group_has_contacts(s, g->group);
        g->previous = s->integrator == SK_INTEGRATOR_VERLET;
        g->segment = g->group->deploys;
        g->support = !g->group->deploys && g->group->n_pinned > 0 &&
                     (g->group->pinned[0] == 0 || g->group->pinned[g->group->n_pinned - 1] == g->capacity - 1);
        const size_t first = g->group->first_rope, end = first + g->group->count;
        for (size_t k = 0; k < n_ropes; k++)
            g->n += ropes[k] >= first && ropes[k] < end;
        if (!(g->ropes = malloc((g->n ? g->n : 1) * sizeof *g->ropes)))
            return oom(w, err);
        size_t j = 0;
        for (size_t k = 0; k < n_ropes; k++)
            if (ropes[k] >= first && ropes[k] < end)
                g->ropes[j++] = ropes[k];
        while (g->mine0 < g->n && g->ropes[g->mine0] < w->first)
            g->mine0++;
        for (g->mine1 = g->mine0; g->mine1 < g->n && g->ropes[g->mine1] < w->end;)
            g->mine1++;
        const size_t rope_bytes = (size_t)g->capacity * 3 * sizeof(sk_real);
        g->block = CHUNK_BYTES / rope_bytes;
        if (g->block > g->n)
            g->block = g->n;
        if (g->block < 1)
            g->block = 1;
        for (int k = 0; k < D_FRAME_SETS; k++)
            if (has_set(g, k) && chunk_bytes(g, k) > w->chunk_max[k])
                w->chunk_max[k] = chunk_bytes(g, k);
        if (g->n > max_n)
            max_n = g->n;
        if ((g->previous || g->segment) && (size_t)g->capacity > max_cap)
            max_cap = (size_t)g->capacity;
    }
    if (!(w->diverged = malloc(max_n * sizeof *w->diverged)))
        return oom(w, err);
    if (max_cap > 0 && !sk_rope_state_alloc(&w->state, max_cap))
        return oom(w, err);
    return 0;
}

static int write_params(sk_h5_writer *w, h5_group *g, sk_error *err)
{
    const sk_group *sg = g->group;
    if (sg->n_sweeps == 0)
        return 0;
    hid_t params = H5Gcreate2(g->gid, "params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (params < 0)
        return h5_fail(w, err, "cannot create the parameters group");
    sk_real *values = malloc((g->n ? g->n : 1) * sizeof *values);
    if (!values) {
        H5Gclose(params);
        return oom(w, err);
    }
    int rc = 0;
    for (int k = 0; rc == 0 && k < sg->n_sweeps; k++) {
        const sk_sweep *sw = &sg->sweeps[k];
        for (size_t j = 0; j < g->n; j++) {
            sk_rope_params rp;
            sk_group_rope_params(sg, g->ropes[j] - sg->first_rope, &rp);
            memcpy(&values[j], (const char *)&rp + sw->offset, sizeof(sk_real));
        }
        char about[256];
        snprintf(about, sizeof about, "the value of the group's swept parameter %s for each stored rope", sw->key);
        hid_t d = rope_set(params, sw->key, H5T_REAL, g->n, values, sk_param_units(sw->key), about);
        if (d < 0)
            rc = h5_fail(w, err, "cannot write the swept parameters");
        sk_h5_close(&d, H5Dclose);
    }
    free(values);
    H5Gclose(params);
    return rc;
}

static int create_group(sk_h5_writer *w, hid_t groups, int index, sk_error *err)
{
    h5_group *g = &w->groups[index];
    char name[32];
    snprintf(name, sizeof name, "%d", index);
    if ((g->gid = H5Gcreate2(groups, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
        sk_h5_set_i64(g->gid, "first_rope", (int64_t)g->group->first_rope) ||
        sk_h5_set_i64(g->gid, "count", (int64_t)g->group->count) || sk_h5_set_i64(g->gid, "particles", g->capacity))
        return h5_fail(w, err, "cannot create a group");

    uint64_t *global = malloc((g->n ? g->n : 1) * sizeof *global);
    if (!global)
        return oom(w, err);
    for (size_t j = 0; j < g->n; j++)
        global[j] = g->ropes[j];
    hid_t ropes = rope_set(g->gid, "ropes", H5T_NATIVE_UINT64, g->n, global, "1",
                           "global index of each stored rope (scenario order, all groups)");
    free(global);
    if (ropes < 0)
        return h5_fail(w, err, "cannot create the rope index");
    H5Dclose(ropes);

    const hsize_t n = g->n, cap = (hsize_t)g->capacity, links = (hsize_t)g->links;
    const hsize_t vec[3] = {n, cap, 3}, one[1] = {n}, two[2] = {n, 2}, three[2] = {n, 3}, link[2] = {n, links};
    const hsize_t ends[3] = {n, 2, 3};
    g->sets[D_POSITION] = frame_set(g->gid, "position", H5T_REAL, 4, vec, g->block, "m",
                                    "[frame][rope][particle][xyz]; particles past count hold 0");
    g->sets[D_VELOCITY] = frame_set(g->gid, "velocity", H5T_REAL, 4, vec, g->block, "m/s",
                                    "[frame][rope][particle][xyz]; particles past count hold 0");
    g->sets[D_COUNT] = frame_set(g->gid, "count", H5T_NATIVE_INT, 2, one, g->block, "1",
                                 "[frame][rope]: particles present");
    g->sets[D_ENERGY] = frame_set(g->gid, "energy", H5T_REAL, 3, three, g->block, "J",
                                  "[frame][rope][kinetic, gravity, elastic]");
    g->sets[D_TENSION] = frame_set(g->gid, "tension", H5T_REAL, 3, link, g->block, "N",
                                   "[frame][rope][link]: link i joins particles i and i + 1; 0 past the links present");
    if (g->contacts)
        g->sets[D_CONTACTS] = frame_set(g->gid, "contacts", H5T_NATIVE_INT, 3, two, g->block, "1",
                                        "[frame][rope][contacts, iterations]: the contacts generated and the "
                                        "resolver iterations used by the step that ended at the frame (0, 0 at "
                                        "step 0)");
    if (g->previous)
        g->sets[D_PREVIOUS] = frame_set(g->gid, "previous", H5T_REAL, 4, vec, g->block, "m",
                                        "[frame][rope][particle][xyz]: verlet's previous positions, what a warm "
                                        "start needs beyond the positions; particles past count hold 0");
    if (g->segment)
        g->sets[D_SEGMENT] = frame_set(g->gid, "segment", H5T_REAL, 2, one, g->block, "m",
                                       "[frame][rope]: rest length of the anchored segment of a deploying rope, "
                                       "what a warm start needs beyond the counts");
    if (g->support)
        g->sets[D_SUPPORT] = frame_set(g->gid, "support_force", H5T_REAL, 4, ends, g->block, "N",
                                       "[frame][rope][end][xyz]: the force holding the first (end 0) and the last "
                                       "(end 1) particle where it is pinned or held by a pin anchor, zero where free");
    for (int k = 0; k < D_FRAME_SETS; k++)
        if (has_set(g, k) && g->sets[k] < 0)
            return h5_fail(w, err, "cannot create a dataset");
    for (size_t j = 0; j < g->n; j++)
        w->diverged[j] = -1;
    g->diverged = rope_set(g->gid, "diverged", H5T_NATIVE_INT64, g->n, w->diverged, "step",
                           "step at which each rope diverged (its later frames repeat its last finite frame), -1 if never");
    if (g->diverged < 0)
        return h5_fail(w, err, "cannot create the divergence dataset");
    return write_params(w, g, err);
}

/* The temporary: created by mkstemp (a name nobody else has), with the permissions a plain create would
 * give, then reopened by HDF5. */
static int make_temp(sk_h5_writer *w, sk_error *err)
{
    const size_t len = strlen(w->path);
    memcpy(w->temp, w->path, len);
    memcpy(w->temp + len, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    const int fd = mkstemp(w->temp);
    if (fd < 0)
        return sk_fail(err, SK_ERR_IO, "%s: cannot create: %s", w->path, strerror(errno));
    const mode_t mask = umask(0);
    umask(mask);
    const int e = fchmod(fd, 0666 & ~mask) != 0 ? errno : 0;
    close(fd);
    if (e) {
        unlink(w->temp);
        return sk_fail(err, SK_ERR_IO, "%s: cannot create: %s", w->path, strerror(e));
    }
    return 0;
}

/* The file's access: MPI-IO on every process of the run, collective metadata; else the default (POSIX). */
static hid_t file_access(const sk_h5_writer *w)
{
#ifdef SKEIN_PARALLEL_HDF5
    if (w->collective) {
        hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
        if (fapl >= 0 && (H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) < 0 ||
                          H5Pset_all_coll_metadata_ops(fapl, true) < 0 || H5Pset_coll_metadata_write(fapl, true) < 0))
            sk_h5_close(&fapl, H5Pclose);
        return fapl;
    }
#else
    (void)w;
#endif
    return H5P_DEFAULT;
}

#ifdef SKEIN_PARALLEL_HDF5
/* Rank 0's status (and on the others its name of the temporary) for every process: rank 0 alone touches
 * the file system by name. */
static int share_from_rank0(sk_h5_writer *w, int rc, sk_error *err)
{
    int status = rc;
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (status == SK_OK)
        MPI_Bcast(w->temp, (int)(strlen(w->path) + sizeof ".tmp.XXXXXX"), MPI_CHAR, 0, MPI_COMM_WORLD);
    else if (w->rank != 0)
        return sk_fail(err, status, "%s: failed on rank 0", w->path);
    return status;
}

/* The number of collective writes a frame of each group takes: the most any process needs. */
static void plan_rounds(sk_h5_writer *w)
{
    size_t chunk_sum = 0;
    for (int k = 0; k < D_FRAME_SETS; k++)
        chunk_sum += w->chunk_max[k];
    w->round_chunks = SLOTS_BUDGET / (chunk_sum ? chunk_sum : 1);
    if (w->round_chunks < 1)
        w->round_chunks = 1;
    for (int i = 0; i < w->n_groups; i++) {
        h5_group *g = &w->groups[i];
        int mine = 0;
        if (g->mine1 > g->mine0) {
            const size_t chunks = (g->mine1 - 1) / g->block - g->mine0 / g->block + 1;
            mine = (int)((chunks + w->round_chunks - 1) / w->round_chunks);
        }
        MPI_Allreduce(&mine, &g->rounds, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
}
#endif

static sk_h5_writer *open_writer(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                                 bool collective, size_t first, size_t end, long steps, long every, int threads,
                                 sk_error *err)
{
    SK_ASSERT(sk_ropes_sorted_below(ropes, n_ropes, s->total_ropes) && every >= 1);
    /* HDF5 1.10 frees a file whose close failed (a full disk) but keeps its ID, and its own clean-up at
     * exit then closes it again and crashes (HDFFV-11052, fixed in 1.14). The writer closes every file it
     * opens, so that clean-up has nothing to do: turned off while it still can be (before any other HDF5
     * call in the process; later it answers with an error, ignored). */
    H5dont_atexit();
    /* The library reports through err, one line; HDF5's own stack dumps would only repeat it. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    sk_h5_writer *w = calloc(1, sizeof *w);
    if (!w) {
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        return NULL;
    }
    w->file = w->time = w->step = H5I_INVALID_HID;
    w->dxpl = H5P_DEFAULT;
    w->collective = collective;
    w->first = first;
    w->end = end;
    w->scenario = s;
    w->threads = sk_threads_resolve(threads);
    w->path = strdup(path);
    w->temp = malloc(strlen(path) + sizeof ".tmp.XXXXXX");
    if (!w->path || !w->temp) {
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        writer_free(w);
        return NULL;
    }
    int rc = plan_groups(w, ropes, n_ropes, err);
#ifdef SKEIN_PARALLEL_HDF5
    if (collective) {
        MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
        /* every process's plan agreed, then the temporary rank 0 made */
        int worst = rc;
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (worst && !rc)
            rc = sk_fail(err, worst, "%s: failed on another process", path);
        if (rc == SK_OK) {
            plan_rounds(w);
            rc = share_from_rank0(w, w->rank == 0 ? make_temp(w, err) : SK_OK, err);
        }
        if (rc == SK_OK) {
            w->dxpl = H5Pcreate(H5P_DATASET_XFER);
            if (w->dxpl < 0 || H5Pset_dxpl_mpio(w->dxpl, H5FD_MPIO_COLLECTIVE) < 0) {
                rc = sk_fail(err, SK_ERR_IO, "%s: cannot set up collective transfers", path);
                if (w->rank == 0)
                    unlink(w->temp);
            }
        }
        if (rc) {
            if (w->dxpl != H5P_DEFAULT)
                sk_h5_close(&w->dxpl, H5Pclose);
            writer_free(w);
            return NULL;
        }
    } else
#endif
        if (rc || make_temp(w, err)) {
        writer_free(w);
        return NULL;
    }
    hid_t groups = H5I_INVALID_HID, fapl = file_access(w);
    if (fapl < 0 || (w->file = H5Fcreate(w->temp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0)
        rc = h5_fail(w, err, "cannot create");
    else if (sk_h5_set_text(w->file, "scenario", s->normalized_json ? s->normalized_json : "") ||
             sk_h5_set_text(w->file, "source", s->source ? s->source : "") ||
             sk_h5_set_text(w->file, "real", SK_REAL_NAME) || sk_h5_set_i64(w->file, "steps", steps) ||
             sk_h5_set_i64(w->file, "every", every) || sk_h5_set_i64(w->file, "complete", 0))
        rc = h5_fail(w, err, "cannot write the file's attributes");
    if (rc == 0) {
        const hsize_t none[1] = {0};
        w->time = frame_set(w->file, "time", H5T_REAL, 1, none, TIME_CHUNK, "s", "time of each frame: step * dt");
        w->step = frame_set(w->file, "step", H5T_NATIVE_INT64, 1, none, TIME_CHUNK, "step", "step of each frame");
        if (w->time < 0 || w->step < 0 ||
            (groups = H5Gcreate2(w->file, "groups", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
            rc = h5_fail(w, err, "cannot create a dataset");
    }
    for (int i = 0; rc == 0 && i < w->n_groups; i++)
        rc = create_group(w, groups, i, err);
    sk_h5_close(&groups, H5Gclose);
    if (rc == 0 && H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
        rc = h5_fail(w, err, "write failed");
    if (fapl != H5P_DEFAULT)
        sk_h5_close(&fapl, H5Pclose);
    if (rc) {
        sk_h5_abort(w);
        return NULL;
    }
    return w;
}

sk_h5_writer *sk_h5_open(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                         long steps, long every, int threads, sk_error *err)
{
    return open_writer(path, s, ropes, n_ropes, false, 0, s->total_ropes, steps, every, threads, err);
}

sk_h5_writer *sk_h5_open_collective(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                                    size_t first, size_t end, long steps, long every, sk_error *err)
{
#ifdef SKEIN_PARALLEL_HDF5
    SK_ASSERT(first <= end && end <= s->total_ropes);
    return open_writer(path, s, ropes, n_ropes, true, first, end, steps, every, 1, err);
#else
    (void)s, (void)ropes, (void)n_ropes, (void)first, (void)end, (void)steps, (void)every;
    sk_fail(err, SK_ERR_INVALID, "%s: not written collectively: this libskein is built with serial HDF5", path);
    return NULL;
#endif
}

/* ---- frames ----------------------------------------------------------------------------------------- */

/* The slots and per-thread buffers (at the first frame), for the writer's threads as far as the budget
 * allows. */
static int make_slots(sk_h5_writer *w, sk_error *err)
{
    if (w->collective) {
        /* one slot of round_chunks chunks' rows, filtered by HDF5 itself */
        w->n_slots = 1;
        if (!(w->slots = calloc(1, sizeof *w->slots)))
            return oom(w, err);
        for (int k = 0; k < D_FRAME_SETS; k++)
            if (!(w->slots[0].raw[k] = malloc(w->chunk_max[k] ? w->chunk_max[k] * w->round_chunks : 1)))
                return oom(w, err);
        return 0;
    }
    size_t slot_bytes = 0, largest = 1;
    for (int k = 0; k < D_FRAME_SETS; k++) {
        slot_bytes += w->chunk_max[k] + compressBound(w->chunk_max[k]);
        largest = w->chunk_max[k] > largest ? w->chunk_max[k] : largest;
    }
    const size_t fit = SLOTS_BUDGET / (slot_bytes ? slot_bytes : 1);
    if ((size_t)w->threads > fit)
        w->threads = fit > 0 ? (int)fit : 1;
    w->n_slots = w->threads * SLOTS_PER_THREAD;
    if ((size_t)w->n_slots > fit)
        w->n_slots = fit > 0 ? (int)fit : 1;
    w->slots = calloc((size_t)w->n_slots, sizeof *w->slots);
    w->shuffled = calloc((size_t)w->threads, sizeof *w->shuffled);
    if (!w->slots || !w->shuffled)
        return oom(w, err);
    for (int k = 0; k < D_FRAME_SETS; k++) {
        for (int i = 0; i < w->n_slots; i++) {
            w->slots[i].raw[k] = malloc(w->chunk_max[k] ? w->chunk_max[k] : 1);
            w->slots[i].packed[k] = malloc(compressBound(w->chunk_max[k]));
            if (!w->slots[i].raw[k] || !w->slots[i].packed[k])
                return oom(w, err);
        }
    }
    for (int t = 0; t < w->threads; t++)
        if (!(w->shuffled[t] = malloc(largest)))
            return oom(w, err);
    return 0;
}

/* A rope's previous positions (the n present; the rest stay 0) and anchored segment from its complete state;
 * NaN from an engine that keeps none (a program's own behind sk_engine): a frame no warm start takes. A resumed
 * run's frames from the journal have them: the journal records them. */
static void fill_state(const sk_h5_writer *w, const h5_group *g, const sk_engine *e, size_t rope, int n,
                       sk_real *previous, sk_real *segment)
{
    sk_rope_state st = w->state;
    st.impulse = g->contacts ? st.impulse : NULL;
    const bool kept = sk_engine_export_rope(e, rope, &st);
    for (size_t i = 0; previous && i < 3 * (size_t)n; i++)
        previous[i] = kept ? st.q[i] : (sk_real)NAN;
    if (segment)
        *segment = kept ? st.s : (sk_real)NAN;
}

/* Gathers the stored ropes r0 .. r0 + nb - 1 of group g into a slot of room ropes (on the calling thread:
 * the engine answers one caller at a time). */
static void fill_slot(const sk_h5_writer *w, const h5_group *g, const sk_engine *e, h5_slot *slot, size_t r0,
                      size_t nb, size_t room)
{
    const size_t cap = (size_t)g->capacity, links = (size_t)g->links;
    for (int k = 0; k < D_FRAME_SETS; k++)
        if (has_set(g, k)) /* the buffers of the others are sized for none */
            memset(slot->raw[k], 0, chunk_bytes(g, k) / g->block * room);
    sk_real *p = (sk_real *)slot->raw[D_POSITION], *v = (sk_real *)slot->raw[D_VELOCITY];
    sk_real *energy = (sk_real *)slot->raw[D_ENERGY], *tension = (sk_real *)slot->raw[D_TENSION];
    int *count = (int *)slot->raw[D_COUNT], *contacts = (int *)slot->raw[D_CONTACTS];
    sk_real *previous = (sk_real *)slot->raw[D_PREVIOUS], *segment = (sk_real *)slot->raw[D_SEGMENT];
    sk_real *support = (sk_real *)slot->raw[D_SUPPORT];
    slot->r0 = r0;
    for (size_t j = 0; j < nb; j++) {
        const size_t rope = g->ropes[r0 + j];
        const int n = sk_engine_rope_particles(e, rope);
        SK_ASSERT(n >= 1 && (size_t)n <= cap); /* the engine's ropes are the scenario's */
        count[j] = n;
        sk_engine_read_rope(e, rope, p + j * cap * 3, v + j * cap * 3);
        sk_rope_diagnostics d;
        sk_engine_rope_diagnostics(e, rope, &d, links ? tension + j * links : NULL);
        energy[3 * j + 0] = d.kinetic;
        energy[3 * j + 1] = d.gravity;
        energy[3 * j + 2] = d.elastic;
        for (int end = 0; g->support && end < 2; end++) {
            support[6 * j + 3 * (size_t)end + 0] = d.support[end].x;
            support[6 * j + 3 * (size_t)end + 1] = d.support[end].y;
            support[6 * j + 3 * (size_t)end + 2] = d.support[end].z;
        }
        if (g->contacts)
            sk_engine_rope_contacts(e, rope, &contacts[2 * j], &contacts[2 * j + 1]);
        if (g->previous || g->segment)
            fill_state(w, g, e, rope, n, g->previous ? previous + j * cap * 3 : NULL, g->segment ? &segment[j] : NULL);
    }
}

typedef struct pack_job {
    sk_h5_writer *w;
    const h5_group *g;
} pack_job;

/* Item slot * D_FRAME_SETS + set: that chunk through the datasets' filters, shuffle then deflate, exactly as
 * HDF5 would apply them. */
static void pack_chunk(void *ctx, size_t item, int thread)
{
    const pack_job *job = ctx;
    h5_slot *slot = &job->w->slots[item / D_FRAME_SETS];
    const int set = (int)(item % D_FRAME_SETS);
    if (!writes_set(job->g, set))
        return;
    const size_t bytes = chunk_bytes(job->g, set), size = elem_size(set), n = bytes / size;
    const unsigned char *raw = slot->raw[set];
    unsigned char *shuffled = job->w->shuffled[thread];
    for (size_t b = 0; b < size; b++)
        for (size_t i = 0; i < n; i++)
            shuffled[b * n + i] = raw[i * size + b];
    uLongf len = compressBound(bytes);
    slot->status[set] = compress2(slot->packed[set], &len, shuffled, bytes, DEFLATE_LEVEL);
    slot->packed_len[set] = len;
}

/* A frame of group g from every process: in each round, this process's rows of whole chunks (a chunk
 * shared with a neighbour's rows is filtered once by HDF5, which gathers its rows). */
static int write_group_collective(sk_h5_writer *w, h5_group *g, const sk_engine *e, hsize_t frame, sk_error *err)
{
    h5_slot *slot = &w->slots[0];
    const size_t span = w->round_chunks * g->block, start = g->mine0 / g->block * g->block;
    for (int round = 0; round < g->rounds; round++) {
        size_t lo = start + (size_t)round * span, hi = lo + span;
        lo = lo > g->mine0 ? lo : g->mine0;
        hi = hi < g->mine1 ? hi : g->mine1;
        const size_t nb = hi > lo ? hi - lo : 0;
        if (nb)
            fill_slot(w, g, e, slot, lo, nb, nb);
        for (int k = 0; k < D_FRAME_SETS; k++)
            if (writes_set(g, k) && write_block(g->sets[k], elem_type(k), w->dxpl, nb > 0, 2,
                                                (const hsize_t[]){frame, lo}, (const hsize_t[]){1, nb}, slot->raw[k]))
                return h5_fail(w, err, "write failed");
        w->rows_written += nb;
    }
    for (size_t j = g->mine0; j < g->mine1; j++)
        w->diverged[j - g->mine0] = sk_engine_rope_diverged(e, g->ropes[j]);
    const hsize_t mine0 = g->mine0, mine = g->mine1 - g->mine0;
    if (g->n && write_block(g->diverged, H5T_NATIVE_INT64, w->dxpl, mine > 0, 1, &mine0, &mine, w->diverged))
        return h5_fail(w, err, "write failed");
    return 0;
}

static int write_group(sk_h5_writer *w, h5_group *g, const sk_engine *e, hsize_t frame, sk_error *err)
{
    for (int k = 0; k < D_FRAME_SETS; k++)
        if (has_set(g, k) && extend(g->sets[k], frame + 1))
            return h5_fail(w, err, "cannot extend a dataset");
    if (w->collective)
        return write_group_collective(w, g, e, frame, err);
    for (size_t r0 = 0; r0 < g->n;) {
        size_t used = 0;
        for (; used < (size_t)w->n_slots && r0 < g->n; used++, r0 += g->block) {
            const size_t nb = g->n - r0 < g->block ? g->n - r0 : g->block;
            fill_slot(w, g, e, &w->slots[used], r0, nb, g->block);
        }
        pack_job job = {w, g};
        sk_parallel_for(used * D_FRAME_SETS, w->threads, pack_chunk, &job);
        for (size_t i = 0; i < used; i++)
            for (int k = 0; k < D_FRAME_SETS; k++) {
                if (!writes_set(g, k))
                    continue;
                const h5_slot *slot = &w->slots[i];
                if (slot->status[k] != Z_OK)
                    return sk_fail(err, SK_ERR_IO, "%s: compression failed (zlib error %d)", w->path,
                                   slot->status[k]);
                const hsize_t offset[4] = {frame, slot->r0, 0, 0};
                if (H5Dwrite_chunk(g->sets[k], H5P_DEFAULT, 0, offset, slot->packed_len[k], slot->packed[k]) < 0)
                    return h5_fail(w, err, "write failed");
            }
    }
    for (size_t j = 0; j < g->n; j++)
        w->diverged[j] = sk_engine_rope_diverged(e, g->ropes[j]);
    if (g->n && H5Dwrite(g->diverged, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, w->diverged) < 0)
        return h5_fail(w, err, "write failed");
    return 0;
}

sk_status sk_h5_write_frame(sk_h5_writer *w, const sk_engine *e, long step, sk_error *err)
{
    if (!w->slots) {
        int rc = make_slots(w, err);
        if (rc)
            return rc;
    }
    const hsize_t frame = w->frames, one = 1;
    const sk_real time = (sk_real)step * w->scenario->dt;
    const int64_t step64 = step;
    const bool writes_time = !w->collective || w->rank == 0;
    if (extend(w->time, frame + 1) || extend(w->step, frame + 1) ||
        write_block(w->time, H5T_REAL, w->dxpl, writes_time, 1, &frame, &one, &time) ||
        write_block(w->step, H5T_NATIVE_INT64, w->dxpl, writes_time, 1, &frame, &one, &step64))
        return h5_fail(w, err, "write failed");
    for (int i = 0; i < w->n_groups; i++) {
        int rc = write_group(w, &w->groups[i], e, frame, err);
        if (rc)
            return rc;
    }
    /* What is flushed stays readable if the run stops before the file is closed. */
    if (H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
        return h5_fail(w, err, "write failed");
    w->frames = frame + 1;
    return 0;
}

sk_status sk_h5_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    return sk_h5_write_frame(ctx, e, step, err);
}

long sk_h5_frames(const sk_h5_writer *w) { return (long)w->frames; }

const char *sk_h5_temp_path(const sk_h5_writer *w) { return w->temp; }

/* ---- the end ---------------------------------------------------------------------------------------- */

static int sync_file(const char *name)
{
    const int fd = open(name, O_RDONLY);
    if (fd < 0)
        return errno;
    const int e = fsync(fd) != 0 ? errno : 0;
    close(fd);
    return e;
}

static sk_status commit(sk_h5_writer *w, bool complete, int rc, sk_error *err);

#ifdef SKEIN_PARALLEL_HDF5
/* After the collective close: rank 0 commits the file once, for everyone. SKEIN_TEST_H5_SHARES (tests) has each
 * process say how many ropes' frames it wrote itself. */
static sk_status finish_collective(sk_h5_writer *w, bool complete, int rc, sk_error *err)
{
    if (getenv("SKEIN_TEST_H5_SHARES")) {
        fprintf(stderr, "h5 share: rank %d wrote %zu rope frames\n", w->rank, w->rows_written);
        fflush(stderr);
    }
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst && !rc)
        rc = sk_fail(err, worst, "%s: failed on another process", w->path);
    int status = SK_OK;
    const int rank = w->rank; /* commit frees w */
    if (rank == 0)
        status = commit(w, complete, rc, err);
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank != 0) {
        if (status && !rc)
            rc = sk_fail(err, status, "%s: failed on rank 0", w->path);
        writer_free(w);
    }
    return status ? status : rc;
}
#endif

sk_status sk_h5_finish(sk_h5_writer *w, bool complete, sk_error *err)
{
    int rc = 0;
    if (complete) {
        hid_t a = H5Aopen(w->file, "complete", H5P_DEFAULT);
        const int64_t one = 1;
        if (a < 0 || H5Awrite(a, H5T_NATIVE_INT64, &one) < 0)
            rc = h5_fail(w, err, "write failed");
        sk_h5_close(&a, H5Aclose);
    }
    if (rc == 0 && H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
        rc = h5_fail(w, err, "write failed");
    close_objects(w);
    const herr_t closed = H5Fclose(w->file);
    w->file = H5I_INVALID_HID;
    if (rc == 0 && closed < 0)
        rc = h5_fail(w, err, "write failed");
#ifdef SKEIN_PARALLEL_HDF5
    if (w->collective)
        return finish_collective(w, complete, rc, err);
#endif
    return commit(w, complete, rc, err);
}

/* Syncs and renames (or removes, after a failure) the closed temporary; frees w. */
static sk_status commit(sk_h5_writer *w, bool complete, int rc, sk_error *err)
{
    int e;
    if (rc == 0 && (e = sync_file(w->temp)))
        rc = sk_fail(err, SK_ERR_IO, "%s: fsync failed: %s", w->path, strerror(e));
    /* a stopped run's file goes beside the target: an earlier complete file under the name stays */
    const size_t len = strlen(w->path);
    char *target = complete ? w->path : malloc(len + sizeof SK_INCOMPLETE_SUFFIX);
    if (rc == 0 && !target)
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);
    if (!complete && target)
        snprintf(target, len + sizeof SK_INCOMPLETE_SUFFIX, "%s" SK_INCOMPLETE_SUFFIX, w->path);
    if (rc == 0 && rename(w->temp, target) != 0)
        rc = sk_fail(err, SK_ERR_IO, "%s: cannot rename the finished output onto it: %s", target, strerror(errno));
    if (!complete)
        free(target);
    if (rc)
        unlink(w->temp);
    writer_free(w);
    return rc;
}

void sk_h5_abort(sk_h5_writer *w)
{
    if (!w)
        return;
    close_all(w);
    H5Eclear2(H5E_DEFAULT);
    if (!w->collective || w->rank == 0)
        unlink(w->temp);
    writer_free(w);
}
