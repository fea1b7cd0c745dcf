/* The HDF5 writer read back with the HDF5 library: layout, shapes, chunks, units, values equal to the CSV
 * of the same run bit for bit, swept parameters, an incomplete file, and the summary's totals. */
#include <errno.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "scenario/scenario_impl.h"
#include "skein/output.h"
#include "skein/engine.h"
#include "skein/scenario.h"
#include "engine/summary.h"
#include "io/hdf5/hdf5_output.h"

#ifdef SKEIN_REAL_FLOAT
#define H5T_REAL H5T_NATIVE_FLOAT
#define REL 1e-5
#else
#define H5T_REAL H5T_NATIVE_DOUBLE
#define REL 1e-12
#endif

/* ---- helpers ------------------------------------------------------------------------------------- */

static char scratch[64];

static const char *in_scratch(const char *name)
{
    static char path[4][128];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", scratch, name);
    return p;
}

static int make_scratch(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/skein-h5.XXXXXX");
    return mkdtemp(scratch) ? 0 : 1;
}

static void remove_scratch(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", scratch);
}

static int load(const char *text, sk_scenario *s)
{
    sk_error err = {0};
    int rc = sk_scenario_load_string(text, "t.json", NULL, s, &err);
    if (rc)
        fprintf(stderr, "load: %s\n", err.message);
    return rc;
}

/* Two groups: springs with three sweeps (linear, values, random) and deploying ropes whose particle count
 * grows between frames, so counts differ per rope and per frame. */
static const char *two_groups =
    "{\"skein\": 1, \"dt\": 0.001, \"steps\": 300, \"gravity\": [0, -9.81, 0], \"groups\": ["
    "{\"count\": 5, \"particles\": 4, \"start\": [0, 2, 0], \"end\": [0.3, 2, 0], \"mass\": 0.1, \"pinned\": [0],"
    " \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 0.1},"
    " \"sweep\": {\"link.stiffness\": {\"from\": 100, \"to\": 500}, \"start[1]\": {\"values\": [2, 2.5, 3, 3.5, 4]},"
    "            \"velocity[0]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 7}}}},"
    "{\"count\": 3, \"particles\": 6, \"start\": [0, 5, 0.2], \"end\": [0, 5, 0.1], \"mass\": 0.05,"
    " \"link\": {\"type\": \"spring\", \"stiffness\": 50, \"length\": 0.05},"
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 5, 0], \"stiffness\": 50, \"length\": 0.01},"
    " \"deploy\": {\"velocity\": 1, \"initial_particles\": 2},"
    " \"sweep\": {\"deploy.velocity\": {\"values\": [0.5, 1, 2]}}}],"
    " \"output\": {\"every\": 100}}";

/* Runs s on `engine` writing ropes[] to out.h5 and out.csv in the scratch directory. */
static int run_both(const sk_scenario *s, const char *engine, const size_t *ropes, size_t n_ropes, long steps,
                    long every)
{
    sk_error err = {0};
    const sk_engine_options eo = {.engine = engine, .threads = 2};
    sk_engine *e = sk_engine_create(s, &eo, &err);
    CHECK(e != NULL);
    sk_csv_writer *csv = sk_csv_open(in_scratch("out.csv"), s->dt, ropes, n_ropes, &err);
    sk_h5_writer *h5 = sk_h5_open(in_scratch("out.h5"), s, ropes, n_ropes, steps, every, 2, &err);
    CHECK(csv && h5);
    /* the temporary is beside the target, and the target does not exist yet */
    CHECK(strncmp(sk_h5_temp_path(h5), in_scratch("out.h5.tmp."), strlen(in_scratch("out.h5.tmp."))) == 0);
    CHECK(access(in_scratch("out.h5"), F_OK) != 0);
    const sk_frame_sink sinks[2] = {{sk_csv_frame_sink, csv}, {sk_h5_frame_sink, h5}};
    const sk_run_options ro = {.steps = steps, .every = every, .sinks = sinks, .n_sinks = 2};
    sk_run_stats st;
    CHECK_OK(sk_run(e, &ro, &st, &err));
    CHECK(sk_h5_frames(h5) == st.frames);
    CHECK_OK(sk_csv_commit(csv, &err));
    CHECK_OK(sk_h5_finish(h5, true, &err));
    sk_engine_destroy(e);
    return 0;
}

static void *read_set(hid_t loc, const char *name, hid_t type, hsize_t dims[4], int *rank)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    if (d < 0)
        return NULL;
    hid_t space = H5Dget_space(d);
    *rank = H5Sget_simple_extent_dims(space, dims, NULL);
    size_t n = 1;
    for (int i = 0; i < *rank; i++)
        n *= dims[i];
    void *buf = malloc((n ? n : 1) * H5Tget_size(type));
    if (buf && n && H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        free(buf);
        buf = NULL;
    }
    H5Sclose(space);
    H5Dclose(d);
    return buf;
}

static int64_t attr_i64(hid_t loc, const char *name)
{
    int64_t v = -99;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a >= 0) {
        H5Aread(a, H5T_NATIVE_INT64, &v);
        H5Aclose(a);
    }
    return v;
}

/* A string attribute of loc/object, malloc'd (NULL when missing). */
static char *attr_string(hid_t loc, const char *object, const char *name)
{
    hid_t a = H5Aopen_by_name(loc, object, name, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0)
        return NULL;
    hid_t type = H5Aget_type(a);
    char *s = NULL, *copy = NULL;
    if (H5Tis_variable_str(type) > 0 && H5Aread(a, type, &s) >= 0 && s) {
        copy = strdup(s);
        H5free_memory(s);
    }
    H5Tclose(type);
    H5Aclose(a);
    return copy;
}

static int attr_is(hid_t loc, const char *object, const char *name, const char *want)
{
    char *s = attr_string(loc, object, name);
    int ok = s && strcmp(s, want) == 0;
    if (!ok)
        fprintf(stderr, "%s/%s attribute %s is [%s], expected [%s]\n", object, name, name, s ? s : "(none)", want);
    free(s);
    return ok;
}

/* Every dataset of the file carries a "units" attribute, as the README promises. */
static herr_t units_of(hid_t obj, const char *name, const H5O_info_t *info, void *missing)
{
    if (info->type == H5O_TYPE_DATASET && name[0] != '.' && H5Aexists_by_name(obj, name, "units", H5P_DEFAULT) <= 0) {
        fprintf(stderr, "dataset %s has no units\n", name);
        (*(int *)missing)++;
    }
    return 0;
}

static int every_set_has_units(hid_t f)
{
    int missing = 0;
    if (H5Ovisit(f, H5_INDEX_NAME, H5_ITER_NATIVE, units_of, &missing) < 0)
        return 0;
    return missing == 0;
}

/* ---- cases --------------------------------------------------------------------------------------- */

/* Attributes, shapes, chunks, filters and units of a run of ropes 0, 2, 4 (group 0) and 5, 7 (group 1). */
static int layout(void)
{
    CHECK_OK(make_scratch());
    sk_scenario s;
    CHECK_OK(load(two_groups, &s));
    const size_t ropes[5] = {0, 2, 4, 5, 7};
    CHECK_OK(run_both(&s, "batch", ropes, 5, 300, 100));

    hid_t f = H5Fopen(in_scratch("out.h5"), H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0);
    CHECK(attr_i64(f, "complete") == 1 && attr_i64(f, "steps") == 300 && attr_i64(f, "every") == 100);
    char *json = attr_string(f, ".", "scenario");
    CHECK(json && strcmp(json, s.normalized_json) == 0);
    free(json);
    CHECK(attr_is(f, ".", "real", SK_REAL_NAME) && attr_is(f, ".", "source", "t.json"));
    CHECK(attr_is(f, "time", "units", "s"));
    CHECK(attr_is(f, "step", "units", "step") && attr_is(f, "groups/0/ropes", "units", "1") &&
          attr_is(f, "groups/1/count", "units", "1"));
    CHECK(every_set_has_units(f));

    hsize_t dims[4];
    int rank;
    sk_real *time = read_set(f, "time", H5T_REAL, dims, &rank);
    int64_t *step = read_set(f, "step", H5T_NATIVE_INT64, dims, &rank);
    CHECK(time && step && rank == 1 && dims[0] == 4);
    for (int i = 0; i < 4; i++) {
        CHECK(step[i] == 100 * i);
        CHECK_SAME_BITS(time[i], (sk_real)(100 * i) * s.dt);
    }
    free(time);
    free(step);

    const hsize_t stored[2] = {3, 2}, cap[2] = {4, 6};
    for (int gi = 0; gi < 2; gi++) {
        char name[24];
        snprintf(name, sizeof name, "groups/%d", gi);
        hid_t g = H5Gopen2(f, name, H5P_DEFAULT);
        CHECK(g >= 0);
        CHECK(attr_i64(g, "first_rope") == (int64_t)s.groups[gi].first_rope);
        CHECK(attr_i64(g, "count") == (int64_t)s.groups[gi].count && attr_i64(g, "particles") == (int64_t)cap[gi]);
        const struct {
            const char *name;
            int rank;
            hsize_t inner[2];
            const char *units;
        } sets[] = {{"position", 4, {cap[gi], 3}, "m"},
                    {"velocity", 4, {cap[gi], 3}, "m/s"},
                    {"count", 2, {0, 0}, "1"},
                    {"energy", 3, {3, 0}, "J"},
                    {"tension", 3, {cap[gi] - 1, 0}, "N"}};
        for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
            hid_t d = H5Dopen2(g, sets[k].name, H5P_DEFAULT);
            CHECK(d >= 0);
            hid_t space = H5Dget_space(d);
            hsize_t max[4];
            CHECK(H5Sget_simple_extent_dims(space, dims, max) == sets[k].rank);
            CHECK(dims[0] == 4 && max[0] == H5S_UNLIMITED && dims[1] == stored[gi] && max[1] == stored[gi]);
            for (int i = 2; i < sets[k].rank; i++)
                CHECK(dims[i] == sets[k].inner[i - 2] && max[i] == dims[i]);
            /* chunks: one frame of all (here: few) ropes; shuffled and deflated */
            hid_t dcpl = H5Dget_create_plist(d);
            hsize_t chunk[4];
            CHECK(H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_chunk(dcpl, 4, chunk) == sets[k].rank);
            CHECK(chunk[0] == 1 && chunk[1] == stored[gi]);
            CHECK(H5Pget_nfilters(dcpl) == 2);
            unsigned flags, conf;
            size_t nelem = 1;
            unsigned level = 0;
            CHECK(H5Pget_filter2(dcpl, 0, &flags, &(size_t){0}, NULL, 0, NULL, &conf) == H5Z_FILTER_SHUFFLE);
            CHECK(H5Pget_filter2(dcpl, 1, &flags, &nelem, &level, 0, NULL, &conf) == H5Z_FILTER_DEFLATE);
            CHECK(level == 1);
            H5Pclose(dcpl);
            H5Sclose(space);
            if (sets[k].units)
                CHECK(attr_is(g, sets[k].name, "units", sets[k].units));
            H5Dclose(d);
        }
        uint64_t *global = read_set(g, "ropes", H5T_NATIVE_UINT64, dims, &rank);
        CHECK(global && dims[0] == stored[gi]);
        for (hsize_t r = 0; r < stored[gi]; r++)
            CHECK(global[r] == ropes[(gi ? 3 : 0) + r]);
        free(global);
        int64_t *div = read_set(g, "diverged", H5T_NATIVE_INT64, dims, &rank);
        CHECK(div && dims[0] == stored[gi] && div[0] == -1 && div[stored[gi] - 1] == -1);
        free(div);
        H5Gclose(g);
    }
    H5Fclose(f);
    /* no temporary left beside it */
    char cmd[160];
    snprintf(cmd, sizeof cmd, "ls '%s'/out.h5.tmp.* >/dev/null 2>&1", scratch);
    CHECK(system(cmd) != 0);
    sk_scenario_free(&s);
    remove_scratch();
    return 0;
}

/* Reads the CSV back: rows of (rope, step, particle) with the six reals parsed exactly. */
typedef struct csv_row {
    size_t rope;
    long step;
    int particle;
    sk_real x[6];
} csv_row;

static csv_row *read_csv(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char line[512];
    size_t cap = 256, len = 0;
    csv_row *rows = malloc(cap * sizeof *rows);
    if (!fgets(line, sizeof line, f) || strcmp(line, SK_CSV_HEADER "\n") != 0) {
        fclose(f);
        free(rows);
        return NULL;
    }
    while (rows && fgets(line, sizeof line, f)) {
        if (len == cap)
            rows = realloc(rows, (cap *= 2) * sizeof *rows);
        csv_row *r = &rows[len++];
        char *p = line;
        r->rope = strtoul(p, &p, 10);
        r->step = strtol(p + 1, &p, 10);
        strtod(p + 1, &p); /* time */
        r->particle = (int)strtol(p + 1, &p, 10);
        for (int k = 0; k < 6; k++)
#ifdef SKEIN_REAL_FLOAT
            r->x[k] = strtof(p + 1, &p);
#else
            r->x[k] = strtod(p + 1, &p);
#endif
    }
    fclose(f);
    *n = len;
    return rows;
}

/* Every position and velocity of the HDF5 file equals the CSV's row, bit for bit, and the HDF5 file holds
 * exactly the CSV's rows (counts), zeros past them; energies and tensions equal the engine's diagnostics
 * of the last frame. Both engines. */
static int equals_csv_with(const char *engine)
{
    CHECK_OK(make_scratch());
    sk_scenario s;
    CHECK_OK(load(two_groups, &s));
    const size_t ropes[6] = {0, 1, 3, 4, 5, 7};
    CHECK_OK(run_both(&s, engine, ropes, 6, 300, 100));
    size_t n_rows = 0;
    csv_row *rows = read_csv(in_scratch("out.csv"), &n_rows);
    CHECK(rows != NULL && n_rows > 0);

    /* The engine's state after the same run: the last frame's diagnostics. */
    sk_error err = {0};
    const sk_engine_options eo = {.engine = engine};
    sk_engine *e = sk_engine_create(&s, &eo, &err);
    CHECK(e != NULL);
    sk_engine_advance(e, 300);

    hid_t f = H5Fopen(in_scratch("out.h5"), H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0);
    int64_t *step = NULL;
    hsize_t dims[4], sd[4];
    int rank;
    CHECK((step = read_set(f, "step", H5T_NATIVE_INT64, sd, &rank)) != NULL);
    size_t matched = 0;
    bool grew = false;
    for (int gi = 0; gi < 2; gi++) {
        char name[24];
        snprintf(name, sizeof name, "groups/%d", gi);
        hid_t g = H5Gopen2(f, name, H5P_DEFAULT);
        sk_real *p = read_set(g, "position", H5T_REAL, dims, &rank);
        sk_real *v = read_set(g, "velocity", H5T_REAL, dims, &rank);
        int *count = read_set(g, "count", H5T_NATIVE_INT, dims, &rank);
        sk_real *energy = read_set(g, "energy", H5T_REAL, dims, &rank);
        sk_real *tension = read_set(g, "tension", H5T_REAL, dims, &rank);
        uint64_t *global = read_set(g, "ropes", H5T_NATIVE_UINT64, dims, &rank);
        CHECK(p && v && count && energy && tension && global);
        const size_t frames = sd[0], stored = dims[0], cap = (size_t)s.groups[gi].particles;
        for (size_t fr = 0; fr < frames; fr++)
            for (size_t r = 0; r < stored; r++) {
                const int n = count[fr * stored + r];
                grew |= fr > 0 && n > count[(fr - 1) * stored + r];
                for (size_t i = 0; i < cap; i++) {
                    const sk_real *pp = p + ((fr * stored + r) * cap + i) * 3, *vv = v + ((fr * stored + r) * cap + i) * 3;
                    if ((int)i >= n) {
                        for (int c = 0; c < 3; c++)
                            CHECK(pp[c] == 0 && vv[c] == 0);
                        continue;
                    }
                    /* the CSV row of this rope, step and particle */
                    const csv_row *row = NULL;
                    for (size_t k = 0; k < n_rows && !row; k++)
                        if (rows[k].rope == global[r] && rows[k].step == step[fr] && rows[k].particle == (int)i)
                            row = &rows[k];
                    CHECK(row != NULL);
                    CHECK(memcmp(pp, row->x, 3 * sizeof(sk_real)) == 0);
                    CHECK(memcmp(vv, row->x + 3, 3 * sizeof(sk_real)) == 0);
                    matched++;
                }
            }
        /* last frame: diagnostics as the engine gives them */
        sk_real *want_t = calloc(cap, sizeof *want_t);
        for (size_t r = 0; r < stored; r++) {
            sk_rope_diagnostics d;
            sk_engine_rope_diagnostics(e, global[r], &d, want_t);
            const sk_real *got = energy + ((frames - 1) * stored + r) * 3;
            CHECK_SAME_BITS(got[0], d.kinetic);
            CHECK_SAME_BITS(got[1], d.gravity);
            CHECK_SAME_BITS(got[2], d.elastic);
            const int n = sk_engine_rope_particles(e, global[r]);
            for (size_t i = 0; i + 1 < cap; i++) {
                const sk_real t = tension[((frames - 1) * stored + r) * (cap - 1) + i];
                if ((int)i + 1 < n)
                    CHECK_SAME_BITS(t, want_t[i]);
                else
                    CHECK(t == 0);
            }
        }
        free(want_t);
        free(p);
        free(v);
        free(count);
        free(energy);
        free(tension);
        free(global);
        H5Gclose(g);
    }
    CHECK(matched == n_rows); /* nothing in the CSV that the HDF5 file lacks */
    CHECK(grew);              /* the deploying ropes gained particles between frames */
    H5Fclose(f);
    free(step);
    free(rows);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    remove_scratch();
    return 0;
}

static int equals_csv(void)
{
    CHECK_OK(equals_csv_with("batch"));
    return equals_csv_with("reference");
}

/* params/<key> holds each stored rope's swept value: worked out by hand for the linear and values sweeps,
 * the loader's value for the random one; units from the key. */
static int params(void)
{
    CHECK_OK(make_scratch());
    sk_scenario s;
    CHECK_OK(load(two_groups, &s));
    const size_t ropes[4] = {1, 3, 4, 6};
    CHECK_OK(run_both(&s, "batch", ropes, 4, 0, 1));
    hid_t f = H5Fopen(in_scratch("out.h5"), H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0);
    hsize_t dims[4];
    int rank;
    /* ropes 1, 3, 4 of group 0: stiffness 100 + 400 r / 4, start.y from the list */
    sk_real *k = read_set(f, "groups/0/params/link.stiffness", H5T_REAL, dims, &rank);
    CHECK(k && rank == 1 && dims[0] == 3);
    CHECK_SAME_BITS(k[0], (sk_real)200);
    CHECK_SAME_BITS(k[1], (sk_real)400);
    CHECK_SAME_BITS(k[2], (sk_real)500);
    CHECK(attr_is(f, "groups/0/params/link.stiffness", "units", "N/m"));
    sk_real *y = read_set(f, "groups/0/params/start[1]", H5T_REAL, dims, &rank);
    CHECK(y && dims[0] == 3);
    CHECK_SAME_BITS(y[0], (sk_real)2.5);
    CHECK_SAME_BITS(y[1], (sk_real)3.5);
    CHECK_SAME_BITS(y[2], (sk_real)4);
    CHECK(attr_is(f, "groups/0/params/start[1]", "units", "m"));
    sk_real *vx = read_set(f, "groups/0/params/velocity[0]", H5T_REAL, dims, &rank);
    CHECK(vx && dims[0] == 3);
    const size_t local[3] = {1, 3, 4};
    for (int i = 0; i < 3; i++) {
        sk_rope_params rp;
        sk_group_rope_params(&s.groups[0], local[i], &rp);
        CHECK_SAME_BITS(vx[i], rp.velocity.x);
        CHECK(vx[i] >= -1 && vx[i] <= 1);
    }
    CHECK(attr_is(f, "groups/0/params/velocity[0]", "units", "m/s"));
    /* group 1 stores rope 6, its local rope 1 */
    sk_real *u = read_set(f, "groups/1/params/deploy.velocity", H5T_REAL, dims, &rank);
    CHECK(u && dims[0] == 1);
    CHECK_SAME_BITS(u[0], (sk_real)1);
    free(k);
    free(y);
    free(vx);
    free(u);
    H5Fclose(f);
    sk_scenario_free(&s);
    remove_scratch();
    return 0;
}

/* A run that stops: the file lands beside its name, as stop.h5.incomplete, says complete = 0 and holds the
 * frames written, and a complete stop.h5 from before stays as it was; an aborted writer leaves nothing, and
 * an existing file is untouched by it. */
static int incomplete(void)
{
    CHECK_OK(make_scratch());
    sk_scenario s;
    CHECK_OK(load(two_groups, &s));
    sk_error err = {0};
    sk_engine *e = sk_engine_create(&s, &(sk_engine_options){.engine = "reference"}, &err);
    CHECK(e != NULL);
    const size_t ropes[2] = {0, 6};
    sk_h5_writer *w = sk_h5_open(in_scratch("stop.h5"), &s, ropes, 2, 300, 100, 0, &err);
    CHECK(w != NULL);
    FILE *earlier = fopen(in_scratch("stop.h5"), "w");
    CHECK(earlier && fputs("a complete output\n", earlier) >= 0 && fclose(earlier) == 0);
    CHECK_OK(sk_h5_write_frame(w, e, 0, &err));
    sk_engine_advance(e, 37);
    CHECK_OK(sk_h5_write_frame(w, e, 37, &err));
    CHECK_OK(sk_h5_finish(w, false, &err));
    char kept[32] = "";
    earlier = fopen(in_scratch("stop.h5"), "r");
    CHECK(earlier && fgets(kept, sizeof kept, earlier) && strcmp(kept, "a complete output\n") == 0);
    fclose(earlier);
    hid_t f = H5Fopen(in_scratch("stop.h5.incomplete"), H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0);
    CHECK(attr_i64(f, "complete") == 0);
    hsize_t dims[4];
    int rank;
    int64_t *step = read_set(f, "step", H5T_NATIVE_INT64, dims, &rank);
    CHECK(step && dims[0] == 2 && step[0] == 0 && step[1] == 37);
    free(step);
    int *count = read_set(f, "groups/1/count", H5T_NATIVE_INT, dims, &rank);
    CHECK(count && dims[0] == 2 && dims[1] == 1 && count[0] == 2);
    free(count);
    H5Fclose(f);

    /* abort: the existing file stays as it was, the temporary goes */
    FILE *old = fopen(in_scratch("keep.h5"), "w");
    CHECK(old && fputs("old contents\n", old) >= 0 && fclose(old) == 0);
    w = sk_h5_open(in_scratch("keep.h5"), &s, ropes, 2, 300, 100, 0, &err);
    CHECK(w != NULL);
    char temp[256];
    snprintf(temp, sizeof temp, "%s", sk_h5_temp_path(w));
    CHECK(access(temp, F_OK) == 0);
    CHECK_OK(sk_h5_write_frame(w, e, 37, &err));
    sk_h5_abort(w);
    CHECK(access(temp, F_OK) != 0);
    char line[64] = "";
    old = fopen(in_scratch("keep.h5"), "r");
    CHECK(old && fgets(line, sizeof line, old) && strcmp(line, "old contents\n") == 0);
    fclose(old);

    /* a directory that does not exist: one line naming the file and the reason */
    CHECK(sk_h5_open(in_scratch("missing/out.h5"), &s, ropes, 2, 300, 100, 0, &err) == NULL);
    char want[256];
    snprintf(want, sizeof want, "%s: cannot create: No such file or directory", in_scratch("missing/out.h5"));
    CHECK(err.status == SK_ERR_IO && strcmp(err.message, want) == 0);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    remove_scratch();
    return 0;
}

/* A group with no stored rope and ropes of one particle (no links) still give a readable file. */
static int empty_selections(void)
{
    CHECK_OK(make_scratch());
    sk_scenario s;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.01, \"steps\": 4, \"groups\": ["
                  "{\"count\": 2, \"particles\": 1, \"start\": [0, 1, 0], \"end\": [0, 1, 0]},"
                  "{\"count\": 2, \"particles\": 3, \"start\": [0, 1, 0], \"end\": [2, 1, 0],"
                  " \"link\": {\"type\": \"spring\", \"stiffness\": 10}}]}",
                  &s));
    const size_t ropes[1] = {1};
    CHECK_OK(run_both(&s, "batch", ropes, 1, 4, 2));
    hid_t f = H5Fopen(in_scratch("out.h5"), H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0);
    hsize_t dims[4];
    int rank;
    sk_real *t = read_set(f, "groups/0/tension", H5T_REAL, dims, &rank);
    CHECK(t && rank == 3 && dims[0] == 3 && dims[1] == 1 && dims[2] == 0);
    free(t);
    sk_real *p = read_set(f, "groups/1/position", H5T_REAL, dims, &rank);
    CHECK(p && rank == 4 && dims[0] == 3 && dims[1] == 0 && dims[2] == 3);
    free(p);
    H5Fclose(f);
    sk_scenario_free(&s);
    remove_scratch();
    return 0;
}

/* Every sweepable key has units. */
static int param_units(void)
{
    for (int i = 0; i < sk_scn_n_sweepables; i++)
        CHECK(sk_param_units(sk_scn_sweepables[i].key) != NULL);
    CHECK(strcmp(sk_param_units("link.stiffness"), "N/m") == 0);
    CHECK(strcmp(sk_param_units("anchor.point[2]"), "m") == 0);
    CHECK(strcmp(sk_param_units("anchor.motion.omega"), "rad/s") == 0);
    CHECK(sk_param_units("count") == NULL && sk_param_units("link") == NULL);
    return 0;
}

/* The summary's totals on a case worked out by hand: 2 ropes of 3 particles 1 m apart at height 1,
 * mass 0.5, particle 0 pinned, every particle moving at (1, 0, 0) (the pinned one is held still), links of
 * rest length 0.8 with stiffness 10 and 30, gravity (0, -10, 0).
 *   kinetic: 2 unpinned particles x 0.5 x 0.5 x 1 = 0.5 per rope, 1 in all
 *   gravity: -m g.p = 5 per unpinned particle, 20 in all
 *   elastic: k 0.2^2 / 2 per link: 2 x 0.2 + 2 x 0.6 = 1.6
 *   tension: k 0.2, the largest 30 x 0.2 = 6 */
static int totals(void)
{
    sk_scenario s;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.01, \"steps\": 0, \"gravity\": [0, -10, 0], \"groups\": ["
                  "{\"count\": 2, \"particles\": 3, \"start\": [0, 1, 0], \"end\": [2, 1, 0], \"mass\": 0.5,"
                  " \"pinned\": [0], \"velocity\": [1, 0, 0],"
                  " \"link\": {\"type\": \"spring\", \"stiffness\": 10, \"length\": 0.8},"
                  " \"sweep\": {\"link.stiffness\": {\"values\": [10, 30]}}},"
                  "{\"count\": 1, \"particles\": 1, \"start\": [0, 2, 0], \"end\": [0, 2, 0], \"mass\": 2}]}",
                  &s));
    const char *engines[2] = {"batch", "reference"};
    for (int i = 0; i < 2; i++) {
        sk_error err = {0};
        sk_engine *e = sk_engine_create(&s, &(sk_engine_options){.engine = engines[i]}, &err);
        CHECK(e != NULL);
        sk_group_totals t[2];
        CHECK_OK(sk_group_totals_compute(e, t, &err));
        CHECK(t[0].ropes == 2 && t[0].particles == 6 && t[0].diverged == 0 && t[0].has_links);
        CHECK_REL(t[0].kinetic, 1.0, REL);
        CHECK_REL(t[0].gravity, 20.0, REL);
        CHECK_REL(t[0].elastic, 1.6, REL);
        CHECK_REL(t[0].max_tension, 6.0, REL);
        /* one free particle of 2 kg at height 2 with no links */
        CHECK(t[1].ropes == 1 && t[1].particles == 1 && !t[1].has_links && t[1].max_tension == 0);
        CHECK(t[1].kinetic == 0 && t[1].elastic == 0);
        CHECK_REL(t[1].gravity, 40.0, REL);
        sk_engine_destroy(e);
    }
    sk_scenario_free(&s);
    return 0;
}

/* Contact groups store what each rope's last step did: contacts generated and resolver iterations used,
 * the same from both engines, zero at step 0, and in the summary totals; other groups have no such
 * dataset. */
static int contacts(void)
{
    CHECK_OK(make_scratch());
    sk_scenario s;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.001, \"steps\": 100, \"integrator\": \"cyclone\","
                  " \"gravity\": [0, -9.81, 0], \"groups\": ["
                  "{\"count\": 3, \"particles\": 8, \"start\": [0, 2, 0], \"end\": [0.7, 2.1, 0], \"mass\": 0.1,"
                  " \"link\": {\"type\": \"rod\", \"length\": 0.1},"
                  " \"anchor\": {\"type\": \"rod\", \"point\": [0, 2.5, 0], \"length\": 0.5},"
                  " \"sweep\": {\"mass\": {\"from\": 0.05, \"to\": 0.2}}},"
                  "{\"count\": 1, \"particles\": 3, \"start\": [0, 1, 0], \"end\": [0.2, 1, 0], \"mass\": 0.1,"
                  " \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 0.1}}]}",
                  &s));
    const size_t ropes[4] = {0, 1, 2, 3};
    int *got[2] = {NULL, NULL};
    const char *engines[2] = {"batch", "reference"};
    for (int i = 0; i < 2; i++) {
        CHECK_OK(run_both(&s, engines[i], ropes, 4, 100, 50));
        hid_t f = H5Fopen(in_scratch("out.h5"), H5F_ACC_RDONLY, H5P_DEFAULT);
        CHECK(f >= 0);
        hsize_t dims[4];
        int rank;
        got[i] = read_set(f, "groups/0/contacts", H5T_NATIVE_INT, dims, &rank);
        CHECK(got[i] && rank == 3 && dims[0] == 3 && dims[1] == 3 && dims[2] == 2);
        hid_t d = H5Dopen2(f, "groups/0/contacts", H5P_DEFAULT);
        CHECK(d >= 0);
        char *about = attr_string(d, ".", "description");
        CHECK(about && strstr(about, "resolver iterations"));
        free(about);
        H5Dclose(d);
        CHECK(H5Lexists(f, "groups/1/contacts", H5P_DEFAULT) == 0);
        CHECK(every_set_has_units(f));
        H5Fclose(f);
        unlink(in_scratch("out.h5")); /* run_both writes where nothing is */
        unlink(in_scratch("out.csv"));
        for (int r = 0; r < 3; r++) {
            CHECK(got[i][2 * r] == 0 && got[i][2 * r + 1] == 0); /* step 0: no step taken */
            for (int frame = 1; frame < 3; frame++) {
                const int c = got[i][(frame * 3 + r) * 2], it = got[i][(frame * 3 + r) * 2 + 1];
                /* seven rods and the anchor at most; the resolver stops at twice the contacts */
                CHECK(c >= 1 && c <= 8 && it >= 1 && it <= 2 * c);
            }
        }
    }
    CHECK(memcmp(got[0], got[1], 3 * 3 * 2 * sizeof(int)) == 0);

    /* the summary's totals: the last frame's figures summed, and the largest */
    sk_error err = {0};
    sk_engine *e = sk_engine_create(&s, &(sk_engine_options){.engine = "batch"}, &err);
    CHECK(e != NULL);
    sk_engine_advance(e, 100);
    sk_group_totals t[2];
    CHECK_OK(sk_group_totals_compute(e, t, &err));
    uint64_t sum_c = 0, sum_it = 0;
    int max_c = 0, max_it = 0;
    for (int r = 0; r < 3; r++) {
        const int c = got[0][(2 * 3 + r) * 2], it = got[0][(2 * 3 + r) * 2 + 1];
        sum_c += (uint64_t)c;
        sum_it += (uint64_t)it;
        max_c = c > max_c ? c : max_c;
        max_it = it > max_it ? it : max_it;
    }
    CHECK(t[0].has_contacts && t[0].contacts == sum_c && t[0].iterations == sum_it);
    CHECK(t[0].max_contacts == max_c && t[0].max_iterations == max_it);
    CHECK(!t[1].has_contacts && t[1].contacts == 0 && t[1].iterations == 0);
    sk_engine_destroy(e);
    free(got[0]);
    free(got[1]);
    sk_scenario_free(&s);
    remove_scratch();
    return 0;
}

CHECK_MAIN({"layout", layout}, {"equals_csv", equals_csv}, {"params", params}, {"incomplete", incomplete},
           {"empty_selections", empty_selections}, {"param_units", param_units}, {"totals", totals},
           {"contacts", contacts})
