/* The direct chain solver in the batch engine against the reference, bit for bit: rod and cable chains, rod
 * and cable anchors, the ground under rods, cables, springs and deploying ropes, pinned particles, a driven
 * anchor, with every integrator (implicit with 1 and 3 Newton iterations) and 1 and 3 Newton iterations of
 * the position projection (with the default tolerance, with 0: every iteration, and up to 6 with a tolerance
 * the ropes of a pack meet after different counts), on 21 ropes whose parameters all differ, every ISA, 1 and 2 threads; the
 * diagnostics (tensions from the impulses, rows, solves) too. Ground friction with its coefficients swept
 * per rope (from 0, frictionless, up to sticking) on rods, cables and deploying ropes. */
#include <stdio.h>
#include <string.h>

#include "scenario/scenario.h"
#include "contact_scenario.h"
#include "test_batch_common.h"

#define STEPS 600
#define EVERY 150

/* One group of contact_scenario.h's ropes; TOP adds scenario keys, EXTRA group keys, MORE_SWEEPS sweep keys.
 * The run's own keys and the integrator are filled in per run. */
#define SCENARIO(TOP, EXTRA, MORE_SWEEPS)                                                                      \
    "{%s\"skein\": 1, \"dt\": 1e-3, \"steps\": 600, \"integrator\": \"%s\", \"resolver\": \"direct\", " TOP \
    CONTACT_GROUP(EXTRA, MORE_SWEEPS)

/* A tolerance some ropes of a pack meet after fewer iterations than others: above the real type's round-off. */
#ifdef SKEIN_REAL_FLOAT
#define SPREAD_TOLERANCE "1e-4"
#else
#define SPREAD_TOLERANCE "1e-9"
#endif

/* Sanitizer builds run the runs marked `everywhere` (tests/CMakeLists.txt): what ASan and UBSan look for is
 * in the direct kernel's own paths (verlet's velocities, implicit's, one iteration, lanes stopping apart),
 * which the other integrators repeat; the default and float builds compare all. */
static const struct {
    const char *integrator, *top;
    bool everywhere;
} runs[] = {{"cyclone", "", true},
            {"euler", "", false},
            {"symplectic", "", false},
            {"verlet", "", true},
            {"implicit", "", false},
            {"implicit", "\"implicit\": {\"iterations\": 3}, ", true},
            {"symplectic", "\"direct\": {\"iterations\": 1}, ", true},
            {"cyclone", "\"direct\": {\"tolerance\": 0}, ", false},
            {"symplectic", "\"direct\": {\"iterations\": 6, \"tolerance\": " SPREAD_TOLERANCE "}, ", true}};

#ifdef SKEIN_TEST_SANITIZED
#define RUN_HERE(i) (runs[i].everywhere)
#else
#define RUN_HERE(i) true
#endif

/* Diagnostics at the last frame: rows and solves of the last step, link tensions, energies. */
static int same_diagnostics(const sk_scenario *s, sk_engine *ref, sk_engine *bat, double *most_tension, int *most_rows,
                            int solves[2])
{
    for (size_t r = 0; r < s->total_ropes; r++) {
        int rc, ri, bc, bi;
        sk_rope_diagnostics rd, bd;
        sk_real rt[64], bt[64];
        int n = sk_engine_rope_particles(ref, r);
        CHECK(n <= 64);
        sk_engine_rope_contacts(ref, r, &rc, &ri);
        sk_engine_rope_contacts(bat, r, &bc, &bi);
        sk_engine_rope_diagnostics(ref, r, &rd, rt);
        sk_engine_rope_diagnostics(bat, r, &bd, bt);
        CHECK(bc == rc && bi == ri);
        solves[0] = r == 0 || ri < solves[0] ? ri : solves[0];
        solves[1] = r == 0 || ri > solves[1] ? ri : solves[1];
        for (int j = 0; j + 1 < n; j++) {
            CHECK_SAME_BITS(bt[j], rt[j]);
            *most_tension = fabs((double)rt[j]) > *most_tension ? fabs((double)rt[j]) : *most_tension;
        }
        CHECK_SAME_BITS(bd.kinetic, rd.kinetic);
        CHECK_SAME_BITS(bd.gravity, rd.gravity);
        *most_rows = rc > *most_rows ? rc : *most_rows;
    }
    return 0;
}

/* Whether some run's ropes made different numbers of solves in their last step (the pack's lanes stopped
 * their Newton iterations at different counts). */
static bool solves_differ;

/* Every run of the scenario against the reference; at the end the diagnostics of a 2-thread batch on each
 * ISA. Returns the largest tension and row count seen, so each case can check it tested what it meant to. */
static int each_run(const char *fmt, double *most_tension, int *most_rows)
{
    static char json[1 << 15];
    *most_tension = 0;
    *most_rows = 0;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        if (!RUN_HERE(i))
            continue;
        snprintf(json, sizeof json, fmt, runs[i].top, runs[i].integrator);
        if (tb_against_reference(json, STEPS, EVERY, NULL)) {
            fprintf(stderr, "integrator %s %s\n", runs[i].integrator, runs[i].top);
            return 1;
        }
        sk_scenario s;
        CHECK_OK(tb_load(&s, "%s", json));
        sk_engine *ref = tb_engine(&s, "reference", NULL, 0);
        CHECK(ref != NULL);
        sk_engine_advance(ref, STEPS);
        const char *isas[4];
        int n_isas = tb_isas(isas, 4);
        for (int k = 0; k < n_isas; k++) {
            sk_engine *bat = tb_engine(&s, "batch", isas[k], 2);
            CHECK(bat != NULL);
            sk_engine_advance(bat, STEPS);
            int solves[2] = {0, 0};
            CHECK_OK(same_diagnostics(&s, ref, bat, most_tension, most_rows, solves));
            solves_differ = solves_differ || solves[0] != solves[1];
            if (k == 0)
                fprintf(stderr, "%s %s: the last step's solves from %d to %d over the ropes\n", runs[i].integrator,
                        runs[i].top, solves[0], solves[1]);
            sk_engine_destroy(bat);
        }
        sk_engine_destroy(ref);
        sk_scenario_free(&s);
    }
    fprintf(stderr, "largest tension %.6g N, most rows in a step %d\n", *most_tension, *most_rows);
    return 0;
}

/* A rod chain from a pinned particle, rod lengths per rope. */
static int rod_chain(void)
{
    double t;
    int rows;
    CHECK_OK(each_run(SCENARIO("", "\"pinned\": [0], \"link\": {\"type\": \"rod\", \"length\": 0.1},",
                               ", \"link.length\": {\"random\": {\"min\": 0.09, \"max\": 0.12, \"seed\": 8}}"),
                      &t, &rows));
    CHECK(t > 0 && rows == 9);
    return 0;
}

/* Pinned pairs: link 0 joins two pinned particles and is no row; links 4 and 5 hold pinned 5. */
static int rod_chain_pinned(void)
{
    double t;
    int rows;
    CHECK_OK(each_run(SCENARIO("", "\"pinned\": [0, 1, 5], \"link\": {\"type\": \"rod\", \"length\": 0.1},", ""), &t,
                      &rows));
    CHECK(t > 0 && rows == 8);
    return 0;
}

/* Cables 0.09 .. 0.13 long around a 0.1 .. 0.12 spacing: slack and taut links, restitution 0 .. 1. */
static int cable_chain(void)
{
    double t;
    int rows;
    solves_differ = false;
    CHECK_OK(each_run(SCENARIO("", "\"pinned\": [0], \"link\": {\"type\": \"cable\", \"length\": 0.1, \"restitution\": 0.5},",
                               ", \"link.length\": {\"random\": {\"min\": 0.09, \"max\": 0.13, \"seed\": 8}},"
                               " \"link.restitution\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 10}}"),
                      &t, &rows));
    CHECK(t > 0 && rows > 0);
    CHECK(solves_differ);
    return 0;
}

/* A free rod chain on a rod anchor whose length starts too long or too short. */
static int rod_anchor(void)
{
    double t;
    int rows;
    CHECK_OK(each_run(SCENARIO("", "\"link\": {\"type\": \"rod\", \"length\": 0.1},"
                                   " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.7, 0], \"length\": 0.2},",
                               ", \"anchor.length\": {\"random\": {\"min\": 0.05, \"max\": 0.4, \"seed\": 11}},"
                               " \"anchor.point[1]\": {\"random\": {\"min\": 0.6, \"max\": 0.8, \"seed\": 12}}"),
                      &t, &rows));
    CHECK(t > 0 && rows == 10);
    return 0;
}

/* A cable chain on a cable anchor, restitution per rope. */
static int cable_anchor(void)
{
    double t;
    int rows;
    CHECK_OK(each_run(SCENARIO("", "\"link\": {\"type\": \"cable\", \"length\": 0.11, \"restitution\": 0.3},"
                                   " \"anchor\": {\"type\": \"cable\", \"point\": [0, 0.7, 0], \"length\": 0.2, \"restitution\": 0.5},",
                               ", \"anchor.length\": {\"random\": {\"min\": 0.1, \"max\": 0.4, \"seed\": 11}},"
                               " \"anchor.restitution\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 13}}"),
                      &t, &rows));
    CHECK(t > 0 && rows > 0);
    return 0;
}

/* W2's structure with every parameter drawn per rope: rods, a rod anchor, the ground (restitution 0.2). */
static int ground_rods(void)
{
    double t;
    int rows;
    CHECK_OK(each_run(SCENARIO("\"ground\": {\"height\": 0, \"restitution\": 0.2},",
                               "\"link\": {\"type\": \"rod\", \"length\": 0.1},"
                               " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.6, 0], \"length\": 0.1},",
                               ", \"link.length\": {\"random\": {\"min\": 0.09, \"max\": 0.11, \"seed\": 8}},"
                               " \"anchor.length\": {\"random\": {\"min\": 0.05, \"max\": 0.2, \"seed\": 11}}"),
                      &t, &rows));
    CHECK(t > 0 && rows > 10);
    return 0;
}

/* Cable chains falling onto a bouncy ground (restitution 0.9). */
static int ground_cables(void)
{
    double t;
    int rows;
    CHECK_OK(each_run(SCENARIO("\"ground\": {\"height\": 0.1, \"restitution\": 0.9},",
                               "\"link\": {\"type\": \"cable\", \"length\": 0.11, \"restitution\": 0.2},",
                               ", \"link.restitution\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 10}}"),
                      &t, &rows));
    CHECK(rows > 3);
    return 0;
}

/* Spring chains falling onto the ground: only ground rows, one pinned particle below the plane. */
static int ground_springs(void)
{
    double t;
    int rows;
    CHECK_OK(each_run(SCENARIO("\"ground\": {\"height\": 0.05, \"restitution\": 0.6},",
                               "\"pinned\": [4], \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},",
                               ", \"start[1]\": {\"random\": {\"min\": -0.1, \"max\": 0.6, \"seed\": 15}}"),
                      &t, &rows));
    CHECK(rows > 3 && rows <= 9);
    return 0;
}

/* Ropes deploying near the ground: lanes at different particle counts, ground rows for the present ones. */
static int deploy_ground(void)
{
    static const char fmt[] =
        "{%s\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"%s\", \"resolver\": \"direct\","
        CONTACT_DEPLOY_GROUND;

    double t;
    int rows;
    CHECK_OK(each_run(fmt, &t, &rows));
    CHECK(rows >= 3);
    static char json[4096];
    snprintf(json, sizeof json, fmt, "", "symplectic");
    tb_stats counts;
    CHECK_OK(tb_against_reference(json, 600, 600, &counts));
    CHECK(counts.min_count < counts.max_count);
    return 0;
}

/* A towed rod anchor (velocity per rope; a sine would differ by SLEEF against libm, as for Cyclone's resolver). */
static int driven_anchor(void)
{
    double t;
    int rows;
    CHECK_OK(each_run(SCENARIO("", "\"link\": {\"type\": \"rod\", \"length\": 0.1},"
                                   " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.6, 0], \"length\": 0.1,"
                                   " \"motion\": {\"velocity\": [0.2, 0, 0]}},",
                               ", \"anchor.motion.velocity[1]\": {\"random\": {\"min\": -0.3, \"max\": 0.3, \"seed\": 41}}"),
                      &t, &rows));
    CHECK(t > 0 && rows == 10);
    return 0;
}

/* The reference after STEPS symplectic steps: the kinetic energy summed over the ropes, and rope 0's particle
 * count, positions and velocities. */
typedef struct ref_end {
    double kinetic;
    int n;
    sk_real p[3 * 64], v[3 * 64];
} ref_end;

static int reference_end(const char *fmt, ref_end *out)
{
    static char json[1 << 15];
    snprintf(json, sizeof json, fmt, "", "symplectic");
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    sk_engine *ref = tb_engine(&s, "reference", NULL, 0);
    CHECK(ref != NULL);
    sk_engine_advance(ref, STEPS);
    out->kinetic = 0;
    for (size_t r = 0; r < s.total_ropes; r++) {
        sk_rope_diagnostics d;
        sk_real t[64];
        sk_engine_rope_diagnostics(ref, r, &d, t);
        out->kinetic += (double)d.kinetic;
    }
    out->n = sk_engine_rope_particles(ref, 0);
    CHECK(out->n <= 64);
    sk_engine_read_rope(ref, 0, out->p, out->v);
    sk_engine_destroy(ref);
    sk_scenario_free(&s);
    return 0;
}

/* Runs a friction case; then checks that friction acted (the ropes keep less kinetic energy than on a
 * frictionless ground) and that rope 0, whose coefficients are 0, ends with the frictionless bits. */
static int friction_case(const char *with, const char *without, int least_rows)
{
    double t;
    int rows;
    CHECK_OK(each_run(with, &t, &rows));
    CHECK(rows >= least_rows);
    static ref_end f, z;
    CHECK_OK(reference_end(with, &f));
    CHECK_OK(reference_end(without, &z));
    fprintf(stderr, "kinetic energy after %d steps: %.6g J with friction, %.6g J without\n", STEPS, f.kinetic, z.kinetic);
    CHECK(z.kinetic > 0 && f.kinetic < z.kinetic);
    const size_t bytes = (size_t)(3 * f.n) * sizeof(sk_real);
    CHECK(f.n == z.n && memcmp(f.p, z.p, bytes) == 0 && memcmp(f.v, z.v, bytes) == 0);
    return 0;
}

/* Coefficients per rope: rope 0 frictionless, the last mu_s = 1.2, mu_k = 0.9 (mu_k <= mu_s on every rope). */
#define FRICTION "\"friction\": {\"static\": 0.6, \"kinetic\": 0.4}"
#define FRICTION_SWEEPS                                          \
    ", \"ground.friction.static\": {\"from\": 0, \"to\": 1.2}," \
    " \"ground.friction.kinetic\": {\"from\": 0, \"to\": 0.9}"
/* Sideways speeds per rope, so that the ropes land sliding. */
#define SLIDE_SWEEPS                                                            \
    ", \"velocity[0]\": {\"random\": {\"min\": 0.5, \"max\": 2, \"seed\": 51}}," \
    " \"velocity[2]\": {\"random\": {\"min\": -1.5, \"max\": 1.5, \"seed\": 52}}"

/* Free rod chains, tilted (end[1] per rope), landing sideways on the ground and sliding: ground rows
 * coupled to rods, some particles on the ground and some not. */
#define FRICTION_RODS(GROUND, MORE)                                                                    \
    SCENARIO("\"ground\": {\"height\": 0.3, \"restitution\": 0.1" GROUND "},",                         \
             "\"link\": {\"type\": \"rod\", \"length\": 0.1},",                                            \
             ", \"link.length\": {\"random\": {\"min\": 0.09, \"max\": 0.11, \"seed\": 8}}" SLIDE_SWEEPS MORE)
static int friction_rods(void)
{
    return friction_case(FRICTION_RODS(", " FRICTION, FRICTION_SWEEPS), FRICTION_RODS("", ""), 10);
}

/* Cables on a cable anchor over the ground, partly lying on it and swinging sideways: the anchor's and the
 * cables' rows released and generated around the ground rows with friction. */
#define FRICTION_CABLES(GROUND, MORE)                                                                         \
    SCENARIO("\"ground\": {\"height\": 0.35, \"restitution\": 0.3" GROUND "},",                               \
             "\"link\": {\"type\": \"cable\", \"length\": 0.11, \"restitution\": 0.2},"                          \
             " \"anchor\": {\"type\": \"cable\", \"point\": [0, 0.6, 0], \"length\": 0.2, \"restitution\": 0.5},", \
             ", \"anchor.length\": {\"random\": {\"min\": 0.1, \"max\": 0.4, \"seed\": 11}}" SLIDE_SWEEPS MORE)
static int friction_cables(void)
{
    return friction_case(FRICTION_CABLES(", " FRICTION, FRICTION_SWEEPS), FRICTION_CABLES("", ""), 4);
}

/* Deploying spring ropes on the ground: ground rows only, lanes at different particle counts. */
#define FRICTION_DEPLOY(GROUND, MORE)                                                                            \
    "{%s\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"%s\", \"resolver\": \"direct\","              \
    " \"ground\": {\"height\": 0.1, \"restitution\": 0.4" GROUND "},"                                                 \
    " \"groups\": [{\"count\": 21, \"particles\": 16, \"start\": [0, 0.12, 0], \"end\": [0.1, 0.12, 0],"            \
    " \"mass\": 0.05, \"damping\": 0.9, \"velocity\": [0.3, 0, 0.5], \"pinned\": [9],"                                \
    " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"                                       \
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 0.1, 0], \"stiffness\": 300, \"length\": 0.05},"  \
    " \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"                                                     \
    " \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 1, \"max\": 4, \"seed\": 31}},"                       \
    " \"mass\": {\"random\": {\"min\": 0.03, \"max\": 0.1, \"seed\": 32}},"                                         \
    " \"anchor.point[1]\": {\"random\": {\"min\": 0.06, \"max\": 0.14, \"seed\": 34}}" MORE "}}]}"
static int friction_deploy(void)
{
    return friction_case(FRICTION_DEPLOY(", " FRICTION, FRICTION_SWEEPS), FRICTION_DEPLOY("", ""), 3);
}

CHECK_MAIN({"rod_chain", rod_chain}, {"rod_chain_pinned", rod_chain_pinned}, {"cable_chain", cable_chain},
           {"rod_anchor", rod_anchor}, {"cable_anchor", cable_anchor}, {"ground_rods", ground_rods},
           {"ground_cables", ground_cables}, {"ground_springs", ground_springs}, {"deploy_ground", deploy_ground},
           {"driven_anchor", driven_anchor}, {"friction_rods", friction_rods}, {"friction_cables", friction_cables},
           {"friction_deploy", friction_deploy})
