/* The viewer's keys, playback and ropes without a window: pause then single step advances exactly one
 * step (the rope's state equals a reference rope stepped as many times, bit for bit), speed, the
 * real-time clamp, reset, next rope, the strain and energy the viewer shows, worked out by hand, and a warm
 * start (the scenario's "initial") shown from the earlier run's frame. */
#include <GLFW/glfw3.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "input.h"
#include "sim.h"
#include "reference/reference.h"
#include "skein/scenario.h"

/* dt = 2^-10 s, so frame times that are multiples of dt / 2 add up exactly. */
static const char rope_json[] =
    "{\"skein\": 1, \"dt\": 0.0009765625, \"steps\": 100, \"gravity\": [0, -9.81, 0],"
    " \"groups\": [{\"count\": 3, \"particles\": 5, \"start\": [0, 2, 0], \"end\": [2, 2, 0], \"mass\": 0.5,"
    "   \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": \"auto\"},"
    "   \"sweep\": {\"link.stiffness\": {\"from\": 300, \"to\": 500}}}]}";

static sk_scenario load(const char *json)
{
    sk_scenario s;
    sk_error err = {0};
    if (sk_scenario_load_string(json, "test", NULL, &s, &err) != 0) {
        fprintf(stderr, "load: %s\n", err.message);
        memset(&s, 0, sizeof s);
    }
    return s;
}

/* Rope k of the sim and r have the same particles, bit for bit. */
static int same_state(const sk_view_sim *sim, int k, const sk_ref_rope *r)
{
    const sk_view_rope *v = &sim->ropes[k];
    CHECK(v->n == sk_ref_rope_count(r));
    for (int i = 0; i < sk_ref_rope_count(r); i++) {
        sk_vec3 a = sk_view_sim_position(sim, k, i), b = sk_ref_rope_position(r, i);
        sk_vec3 va = {v->v[3 * i], v->v[3 * i + 1], v->v[3 * i + 2]}, vb = sk_ref_rope_velocity(r, i);
        CHECK(memcmp(&a, &b, sizeof a) == 0 && memcmp(&va, &vb, sizeof va) == 0);
    }
    return 0;
}

static sk_view_action key(sk_view_controls *c, int k, int event)
{
    int status;
    sk_error err = {0};
    sk_view_action a = sk_view_controls_key(c, k, event, &status, &err);
    return status == 0 ? a : (sk_view_action)-1;
}

static int pause_then_step(void)
{
    sk_scenario s = load(rope_json);
    CHECK(s.n_groups == 1);
    const double dt = 0.0009765625;
    const size_t ropes[] = {1};
    sk_view_sim sim;
    sk_error err = {0};
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 1, &err));
    sk_view_controls c = sk_view_controls_make(&sim, false);
    sk_ref_rope *ref = sk_ref_rope_create(&s, 0, 1);
    CHECK(ref);

    /* Running: 3.5 dt of real time is 3 steps, half a step left over. */
    CHECK(sk_view_controls_advance(&c, 3.5 * dt, NULL, 0) == 3);
    for (int k = 0; k < 3; k++)
        sk_ref_rope_step(ref);
    CHECK(sim.steps == 3);
    CHECK_OK(same_state(&sim, 0, ref));

    /* Space pauses: frames take no step, however long. */
    CHECK(key(&c, GLFW_KEY_SPACE, GLFW_PRESS) == SK_VIEW_PAUSE);
    CHECK(c.playback.paused);
    CHECK(sk_view_controls_advance(&c, 0.01, NULL, 0) == 0);
    CHECK(sk_view_controls_advance(&c, 5.0, NULL, 0) == 0);
    CHECK(sim.steps == 3);
    CHECK_OK(same_state(&sim, 0, ref));

    /* Right arrow: exactly one step of dt, and still paused. */
    CHECK(key(&c, GLFW_KEY_RIGHT, GLFW_PRESS) == SK_VIEW_STEP);
    sk_ref_rope_step(ref);
    CHECK(sim.steps == 4);
    CHECK(c.playback.paused);
    CHECK_OK(same_state(&sim, 0, ref));
    CHECK(sk_view_controls_advance(&c, 0.01, NULL, 0) == 0);
    CHECK(sim.steps == 4);

    /* Held down (repeat): one more step each; the release does nothing. */
    CHECK(key(&c, GLFW_KEY_RIGHT, GLFW_REPEAT) == SK_VIEW_STEP);
    CHECK(key(&c, GLFW_KEY_RIGHT, GLFW_RELEASE) == SK_VIEW_NONE);
    sk_ref_rope_step(ref);
    CHECK(sim.steps == 5);
    CHECK_OK(same_state(&sim, 0, ref));

    /* Space resumes; the half step from before the pause is still there: 0.5 + 2 = 2 steps. */
    CHECK(key(&c, GLFW_KEY_SPACE, GLFW_PRESS) == SK_VIEW_PAUSE);
    CHECK(!c.playback.paused);
    CHECK(sk_view_controls_advance(&c, 2 * dt, NULL, 0) == 2);
    sk_ref_rope_step(ref);
    sk_ref_rope_step(ref);
    CHECK(sim.steps == 7);
    CHECK_OK(same_state(&sim, 0, ref));
    /* and 0.5 + 0.5 = one more. */
    CHECK(sk_view_controls_advance(&c, 0.5 * dt, NULL, 0) == 1);
    sk_ref_rope_step(ref);

    /* Right arrow while running pauses and steps once. */
    CHECK(key(&c, GLFW_KEY_RIGHT, GLFW_PRESS) == SK_VIEW_STEP);
    sk_ref_rope_step(ref);
    CHECK(c.playback.paused);
    CHECK(sim.steps == 9);
    CHECK_OK(same_state(&sim, 0, ref));
    CHECK(fabs(sk_view_sim_time(&sim) - 9 * dt) == 0);

    sk_ref_rope_destroy(ref);
    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

static int speed(void)
{
    sk_scenario s = load(rope_json);
    const double dt = 0.0009765625;
    const size_t ropes[] = {0};
    sk_view_sim sim;
    sk_error err = {0};
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 1, &err));
    sk_view_controls c = sk_view_controls_make(&sim, false);
    CHECK(sk_playback_speed(&c.playback) == 1);

    /* x2: 3 dt of real time is 6 steps. */
    CHECK(key(&c, GLFW_KEY_EQUAL, GLFW_PRESS) == SK_VIEW_FASTER);
    CHECK(sk_playback_speed(&c.playback) == 2);
    CHECK(sk_view_controls_advance(&c, 3 * dt, NULL, 0) == 6);
    /* x0.5: a step takes 2 dt; 3 dt is 1 step and half a step left. */
    CHECK(key(&c, GLFW_KEY_MINUS, GLFW_PRESS) == SK_VIEW_SLOWER);
    CHECK(key(&c, GLFW_KEY_KP_SUBTRACT, GLFW_PRESS) == SK_VIEW_SLOWER);
    CHECK(sk_playback_speed(&c.playback) == 0.5);
    CHECK(sk_view_controls_advance(&c, 3 * dt, NULL, 0) == 1);
    /* x0.25: the half step is kept (now 2 dt of real time): 2 dt more completes it. */
    CHECK(key(&c, GLFW_KEY_MINUS, GLFW_REPEAT) == SK_VIEW_SLOWER);
    CHECK(sk_view_controls_advance(&c, 1.5 * dt, NULL, 0) == 0);
    CHECK(sk_view_controls_advance(&c, 0.5 * dt, NULL, 0) == 1);
    CHECK(sim.steps == 8);

    /* Limits: 64 and 1/64. */
    for (int k = 0; k < 20; k++)
        key(&c, GLFW_KEY_KP_ADD, GLFW_PRESS);
    CHECK(sk_playback_speed(&c.playback) == 64);
    for (int k = 0; k < 30; k++)
        key(&c, GLFW_KEY_MINUS, GLFW_PRESS);
    CHECK(sk_playback_speed(&c.playback) == 1.0 / 64);

    /* docs/model.md section 8: a frame counts for at most 0.01 s: 10.24 dt, so 10 steps at speed 1. */
    for (int k = 0; k < 6; k++)
        key(&c, GLFW_KEY_EQUAL, GLFW_PRESS);
    CHECK(sk_playback_speed(&c.playback) == 1);
    sk_playback_clear(&c.playback);
    long before = sim.steps;
    CHECK(sk_view_controls_advance(&c, 1.0, NULL, 0) == 10);
    CHECK(sim.steps == before + 10);
    /* At speed 4 the same 0.01 s of real time is 40.96 steps; with the 0.24 step left over, 41.2: 41. */
    key(&c, GLFW_KEY_EQUAL, GLFW_PRESS);
    key(&c, GLFW_KEY_EQUAL, GLFW_PRESS);
    CHECK(sk_view_controls_advance(&c, 0.5, NULL, 0) == 41);

    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

static double fake_time;
static double fake_clock(void)
{
    fake_time += 1e-3; /* every reading: a millisecond later */
    return fake_time;
}

/* Past the budget the rest of a frame's steps are dropped (read every 64 steps). */
static int step_budget(void)
{
    sk_scenario s = load(rope_json);
    const size_t ropes[] = {0};
    sk_view_sim sim;
    sk_error err = {0};
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 1, &err));
    sk_view_controls c = sk_view_controls_make(&sim, false);
    for (int k = 0; k < 6; k++)
        sk_playback_faster(&c.playback);
    /* 655 steps wanted; the clock passes 2.5 ms at its third reading after the start (64 * 3 steps). */
    fake_time = 0;
    CHECK(sk_view_controls_advance(&c, 0.01, fake_clock, 2.5e-3) == 192);
    CHECK(sim.steps == 192);
    CHECK(c.playback.acc.remainder == 0);
    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

static int reset_and_next_rope(void)
{
    sk_scenario s = load(rope_json);
    const size_t ropes[] = {0, 2};
    sk_view_sim sim;
    sk_error err = {0};
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 2, &err));
    CHECK(sim.ropes[1].global == 2 && sim.ropes[1].group == 0 && sim.ropes[1].local == 2);
    sk_view_controls c = sk_view_controls_make(&sim, true);
    CHECK(c.playback.paused);
    for (int k = 0; k < 25; k++)
        key(&c, GLFW_KEY_RIGHT, GLFW_PRESS);
    CHECK(sim.steps == 25);
    CHECK(key(&c, GLFW_KEY_R, GLFW_PRESS) == SK_VIEW_RESET);
    CHECK(sim.steps == 0);
    sk_ref_rope *fresh0 = sk_ref_rope_create(&s, 0, 0), *fresh2 = sk_ref_rope_create(&s, 0, 2);
    CHECK_OK(same_state(&sim, 0, fresh0));
    CHECK_OK(same_state(&sim, 1, fresh2));
    sk_ref_rope_destroy(fresh0);
    sk_ref_rope_destroy(fresh2);

    CHECK(c.current == 0);
    CHECK(key(&c, GLFW_KEY_TAB, GLFW_PRESS) == SK_VIEW_NEXT_ROPE);
    CHECK(c.current == 1);
    CHECK(key(&c, GLFW_KEY_TAB, GLFW_PRESS) == SK_VIEW_NEXT_ROPE);
    CHECK(c.current == 0);
    /* Tab does not repeat. */
    CHECK(key(&c, GLFW_KEY_TAB, GLFW_REPEAT) == SK_VIEW_NONE);
    CHECK(c.current == 0);
    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

/* The keys the window completes: returned, and nothing changes in the state. */
static int window_keys(void)
{
    sk_scenario s = load(rope_json);
    const size_t ropes[] = {0};
    sk_view_sim sim;
    sk_error err = {0};
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 1, &err));
    sk_view_controls c = sk_view_controls_make(&sim, false);
    CHECK(key(&c, GLFW_KEY_F, GLFW_PRESS) == SK_VIEW_FRAME);
    CHECK(key(&c, GLFW_KEY_S, GLFW_PRESS) == SK_VIEW_SCREENSHOT);
    CHECK(key(&c, GLFW_KEY_H, GLFW_PRESS) == SK_VIEW_HELP);
    CHECK(key(&c, GLFW_KEY_ESCAPE, GLFW_PRESS) == SK_VIEW_QUIT);
    CHECK(key(&c, GLFW_KEY_S, GLFW_REPEAT) == SK_VIEW_NONE);
    CHECK(key(&c, GLFW_KEY_X, GLFW_PRESS) == SK_VIEW_NONE);
    CHECK(sim.steps == 0 && !c.playback.paused && c.current == 0);
    /* The help lists every key. */
    const char *keys[] = {"space", "right arrow", "+ / -", "R ", "Tab", "drag", "wheel", "F ", "S ", "H ", "Esc"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        CHECK(strstr(sk_view_key_help, keys[k]) != NULL);
    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

/* 4 particles from x = 0 to 3 (spacing 1) on springs of rest 0.8: strain 1 / 0.8 - 1 = 0.25 each.
 * Energy at y = 2, mass 0.5, g = -10, velocity (1, 0, 0), k = 100: kinetic 4 * 0.5 * 0.5 * 1 = 1,
 * gravity -4 * 0.5 * (-10 * 2) = 40, elastic 3 * 100 * 0.2^2 / 2 = 6; 47 J. */
static int strain_and_energy(void)
{
    sk_scenario s = load(
        "{\"skein\": 1, \"dt\": 0.001, \"steps\": 1, \"gravity\": [0, -10, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": 4, \"start\": [0, 2, 0], \"end\": [3, 2, 0], \"mass\": 0.5,"
        "   \"velocity\": [1, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 0.8},"
        "   \"anchor\": {\"type\": \"anchored_spring\", \"point\": [-1, 5, -2], \"stiffness\": 10, \"length\": 1}}]}");
    CHECK(s.n_groups == 1);
    const size_t ropes[] = {0};
    sk_view_sim sim;
    sk_error err = {0};
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 1, &err));
    for (int i = 0; i < 3; i++)
        CHECK_NEAR(sk_view_sim_strain(&sim, 0, i), 0.25, 1e-6);
    CHECK_NEAR(sk_view_sim_max_strain(&sim), 0.25, 1e-6);
    /* The anchored spring from (-1, 5, -2) to particle 0 at (0, 2, 0): |d| = sqrt(14), energy
     * 10 (sqrt(14) - 1)^2 / 2 on top. */
    double anchor = 10 * (sqrt(14.0) - 1) * (sqrt(14.0) - 1) / 2;
    CHECK_NEAR(sk_view_sim_energy(&sim, 0), 47 + anchor, 1e-4);
    double x[3], lo[3], hi[3];
    int held;
    CHECK(sk_view_sim_anchor(&sim, 0, x, &held));
    CHECK(x[0] == -1 && x[1] == 5 && x[2] == -2 && held == 0);
    CHECK(sk_view_sim_bounds(&sim, lo, hi));
    CHECK(lo[0] == -1 && lo[1] == 2 && lo[2] == -2);
    CHECK(hi[0] == 3 && hi[1] == 5 && hi[2] == 0);
    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

/* A rope that blows up (stiff springs, a huge step) is marked diverged and not stepped again; the
 * bounds leave its non-finite particles out. */
static int diverged_rope_stops(void)
{
    sk_scenario s = load(
        "{\"skein\": 1, \"dt\": 0.5, \"steps\": 1, \"gravity\": [0, -10, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"mass\": 1,"
        "   \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 1e9, \"length\": 0.4}}]}");
    const size_t ropes[] = {0};
    sk_view_sim sim;
    sk_error err = {0};
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 1, &err));
    for (int k = 0; k < 2000 && !sim.ropes[0].diverged; k++)
        sk_view_sim_step(&sim);
    CHECK(sim.ropes[0].diverged);
    sk_vec3 before = sk_view_sim_position(&sim, 0, 2);
    long steps = sk_engine_step(sim.ropes[0].engine);
    sk_view_sim_step(&sim);
    sk_vec3 after = sk_view_sim_position(&sim, 0, 2);
    CHECK(sk_engine_step(sim.ropes[0].engine) == steps);
    CHECK(memcmp(&before, &after, sizeof before) == 0);
    double lo[3], hi[3];
    sk_view_sim_bounds(&sim, lo, hi);
    for (int i = 0; i < 3; i++)
        CHECK(isfinite(lo[i]) && isfinite(hi[i]));
    /* The pinned particle stays at the origin: it is in the box. */
    CHECK(lo[0] <= 0 && hi[0] >= 0);
    CHECK_OK(sk_view_sim_reset(&sim, &err));
    CHECK(!sim.ropes[0].diverged && sim.steps == 0);
    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

extern char **environ;

/* A scenario with "initial": the viewer's ropes start from frame 2 (step 20) of a run of rope_json written by
 * skein run --h5, equal to reference ropes stepped 20 times, step on equal to them, and a reset goes back to
 * that frame, not to the group's shape. */
static int warm_start(void)
{
    char dir[] = "/tmp/skein-view-warm-XXXXXX", file[96], h5[96], json[1024];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(file, sizeof file, "%s/rope.json", dir);
    snprintf(h5, sizeof h5, "%s/rope.h5", dir);
    FILE *f = fopen(file, "w");
    CHECK(f && fputs(rope_json, f) >= 0 && fclose(f) == 0);
    const char *argv[] = {SKEIN_BINARY_DIR "/skein", "run", file, "--steps", "40", "--every", "10", "--h5", h5,
                          "--quiet", NULL};
    pid_t pid;
    int status;
    CHECK(posix_spawn(&pid, argv[0], NULL, NULL, (char *const *)argv, environ) == 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    snprintf(json, sizeof json, "%.*s, \"initial\": {\"from\": \"%s\", \"frame\": 2}}", (int)strlen(rope_json) - 1,
             rope_json, h5);
    sk_scenario s = load(json), plain = load(rope_json);
    CHECK(s.n_groups == 1 && s.has_initial && plain.n_groups == 1);
    const size_t ropes[] = {2, 1};
    sk_view_sim sim;
    sk_error err = {0};
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 2, &err));
    CHECK_OK(sk_view_sim_warm_start(&sim, &err));
    sk_ref_rope *ref[2] = {sk_ref_rope_create(&plain, 0, 2), sk_ref_rope_create(&plain, 0, 1)};
    CHECK(ref[0] && ref[1]);
    for (int k = 0; k < 2; k++) {
        sk_ref_rope_advance(ref[k], 20);
        CHECK_OK(same_state(&sim, k, ref[k]));
    }
    for (int n = 0; n < 7; n++)
        sk_view_sim_step(&sim);
    for (int k = 0; k < 2; k++) {
        sk_ref_rope_advance(ref[k], 7);
        CHECK_OK(same_state(&sim, k, ref[k]));
    }
    CHECK_OK(sk_view_sim_reset(&sim, &err));
    CHECK(sim.steps == 0);
    for (int k = 0; k < 2; k++) {
        sk_ref_rope_destroy(ref[k]);
        ref[k] = sk_ref_rope_create(&plain, 0, ropes[k]);
        sk_ref_rope_advance(ref[k], 20);
        CHECK_OK(same_state(&sim, k, ref[k]));
        sk_ref_rope_destroy(ref[k]);
    }
    sk_view_sim_free(&sim);

    /* A file that is not there: one line, the sim empty. */
    snprintf(json, sizeof json, "%.*s, \"initial\": {\"from\": \"%s/missing.h5\"}}", (int)strlen(rope_json) - 1,
             rope_json, dir);
    sk_scenario missing = load(json);
    CHECK_OK(sk_view_sim_init(&sim, &missing, ropes, 2, &err));
    CHECK(sk_view_sim_warm_start(&sim, &err) == SK_ERR_INVALID && sim.n == 0);
    CHECK(strstr(err.message, "missing.h5") != NULL);
    fprintf(stderr, "refused: %s\n", err.message);
    sk_scenario_free(&missing);
    sk_scenario_free(&s);
    sk_scenario_free(&plain);
    remove(h5);
    remove(file);
    rmdir(dir);
    return 0;
}

CHECK_MAIN({"pause_then_step", pause_then_step}, {"speed", speed}, {"step_budget", step_budget},
           {"reset_and_next_rope", reset_and_next_rope}, {"window_keys", window_keys},
           {"strain_and_energy", strain_and_energy}, {"diverged_rope_stops", diverged_rope_stops},
           {"warm_start", warm_start})
