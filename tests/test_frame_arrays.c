/* sk_frame_arrays_sink: each frame of a run copied into caller-owned arrays, as the engine reads them, NaN past
 * a rope's particles and links; a run with more frames than room fails with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "check.h"
#include "skein/skein.h"

/* A deploying group (its ropes grow from 2 particles towards 10) and a chain of 4. */
static const char scenario_json[] =
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 300, \"gravity\": [0, -9.81, 0], \"groups\": ["
    "{\"count\": 3, \"particles\": 10, \"start\": [0, -0.3, 0], \"end\": [0, -0.1, 0], \"mass\": 0.05,"
    " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 300, \"length\": 0.1},"
    " \"deploy\": {\"velocity\": 1, \"initial_particles\": 2}},"
    "{\"count\": 2, \"particles\": 4, \"start\": [0, 0, 0], \"end\": [0.3, 0, 0], \"mass\": 0.05,"
    " \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1}}]}";

enum { FRAMES = 4, ROPES = 3, SLOTS = 10 };

static int frames_copied(void)
{
    sk_scenario s;
    sk_error err;
    CHECK(sk_scenario_load_string(scenario_json, "arrays.json", NULL, &s, &err) == SK_OK);
    sk_engine *e = sk_engine_create(&s, NULL, &err);
    CHECK(e);
    static sk_real position[FRAMES][ROPES][SLOTS][3], velocity[FRAMES][ROPES][SLOTS][3];
    static sk_real energy[FRAMES][ROPES][3], tension[FRAMES][ROPES][SLOTS - 1];
    int32_t count[FRAMES][ROPES];
    int64_t step[FRAMES], diverged[ROPES];
    const size_t ropes[ROPES] = {0, 2, 4};
    sk_frame_arrays a = {.ropes = ropes, .n_ropes = ROPES, .particles = SLOTS, .max_frames = FRAMES,
                         .position = &position[0][0][0][0], .velocity = &velocity[0][0][0][0],
                         .count = &count[0][0], .energy = &energy[0][0][0], .tension = &tension[0][0][0],
                         .step = step, .diverged = diverged};
    sk_frame_sink sink = {sk_frame_arrays_sink, &a};
    sk_run_options opt = {.steps = 300, .every = 100, .sinks = &sink, .n_sinks = 1};
    sk_run_stats stats;
    CHECK(sk_run(e, &opt, &stats, &err) == SK_OK);
    CHECK(a.frames == FRAMES && step[0] == 0 && step[3] == 300);
    /* the last frame is the engine's state now */
    for (int j = 0; j < ROPES; j++) {
        const int n = sk_engine_rope_particles(e, ropes[j]);
        CHECK(count[3][j] == n && diverged[j] == -1);
        sk_real p[SLOTS][3], v[SLOTS][3], t[SLOTS - 1];
        sk_engine_read_rope(e, ropes[j], &p[0][0], &v[0][0]);
        CHECK(memcmp(p, position[3][j], sizeof(sk_real) * 3 * (size_t)n) == 0);
        CHECK(memcmp(v, velocity[3][j], sizeof(sk_real) * 3 * (size_t)n) == 0);
        sk_rope_diagnostics d;
        sk_engine_rope_diagnostics(e, ropes[j], &d, t);
        CHECK_SAME_BITS(d.kinetic, energy[3][j][0]);
        CHECK_SAME_BITS(d.elastic, energy[3][j][2]);
        CHECK(memcmp(t, tension[3][j], sizeof(sk_real) * (size_t)(n - 1)) == 0);
        for (int i = n; i < SLOTS; i++)
            CHECK(isnan(position[3][j][i][0]) && isnan(velocity[3][j][i][2]));
        for (int i = n - 1; i < SLOTS - 1; i++)
            CHECK(isnan(tension[3][j][i]));
    }
    /* the deploying ropes grew: 2 particles at step 0, more at each frame */
    CHECK(count[0][0] == 2 && count[1][0] > 2 && count[3][0] > count[1][0] && count[0][2] == 4);
    CHECK(isnan(position[0][0][2][1]) && !isnan(position[0][0][1][1]));

    /* one frame too many: the run stops with the sink's message */
    sk_engine *again = sk_engine_create(&s, NULL, &err);
    CHECK(again);
    a.frames = 0;
    a.max_frames = 3;
    CHECK(sk_run(again, &opt, &stats, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "arrays.json: frame arrays: room for 3 frames, step 300 is one more") == 0);
    sk_engine_destroy(again);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

int main(int argc, char **argv)
{
    static const check_case cases[] = {{"frames_copied", frames_copied}};
    return check_main(cases, sizeof cases / sizeof *cases, argc, argv);
}
