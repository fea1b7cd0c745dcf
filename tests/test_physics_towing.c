/* Physics of prescribed anchor motion (docs/model.md section 6.5): the anchor follows its path's table
 * exactly at the table's times, and a rope towed at constant velocity through still air trails at the angle
 * where drag balances weight. */
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
 * below it) trails at tan(theta) = D / (m g) behind the vertical; the held particle moves at V too. */
static int towed_angle(void)
{
    const double k1 = 0.05, k2 = 0.1, V = 1.5, m = 0.02, g = 9.81;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -%g, 0],"
                       " \"groups\": [{\"count\": 1, \"particles\": 10, \"start\": [0, -0.05, 0], \"end\": [0, -0.95, 0],"
                       " \"mass\": %g, \"drag\": {\"k1\": %g, \"k2\": %g},"
                       " \"link\": {\"type\": \"spring\", \"stiffness\": 2000, \"length\": 0.1},"
                       " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 5000, \"length\": 0.05,"
                       " \"motion\": {\"velocity\": [%g, 0, 0]}}}]}",
                       g, m, k1, k2, V));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_advance(r, 80000); /* 40 s */
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
    fprintf(stderr, "measured: towed rope: theta = %.6f rad expected (tan = D / (m g) = %.4f)\n", expected,
            tan(expected));
    phys_report("towed rope in drag, every link at the trailing angle", &angle);
    phys_report("  every particle at the towing speed", &speed);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"path_table", path_table}, {"towed_angle", towed_angle})
