/* Warm starts (sk_warm_start, "initial" {from, frame}): run A writes its frames to HDF5; run B, started from
 * frame k of A's file and stepped for A's remaining steps, ends with A's last state to the bit: p, v and the
 * particle counts of every rope, for every integrator, springs, a deploying group and contact groups, on the
 * reference engine and the batch engine at every ISA with 1 and 2 threads, from a file either engine wrote.
 * A rope diverging later goes back to its last sound frame, stepped again from the warm start. Files that
 * cannot be started from are refused with one line naming the scenario, the key and the file. */
#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "skein/output.h"
#include "test_batch_common.h"
#include "io/hdf5/hdf5_output.h"

static const char *const integrators[] = {"cyclone", "euler", "symplectic", "verlet", "implicit"};

static char scratch_dir[64];

static const char *scratch(const char *name)
{
    static char paths[4][sizeof scratch_dir + 256];
    static int next;
    if (!scratch_dir[0]) {
        snprintf(scratch_dir, sizeof scratch_dir, "%s", "/tmp/skein-warm.XXXXXX");
        if (!mkdtemp(scratch_dir))
            abort();
    }
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%.250s", scratch_dir, name);
    return p;
}

/* Springs pinned at one end with swept stiffness, a group deploying from an anchored spring, and free pairs
 * that cross x = 0 and z = 0 about the frames taken: 11, 9 and 7 ropes (ragged last packs at every width).
 * With the ground (%s) every group is a contact group. */
#define SCENARIO                                                                                               \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": %ld, \"integrator\": \"%s\", %s \"groups\": ["                    \
    " {\"count\": 11, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"         \
    "  \"damping\": 0.9, \"velocity\": [0.7, 0.3, -1.1],"                                                  \
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 3000},"                                              \
    "  \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 500, \"max\": 5000, \"seed\": 81}},"              \
    "   \"start[1]\": {\"random\": {\"min\": 8.6, \"max\": 10, \"seed\": 82}}}},"                              \
    " {\"count\": 9, \"particles\": 12, \"start\": [0, 9.2, 0], \"end\": [0, 9.3, 0], \"mass\": 0.05,"         \
    "  \"damping\": 0.9, \"link\": {\"type\": \"spring\", \"stiffness\": 2000, \"length\": 0.1},"              \
    "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 9.4, 0], \"stiffness\": 2000, \"length\": 0.05}," \
    "  \"deploy\": {\"velocity\": 2, \"initial_particles\": 2},"                                               \
    "  \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 1, \"max\": 4, \"seed\": 83}}}},"             \
    " {\"count\": 7, \"particles\": 2, \"start\": [-0.08, 10, 0.05], \"end\": [-0.07, 10, 0.05],"            \
    "  \"velocity\": [1, 0.5, -1], \"link\": {\"type\": \"spring\", \"stiffness\": 100},"                   \
    "  \"sweep\": {\"start[0]\": {\"random\": {\"min\": -0.09, \"max\": -0.06, \"seed\": 84}}}}]%s}"

#define GROUND "\"ground\": {\"height\": 8.5, \"restitution\": 0.2},"
#define STEPS 400
#define EVERY 50

/* Runs scenario json on engine `engine` for its steps, a frame every EVERY steps into h5 (NULL: none). */
static sk_engine *run_to_end(const sk_scenario *s, const char *engine, const char *isa, int threads, const char *h5)
{
    sk_engine *e = tb_engine(s, engine, isa, threads);
    if (!e)
        return NULL;
    sk_error err = {0};
    if (sk_warm_start(e, &err)) {
        fprintf(stderr, "warm start: %s\n", err.message);
        sk_engine_destroy(e);
        return NULL;
    }
    sk_h5_writer *w = NULL;
    if (h5 && !(w = sk_h5_open(h5, s, s->output_ropes, s->n_output_ropes, s->steps, EVERY, threads, &err))) {
        fprintf(stderr, "%s\n", err.message);
        sk_engine_destroy(e);
        return NULL;
    }
    const sk_frame_sink sink = {sk_h5_frame_sink, w};
    const sk_run_options ro = {.steps = s->steps, .every = EVERY, .sinks = w ? &sink : NULL, .n_sinks = w ? 1 : 0};
    sk_run_stats st;
    sk_status rc = sk_run(e, &ro, &st, &err);
    if (rc == 0 && w)
        rc = sk_h5_finish(w, true, &err);
    else if (w)
        sk_h5_abort(w);
    if (rc) {
        fprintf(stderr, "run: %s\n", err.message);
        sk_engine_destroy(e);
        return NULL;
    }
    return e;
}

/* Run A (steps STEPS on `writer`) to a file; from frame `frame` of it (k = the frame's index), runs of the
 * remaining steps on the reference and on every ISA with 1 and 2 threads end where A ended. */
static int continue_case(const char *integrator, bool ground, const char *writer, long frame)
{
    char json[4096], initial[512];
    const char *h5 = scratch("a.h5");
    unlink(h5);
    sk_scenario a, b;
    CHECK_OK(tb_load(&a, SCENARIO, (long)STEPS, integrator, ground ? GROUND : "", ""));
    sk_engine *ea = run_to_end(&a, writer, "auto", 2, h5);
    CHECK(ea);
    for (size_t r = 0; r < a.total_ropes; r++) /* a diverged rope would hold a frame, not its state */
        CHECK(sk_engine_rope_diverged(ea, r) < 0);
    const long frames = STEPS / EVERY + 1, k = frame < 0 ? frames + frame : frame;
    snprintf(initial, sizeof initial, ", \"initial\": {\"from\": \"%s\", \"frame\": %ld}", h5, frame);
    snprintf(json, sizeof json, SCENARIO, STEPS - k * EVERY, integrator, ground ? GROUND : "", initial);
    CHECK_OK(tb_load(&b, "%s", json));
    const char *isas[4];
    const int n_isas = tb_isas(isas, 4);
    int failed = 0;
    sk_engine *eb = run_to_end(&b, "reference", NULL, 1, NULL);
    failed |= !eb || tb_same_state(&a, ea, eb, "reference from the file");
    sk_engine_destroy(eb);
    for (int i = 0; i < n_isas && !failed; i++)
        for (int t = 1; t <= 2 && !failed; t++) {
            eb = run_to_end(&b, "batch", isas[i], t, NULL);
            failed |= !eb || tb_same_state(&a, ea, eb, isas[i]);
            sk_engine_destroy(eb);
        }
    /* the deploying ropes did deploy between the frame and the end: the restart carried a growing rope */
    const size_t deploying = a.groups[1].first_rope;
    failed |= sk_engine_rope_particles(ea, deploying) <= a.groups[1].deploy_initial;
    sk_engine_destroy(ea);
    sk_scenario_free(&a);
    sk_scenario_free(&b);
    unlink(h5);
    if (failed)
        fprintf(stderr, "%s%s from frame %ld of the %s engine's file\n", integrator, ground ? " with ground" : "",
                frame, writer);
    return failed;
}

static int each_integrator(bool ground)
{
    for (size_t i = 0; i < sizeof integrators / sizeof *integrators; i++) {
        /* frames from either end, files from either engine */
        CHECK_OK(continue_case(integrators[i], ground, i % 2 ? "reference" : "batch", 3));
        CHECK_OK(continue_case(integrators[i], ground, i % 2 ? "batch" : "reference", -2));
    }
    return 0;
}

static int continue_springs_deploy(void) { return each_integrator(false); }
static int continue_contacts(void) { return each_integrator(true); }

/* The implicit integrator's Newton iterations beyond the first start from the restored state too. */
static int continue_implicit_iterations(void)
{
    char json[4096], initial[512];
    const char *h5 = scratch("i.h5");
    unlink(h5);
    const char *opts = "\"implicit\": {\"iterations\": 3},";
    sk_scenario a, b;
    CHECK_OK(tb_load(&a, SCENARIO, (long)STEPS, "implicit", opts, ""));
    sk_engine *ea = run_to_end(&a, "batch", "auto", 1, h5);
    CHECK(ea);
    snprintf(initial, sizeof initial, ", \"initial\": {\"from\": \"%s\", \"frame\": 5}", h5);
    snprintf(json, sizeof json, SCENARIO, (long)(STEPS - 5 * EVERY), "implicit", opts, initial);
    CHECK_OK(tb_load(&b, "%s", json));
    sk_engine *eb = run_to_end(&b, "reference", NULL, 1, NULL);
    CHECK(eb);
    CHECK_OK(tb_same_state(&a, ea, eb, "implicit, 3 iterations"));
    sk_engine_destroy(eb);
    sk_engine_destroy(ea);
    sk_scenario_free(&a);
    sk_scenario_free(&b);
    unlink(h5);
    return 0;
}

/* A rope that diverges after a warm start goes back to its last sound frame, stepped again from the warm
 * start (not from its group's shape): a run stopped at that frame has it to the bit, on every engine. The
 * stiffer ropes (about the scheme's stability limit) diverge at steps 50 to 200. */
#define DIVERGING                                                                                              \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": %ld, \"integrator\": \"symplectic\", \"groups\": ["            \
    " {\"count\": 8, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"        \
    "  \"mass\": 0.05, \"damping\": 0.9, \"link\": {\"type\": \"spring\", \"stiffness\": 3000}%s}]%s}"

static int same_rope(const sk_engine *a, const sk_engine *b, size_t rope)
{
    sk_real pa[30], va[30], pb[30], vb[30];
    CHECK(sk_engine_rope_particles(a, rope) == 10 && sk_engine_rope_particles(b, rope) == 10);
    sk_engine_read_rope(a, rope, pa, va);
    sk_engine_read_rope(b, rope, pb, vb);
    CHECK(memcmp(pa, pb, sizeof pa) == 0 && memcmp(va, vb, sizeof va) == 0);
    return 0;
}

static int diverge_after_start(void)
{
    const char *h5 = scratch("settled.h5");
    char json[4096], initial[512];
    const char *sweep = ", \"sweep\": {\"link.stiffness\": {\"values\": [3000, 2.2e5, 3000, 2.1e5, 2.25e5, 3000, "
                        "2.15e5, 2.3e5]}}";
    sk_scenario a, b;
    unlink(h5);
    CHECK_OK(tb_load(&a, DIVERGING, 200L, "", ""));
    sk_engine *ea = run_to_end(&a, "batch", "auto", 1, h5);
    CHECK(ea);
    sk_engine_destroy(ea);
    snprintf(initial, sizeof initial, ", \"initial\": {\"from\": \"%s\"}", h5);
    snprintf(json, sizeof json, DIVERGING, 1000L, sweep, initial);
    CHECK_OK(tb_load(&b, "%s", json));
    sk_engine *ref = run_to_end(&b, "reference", NULL, 1, NULL);
    CHECK(ref);
    int later = 0, rc = 0;
    for (size_t r = 0; r < b.total_ropes && rc == 0; r++) {
        const long d = sk_engine_rope_diverged(ref, r);
        if (d < 0)
            continue;
        later += d >= 100; /* stepped again past a frame check, from the warm start */
        sk_scenario c;
        snprintf(json, sizeof json, DIVERGING, d - EVERY, sweep, initial);
        CHECK_OK(tb_load(&c, "%s", json));
        sk_engine *ec = run_to_end(&c, "reference", NULL, 1, NULL);
        rc = !ec || sk_engine_rope_diverged(ec, r) >= 0 || same_rope(ref, ec, r);
        if (rc)
            fprintf(stderr, "rope %zu, diverged at step %ld, does not hold its frame of step %ld\n", r, d, d - EVERY);
        sk_engine_destroy(ec);
        sk_scenario_free(&c);
    }
    CHECK(later >= 2);
    const char *isas[4];
    const int n_isas = tb_isas(isas, 4);
    for (int i = 0; i < n_isas && rc == 0; i++)
        for (int t = 1; t <= 2 && rc == 0; t++) {
            sk_engine *eb = run_to_end(&b, "batch", isas[i], t, NULL);
            rc = !eb || tb_same_state(&b, ref, eb, isas[i]);
            for (size_t r = 0; eb && rc == 0 && r < b.total_ropes; r++)
                rc = sk_engine_rope_diverged(eb, r) != sk_engine_rope_diverged(ref, r);
            sk_engine_destroy(eb);
        }
    sk_engine_destroy(ref);
    sk_scenario_free(&a);
    sk_scenario_free(&b);
    unlink(h5);
    return rc;
}

/* ---- refusals ------------------------------------------------------------------------------------------ */

/* Writes the file of a run of SCENARIO with `integrator` and `extra` (after the groups, e.g. an output
 * selection), STEPS steps, to path. */
static int write_file(const char *path, const char *integrator, const char *extra)
{
    sk_scenario a;
    unlink(path);
    CHECK_OK(tb_load(&a, SCENARIO, (long)STEPS, integrator, "", extra));
    sk_engine *e = run_to_end(&a, "batch", "auto", 1, path);
    CHECK(e);
    sk_engine_destroy(e);
    sk_scenario_free(&a);
    return 0;
}

/* Loads SCENARIO with `integrator` and `fmt`'s text after the groups (its "initial"), warm-starts an engine
 * and expects `status` and a message holding every one of the NULL-ended fragments. */
static int expect_refused(const char *engine, const char *integrator, sk_status status, const char *after, ...)
{
    char json[4096];
    snprintf(json, sizeof json, SCENARIO, (long)STEPS, integrator, "", after);
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    sk_engine *e = tb_engine(&s, engine, "auto", 1);
    CHECK(e);
    sk_error err = {0};
    const sk_status rc = sk_warm_start(e, &err);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    if (rc != status) {
        fprintf(stderr, "status %d, expected %d: %s\n", (int)rc, (int)status, err.message);
        return 1;
    }
    CHECK(strchr(err.message, '\n') == NULL);
    va_list ap;
    va_start(ap, after);
    for (const char *f = va_arg(ap, const char *); f; f = va_arg(ap, const char *))
        if (!strstr(err.message, f)) {
            fprintf(stderr, "'%s' lacks '%s'\n", err.message, f);
            va_end(ap);
            return 1;
        }
    va_end(ap);
    return 0;
}

#define INITIAL(path, frame) ", \"initial\": {\"from\": \"%s\", \"frame\": %d}", path, frame

static const char *initial(const char *path, int frame)
{
    static char text[600];
    snprintf(text, sizeof text, INITIAL(path, frame));
    return text;
}

static int refuse_missing_file(void)
{
    const char *path = scratch("none.h5");
    unlink(path);
    CHECK_OK(expect_refused("batch", "symplectic", SK_ERR_INVALID, initial(path, -1), "<test>: initial.from: ", path,
                            ": cannot open: No such file or directory", NULL));
    return 0;
}

static int refuse_not_hdf5(void)
{
    const char *path = scratch("text.h5");
    FILE *f = fopen(path, "w");
    CHECK(f);
    fputs("not an HDF5 file\n", f);
    fclose(f);
    CHECK_OK(expect_refused("reference", "symplectic", SK_ERR_CORRUPT, initial(path, -1),
                            "not a skein HDF5 output, or damaged (not an HDF5 file)", NULL));
    /* an HDF5 file that is not skein's */
    hid_t h = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(h >= 0);
    H5Fclose(h);
    CHECK_OK(expect_refused("batch", "symplectic", SK_ERR_CORRUPT, initial(path, -1),
                            "not a skein HDF5 output, or damaged (no scenario, real type or steps)", NULL));
    unlink(path);
    return 0;
}

static int refuse_frame_out_of_range(void)
{
    const char *path = scratch("frames.h5");
    CHECK_OK(write_file(path, "symplectic", ""));
    /* 9 frames: 0 .. 8, -9 .. -1 */
    CHECK_OK(expect_refused("batch", "symplectic", SK_OK, initial(path, 8), NULL));
    CHECK_OK(expect_refused("batch", "symplectic", SK_OK, initial(path, -9), NULL));
    CHECK_OK(expect_refused("batch", "symplectic", SK_ERR_INVALID, initial(path, 9),
                            "<test>: initial.frame: 9 is out of range: ", path,
                            " holds 9 frames (0 to 8, or -9 to -1 from the end)", NULL));
    CHECK_OK(expect_refused("reference", "symplectic", SK_ERR_INVALID, initial(path, -10),
                            "initial.frame: -10 is out of range", NULL));
    unlink(path);
    return 0;
}

/* A file of another batch: rope counts, particle counts, groups. */
static int refuse_other_shapes(void)
{
    const char *path = scratch("other.h5");
    char json[4096];
    sk_scenario a;
    /* the same groups, the first with 12 ropes */
    snprintf(json, sizeof json, SCENARIO, (long)STEPS, "symplectic", "", "");
    char *at = strstr(json, "\"count\": 11");
    CHECK(at);
    memcpy(at, "\"count\": 12", 11);
    CHECK_OK(tb_load(&a, "%s", json));
    sk_engine *e = run_to_end(&a, "batch", "auto", 1, path);
    CHECK(e);
    sk_engine_destroy(e);
    sk_scenario_free(&a);
    CHECK_OK(expect_refused("batch", "symplectic", SK_ERR_MISMATCH, initial(path, -1),
                            "groups[0] has 12 ropes of 10 particles there (from rope 0), the scenario's 11 of 10 "
                            "(from rope 0): a warm start needs the same ropes",
                            NULL));
    /* the first group with 11 particles */
    snprintf(json, sizeof json, SCENARIO, (long)STEPS, "symplectic", "", "");
    at = strstr(json, "\"particles\": 10");
    CHECK(at);
    memcpy(at, "\"particles\": 11", 15);
    CHECK_OK(tb_load(&a, "%s", json));
    CHECK((e = run_to_end(&a, "batch", "auto", 1, path)));
    sk_engine_destroy(e);
    sk_scenario_free(&a);
    CHECK_OK(expect_refused("reference", "symplectic", SK_ERR_MISMATCH, initial(path, -1),
                            "groups[0] has 11 ropes of 11 particles there", NULL));
    /* one group only */
    CHECK_OK(tb_load(&a, "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 10, \"groups\": [{\"count\": 11, \"particles\": "
                         "10, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"link\": {\"type\": \"rod\"}}]}"));
    CHECK((e = run_to_end(&a, "batch", "auto", 1, path)));
    sk_engine_destroy(e);
    sk_scenario_free(&a);
    CHECK_OK(expect_refused("batch", "symplectic", SK_ERR_MISMATCH, initial(path, -1),
                            "it has 1 groups, the scenario 3: a warm start needs the same groups", NULL));
    unlink(path);
    return 0;
}

/* A file written with a subset of the ropes (output.ropes here, --ropes on the command line). */
static int refuse_rope_subset(void)
{
    const char *path = scratch("subset.h5");
    CHECK_OK(write_file(path, "symplectic", ", \"output\": {\"ropes\": [0, 1, 2, 12]}"));
    CHECK_OK(expect_refused("batch", "symplectic", SK_ERR_MISMATCH, initial(path, -1),
                            "groups[0]: it stores 3 of the group's 11 ropes (written with a selection of ropes): a "
                            "warm start needs every rope",
                            NULL));
    unlink(path);
    return 0;
}

/* Verlet needs the previous positions, which only a verlet run stores; a file from before them (the dataset
 * removed) is refused the same way, and so is a deploying group's file without its segments. */
static int refuse_missing_state(void)
{
    const char *path = scratch("state.h5");
    CHECK_OK(write_file(path, "symplectic", ""));
    CHECK_OK(expect_refused("reference", "verlet", SK_ERR_MISMATCH, initial(path, -1),
                            "groups[0] has no previous positions, which verlet needs (dataset previous): written by an "
                            "older skein, or by a run with another integrator or deployment",
                            NULL));
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    CHECK(f >= 0);
    CHECK(H5Ldelete(f, "groups/1/segment", H5P_DEFAULT) >= 0);
    H5Fclose(f);
    CHECK_OK(expect_refused("batch", "symplectic", SK_ERR_MISMATCH, initial(path, -1),
                            "groups[1] has no anchored segments, which a deploying group needs (dataset segment)",
                            NULL));
    unlink(path);
    return 0;
}

/* A frame whose state is not finite (what the writer stores for an engine that keeps no previous positions
 * or segments), and counts a group's ropes cannot have. */
static int refuse_bad_values(void)
{
    const char *path = scratch("values.h5");
    CHECK_OK(write_file(path, "verlet", ""));
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    CHECK(f >= 0);
    hid_t d = H5Dopen2(f, "groups/1/segment", H5P_DEFAULT), space = H5Dget_space(d);
    const hsize_t start[2] = {2, 4}, count[2] = {1, 1};
    const double nan = NAN;
    hid_t mem = H5Screate_simple(2, count, NULL);
    CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
          H5Dwrite(d, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &nan) >= 0);
    H5Sclose(space);
    H5Dclose(d);
    d = H5Dopen2(f, "groups/0/count", H5P_DEFAULT);
    space = H5Dget_space(d);
    const int seven = 7;
    CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
          H5Dwrite(d, H5T_NATIVE_INT, mem, space, H5P_DEFAULT, &seven) >= 0);
    H5Sclose(space);
    H5Sclose(mem);
    H5Dclose(d);
    H5Fclose(f);
    CHECK_OK(expect_refused("batch", "verlet", SK_ERR_MISMATCH, initial(path, 2),
                            "groups[0]: rope 4 has 7 particles at frame 2, which the group's ropes cannot have", NULL));
    CHECK_OK(expect_refused("reference", "verlet", SK_OK, initial(path, 3), NULL));
    f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    CHECK(f >= 0);
    d = H5Dopen2(f, "groups/0/count", H5P_DEFAULT);
    const int ten = 10;
    space = H5Dget_space(d);
    mem = H5Screate_simple(2, count, NULL);
    CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
          H5Dwrite(d, H5T_NATIVE_INT, mem, space, H5P_DEFAULT, &ten) >= 0);
    H5Sclose(space);
    H5Sclose(mem);
    H5Dclose(d);
    H5Fclose(f);
    CHECK_OK(expect_refused("reference", "verlet", SK_ERR_MISMATCH, initial(path, 2),
                            "groups[1]: rope 15 has no finite state at frame 2 (written by an engine that keeps none)",
                            NULL));
    unlink(path);
    return 0;
}

/* Replaces dataset `name` of the HDF5 file at path by one of the same type, filters and data whose extent
 * `dim` is one larger (the data copied over, the new slots zeros). */
static int grow_extent(const char *path, const char *name, int dim)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = f >= 0 ? H5Dopen2(f, name, H5P_DEFAULT) : H5I_INVALID_HID;
    CHECK(d >= 0);
    hid_t space = H5Dget_space(d), type = H5Dget_type(d), dcpl = H5Dget_create_plist(d);
    hid_t mem = H5Tget_native_type(type, H5T_DIR_ASCEND);
    hsize_t dims[4], grown[4], zero[4] = {0, 0, 0, 0};
    const int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    CHECK(rank >= 1 && rank <= 4 && dim < rank);
    size_t cells = 1;
    for (int i = 0; i < rank; i++) {
        grown[i] = dims[i] + (i == dim);
        cells *= dims[i];
    }
    char *buf = malloc(cells * H5Tget_size(mem) + 1);
    CHECK(buf && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Dclose(d);
    CHECK(H5Ldelete(f, name, H5P_DEFAULT) >= 0);
    hid_t fs = H5Screate_simple(rank, grown, NULL);
    d = H5Dcreate2(f, name, type, fs, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, zero, NULL, dims, NULL) >= 0);
    CHECK(H5Dwrite(d, mem, space, fs, H5P_DEFAULT, buf) >= 0);
    free(buf);
    H5Sclose(fs);
    H5Sclose(space);
    H5Tclose(mem);
    H5Tclose(type);
    H5Pclose(dcpl);
    H5Dclose(d);
    CHECK(H5Fclose(f) >= 0);
    return 0;
}

/* Every per-rope dataset a warm start reads (position, velocity, previous: [frames][ropes][particles][3];
 * count, segment: [frames][ropes]), each extent but the frames one larger than the scenario makes it, one
 * at a time: refused with one line before anything is read into buffers the scenario sizes (the frames may
 * differ: the fewest any dataset holds are the file's). A velocity that is not finite is refused too. */
static int refuse_crafted_extents(void)
{
    const char *path = scratch("extents.h5"), *good = scratch("good.h5");
    CHECK_OK(write_file(good, "verlet", ""));
    static const struct {
        const char *name;
        int rank;
    } sets[] = {{"groups/0/position", 4}, {"groups/0/velocity", 4}, {"groups/0/previous", 4}, {"groups/0/count", 2},
                {"groups/1/segment", 2}};
    int refused = 0;
    for (int k = 0; k < 5; k++)
        for (int dim = 1; dim < sets[k].rank; dim++) {
            char cmd[512];
            snprintf(cmd, sizeof cmd, "cp '%s' '%s'", good, path);
            CHECK(system(cmd) == 0);
            CHECK_OK(grow_extent(path, sets[k].name, dim));
            if (expect_refused("batch", "verlet", SK_ERR_CORRUPT, initial(path, 2),
                               "a group's datasets do not have the scenario's shape", NULL)) {
                fprintf(stderr, "%s, extent %d one larger: not refused\n", sets[k].name, dim);
                return 1;
            }
            refused++;
        }
    /* a velocity that is not a number, at frame 2, rope 3, particle 1 */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", good, path);
    CHECK(system(cmd) == 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = f >= 0 ? H5Dopen2(f, "groups/0/velocity", H5P_DEFAULT) : H5I_INVALID_HID;
    CHECK(d >= 0);
    hid_t space = H5Dget_space(d);
    const hsize_t start[4] = {2, 3, 1, 0}, count[4] = {1, 1, 1, 1};
    const double nan = NAN;
    hid_t mem = H5Screate_simple(4, count, NULL);
    CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
          H5Dwrite(d, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &nan) >= 0);
    H5Sclose(mem);
    H5Sclose(space);
    H5Dclose(d);
    CHECK(H5Fclose(f) >= 0);
    CHECK_OK(expect_refused("batch", "verlet", SK_ERR_MISMATCH, initial(path, 2),
                            "groups[0]: rope 3 has no finite state at frame 2", NULL));
    fprintf(stderr, "%d crafted extents refused, and a velocity that is not a number\n", refused);
    unlink(path);
    unlink(good);
    return 0;
}

/* One process's slice of a run split across several (sk_scenario_slice) warm-started with
 * sk_warm_start_slice: each of its ropes gets the state the whole engine's rope of the same global index gets,
 * for slices that cut a group, start inside one or hold a single rope. */
static int slices(void)
{
    const char *h5 = scratch("a.h5");
    CHECK_OK(write_file(h5, "verlet", ""));
    char json[4096];
    snprintf(json, sizeof json, SCENARIO, (long)STEPS, "verlet", "", initial(h5, 3));
    sk_scenario whole;
    CHECK_OK(tb_load(&whole, "%s", json));
    sk_engine *all = tb_engine(&whole, "batch", "auto", 1);
    sk_error err = {0};
    CHECK(all && sk_warm_start(all, &err) == SK_OK);
    const size_t cuts[][2] = {{0, 5}, {5, 10}, {15, 12}, {26, 1}, {0, 27}};
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        sk_scenario mine;
        CHECK(sk_scenario_slice(&whole, cuts[c][0], cuts[c][1], &mine, &err) == SK_OK);
        sk_engine *e = tb_engine(&mine, "batch", "auto", 1);
        CHECK(e && sk_warm_start_slice(e, &whole, cuts[c][0], &err) == SK_OK);
        for (size_t r = 0; r < cuts[c][1]; r++) {
            const size_t g = cuts[c][0] + r;
            const int n = sk_engine_rope_particles(all, g);
            CHECK(n == sk_engine_rope_particles(e, r));
            sk_real pa[36], va[36], pb[36], vb[36];
            sk_engine_read_rope(all, g, pa, va);
            sk_engine_read_rope(e, r, pb, vb);
            CHECK(memcmp(pa, pb, (size_t)n * 3 * sizeof(sk_real)) == 0);
            CHECK(memcmp(va, vb, (size_t)n * 3 * sizeof(sk_real)) == 0);
        }
        sk_engine_destroy(e);
        sk_scenario_free(&mine);
    }
    /* ropes beyond the whole's */
    sk_scenario mine;
    CHECK(sk_scenario_slice(&whole, 20, 7, &mine, &err) == SK_OK);
    sk_engine *e = tb_engine(&mine, "batch", "auto", 1);
    CHECK(e && sk_warm_start_slice(e, &whole, 21, &err) == SK_ERR_INVALID);
    sk_engine_destroy(e);
    sk_scenario_free(&mine);
    sk_engine_destroy(all);
    sk_scenario_free(&whole);
    unlink(h5);
    return 0;
}

static int run_case(int (*fn)(void))
{
    const int rc = fn();
    if (scratch_dir[0])
        rmdir(scratch_dir);
    scratch_dir[0] = '\0';
    return rc;
}

#define CASE(name)                                                                                                 \
    static int name##_case(void) { return run_case(name); }
CASE(continue_springs_deploy)
CASE(continue_contacts)
CASE(continue_implicit_iterations)
CASE(diverge_after_start)
CASE(refuse_missing_file)
CASE(refuse_not_hdf5)
CASE(refuse_frame_out_of_range)
CASE(refuse_other_shapes)
CASE(refuse_rope_subset)
CASE(refuse_missing_state)
CASE(refuse_bad_values)
CASE(refuse_crafted_extents)
CASE(slices)

int main(int argc, char **argv)
{
    static const check_case cases[] = {
        {"continue_springs_deploy", continue_springs_deploy_case},
        {"continue_contacts", continue_contacts_case},
        {"continue_implicit_iterations", continue_implicit_iterations_case},
        {"diverge_after_start", diverge_after_start_case},
        {"refuse_missing_file", refuse_missing_file_case},
        {"refuse_not_hdf5", refuse_not_hdf5_case},
        {"refuse_frame_out_of_range", refuse_frame_out_of_range_case},
        {"refuse_other_shapes", refuse_other_shapes_case},
        {"refuse_rope_subset", refuse_rope_subset_case},
        {"refuse_missing_state", refuse_missing_state_case},
        {"refuse_bad_values", refuse_bad_values_case},
        {"refuse_crafted_extents", refuse_crafted_extents_case},
        {"slices", slices_case},
    };
    return check_main(cases, sizeof cases / sizeof *cases, argc, argv);
}
