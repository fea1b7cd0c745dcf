/* skein-view's HDF5 replay without a window: the loader against the CSV of the same run (bit for bit), the
 * frame navigation by hand, and the one-line refusals of files that are not a skein output, of crafted ones
 * (extents, indices, attributes and frames no run writes) and of ropes the file does not hold. The outputs
 * come from the skein binary (skein run --h5 --csv). */
#include <hdf5.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <GLFW/glfw3.h>

#include "check.h"
#include "replay.h"
#include "replay_nav.h"
#include "skein/types.h"

extern char **environ;

static const char scenario[] = SKEIN_SOURCE_DIR "/tests/viewer/short_ropes.json";
#define DIR_TEMPLATE "/tmp/skein-replay-XXXXXX"
static char dir[] = DIR_TEMPLATE;
static char h5[128], csv[128];

/* skein run on the viewer's test scenario: 40 steps, a frame every 10, ropes 1 and 2 (group 0's second
 * and group 1's only rope). */
static int make_outputs(void)
{
    strcpy(dir, DIR_TEMPLATE);
    if (!mkdtemp(dir))
        return -1;
    snprintf(h5, sizeof h5, "%s/out.h5", dir);
    snprintf(csv, sizeof csv, "%s/out.csv", dir);
    const char *argv[] = {SKEIN_BINARY_DIR "/skein", "run", scenario, "--steps", "40", "--every", "10",
                          "--ropes", "1,2", "--h5", h5, "--csv", csv, "--quiet", NULL};
    pid_t pid;
    int status;
    if (posix_spawn(&pid, argv[0], NULL, NULL, (char *const *)argv, environ) != 0 ||
        waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void remove_outputs(void)
{
    remove(h5);
    remove(csv);
    rmdir(dir);
}

static sk_real parse_real(const char *text)
{
#ifdef SKEIN_REAL_FLOAT
    return strtof(text, NULL);
#else
    return strtod(text, NULL);
#endif
}

/* Every position of the CSV (ropes 1 and 2, 5 frames) is the loader's, bit for bit, with the ropes
 * chosen in the other order; times and steps too. */
static int csv_positions(void)
{
    CHECK_OK(make_outputs());
    sk_replay r;
    sk_error err = {0};
    CHECK_OK(sk_replay_open(h5, &r, &err));
    CHECK(r.complete);
    CHECK(r.frames == 5);
    CHECK(r.n_stored == 2 && r.stored[0] == 1 && r.stored[1] == 2);
    const size_t chosen[2] = {2, 1};
    CHECK_OK(sk_replay_read(&r, chosen, 2, &err));
    CHECK(r.n_ropes == 2 && r.ropes[0].global == 2 && r.ropes[1].global == 1);
    CHECK(r.ropes[0].group == 1 && r.ropes[0].capacity == 5 && r.ropes[1].group == 0 && r.ropes[1].capacity == 6);
    FILE *f = fopen(csv, "r");
    CHECK(f);
    char line[512];
    CHECK(fgets(line, sizeof line, f));
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        char *field[10], *save = NULL;
        int n = 0;
        for (char *t = strtok_r(line, ",\n", &save); t && n < 10; t = strtok_r(NULL, ",\n", &save))
            field[n++] = t;
        CHECK(n == 10);
        size_t rope = strtoul(field[0], NULL, 10);
        long step = strtol(field[1], NULL, 10), frame = step / 10;
        int i = atoi(field[3]);
        CHECK(step % 10 == 0 && frame >= 0 && frame < 5);
        CHECK(r.step[frame] == step);
        CHECK_SAME_BITS((sk_real)r.time[frame], parse_real(field[2]));
        const sk_replay_rope *rp = &r.ropes[rope == 2 ? 0 : 1];
        CHECK(rp->global == rope);
        CHECK(i < rp->count[frame]);
        const double *p = rp->position + ((size_t)frame * rp->capacity + i) * 3;
        for (int c = 0; c < 3; c++)
            CHECK_SAME_BITS((sk_real)p[c], parse_real(field[4 + c]));
        rows++;
    }
    fclose(f);
    CHECK(rows == 5 * (6 + 5));
    /* A frame put into the viewer's ropes: the same positions, its step, the anchor of that step. */
    sk_view_sim sim;
    size_t globals[2] = {2, 1};
    CHECK_OK(sk_view_sim_init(&sim, r.scenario, globals, 2, &err));
    CHECK_OK(sk_replay_show(&r, 3, &sim, &err));
    CHECK(sim.steps == 30);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < r.ropes[k].count[3]; i++) {
            sk_vec3 p = sk_view_sim_position(&sim, k, i);
            const double *q = r.ropes[k].position + ((size_t)3 * r.ropes[k].capacity + i) * 3;
            CHECK_SAME_BITS(p.x, (sk_real)q[0]);
            CHECK_SAME_BITS(p.y, (sk_real)q[1]);
            CHECK_SAME_BITS(p.z, (sk_real)q[2]);
        }
    sk_view_sim_free(&sim);
    sk_replay_free(&r);
    remove_outputs();
    return 0;
}

/* 21 frames 0.1 s apart: a jump is (21 - 1) / 10 = 2 frames. */
static int navigation(void)
{
    double t[21];
    for (int i = 0; i < 21; i++)
        t[i] = 0.1 * i;
    sk_replay_nav nav = sk_replay_nav_make(t, 21, false);
    CHECK(nav.frame == 0 && !nav.paused && sk_replay_nav_jump_size(&nav) == 2);
    /* Real time: 0.25 s shows the frame of 0.2 s (in steps of 0.05 s: each at most the clamp). */
    for (int i = 0; i < 5; i++)
        sk_replay_nav_advance(&nav, 0.05);
    CHECK(nav.frame == 2);
    /* A stall counts as SK_REPLAY_MAX_FRAME_TIME (0.1 s) only. */
    sk_replay_nav_advance(&nav, 5.0);
    CHECK(nav.frame == 3);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_RIGHT, GLFW_PRESS));
    CHECK(nav.frame == 4 && nav.paused);
    sk_replay_nav_advance(&nav, 0.05); /* paused: no change */
    CHECK(nav.frame == 4);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_LEFT, GLFW_REPEAT));
    CHECK(nav.frame == 3);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_RIGHT_BRACKET, GLFW_PRESS));
    CHECK(nav.frame == 5);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_PAGE_UP, GLFW_PRESS));
    CHECK(nav.frame == 3);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_HOME, GLFW_PRESS));
    CHECK(nav.frame == 0);
    /* Clamps at both ends. */
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_LEFT, GLFW_PRESS));
    CHECK(nav.frame == 0);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_LEFT_BRACKET, GLFW_PRESS));
    CHECK(nav.frame == 0);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_END, GLFW_PRESS));
    CHECK(nav.frame == 20);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_PAGE_DOWN, GLFW_PRESS));
    CHECK(nav.frame == 20);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_RIGHT, GLFW_PRESS));
    CHECK(nav.frame == 20);
    sk_replay_nav_goto(&nav, 19);
    CHECK(nav.frame == 19 && nav.clock == t[19]);
    /* Playing into the last frame pauses there; space then starts over. */
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_SPACE, GLFW_PRESS));
    CHECK(!nav.paused);
    sk_replay_nav_advance(&nav, 0.1);
    CHECK(nav.frame == 20 && nav.paused);
    CHECK(sk_replay_nav_key(&nav, GLFW_KEY_SPACE, GLFW_PRESS));
    CHECK(nav.frame == 0 && !nav.paused);
    /* Releases and other keys do nothing. */
    CHECK(!sk_replay_nav_key(&nav, GLFW_KEY_END, GLFW_RELEASE));
    CHECK(!sk_replay_nav_key(&nav, GLFW_KEY_F, GLFW_PRESS));
    CHECK(nav.frame == 0);
    /* One frame: a jump still moves one, and stays put. */
    sk_replay_nav one = sk_replay_nav_make(t, 1, false);
    CHECK(sk_replay_nav_jump_size(&one) == 1);
    sk_replay_nav_advance(&one, 0.05);
    CHECK(one.frame == 0 && one.paused);
    return 0;
}

static int rope_not_held(void)
{
    CHECK_OK(make_outputs());
    sk_replay r;
    sk_error err = {0};
    CHECK_OK(sk_replay_open(h5, &r, &err));
    const size_t chosen[2] = {1, 0};
    CHECK(sk_replay_read(&r, chosen, 2, &err) == SK_ERR_INVALID);
    char want[256];
    snprintf(want, sizeof want, "--rope 0: %s holds ropes 1-2", h5);
    CHECK(strcmp(err.message, want) == 0);
    sk_replay_free(&r);
    /* No rope named: the first the file holds. */
    CHECK_OK(sk_replay_open(h5, &r, &err));
    CHECK_OK(sk_replay_read(&r, NULL, 0, &err));
    CHECK(r.n_ropes == 1 && r.ropes[0].global == 1);
    sk_replay_free(&r);
    remove_outputs();
    return 0;
}

/* An HDF5 file holding a dataset of its own, a text file, and a skein output cut in half. */
static int not_skein(void)
{
    strcpy(dir, DIR_TEMPLATE);
    CHECK(mkdtemp(dir));
    char path[160];
    snprintf(path, sizeof path, "%s/other.h5", dir);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    hsize_t dims[1] = {4};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t d = H5Dcreate2(f, "time", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const double v[4] = {0, 1, 2, 3};
    CHECK(d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(d);
    H5Sclose(space);
    H5Fclose(f);
    sk_replay r;
    sk_error err = {0};
    CHECK(sk_replay_open(path, &r, &err) == SK_ERR_CORRUPT);
    char want[256];
    snprintf(want, sizeof want, "%s: not a skein HDF5 output, or damaged (no scenario or complete attribute)", path);
    CHECK(strcmp(err.message, want) == 0);
    remove(path);

    FILE *t = fopen(path, "w");
    CHECK(t);
    fputs("not hdf5\n", t);
    fclose(t);
    CHECK(sk_replay_open(path, &r, &err) == SK_ERR_CORRUPT);
    snprintf(want, sizeof want, "%s: not an HDF5 file, or damaged", path);
    CHECK(strcmp(err.message, want) == 0);
    remove(path);
    rmdir(dir);

    /* The first half of a real output. */
    CHECK_OK(make_outputs());
    FILE *in = fopen(h5, "rb");
    CHECK(in);
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    rewind(in);
    char *bytes = malloc((size_t)size);
    CHECK(bytes && fread(bytes, 1, (size_t)size, in) == (size_t)size);
    fclose(in);
    FILE *out = fopen(h5, "wb");
    CHECK(out && fwrite(bytes, 1, (size_t)size / 2, out) == (size_t)size / 2);
    fclose(out);
    free(bytes);
    int rc = sk_replay_open(h5, &r, &err);
    if (rc == 0) { /* the metadata survived: the frames cannot */
        rc = sk_replay_read(&r, NULL, 0, &err);
        sk_replay_free(&r);
    }
    CHECK(rc == SK_ERR_CORRUPT);
    CHECK(strstr(err.message, "damaged") != NULL);
    CHECK(strchr(err.message, '\n') == NULL);
    remove_outputs();
    return 0;
}

/* ---- crafted files: well-formed HDF5 saying what no run writes ------------------------------------------ */

/* Replaces dataset `name` of the output h5 with one of type `type` and extent dims (rank 1 to 4), chunked and
 * growable, holding `values` (all of it) when not NULL; without values its chunks are never written, and
 * the extent is only a number: it costs the file nothing, whatever it says. */
static int replace_dataset(const char *name, hid_t type, int rank, const hsize_t *dims, const void *values)
{
    hid_t f = H5Fopen(h5, H5F_ACC_RDWR, H5P_DEFAULT);
    CHECK(f >= 0 && H5Ldelete(f, name, H5P_DEFAULT) >= 0);
    hsize_t max[4], chunk[4];
    for (int i = 0; i < rank; i++) {
        max[i] = H5S_UNLIMITED;
        chunk[i] = dims[i] && dims[i] < 64 ? dims[i] : 64;
    }
    hid_t space = H5Screate_simple(rank, dims, max), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(H5Pset_chunk(dcpl, rank, chunk) >= 0);
    hid_t d = H5Dcreate2(f, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0 && (!values || H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0));
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    CHECK(H5Fclose(f) >= 0);
    return 0;
}

/* Replaces the root attribute `name` of h5 with `count` values of `type` (a string type: char * each). */
static int replace_attribute(const char *name, hid_t type, hsize_t count, const void *values)
{
    hid_t f = H5Fopen(h5, H5F_ACC_RDWR, H5P_DEFAULT);
    CHECK(f >= 0 && H5Adelete(f, name) >= 0);
    hid_t space = H5Screate_simple(1, &count, NULL), a = H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(a >= 0 && H5Awrite(a, type, values) >= 0);
    H5Aclose(a);
    H5Sclose(space);
    CHECK(H5Fclose(f) >= 0);
    return 0;
}

/* The output refused by open or read, status SK_ERR_CORRUPT, in one line naming the file and saying words. */
static int expect_crafted(const char *words)
{
    sk_replay r;
    sk_error err = {0};
    int rc = sk_replay_open(h5, &r, &err);
    if (rc == 0) {
        rc = sk_replay_read(&r, NULL, 0, &err);
        sk_replay_free(&r);
    }
    if (rc != SK_ERR_CORRUPT || strncmp(err.message, h5, strlen(h5)) != 0 || !strstr(err.message, words) ||
        strchr(err.message, '\n')) {
        fprintf(stderr, "expected a refusal saying [%s], got %d [%s]\n", words, rc, err.message);
        return 1;
    }
    return 0;
}

/* Extents the file does not hold (chunks never written read as zeros: the extent is only a number), and
 * rope indices past the group or the batch or stored twice, positions with an extent one larger than the
 * scenario's: refused before anything is sized by them. */
static int crafted_extents(void)
{
    const hsize_t huge[1] = {(hsize_t)1 << 40}, rows[4] = {(hsize_t)1 << 36, 1, 6, 3};
    CHECK_OK(make_outputs());
    CHECK_OK(replace_dataset("time", H5T_NATIVE_DOUBLE, 1, huge, NULL));
    CHECK_OK(replace_dataset("step", H5T_NATIVE_INT64, 1, huge, NULL));
    CHECK_OK(expect_crafted("/time or /step is missing, or larger than the file holds"));
    remove_outputs();

    CHECK_OK(make_outputs());
    CHECK_OK(replace_dataset("groups/0/ropes", H5T_NATIVE_UINT64, 1, huge, NULL));
    CHECK_OK(expect_crafted("a group's rope index is missing, or larger than the file holds"));
    remove_outputs();

    CHECK_OK(make_outputs()); /* frames of rope 1: 2^36 of them, each 6 particles */
    CHECK_OK(replace_dataset("groups/0/position", H5T_NATIVE_DOUBLE, 4, rows, NULL));
    CHECK_OK(expect_crafted("a group's datasets do not have the scenario's shape, or are larger than the file holds"));
    remove_outputs();

    const uint64_t three[3] = {0, 1, 1}, outside[1] = {(uint64_t)1 << 40};
    const hsize_t n3[1] = {3}, n1[1] = {1};
    CHECK_OK(make_outputs()); /* group 0 has 2 ropes */
    CHECK_OK(replace_dataset("groups/0/ropes", H5T_NATIVE_UINT64, 1, n3, three));
    CHECK_OK(expect_crafted("a group stores more ropes than it has"));
    remove_outputs();
    CHECK_OK(make_outputs());
    CHECK_OK(replace_dataset("groups/0/ropes", H5T_NATIVE_UINT64, 1, n1, outside));
    CHECK_OK(expect_crafted("a rope index does not match the scenario"));
    remove_outputs();
    const uint64_t twice[2] = {0, 0};
    const hsize_t n2[1] = {2};
    CHECK_OK(make_outputs()); /* a rope stored twice */
    CHECK_OK(replace_dataset("groups/0/ropes", H5T_NATIVE_UINT64, 1, n2, twice));
    CHECK_OK(expect_crafted("a rope index does not match the scenario"));
    remove_outputs();

    /* each extent of the positions past rope 1's one frame of 6 particles of 3 coordinates, one at a time
     * (the frames may differ: the fewest a dataset holds are played) */
    for (int d = 1; d < 4; d++) {
        hsize_t dims[4] = {1, 1, 6, 3};
        dims[d]++;
        CHECK_OK(make_outputs());
        CHECK_OK(replace_dataset("groups/0/position", H5T_NATIVE_DOUBLE, 4, dims, NULL));
        CHECK_OK(expect_crafted("a group's datasets do not have the scenario's shape, or are larger than the file holds"));
        remove_outputs();
    }
    return 0;
}

/* Attributes of more than one value (read into one, they were written past it), and frames whose steps go
 * back or whose times are not numbers. */
static int crafted_values(void)
{
    CHECK_OK(make_outputs());
    const int64_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    CHECK_OK(replace_attribute("complete", H5T_NATIVE_INT64, 8, ones));
    CHECK_OK(expect_crafted("no scenario or complete attribute"));
    remove_outputs();

    CHECK_OK(make_outputs());
    hid_t text = H5Tcopy(H5T_C_S1);
    CHECK(H5Tset_size(text, H5T_VARIABLE) >= 0);
    const char *texts[4] = {"{}", "{}", "{}", "{}"};
    CHECK_OK(replace_attribute("scenario", text, 4, texts));
    H5Tclose(text);
    CHECK_OK(expect_crafted("no scenario or complete attribute"));
    remove_outputs();

    const hsize_t five[1] = {5};
    const int64_t back[5] = {0, 10, 20, 20, 40};
    const double nan_time[5] = {0, 0.01, NAN, 0.03, 0.04};
    CHECK_OK(make_outputs());
    CHECK_OK(replace_dataset("step", H5T_NATIVE_INT64, 1, five, back));
    CHECK_OK(expect_crafted("/time or /step does not hold frames in order"));
    remove_outputs();
    CHECK_OK(make_outputs());
    CHECK_OK(replace_dataset("time", H5T_NATIVE_DOUBLE, 1, five, nan_time));
    CHECK_OK(expect_crafted("/time or /step does not hold frames in order"));
    remove_outputs();

    const int64_t mark[1] = {-5}; /* group 0 stores one rope */
    const hsize_t one[1] = {1};
    CHECK_OK(make_outputs());
    CHECK_OK(replace_dataset("groups/0/diverged", H5T_NATIVE_INT64, 1, one, mark));
    CHECK_OK(expect_crafted("a rope's frames cannot be read"));
    remove_outputs();
    return 0;
}

CHECK_MAIN({"csv_positions", csv_positions}, {"navigation", navigation}, {"rope_not_held", rope_not_held},
           {"not_skein", not_skein}, {"crafted_extents", crafted_extents}, {"crafted_values", crafted_values})
