/* Physics of prescribed anchor motion (docs/model.md section 6.5): the anchor follows its path's table
 * exactly at the table's times, and a rope towed at constant velocity through still air trails at the angle
 * where drag balances weight. */
#include <string.h>

#include "scenario/scenario.h"
#include "model/vec3.h"
#include "physics_util.h"

/* dt = 2^-6 and times that are multiples of it: t = k dt is exact, and at each table time the anchor is
 * point + that row's displacement to the bit; halfway between two rows it is their mean (exact here too:
 * the displacements are binary fractions). Before the first time it holds the first row, after the last
 * the last; a towing velocity adds velocity * t on top. */
static int path_table(void)
{
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 0.015625, \"steps\": 1, \"gravity\": [0, 0, 0],"
                       " \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
                       " \"link\": {\"type\": \"spring\", \"stiffness\": 100},"
                       " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [1, 2, 3], \"stiffness\": 100, \"length\": 1,"
                       " \"motion\": {\"velocity\": [0.5, 0, -0.25], \"path\": {\"times\": [0.25, 0.5, 1],"
                       " \"points\": [[0, 0, 0], [1, -2, 0.5], [3, 0, 0]]}}}}]}"));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    /* (time, displacement of the path) */
    static const double table[][4] = {{0, 0, 0, 0},      {0.25, 0, 0, 0},    {0.375, 0.5, -1, 0.25},
                                      {0.5, 1, -2, 0.5}, {0.75, 2, -1, 0.25}, {1, 3, 0, 0},
                                      {1.5, 3, 0, 0}};
    long done = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        long k = lround(table[i][0] / 0.015625);
        /* after k + 1 steps the anchor is the point of step k, at t = k dt */
        sk_ref_rope_advance(r, k + 1 - done);
        done = k + 1;
        sk_vec3 x = sk_ref_rope_anchor(r);
        const double t = table[i][0];
        CHECK((double)x.x == 1 + table[i][1] + 0.5 * t);
        CHECK((double)x.y == 2 + table[i][2]);
        CHECK((double)x.z == 3 + table[i][3] - 0.25 * t);
    }
    fprintf(stderr, "measured: the anchor at the path's times (and midway) equals point + velocity t + the row, "
                    "to the bit (%zu times)\n", sizeof table / sizeof table[0]);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* A rope of 10 particles hangs from a stiff anchored spring towed at V along x through still air, with
 * linear and quadratic drag, no damping but the drag's: once steady, every particle moves at V, feels the
 * same drag D = k1 V + k2 V^2 against the motion and its weight m g, and every link (carrying the loads
 * below it) trails at tan(theta) = D / (m g) behind the vertical; the held particle moves at V too.
 * `integrator` and `implicit` are the scenario's keys, `anchor` the group's anchor object. The implicit
 * integrators take the anchor where it is at the step's end: a pin left at the step's start lags the rope by
 * V dt, which tilts the top link (measured before they did, at dt 2e-2: 0.13 rad off under BDF2, 0.09 rad under
 * 3 iterations of backward Euler). With an anchored spring the rope's loads, N (D, m g, 0), hang on it:
 * k_a (|d| - L_a) d / |d| with d from the held particle to the anchor point (BDF2 with the point of the step's
 * start stretched it V dt further along x: 126 N too much at dt 2e-2). */
static int towed(const char *label, const char *integrator, const char *implicit, double dt, const char *anchor)
{
    const double k1 = 0.05, k2 = 0.1, V = 1.5, m = 0.02, g = 9.81;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"%s\", \"implicit\": %s,"
                       " \"gravity\": [0, -%g, 0],"
                       " \"groups\": [{\"count\": 1, \"particles\": 10, \"start\": [0, -0.05, 0], \"end\": [0, -0.95, 0],"
                       " \"mass\": %g, \"drag\": {\"k1\": %g, \"k2\": %g},"
                       " \"link\": {\"type\": \"spring\", \"stiffness\": 2000, \"length\": 0.1},"
                       " \"anchor\": %s}]}",
                       dt, integrator, implicit, g, m, k1, k2, anchor));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_advance(r, lround(40 / dt)); /* 40 s */
    const double mass = (double)sk_ref_rope_constants(r)->mass_back;
    const double expected = atan((k1 * V + k2 * V * V) / (mass * g));
    phys_track angle = {0}, speed = {0};
    for (int i = 0; i + 1 < 10; i++) {
        sk_vec3 d = sk_vec3_sub(sk_ref_rope_position(r, i), sk_ref_rope_position(r, i + 1));
        /* particle 0 is held: the rope trails from it, d points from a lower particle up to the one above */
        /* in float a position 60 m downrange holds ~4e-6 m: a 0.1 m link's direction to a few 1e-4 */
        PHYS_NEAR(&angle, atan2(-(double)d.x, (double)d.y), -expected, PHYS_FLOAT ? 1e-3 : 1e-10);
    }
    for (int i = 0; i < 10; i++)
        PHYS_NEAR(&speed, sk_ref_rope_velocity(r, i).x, V, PHYS_FLOAT ? 4e-3 : 1e-9); /* float: the stiff links ring at rounding level */
    phys_track held = {0};
    if (strstr(anchor, "anchored_spring")) {
        const double ka = 5000, la = 0.05, drag = k1 * V + k2 * V * V;
        const sk_vec3 p0 = sk_ref_rope_position(r, 0);
        const double dx = V * (double)sk_ref_rope_time(r) - (double)p0.x, dy = -(double)p0.y, dz = -(double)p0.z;
        const double l = sqrt(dx * dx + dy * dy + dz * dz), f = ka * (l - la) / l;
        /* float: 1e-5 m of the particle's 60 m is 0.05 N of the spring's */
        PHYS_NEAR(&held, f * dx, 10 * drag, PHYS_FLOAT ? 0.2 : 1e-8);
        PHYS_NEAR(&held, f * dy, 10 * mass * g, PHYS_FLOAT ? 0.2 : 1e-8);
        PHYS_NEAR(&held, f * dz, 0, PHYS_FLOAT ? 0.2 : 1e-8);
    }
    fprintf(stderr, "measured: towed rope, %s: theta = %.6f rad expected (tan = D / (m g) = %.4f)\n", label, expected,
            tan(expected));
    phys_report("towed rope in drag, every link at the trailing angle", &angle);
    phys_report("  every particle at the towing speed", &speed);
    if (held.checks)
        phys_report("  the anchored spring carrying the rope's loads (N)", &held);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

#define TOWED_SPRING "{\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 5000, \"length\": 0.05, \"motion\": {\"velocity\": [1.5, 0, 0]}}"
#define TOWED_PIN "{\"type\": \"pin\", \"point\": [0, 0, 0], \"motion\": {\"velocity\": [1.5, 0, 0]}}"
#define TOWED_BDF2 (PHYS_FLOAT ? "{\"scheme\": \"bdf2\", \"tolerance\": 1e-5}" : "{\"scheme\": \"bdf2\", \"tolerance\": 1e-12}")

static int towed_angle(void) { return towed("symplectic, dt 5e-4", "symplectic", "{}", 5e-4, TOWED_SPRING); }

/* BDF2 at 40 times that step: the anchored spring's point and a pin at the step's end */
static int towed_bdf2(void)
{
    return towed("bdf2, dt 2e-2, anchored spring", "implicit", TOWED_BDF2, 2e-2, TOWED_SPRING) ||
           towed("bdf2, dt 2e-2, pin", "implicit", TOWED_BDF2, 2e-2, TOWED_PIN);
}

/* Backward Euler's later Newton iterations: the pin where the first iteration's -v0 took it */
static int towed_euler_iterations(void)
{
    return towed("implicit, 3 iterations, dt 2e-2, pin", "implicit", "{\"iterations\": 3}", 2e-2, TOWED_PIN);
}

CHECK_MAIN({"path_table", path_table}, {"towed_angle", towed_angle}, {"towed_bdf2", towed_bdf2},
           {"towed_euler_iterations", towed_euler_iterations})
