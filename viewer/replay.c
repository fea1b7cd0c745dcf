/* Reading the frames of chosen ropes from skein run --h5's output with libhdf5, and putting a frame into the
 * viewer's ropes. The file may come from anyone: every extent, index and count in it is
 * checked against what the file stores and the scenario it holds before anything is sized or read by it. */
#include "replay.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skein/engine.h"
#include "util/checked.h"
#include "util/h5_block.h"
#include "util/h5_read.h"

static int damaged(const sk_replay *r, sk_error *err, const char *why)
{
    return sk_fail(err, SK_ERR_CORRUPT, "%s: not a skein HDF5 output, or damaged (%s)", r->path, why);
}

static int oom(sk_error *err) { return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory"); }

/* Reads the block start + count of dataset loc/name into out as memtype: rank is the dataset's own, which
 * sk_h5_get_dims checked before anything was sized for it. */
static bool read_slab(hid_t loc, const char *name, hid_t memtype, int rank, const hsize_t *start,
                      const hsize_t *count, void *out)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    const bool ok = d >= 0 && sk_h5_read_block(d, memtype, rank, start, count, out) == 0;
    sk_h5_close(&d, H5Dclose);
    return ok;
}

/* Reads one group's stored ropes, checking they belong to it and that its frame datasets have the shape
 * the scenario gives; lowers r->frames to the frames every dataset holds. */
static int open_group(sk_replay *r, hid_t file, int g, size_t **ropes, size_t *n, sk_error *err)
{
    sk_group_info gi;
    sk_scenario_group(r->scenario, g, &gi);
    const sk_group_info *sg = &gi;
    char name[48];
    snprintf(name, sizeof name, "groups/%d", g);
    if (H5Lexists(file, "groups", H5P_DEFAULT) <= 0 || H5Lexists(file, name, H5P_DEFAULT) <= 0)
        return damaged(r, err, "a group of the scenario is missing");
    hid_t gid = H5Gopen2(file, name, H5P_DEFAULT);
    if (gid < 0)
        return damaged(r, err, "a group cannot be read");
    int rc = 0;
    hsize_t d1[1], d2[2], d3[3], d4[4];
    uint64_t *global = NULL;
    if (!sk_h5_get_dims(gid, "ropes", 1, d1, sizeof *global)) {
        rc = damaged(r, err, "a group's rope index is missing, or larger than the file holds");
    } else if (d1[0] > sg->count) { /* each a rope of the group, each once */
        rc = damaged(r, err, "a group stores more ropes than it has");
    } else if (!(global = sk_alloc_array(d1[0], sizeof *global)) ||
               !(*ropes = sk_alloc_array(d1[0], sizeof **ropes))) {
        rc = oom(err);
    } else {
        *n = d1[0];
        const hsize_t zero[1] = {0};
        if (*n && !read_slab(gid, "ropes", H5T_NATIVE_UINT64, 1, zero, d1, global))
            rc = damaged(r, err, "a rope index cannot be read");
        for (size_t j = 0; rc == 0 && j < *n; j++) {
            (*ropes)[j] = (size_t)global[j];
            if (global[j] < sg->first_rope || global[j] - sg->first_rope >= sg->count ||
                (j > 0 && global[j] <= global[j - 1]))
                rc = damaged(r, err, "a rope index does not match the scenario");
        }
    }
    if (rc == 0 && (!sk_h5_get_dims(gid, "position", 4, d4, sizeof(double)) || d4[1] != *n ||
                    d4[2] != (hsize_t)sg->particles || d4[3] != 3 || !sk_h5_get_dims(gid, "count", 2, d2, sizeof(int)) ||
                    d2[1] != *n || !sk_h5_get_dims(gid, "energy", 3, d3, sizeof(double)) || d3[1] != *n || d3[2] != 3 ||
                    !sk_h5_get_dims(gid, "diverged", 1, d1, sizeof(int64_t)) || d1[0] != *n))
        rc = damaged(r, err, "a group's datasets do not have the scenario's shape, or are larger than the file holds");
    if (rc == 0) {
        hsize_t f = d4[0] < d2[0] ? d4[0] : d2[0];
        f = f < d3[0] ? f : d3[0];
        if (f < (hsize_t)r->frames)
            r->frames = (long)f;
    }
    free(global);
    H5Gclose(gid);
    return rc;
}

/* Appends a group's ropes to r->stored. */
static int add_stored(sk_replay *r, int g, const size_t *ropes, size_t n, sk_error *err)
{
    size_t total = r->n_stored + n;
    size_t *s = realloc(r->stored, (total ? total : 1) * sizeof *s);
    if (s)
        r->stored = s;
    size_t *slot = realloc(r->stored_slot, (total ? total : 1) * sizeof *slot);
    if (slot)
        r->stored_slot = slot;
    int *grp = realloc(r->stored_group, (total ? total : 1) * sizeof *grp);
    if (grp)
        r->stored_group = grp;
    if (!s || !slot || !grp)
        return oom(err);
    for (size_t j = 0; j < n; j++) {
        r->stored[r->n_stored + j] = ropes[j];
        r->stored_slot[r->n_stored + j] = j;
        r->stored_group[r->n_stored + j] = g;
    }
    r->n_stored = total;
    return 0;
}

static int read_root(sk_replay *r, hid_t file, sk_error *err)
{
    char *json = sk_h5_get_text(file, "scenario");
    int64_t complete;
    if (!json || !sk_h5_get_scalar(file, "complete", H5T_NATIVE_INT64, &complete)) {
        free(json);
        return damaged(r, err, "no scenario or complete attribute");
    }
    r->complete = complete != 0;
    sk_error serr = {0};
    r->scenario = sk_scenario_parse(json, r->path, NULL, &serr);
    free(json);
    int rc = 0;
    if (!r->scenario)
        return sk_fail(err, SK_ERR_CORRUPT, "%s: its scenario attribute is not a valid scenario: %s", r->path,
                       serr.message);
    hsize_t dt[1], ds[1];
    if (!sk_h5_get_dims(file, "time", 1, dt, sizeof *r->time) || !sk_h5_get_dims(file, "step", 1, ds, sizeof *r->step))
        return damaged(r, err, "/time or /step is missing, or larger than the file holds");
    r->frames = (long)(dt[0] < ds[0] ? dt[0] : ds[0]); /* bounded by what the file stores: a long holds it */
    r->time = sk_alloc_array((size_t)r->frames, sizeof *r->time);
    r->step = sk_alloc_array((size_t)r->frames, sizeof *r->step);
    if (!r->time || !r->step)
        return oom(err);
    const hsize_t zero[1] = {0}, count[1] = {(hsize_t)r->frames};
    if (r->frames && (!read_slab(file, "time", H5T_NATIVE_DOUBLE, 1, zero, count, r->time) ||
                      !read_slab(file, "step", H5T_NATIVE_INT64, 1, zero, count, r->step)))
        return damaged(r, err, "/time or /step cannot be read");
    /* frames in order, at the times of their steps: what the playback and the ropes' anchors go by */
    for (long f = 0; f < r->frames; f++)
        if (!isfinite(r->time[f]) || r->step[f] < 0 || (f > 0 && r->step[f] <= r->step[f - 1]))
            return damaged(r, err, "/time or /step does not hold frames in order");
    for (int g = 0; g < sk_scenario_groups(r->scenario); g++) {
        size_t *ropes = NULL, n = 0;
        rc = open_group(r, file, g, &ropes, &n, err);
        if (rc == 0)
            rc = add_stored(r, g, ropes, n, err);
        free(ropes);
        if (rc)
            return rc;
    }
    if (r->frames == 0)
        return sk_fail(err, SK_ERR_INVALID, "%s: holds no frames", r->path);
    if (r->n_stored == 0)
        return sk_fail(err, SK_ERR_INVALID, "%s: holds no ropes", r->path);
    return 0;
}

int sk_replay_open(const char *path, sk_replay *r, sk_error *err)
{
    *r = (sk_replay){0};
    if (!(r->path = strdup(path)))
        return oom(err);
    /* Failures are reported here, in one line: HDF5's own stack print would say the same at length. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        sk_replay_free(r);
        return sk_fail(err, SK_ERR_INVALID, "%s: cannot open", path);
    }
    fclose(probe);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int rc = file < 0 ? (int)sk_fail(err, SK_ERR_CORRUPT, "%s: not an HDF5 file, or damaged", path) : read_root(r, file, err);
    if (file >= 0)
        H5Fclose(file);
    if (rc)
        sk_replay_free(r);
    return rc;
}

void sk_replay_stored_list(const sk_replay *r, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < r->n_stored;) {
        size_t j = i;
        while (j + 1 < r->n_stored && r->stored[j + 1] == r->stored[j] + 1)
            j++;
        char piece[64];
        if (j == i)
            snprintf(piece, sizeof piece, "%s%zu", i ? "," : "", r->stored[i]);
        else
            snprintf(piece, sizeof piece, "%s%zu-%zu", i ? "," : "", r->stored[i], r->stored[j]);
        size_t len = strlen(piece);
        if (used + len + 4 >= size) {
            snprintf(out + used, size - used, ",...");
            return;
        }
        memcpy(out + used, piece, len + 1);
        used += len;
        i = j + 1;
    }
}

/* Reads rope k's frames from its group (whose datasets' extents open_group checked: frames, slot and
 * capacity are within them). */
static int read_rope(sk_replay *r, hid_t file, sk_replay_rope *rope, size_t slot, sk_error *err)
{
    const size_t frames = (size_t)r->frames, cap = (size_t)rope->capacity;
    size_t reals = 0;
    rope->position = sk_size_mul(frames, cap, &reals) ? sk_alloc_array(reals, 3 * sizeof *rope->position) : NULL;
    rope->count = sk_alloc_array(frames, sizeof *rope->count);
    rope->energy = sk_alloc_array(frames, sizeof *rope->energy);
    double *energy3 = sk_alloc_array(frames, 3 * sizeof *energy3);
    if (!rope->position || !rope->count || !rope->energy || !energy3) {
        free(energy3);
        return oom(err);
    }
    char name[48];
    snprintf(name, sizeof name, "groups/%d", rope->group);
    hid_t gid = H5Gopen2(file, name, H5P_DEFAULT);
    const hsize_t p0[4] = {0, slot, 0, 0}, pn[4] = {frames, 1, cap, 3};
    const hsize_t c0[2] = {0, slot}, cn[2] = {frames, 1};
    const hsize_t e0[3] = {0, slot, 0}, en[3] = {frames, 1, 3};
    const hsize_t d0[1] = {slot}, dn[1] = {1};
    bool ok = gid >= 0 && read_slab(gid, "position", H5T_NATIVE_DOUBLE, 4, p0, pn, rope->position) &&
              read_slab(gid, "count", H5T_NATIVE_INT, 2, c0, cn, rope->count) &&
              read_slab(gid, "energy", H5T_NATIVE_DOUBLE, 3, e0, en, energy3) &&
              read_slab(gid, "diverged", H5T_NATIVE_INT64, 1, d0, dn, &rope->diverged);
    if (gid >= 0)
        H5Gclose(gid);
    ok = ok && rope->diverged >= -1;
    for (size_t f = 0; ok && f < frames; f++) {
        rope->energy[f] = energy3[3 * f] + energy3[3 * f + 1] + energy3[3 * f + 2];
        ok = rope->count[f] >= 1 && rope->count[f] <= rope->capacity;
    }
    free(energy3);
    return ok ? 0 : damaged(r, err, "a rope's frames cannot be read");
}

int sk_replay_read(sk_replay *r, const size_t *global, int n, sk_error *err)
{
    const size_t first = r->stored[0];
    if (n == 0) {
        global = &first;
        n = 1;
    }
    r->ropes = calloc((size_t)n, sizeof *r->ropes);
    if (!r->ropes)
        return oom(err);
    hid_t file = H5Fopen(r->path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0)
        return sk_fail(err, SK_ERR_CORRUPT, "%s: not an HDF5 file, or damaged", r->path);
    int rc = 0;
    for (int k = 0; rc == 0 && k < n; k++) {
        size_t i = 0;
        while (i < r->n_stored && r->stored[i] != global[k])
            i++;
        if (i == r->n_stored) {
            char list[160];
            sk_replay_stored_list(r, list, sizeof list);
            rc = sk_fail(err, SK_ERR_INVALID, "--rope %zu: %s holds ropes %s", global[k], r->path, list);
            break;
        }
        sk_replay_rope *rope = &r->ropes[k];
        rope->global = global[k];
        rope->group = r->stored_group[i];
        sk_group_info g;
        sk_scenario_group(r->scenario, rope->group, &g);
        rope->capacity = g.particles;
        r->n_ropes = k + 1;
        rc = read_rope(r, file, rope, r->stored_slot[i], err);
    }
    H5Fclose(file);
    return rc;
}

void sk_replay_free(sk_replay *r)
{
    for (int k = 0; k < r->n_ropes; k++) {
        free(r->ropes[k].position);
        free(r->ropes[k].count);
        free(r->ropes[k].energy);
    }
    free(r->ropes);
    free(r->stored);
    free(r->stored_group);
    free(r->stored_slot);
    free(r->time);
    free(r->step);
    free(r->path);
    sk_scenario_destroy(r->scenario);
    *r = (sk_replay){0};
}

int sk_replay_show(const sk_replay *r, long f, sk_view_sim *sim, sk_error *err)
{
    for (int k = 0; k < sim->n && k < r->n_ropes; k++) {
        const sk_replay_rope *rope = &r->ropes[k];
        sk_view_rope *v = &sim->ropes[k];
        if (rope->capacity != v->capacity || rope->count[f] < 0 || rope->count[f] > v->capacity)
            return damaged(r, err, "a rope's particle count does not fit its group");
        const double *p = rope->position + (size_t)f * (size_t)rope->capacity * 3;
        for (size_t i = 0; i < (size_t)rope->capacity * 3; i++) {
            v->p[i] = (sk_real)p[i];
            v->v[i] = 0;
        }
        v->n = rope->count[f];
        if (v->held_last) /* a deploying rope's anchor holds its last particle */
            v->hold.held = v->n > 0 ? v->n - 1 : 0;
        v->diverged = rope->diverged >= 0 && r->step[f] >= rope->diverged;
    }
    sim->steps = (long)r->step[f];
    return 0;
}
