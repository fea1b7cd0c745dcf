/* The results table's library side: the columns of a scenario and one rope's row, against what the engine
 * reports for that rope (sk_results_columns, sk_results_row); the table written from its ropes' state columns a
 * part at a time, as a run across processes writes it (sk_results_rope_state, sk_results_write_states). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "skein/output.h"
#include "test_batch_common.h"
#include "io/text/text_outputs.h"

/* Two groups: the first sweeps link.stiffness and mass, the second mass and end[1]; 3 + 2 ropes. */
static const char json[] =
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 50, \"groups\": ["
    " {\"count\": 3, \"particles\": 4, \"start\": [0, 2, 0], \"end\": [1, 2, 0], \"pinned\": [0],"
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 300},"
    "  \"sweep\": {\"link.stiffness\": {\"values\": [100, 200, 300]}, \"mass\": {\"from\": 0.1, \"to\": 0.3}}},"
    " {\"count\": 2, \"particles\": 1, \"start\": [0, 2, 0], \"end\": [1, 2, 0],"
    "  \"sweep\": {\"mass\": {\"values\": [0.5, 0.7]}, \"end[1]\": {\"values\": [1, 3]}}}]}";

static int columns(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    static const char *const want[] = {"rope", "group", "link.stiffness", "mass", "end[1]", "tip_x", "tip_y",
                                       "tip_z", "tip_vx", "tip_vy", "tip_vz", "kinetic", "gravity", "elastic",
                                       "max_tension", "max_strain", "max_support_first", "max_support_last",
                                       "diverged_step"};
    const int n = (int)(sizeof want / sizeof *want);
    CHECK(sk_results_columns(&s, NULL, 0) == n);
    const char *names[32] = {0};
    CHECK(sk_results_columns(&s, names, 3) == n); /* room for 3: the first 3 only */
    CHECK(strcmp(names[2], "link.stiffness") == 0 && names[3] == NULL);
    CHECK(sk_results_columns(&s, names, 32) == n);
    for (int i = 0; i < n; i++)
        CHECK(strcmp(names[i], want[i]) == 0);
    sk_scenario_free(&s);
    return 0;
}

/* Every rope's row against the engine's own figures: its sweep values (NaN where its group does not sweep
 * the key), its last particle, its diagnostics, its extremes (NaN for a rope without links; the support 0 at an
 * end not held) and its mark. */
static int rows(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    sk_error err = {0};
    sk_engine *e = sk_engine_create(&s, &(sk_engine_options){.track_extremes = true}, &err);
    CHECK(e);
    sk_engine_advance(e, 50);
    double row[19];
    CHECK(sk_results_row(e, 0, row, 18, &err) == SK_ERR_INVALID); /* no room for the whole row */
    static const double stiffness[] = {100, 200, 300, NAN, NAN}, mass[] = {0.1, 0.2, 0.3, 0.5, 0.7},
                        end1[] = {NAN, NAN, NAN, 1, 3};
    for (size_t r = 0; r < 5; r++) {
        CHECK(sk_results_row(e, r, row, 19, &err) == SK_OK);
        CHECK(row[0] == (double)r && row[1] == (r < 3 ? 0 : 1));
        CHECK(isnan(stiffness[r]) ? isnan(row[2]) : row[2] == (double)(sk_real)stiffness[r]);
        CHECK(row[3] == (double)(sk_real)(r < 3 ? 0.1 + (0.3 - 0.1) * (double)r / 2 : mass[r]));
        CHECK(isnan(end1[r]) ? isnan(row[4]) : row[4] == (double)(sk_real)end1[r]);
        const int n = sk_engine_rope_particles(e, r);
        sk_real p[12], v[12], tension[4];
        sk_engine_read_rope(e, r, p, v);
        for (int c = 0; c < 3; c++) {
            CHECK(row[5 + c] == (double)p[3 * (n - 1) + c]);
            CHECK(row[8 + c] == (double)v[3 * (n - 1) + c]);
        }
        sk_rope_diagnostics d;
        sk_engine_rope_diagnostics(e, r, &d, tension);
        CHECK(row[11] == (double)d.kinetic && row[12] == (double)d.gravity && row[13] == (double)d.elastic);
        sk_real t, x;
        CHECK(sk_engine_rope_extremes(e, r, &t, &x));
        CHECK(r < 3 ? row[14] == (double)t && row[15] == (double)x && t > 0 : isnan(row[14]) && isnan(row[15]));
        sk_real first, last;
        CHECK(sk_engine_rope_support_extremes(e, r, &first, &last));
        CHECK(row[16] == (double)first && row[17] == (double)last && last == 0 && (r < 3 ? first > 0 : first == 0));
        CHECK(row[18] == -1);
    }
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

/* The whole file at path (malloc'd, NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = f ? calloc(1, 1 << 16) : NULL;
    if (text && fread(text, 1, (1 << 16) - 1, f) == 0) {
        free(text);
        text = NULL;
    }
    if (f)
        fclose(f);
    return text;
}

/* The table from every rope's state columns, in two parts (ropes 0 .. 1 and 2 .. 4, as two processes hold them),
 * is sk_results_write's byte for byte: the swept values from the scenario, the rest from the states. */
static int states(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    sk_error err = {0};
    sk_engine *e = sk_engine_create(&s, &(sk_engine_options){.track_extremes = true}, &err);
    CHECK(e);
    sk_engine_advance(e, 50);
    char dir[] = "/tmp/skein_results_XXXXXX", whole[64], parts[64];
    CHECK(mkdtemp(dir));
    snprintf(whole, sizeof whole, "%s/whole.csv", dir);
    snprintf(parts, sizeof parts, "%s/parts.csv", dir);
    sk_results_writer *w = sk_results_open(whole, &s, &err);
    CHECK(w && sk_results_write(w, e, &err) == SK_OK && sk_results_commit(w, &err) == SK_OK);
    double cols[5][SK_RESULTS_STATE_COLUMNS];
    for (size_t r = 0; r < 5; r++)
        CHECK_OK(sk_results_rope_state(e, r, cols[r], &err));
    CHECK(cols[4][SK_RESULTS_STATE_COLUMNS - 1] == -1 && cols[0][SK_RESULTS_STATE_COLUMNS - 5] > 0 &&
          cols[0][SK_RESULTS_STATE_COLUMNS - 3] > 0);
    w = sk_results_open(parts, &s, &err);
    CHECK(w && sk_results_write_states(w, &s, 0, 2, cols[0], &err) == SK_OK &&
          sk_results_write_states(w, &s, 2, 3, cols[2], &err) == SK_OK && sk_results_commit(w, &err) == SK_OK);
    char *a = slurp(whole), *b = slurp(parts);
    CHECK(a && b && strlen(a) > 100 && strcmp(a, b) == 0);
    free(a);
    free(b);
    unlink(whole);
    unlink(parts);
    rmdir(dir);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"columns", columns}, {"rows", rows}, {"states", states})
