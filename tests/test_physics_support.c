/* Held ends (docs/model.md sections 6.4 and 10.4): the support force of a pinned particle or a pin anchor's
 * particle 0 against statics (a chain hanging between two pins carries its whole weight on them, each end its
 * catenary's tension) and dynamics (a pendulum's pivot at the bottom of its swing), the two engines' support
 * forces the same bits, a pin anchor that follows its motion exactly, and a pin refused where it cannot be. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "physics_util.h"
#include "skein/engine.h"

static sk_engine *engine(const sk_scenario *s, const char *name)
{
    sk_error err = {0};
    sk_engine_options opt = {.engine = name, .threads = 1};
    sk_engine *e = sk_engine_create(s, &opt, &err);
    if (e && sk_equilibrium_start(e, &err)) {
        sk_engine_destroy(e);
        e = NULL;
    }
    if (!e)
        fprintf(stderr, "%s engine: %s\n", name, err.message);
    return e;
}

/* 41 particles of 0.1 kg, 10 m of stiff springs hung at rest between pins 8 m apart: the two supports hold up
 * the whole weight (every particle's, the pinned ends' too) and, by symmetry, half each; their horizontal
 * components are the catenary's H = w a, 2 a sinh(S / 2a) = L, within the lumping of the masses (3 %). */
static int chain(void)
{
    if (PHYS_FLOAT) /* 1e6 N/m springs over 8 m: a float's positions carry about 1 N of their forces */
        CHECK_SKIP("float cannot hold this chain's statics to the tolerances that test it");
    sk_scenario s;
    CHECK(phys_load(&s, "{\"skein\": 1, \"dt\": 1e-4, \"steps\": 1, \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                        " \"groups\": [{\"count\": 1, \"particles\": 41, \"mass\": 0.1, \"start\": [0, 0, 0],"
                        " \"end\": [8, 0, 0], \"pinned\": [0, 40], \"link\": {\"type\": \"spring\", \"stiffness\": 1e6,"
                        " \"length\": 0.25}}]}",
                    PHYS_FLOAT ? "2e-3" : "1e-8") == 0);
    sk_engine *ref = engine(&s, "reference"), *bat = engine(&s, "batch");
    CHECK(ref && bat);
    sk_rope_diagnostics d, db;
    sk_engine_rope_diagnostics(ref, 0, &d, NULL);
    sk_engine_rope_diagnostics(bat, 0, &db, NULL);
    CHECK(memcmp(d.support, db.support, sizeof d.support) == 0);
    const double weight = 41 * 0.1 * 9.81, rel = PHYS_FLOAT ? 1e-4 : 1e-9;
    phys_track t = {0};
    PHYS_NEAR(&t, (double)d.support[0].y + (double)d.support[1].y, weight, rel * weight);
    PHYS_NEAR(&t, (double)d.support[0].x + (double)d.support[1].x, 0, rel * weight);
    PHYS_NEAR(&t, (double)d.support[0].y, weight / 2, rel * weight);
    double lo = 0.1, hi = 100; /* the catenary's a: 2 a sinh(8 / 2a) = 10 */
    for (int i = 0; i < 200; i++) {
        const double a = (lo + hi) / 2;
        *(2 * a * sinh(4 / a) > 10 ? &lo : &hi) = a;
    }
    const double h = weight / 10 * lo;
    PHYS_NEAR(&t, -(double)d.support[0].x, h, 0.03 * h);
    PHYS_NEAR(&t, (double)d.support[1].x, h, 0.03 * h);
    phys_report("chain between two pins", &t);
    sk_engine_destroy(ref);
    sk_engine_destroy(bat);
    sk_scenario_free(&s);
    return 0;
}

/* A 1 kg bob on a 1 m stiff spring under a pin anchor, released level: at the bottom of its swing the pivot
 * holds the bob's m (g + v^2 / r) and the pivot particle's own weight m g (within 0.5 %: the spring stretches
 * and the bottom falls between frames). */
static int pendulum(void)
{
    sk_scenario s;
    CHECK(phys_load(&s, "{\"skein\": 1, \"dt\": 1e-4, \"steps\": 6000, \"output\": {\"every\": 1},"
                        " \"groups\": [{\"count\": 1, \"particles\": 2, \"mass\": 1, \"start\": [0, 0, 0],"
                        " \"end\": [1, 0, 0], \"anchor\": {\"type\": \"pin\", \"point\": [0, 0, 0]},"
                        " \"link\": {\"type\": \"spring\", \"stiffness\": 1e6, \"length\": 1}}]}") == 0);
    sk_engine *e = engine(&s, "reference");
    CHECK(e);
    double best = 1e9, expected = 0, measured = 0;
    for (long k = 0; k < 6000; k++) {
        sk_engine_advance(e, 1);
        sk_real p[6], v[6];
        sk_engine_read_rope(e, 0, p, v);
        if (fabs((double)p[3]) < best && p[4] < 0) {
            best = fabs((double)p[3]);
            const double r = sqrt((double)p[3] * p[3] + (double)p[4] * p[4]);
            const double v2 = (double)v[3] * v[3] + (double)v[4] * v[4];
            expected = 9.81 + (9.81 + v2 / r);
            sk_rope_diagnostics d;
            sk_engine_rope_diagnostics(e, 0, &d, NULL);
            measured = (double)d.support[0].y;
        }
    }
    CHECK(best < 1e-2);
    phys_track t = {0};
    PHYS_NEAR(&t, measured, expected, (PHYS_FLOAT ? 5e-2 : 5e-3) * expected); /* float: the swing's rounding, 3 % */
    PHYS_NEAR(&t, expected, 9.81 * 4, 0.01 * 9.81 * 4); /* a level release: T = 3 m g at the bottom */
    phys_report("pendulum at the bottom", &t);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

/* A pin anchor towed along a path with drag and bending on, every integrator: the batch engine's support forces
 * (and states) the reference's bits at every frame, and the held particle on x(t) and at its velocity. */
static int same_bits(const char *integrator)
{
    sk_scenario s;
    CHECK(phys_load(&s, "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 300, \"integrator\": \"%s\", \"groups\": [{\"count\": 5,"
                        " \"particles\": 9, \"mass\": 0.2, \"start\": [0, 0, 0], \"end\": [2, 0, 0], \"pinned\": [8],"
                        " \"drag\": {\"k1\": 0.1, \"k2\": 0.05}, \"bending\": {\"stiffness\": 0.01},"
                        " \"anchor\": {\"type\": \"pin\", \"point\": [0, 0, 0], \"motion\": {\"velocity\": [0.5, 0, 0.25],"
                        " \"path\": {\"times\": [0, 0.1, 0.2], \"points\": [[0, 0, 0], [0, 0.1, 0], [0, 0.1, 0.1]]}}},"
                        " \"link\": {\"type\": \"spring\", \"stiffness\": 400, \"length\": \"auto\"},"
                        " \"sweep\": {\"link.stiffness\": {\"from\": 300, \"to\": 500}}}]}",
                    integrator) == 0);
    sk_engine *ref = engine(&s, "reference"), *bat = engine(&s, "batch");
    CHECK(ref && bat);
    for (int frame = 0; frame < 6; frame++) {
        for (size_t r = 0; r < s.total_ropes; r++) {
            sk_rope_diagnostics d, db;
            sk_engine_rope_diagnostics(ref, r, &d, NULL);
            sk_engine_rope_diagnostics(bat, r, &db, NULL);
            CHECK(memcmp(d.support, db.support, sizeof d.support) == 0);
            CHECK(d.support[0].y != 0 && d.support[1].y != 0);
            sk_real p[27], v[27];
            sk_engine_read_rope(ref, r, p, v);
            const double t = (double)sk_engine_step(ref) * 1e-3;
            const double path = t >= 0.2 ? 0.1 : t > 0.1 ? 0.1 * (t - 0.1) / 0.1 : 0;
            CHECK_NEAR((double)p[0], 0.5 * t, 1e-6);
            CHECK_NEAR((double)p[1], t >= 0.1 ? 0.1 : t, 1e-6);
            CHECK_NEAR((double)p[2], 0.25 * t + path, 1e-6);
            if (strcmp(integrator, "verlet") != 0)
                CHECK((double)v[0] == 0.5 && (t == 0 || t >= 0.1 || (double)v[1] != 0));
        }
        sk_engine_advance(ref, 50);
        sk_engine_advance(bat, 50);
    }
    sk_engine_destroy(ref);
    sk_engine_destroy(bat);
    sk_scenario_free(&s);
    return 0;
}

static int symplectic(void) { return same_bits("symplectic"); }
static int euler(void) { return same_bits("euler"); }
static int verlet(void) { return same_bits("verlet"); }
static int implicit(void) { return same_bits("implicit"); }

/* A sine-driven pin: the reference's held particle is x(t) to the bit (libm's sine, as sk's docs write it). */
static int sine(void)
{
    sk_scenario s;
    CHECK(phys_load(&s, "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 100, \"groups\": [{\"count\": 1, \"particles\": 4,"
                        " \"start\": [0, 0, 0], \"end\": [3, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 100},"
                        " \"anchor\": {\"type\": \"pin\", \"point\": [1, 2, 3], \"motion\": {\"amplitude\": [0.5, 0.25, 0],"
                        " \"omega\": 7, \"phase\": 0.3}}}]}") == 0);
    sk_engine *e = engine(&s, "reference");
    CHECK(e);
    for (long k = 0; k <= 100; k++) {
        const sk_real t = (sk_real)k * (sk_real)1e-3;
        sk_real p[12];
        sk_engine_read_rope(e, 0, p, NULL);
        const sk_real sn = (sk_real)sin((double)(((sk_real)7 * t) + (sk_real)0.3));
        CHECK(p[0] == (sk_real)1 + (sk_real)0.5 * sn && p[1] == (sk_real)2 + (sk_real)0.25 * sn && p[2] == 3);
        sk_engine_advance(e, 1);
    }
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

static int refuse(const char *anchor_extra, const char *group_extra, const char *message)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"groups\": [{\"count\": 1, \"particles\": 4, \"start\": [0, 0, 0],"
             " \"end\": [3, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 1}%s,"
             " \"anchor\": {\"type\": \"pin\", \"point\": [0, 0, 0]%s}}]}",
             group_extra, anchor_extra);
    sk_scenario s;
    sk_error err = {0};
    CHECK(sk_scenario_load_string(json, "pin", NULL, &s, &err) == SK_ERR_INVALID);
    if (strcmp(err.message, message) != 0) {
        fprintf(stderr, "got: %s\n", err.message);
        return 1;
    }
    return 0;
}

static int refused(void)
{
    CHECK(refuse(", \"stiffness\": 5", "", "pin: groups[0].anchor.stiffness: not allowed for a pin anchor") == 0);
    CHECK(refuse(", \"length\": 1", "", "pin: groups[0].anchor.length: not allowed for a pin anchor") == 0);
    CHECK(refuse("", ", \"deploy\": {\"velocity\": 1}",
                 "pin: groups[0].anchor.type: must be anchored_spring for a deploying group") == 0);
    return 0;
}

CHECK_MAIN({"chain", chain}, {"pendulum", pendulum}, {"symplectic", symplectic}, {"euler", euler},
           {"verlet", verlet}, {"implicit", implicit}, {"sine", sine}, {"refused", refused})
