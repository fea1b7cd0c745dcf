/* The top-level "water": its keys and refusals, the normalised round trip, the waves' dispersion relation, the
 * kinematics of core/model/water_flow.h against hand-computed values, and the kernels' lanes against it bit
 * for bit (tests/water_lanes.c, compiled once per kernel ISA). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "check.h"
#include "test_batch_common.h"
#include "model/water_flow.h"
#include "skein/engine.h"
#include "skein/scenario.h"

#define R(x) ((sk_real)(x))
#define PI 3.14159265358979323846

#ifdef SKEIN_REAL_FLOAT
#define REL 2e-5
#else
#define REL 1e-12
#endif

/* A scenario of one hanging particle with WATER as its "water" object and GROUND (may be "") at the top. */
#define SCENARIO(GROUND, WATER)                                                                                   \
    "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, " GROUND "\"water\": " WATER ","                              \
    " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, -1, 0], \"end\": [0, -1, 0]}]}"

static int load(const char *text, sk_scenario *s, sk_error *err)
{
    memset(err, 0, sizeof *err);
    return sk_scenario_load_string(text, "t.json", NULL, s, err);
}

static int fails_with(const char *text, const char *message)
{
    sk_scenario s;
    sk_error err;
    int rc = load(text, &s, &err);
    if (rc != SK_ERR_INVALID || strcmp(err.message, message) != 0) {
        fprintf(stderr, "status %d, message\n  [%s]\nexpected\n  [%s]\n", rc, err.message, message);
        return 1;
    }
    CHECK(!s.water.present && s.water.current_heights == NULL);
    return 0;
}

/* The keys as read, the defaults, and the constants derived at load. */
static int keys(void)
{
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(SCENARIO("", "{\"density\": 1025}"), &s, &err));
    CHECK(s.water.present && !s.water.waves && s.water.current_count == 0);
    CHECK(s.water.density == R(1025) && s.water.surface == 0);
    sk_scenario_free(&s);

    CHECK_OK(load(SCENARIO("\"ground\": {\"height\": -100}, ",
                           "{\"density\": 1000, \"surface\": 2, \"current\": {\"heights\": [-50, 0],"
                           " \"velocities\": [[0, 0, 0], [1, 0, 0.5]]}, \"waves\": {\"amplitude\": 5, \"period\": 10,"
                           " \"heading\": 450, \"phase\": 230, \"depth\": 100, \"ramp\": 20}}"),
                  &s, &err));
    const sk_water *w = &s.water;
    CHECK(w->present && w->waves && w->current_count == 2);
    CHECK(w->surface == 2 && w->current_heights[0] == -50 && w->current_velocities[1].z == R(0.5));
    CHECK(w->wave_amplitude == 5 && w->wave_period == 10 && w->wave_depth == 100 && w->wave_ramp == 20);
    /* degrees to radians, whole turns taken off: 450 deg is 90 deg */
    CHECK_NEAR(w->wave_heading, PI / 2, 1e-6);
    CHECK_NEAR(w->wave_cos_heading, 0, 1e-6);
    CHECK_NEAR(w->wave_sin_heading, 1, 1e-6);
    CHECK_NEAR(w->wave_phase, 230 * PI / 180, 1e-5);
    CHECK_REL(w->wave_omega, 2 * PI / 10, REL);
    /* deep water (k h = 4): omega^2 = g k tanh(k h), g = |gravity| = 9.81 */
    CHECK_REL(9.81 * w->wave_number * tanh(w->wave_number * 100.0), w->wave_omega * (double)w->wave_omega, 1e-5);
    CHECK_REL(w->wave_depth_factor, 1 / (1 - exp(-2 * (double)w->wave_number * 100)), 1e-5);
    sk_scenario_free(&s);

    /* built in code by key paths, as a file writes them */
    sk_scenario_builder *b = sk_builder_create();
    CHECK(b);
    sk_builder_set_number(b, "dt", 1e-3);
    sk_builder_set_integer(b, "steps", 1);
    sk_builder_set_integer(b, "groups[0].count", 1);
    sk_builder_set_integer(b, "groups[0].particles", 1);
    sk_builder_set_vec3(b, "groups[0].start", (sk_vec3){0, -1, 0});
    sk_builder_set_vec3(b, "groups[0].end", (sk_vec3){0, -1, 0});
    sk_builder_set_number(b, "water.density", 1025);
    sk_builder_set_number(b, "water.waves.amplitude", 2);
    sk_builder_set_number(b, "water.waves.period", 9);
    sk_builder_set_number(b, "water.waves.depth", 50);
    CHECK(sk_builder_finish(b, "built", &s, &err) == SK_OK);
    CHECK(s.water.present && s.water.waves && s.water.wave_amplitude == 2 && s.water.density == 1025);
    sk_scenario_free(&s);
    return 0;
}

/* The dispersion relation: its deep and shallow limits, and k tabulated (to 40 digits) for a depth. */
static int dispersion(void)
{
    sk_scenario s;
    sk_error err;
    /* deep: k h = 40, tanh = 1 to round-off, so k = omega^2 / g */
    CHECK_OK(load(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 10, \"depth\": 1000}}"),
                  &s, &err));
    const double w10 = 2 * PI / 10;
    CHECK_REL(s.water.wave_number, w10 * w10 / 9.81, REL);
    sk_scenario_free(&s);
    /* shallow: k h = 0.02, k = omega / sqrt(g h) (1 + (k h)^2 / 6 + ...): 0.0200620124099172354446696683 */
    CHECK_OK(load(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 0.001, \"period\": 100, \"depth\": 1}}"),
                  &s, &err));
    CHECK_REL(s.water.wave_number, 0.0200620124099172354446696683, REL);
    CHECK_REL(s.water.wave_number, (2 * PI / 100) / sqrt(9.81), 1e-4);
    sk_scenario_free(&s);
    /* T = 8 s in 20 m: k = 0.070762428684551515980321778210 1/m (mpmath, 40 digits) */
    CHECK_OK(load(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 8, \"depth\": 20}}"),
                  &s, &err));
    CHECK_REL(s.water.wave_number, 0.070762428684551515980321778210, REL);
    sk_scenario_free(&s);
    /* g is the gravity's magnitude, whatever its direction */
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.001, \"steps\": 1, \"gravity\": [3, 0, -4],"
                  " \"water\": {\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 10, \"depth\": 1000}},"
                  " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, -1, 0], \"end\": [0, -1, 0]}]}",
                  &s, &err));
    CHECK_REL(s.water.wave_number, w10 * w10 / 5, REL);
    sk_scenario_free(&s);
    return 0;
}

/* Every refusal, with its message. */
static int refusals(void)
{
    CHECK_OK(fails_with(SCENARIO("", "{\"surface\": 0}"), "t.json: water.density: required"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 0}"), "t.json: water.density: must be > 0"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"salinity\": 35}"),
                        "t.json: water.salinity: unknown key"));
    CHECK_OK(fails_with(SCENARIO("", "3"), "t.json: water: must be an object"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"current\": {\"heights\": []}}"),
                        "t.json: water.current.heights: required: a non-empty array of heights y (m)"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"current\": {\"heights\": [-2, -1],"
                                     " \"velocities\": [[0, 0, 0]]}}"),
                        "t.json: water.current.velocities: required: an array of as many velocities [vx, vy, vz] "
                        "(m/s) as heights (2)"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"current\": {\"heights\": [-2, -1, -1],"
                                     " \"velocities\": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}}"),
                        "t.json: water.current.heights[2]: must be greater than the height before it (heights "
                        "strictly increase)"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"current\": {\"heights\": [0],"
                                     " \"velocities\": [[0, 0]]}}"),
                        "t.json: water.current.velocities[0]: must be an array of 3 numbers [x, y, z]"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 0, \"depth\": 10}}"),
                        "t.json: water.waves.period: must be > 0"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": -1, \"period\": 5, \"depth\": 10}}"),
                        "t.json: water.waves.amplitude: must be >= 0"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 5, \"depth\": 0}}"),
                        "t.json: water.waves.depth: must be > 0"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 5}}"),
                        "t.json: water.waves.depth: required"));
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 5, \"depth\": 10,"
                                     " \"ramp\": -1}}"),
                        "t.json: water.waves.ramp: must be >= 0"));
    CHECK_OK(fails_with(SCENARIO("\"ground\": {\"height\": -50}, ",
                                 "{\"density\": 1000, \"surface\": 10, \"waves\": {\"amplitude\": 1, \"period\": 5,"
                                 " \"depth\": 61}}"),
                        "t.json: water.waves.depth: 61 m reaches below the ground (the water over ground.height is "
                        "60 m deep)"));
    /* T = 4 s in 10 m: k = 0.2546, Miche's limit 0.142 pi tanh(2.546) = 0.4407 on k a: 1.7 m holds, 1.75 m breaks */
    sk_scenario ok;
    sk_error ok_err;
    CHECK_OK(load(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1.7, \"period\": 4, \"depth\": 10}}"),
                  &ok, &ok_err));
    sk_scenario_free(&ok);
    CHECK_OK(fails_with(SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1.75, \"period\": 4, \"depth\": 10}}"),
                        "t.json: water.waves.amplitude: 1.75 m breaks: k a = 0.4456 is steeper than Miche's limit "
                        "0.142 pi tanh(k h) = 0.4407 (k = 0.254628 1/m)"));
    CHECK_OK(fails_with("{\"skein\": 1, \"dt\": 0.001, \"steps\": 1, \"gravity\": [0, 0, 0],"
                        " \"water\": {\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 10, \"depth\": 100}},"
                        " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, -1, 0], \"end\": [0, -1, 0]}]}",
                        "t.json: water.waves: waves need gravity (a finite, non-zero \"gravity\")"));
    /* the table is bounded */
    char *big = malloc(64 * 1024);
    CHECK(big);
    int n = sprintf(big, "{\"skein\": 1, \"dt\": 0.001, \"steps\": 1, \"water\": {\"density\": 1, \"current\": {\"heights\": [");
    for (int i = 0; i <= SK_MAX_CURRENT_ROWS; i++)
        n += sprintf(big + n, "%s%d", i ? ", " : "", i);
    n += sprintf(big + n, "], \"velocities\": []}}, \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, 0, 0],"
                          " \"end\": [0, 0, 0]}]}");
    int rc = fails_with(big, "t.json: water.current.heights: at most 256 heights");
    free(big);
    CHECK_OK(rc);
    return 0;
}

/* The normalised scenario writes the water back: read again it gives the same bits and the same text. */
static int round_trip(void)
{
    static const char *const texts[] = {
        SCENARIO("", "{\"density\": 1025.5}"),
        SCENARIO("\"ground\": {\"height\": -100}, ",
                 "{\"density\": 1000, \"surface\": 0.1, \"current\": {\"heights\": [-50.3, 0.7],"
                 " \"velocities\": [[0.1, 0, 0], [1, 0, 0.30000000000000004]]}, \"waves\": {\"amplitude\": 5,"
                 " \"period\": 10, \"heading\": 33.3, \"phase\": 230.1, \"depth\": 100.1, \"ramp\": 20}}"),
        SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 8, \"depth\": 20}}"),
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        sk_scenario a, b;
        sk_error err;
        CHECK_OK(load(texts[i], &a, &err));
        CHECK(strstr(a.normalized_json, "\"water\"") != NULL);
        if (load(a.normalized_json, &b, &err)) {
            fprintf(stderr, "%s\n%s\n", err.message, a.normalized_json);
            return 1;
        }
        const sk_water *x = &a.water, *y = &b.water;
        CHECK(x->present == y->present && x->waves == y->waves && x->current_count == y->current_count);
        CHECK(x->current_count == 0 ||
              (memcmp(x->current_heights, y->current_heights, (size_t)x->current_count * sizeof(sk_real)) == 0 &&
               memcmp(x->current_velocities, y->current_velocities, (size_t)x->current_count * sizeof(sk_vec3)) == 0));
        /* the reals after the pointers, one by one (the struct has padding) */
        const sk_real *xr[] = {&x->density, &x->surface, &x->wave_amplitude, &x->wave_period, &x->wave_heading,
                               &x->wave_phase, &x->wave_depth, &x->wave_ramp, &x->wave_omega, &x->wave_number,
                               &x->wave_cos_heading, &x->wave_sin_heading, &x->wave_depth_factor};
        const sk_real *yr[] = {&y->density, &y->surface, &y->wave_amplitude, &y->wave_period, &y->wave_heading,
                               &y->wave_phase, &y->wave_depth, &y->wave_ramp, &y->wave_omega, &y->wave_number,
                               &y->wave_cos_heading, &y->wave_sin_heading, &y->wave_depth_factor};
        for (size_t k = 0; k < sizeof xr / sizeof xr[0]; k++)
            CHECK_SAME_BITS(*xr[k], *yr[k]);
        CHECK(strcmp(a.normalized_json, b.normalized_json) == 0);
        sk_scenario_free(&a);
        sk_scenario_free(&b);
    }
    /* a scenario without water writes none */
    sk_scenario s;
    sk_error err;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.001, \"steps\": 1, \"groups\": [{\"count\": 1, \"particles\": 1,"
                  " \"start\": [0, 0, 0], \"end\": [0, 0, 0]}]}",
                  &s, &err));
    CHECK(!s.water.present && strstr(s.normalized_json, "water") == NULL);
    sk_scenario_free(&s);
    return 0;
}

/* Waves of amplitude 1 m, period 8 s in 20 m of water (T = 8 s: k h = 1.415), surface at y = 0. */
static int waves_water(sk_scenario *s, const char *extra)
{
    char text[1024];
    snprintf(text, sizeof text,
             SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 8, \"depth\": 20%s}}"),
             extra);
    sk_error err;
    if (load(text, s, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    return 0;
}

/* At a crest (theta = 0), a quarter period later and at the bed, against the formulas in double. */
static int kinematics(void)
{
    sk_scenario s;
    CHECK_OK(waves_water(&s, ""));
    const sk_water *w = &s.water;
    const double k = w->wave_number, h = 20, om = w->wave_omega, aw = om, aw2 = om * om;
    sk_vec3 u, a;
    /* the crest at x = 0, t = 0, at the surface: u = a omega coth(k h) along x, a_y = -a omega^2 */
    sk_water_flow(w, (sk_vec3){0, 0, 0}, 0, &u, &a);
    CHECK_REL(u.x, aw / tanh(k * h), REL);
    CHECK_NEAR(u.y, 0, 1e-15);
    CHECK(u.z == 0);
    CHECK_NEAR(a.x, 0, 1e-15);
    CHECK_REL(a.y, -aw2, REL);
    /* half way down, 10 m under the crest */
    sk_water_flow(w, (sk_vec3){0, -10, 0}, 0, &u, &a);
    CHECK_REL(u.x, aw * cosh(k * 10) / sinh(k * h), REL);
    CHECK_REL(a.y, -aw2 * sinh(k * 10) / sinh(k * h), REL);
    /* a quarter period later the surface at x = 0 falls (theta = -pi/2): u_y = -a omega, a_x = -a omega^2 coth */
    sk_water_flow(w, (sk_vec3){0, 0, 0}, 2, &u, &a);
    CHECK_NEAR(u.x, 0, 1e-6);
    CHECK_REL(u.y, -aw, 1e-5);
    CHECK_REL(a.x, -aw2 / tanh(k * h), 1e-5);
    /* a quarter wavelength ahead of the crest (theta = pi/2): the surface rises */
    sk_water_flow(w, (sk_vec3){(sk_real)(PI / 2 / k), 0, 7}, 0, &u, &a);
    CHECK_REL(u.y, aw, 1e-5);
    /* the bed: no vertical velocity, exactly, whatever theta; held below it */
    for (int i = 0; i < 8; i++) {
        sk_water_flow(w, (sk_vec3){(sk_real)(i * 3.7), -20, 0}, (sk_real)(i * 0.9), &u, &a);
        CHECK(u.y == 0 && a.y == 0);
        sk_vec3 u2, a2;
        sk_water_flow(w, (sk_vec3){(sk_real)(i * 3.7), -25, 0}, (sk_real)(i * 0.9), &u2, &a2);
        CHECK(memcmp(&u, &u2, sizeof u) == 0 && memcmp(&a, &a2, sizeof a) == 0);
    }
    sk_water_flow(w, (sk_vec3){0, -20, 0}, 0, &u, &a);
    CHECK_REL(u.x, aw / sinh(k * h), REL);
    /* above the surface: nothing */
    sk_water_flow(w, (sk_vec3){0, R(0.01), 0}, 0, &u, &a);
    CHECK(u.x == 0 && u.y == 0 && u.z == 0 && a.x == 0 && a.y == 0 && a.z == 0);
    sk_scenario_free(&s);

    /* the phase moves the crest: 90 deg puts x = 0 a quarter wavelength ahead of it */
    CHECK_OK(waves_water(&s, ", \"phase\": 90"));
    sk_water_flow(&s.water, (sk_vec3){0, 0, 0}, 0, &u, &a);
    CHECK_REL(u.y, aw, 1e-5);
    CHECK_NEAR(u.x, 0, 1e-6);
    sk_scenario_free(&s);
    /* a heading of 90 deg: the waves travel along +z */
    CHECK_OK(waves_water(&s, ", \"heading\": 90"));
    sk_water_flow(&s.water, (sk_vec3){123, -3, 0}, 0, &u, &a);
    CHECK_NEAR(u.x, 0, 1e-6);
    CHECK_REL(u.z, aw * cosh(k * 17) / sinh(k * h), 1e-5);
    sk_scenario_free(&s);
    /* deep water, far down: cosh and sinh would overflow, the ratio form does not */
    char text[512];
    snprintf(text, sizeof text, SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 0.1, \"period\": 1,"
                                             " \"depth\": 4000}}"));
    sk_error err;
    CHECK_OK(load(text, &s, &err));
    sk_water_flow(&s.water, (sk_vec3){0, -3999, 0}, 0, &u, &a);
    CHECK(u.x == 0 && isfinite(u.y) && isfinite(a.x) && isfinite(a.y));
    sk_water_flow(&s.water, (sk_vec3){0, -1, 0}, 0, &u, &a);
    CHECK_REL(u.x, 0.1 * (2 * PI) * exp(-s.water.wave_number), 1e-5);
    sk_scenario_free(&s);
    return 0;
}

/* The ramp: smoothstep r = f^3 (10 - 15 f + 6 f^2), and the acceleration gains r' u. */
static int ramp(void)
{
    sk_scenario full, ramped;
    CHECK_OK(waves_water(&full, ""));
    CHECK_OK(waves_water(&ramped, ", \"ramp\": 10"));
    const sk_vec3 p = {3, -2, 1};
    sk_vec3 u0, a0, u, a;
    for (int i = 0; i < 4; i++) {
        const sk_real t = (sk_real)(2.5 * i);
        const double f = 0.25 * i, r = f * f * f * (10 - 15 * f + 6 * f * f), dr = 30 * f * f * (1 - f) * (1 - f) / 10;
        sk_water_flow(&full.water, p, t, &u0, &a0);
        sk_water_flow(&ramped.water, p, t, &u, &a);
        CHECK_NEAR(u.x, r * u0.x, 1e-6);
        CHECK_NEAR(u.y, r * u0.y, 1e-6);
        CHECK_NEAR(a.x, r * a0.x + dr * u0.x, 1e-6);
        CHECK_NEAR(a.y, r * a0.y + dr * u0.y, 1e-6);
    }
    CHECK_NEAR(0.25 * 0.25 * 0.25 * (10 - 15 * 0.25 + 6 * 0.0625), 0.103515625, 0);
    sk_water_flow(&ramped.water, p, 0, &u, &a);
    CHECK(u.x == 0 && u.y == 0 && a.x == 0 && a.y == 0);
    for (int i = 0; i < 3; i++) { /* at and after the ramp's end: the same bits as no ramp */
        const sk_real t = (sk_real)(10 + 7.3 * i);
        sk_water_flow(&full.water, p, t, &u0, &a0);
        sk_water_flow(&ramped.water, p, t, &u, &a);
        CHECK(memcmp(&u, &u0, sizeof u) == 0 && memcmp(&a, &a0, sizeof a) == 0);
    }
    sk_scenario_free(&full);
    sk_scenario_free(&ramped);
    return 0;
}

/* The current: linear between rows, held beyond them, nothing above the surface; no acceleration. */
static int current(void)
{
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(SCENARIO("", "{\"density\": 1000, \"surface\": 5, \"current\": {\"heights\": [-20, -10, 0],"
                               " \"velocities\": [[1, 0, 0], [0.5, 0, 0.2], [0.2, 0.1, 0]]}}"),
                  &s, &err));
    static const struct {
        double y, v[3];
    } at[] = {{-30, {1, 0, 0}},       {-20, {1, 0, 0}},  {-15, {0.75, 0, 0.1}}, {-10, {0.5, 0, 0.2}},
              {-2.5, {0.275, 0.075, 0.05}}, {0, {0.2, 0.1, 0}}, {3, {0.2, 0.1, 0}},     {5, {0.2, 0.1, 0}},
              {5.5, {0, 0, 0}}};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        sk_vec3 u, a;
        sk_water_flow(&s.water, (sk_vec3){R(17), (sk_real)at[i].y, R(-3)}, R(4.2), &u, &a);
        CHECK_NEAR(u.x, at[i].v[0], 1e-6);
        CHECK_NEAR(u.y, at[i].v[1], 1e-6);
        CHECK_NEAR(u.z, at[i].v[2], 1e-6);
        CHECK(a.x == 0 && a.y == 0 && a.z == 0);
    }
    sk_scenario_free(&s);
    /* one row: the same everywhere under the surface */
    CHECK_OK(load(SCENARIO("", "{\"density\": 1000, \"current\": {\"heights\": [-7], \"velocities\": [[0.3, 0, -0.4]]}}"),
                  &s, &err));
    sk_vec3 u, a;
    sk_water_flow(&s.water, (sk_vec3){0, -100, 0}, 0, &u, &a);
    CHECK(u.x == R(0.3) && u.z == R(-0.4));
    sk_water_flow(&s.water, (sk_vec3){0, 0, 0}, 0, &u, &a);
    CHECK(u.x == R(0.3) && u.z == R(-0.4));
    sk_scenario_free(&s);
    return 0;
}

/* tests/water_lanes.c, one per ISA compiled: k_water_flow over n points (n a multiple of 16). */
typedef void water_lanes_fn(const sk_water *w, const sk_real *p, size_t n, sk_real t, sk_real *u, sk_real *a);
#ifdef SKEIN_TEST_LANES_SCALAR
water_lanes_fn water_lanes_scalar;
#endif
#ifdef SKEIN_TEST_LANES_AVX2
water_lanes_fn water_lanes_avx2;
#endif
#ifdef SKEIN_TEST_LANES_AVX512
water_lanes_fn water_lanes_avx512;
#endif

static uint64_t next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double uniform(uint64_t *state, double lo, double hi) { return lo + (hi - lo) * (double)(next(state) >> 11) * 0x1p-53; }

/* The lanes give sk_water_flow's bits at random points and times, non-finite ones among them. */
static int lanes(void)
{
    static const struct {
        const char *name;
        water_lanes_fn *fn;
    } isas[] = {
#ifdef SKEIN_TEST_LANES_SCALAR
        {"scalar", water_lanes_scalar},
#endif
#ifdef SKEIN_TEST_LANES_AVX2
        {"avx2", water_lanes_avx2},
#endif
#ifdef SKEIN_TEST_LANES_AVX512
        {"avx512", water_lanes_avx512},
#endif
    };
    sk_isa_info info[8];
    const int n_info = sk_isa_list(info, 8);
    static const char *const waters[] = {
        SCENARIO("\"ground\": {\"height\": -100}, ",
                 "{\"density\": 1000, \"surface\": 1.5, \"current\": {\"heights\": [-80, -40, -10, -2, 1],"
                 " \"velocities\": [[0, 0, 0], [0.2, 0, 0.1], [0.5, 0.01, 0.2], [0.7, 0, 0.3], [0.8, 0, 0.3]]},"
                 " \"waves\": {\"amplitude\": 5, \"period\": 10, \"heading\": 37, \"phase\": 230, \"depth\": 101.5,"
                 " \"ramp\": 15}}"),
        SCENARIO("", "{\"density\": 1000, \"waves\": {\"amplitude\": 1, \"period\": 8, \"depth\": 20}}"),
        SCENARIO("", "{\"density\": 1000, \"current\": {\"heights\": [-3, 4], \"velocities\": [[1, 2, 3], [-1, 0, 2]]}}"),
    };
    enum { N = 4096 };
    static sk_real p[3 * N], u[3 * N], a[3 * N];
    uint64_t seed = 28;
    long compared = 0;
    for (size_t wi = 0; wi < sizeof waters / sizeof waters[0]; wi++) {
        sk_scenario s;
        sk_error err;
        CHECK_OK(load(waters[wi], &s, &err));
        for (int round = 0; round < 6; round++) {
            const sk_real t = round == 0 ? 0 : (sk_real)uniform(&seed, 0, round < 3 ? 15 : 3000);
            for (size_t i = 0; i < N; i++) {
                p[3 * i] = (sk_real)uniform(&seed, -800, 800);
                p[3 * i + 1] = (sk_real)uniform(&seed, -110, 4);
                p[3 * i + 2] = (sk_real)uniform(&seed, -800, 800);
            }
            static const double odd[] = {NAN, INFINITY, -INFINITY, 1e30, -1e30, 0};
            for (int j = 0; j < 24; j++)
                p[next(&seed) % (3 * N)] = (sk_real)odd[j % 6];
            for (size_t f = 0; f < sizeof isas / sizeof isas[0]; f++) {
                bool runs = false;
                for (int q = 0; q < n_info; q++)
                    runs = runs || (strcmp(info[q].name, isas[f].name) == 0 && info[q].usable);
                if (!runs)
                    continue;
                isas[f].fn(&s.water, p, N, t, u, a);
                for (size_t i = 0; i < N; i++) {
                    sk_vec3 ur, ar;
                    sk_water_flow(&s.water, (sk_vec3){p[3 * i], p[3 * i + 1], p[3 * i + 2]}, t, &ur, &ar);
                    const sk_real got[6] = {u[3 * i], u[3 * i + 1], u[3 * i + 2], a[3 * i], a[3 * i + 1], a[3 * i + 2]};
                    const sk_real want[6] = {ur.x, ur.y, ur.z, ar.x, ar.y, ar.z};
                    if (memcmp(got, want, sizeof got) != 0) {
                        fprintf(stderr, "%s, water %zu, t %.17g, point (%.17g, %.17g, %.17g): lanes (%.17g %.17g %.17g | %.17g %.17g %.17g) reference (%.17g %.17g %.17g | %.17g %.17g %.17g)\n",
                                isas[f].name, wi, (double)t, (double)p[3 * i], (double)p[3 * i + 1], (double)p[3 * i + 2],
                                (double)got[0], (double)got[1], (double)got[2], (double)got[3], (double)got[4], (double)got[5],
                                (double)want[0], (double)want[1], (double)want[2], (double)want[3], (double)want[4], (double)want[5]);
                        return 1;
                    }
                    compared++;
                }
            }
        }
        sk_scenario_free(&s);
    }
    fprintf(stderr, "%ld points the same bits in %zu ISA(s) compiled\n", compared, sizeof isas / sizeof isas[0]);
    CHECK(compared > 0);
    return 0;
}

/* Water that no group feels changes nothing: a scenario with it runs the same bits as without it, in the
 * batch (every ISA) and in the reference, which agree. */
#define HARMLESS_GROUPS                                                                                            \
    "\"groups\": [{\"count\": 5, \"particles\": 8, \"start\": [0, -5, 0], \"end\": [7, -5, 0],"                   \
    " \"link\": {\"type\": \"spring\", \"stiffness\": 500, \"length\": 1}, \"drag\": {\"k1\": 0.1, \"k2\": 0.01},"      \
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, -5, 0], \"stiffness\": 500, \"length\": 0},"        \
    " \"sweep\": {\"link.stiffness\": {\"from\": 300, \"to\": 900}}}]}"
static int harmless(void)
{
    static const char *const with =
        "{\"skein\": 1, \"dt\": 0.001, \"steps\": 300, \"ground\": {\"height\": -60},"
        " \"water\": {\"density\": 1025, \"current\": {\"heights\": [-60, 0], \"velocities\": [[0, 0, 0], [1, 0, 0]]},"
        " \"waves\": {\"amplitude\": 2, \"period\": 8, \"phase\": 230, \"depth\": 60, \"ramp\": 0.1}}, " HARMLESS_GROUPS;
    static const char *const without = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 300, \"ground\": {\"height\": -60}, "
                                       HARMLESS_GROUPS;
    CHECK_OK(tb_against_reference(with, 300, 100, NULL));
    sk_scenario a, b;
    CHECK_OK(tb_load(&a, "%s", with));
    CHECK_OK(tb_load(&b, "%s", without));
    CHECK(a.water.present && !b.water.present);
    sk_engine *ea = tb_engine(&a, "reference", NULL, 1), *eb = tb_engine(&b, "reference", NULL, 1);
    CHECK(ea && eb);
    sk_engine_advance(ea, 300);
    sk_engine_advance(eb, 300);
    CHECK(sk_engine_step(ea) == 300 && sk_engine_step(eb) == 300);
    CHECK(tb_hash(&a, ea) == tb_hash(&b, eb));
    sk_engine_destroy(ea);
    sk_engine_destroy(eb);
    sk_scenario_free(&a);
    sk_scenario_free(&b);
    return 0;
}

CHECK_MAIN({"keys", keys}, {"dispersion", dispersion}, {"refusals", refusals}, {"round_trip", round_trip},
           {"kinematics", kinematics}, {"ramp", ramp}, {"current", current}, {"lanes", lanes},
           {"harmless", harmless})
