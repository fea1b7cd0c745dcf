/* The batch engine's contacts against the scalar reference, bit for bit: rod and cable chains, chains
 * held by rod and cable constraints, chains falling onto the ground with restitution, deploying ropes
 * paying out onto the ground, pinned particles, fixed iteration counts, groups side by side. Every group
 * has 21 ropes (a ragged last pack for 4, 8 and 16 lanes) whose parameters all differ (random sweeps),
 * every integrator, every ISA this machine runs, 1 and 2 threads, compared at every frame; each case
 * also checks that the contacts it means to test were generated and resolved. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scenario/scenario.h"
#include "contact_scenario.h"
#include "test_batch_common.h"

#define STEPS 600
#define EVERY 150

static const char *const integrators[] = {"cyclone", "euler", "symplectic", "verlet"};

/* One group of contact_scenario.h's ropes; TOP adds scenario keys, EXTRA group keys (the link among them),
 * MORE_SWEEPS sweep keys. The integrator is filled in per run. */
#define SCENARIO(TOP, EXTRA, MORE_SWEEPS)                                                                      \
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 600, \"integrator\": \"%s\", " TOP CONTACT_GROUP(EXTRA, MORE_SWEEPS)

/* What the batch engine reports about its contacts over a run: the most contacts and iterations any
 * rope had in a step (read every 5 steps). */
typedef struct contact_stats {
    int max_contacts, max_iterations;
} contact_stats;

/* The scenario with each integrator in turn against the reference; stats over all runs (may be NULL). */
static int each_integrator(const char *fmt, contact_stats *stats)
{
    static char json[1 << 15];
    if (stats)
        *stats = (contact_stats){0, 0};
    for (int i = 0; i < 4; i++) {
        snprintf(json, sizeof json, fmt, integrators[i]);
        if (tb_against_reference(json, STEPS, EVERY, NULL)) {
            fprintf(stderr, "integrator %s\n", integrators[i]);
            return 1;
        }
        if (!stats)
            continue;
        sk_scenario s;
        CHECK_OK(tb_load(&s, "%s", json));
        sk_engine *e = tb_engine(&s, "batch", "auto", 1);
        CHECK(e != NULL);
        for (long step = 0; step < STEPS; step += 5) {
            sk_engine_advance(e, 5);
            for (size_t r = 0; r < s.total_ropes; r++) {
                int c = -1, it = -1;
                sk_engine_rope_contacts(e, r, &c, &it);
                stats->max_contacts = c > stats->max_contacts ? c : stats->max_contacts;
                stats->max_iterations = it > stats->max_iterations ? it : stats->max_iterations;
            }
        }
        sk_engine_destroy(e);
        sk_scenario_free(&s);
    }
    if (stats)
        fprintf(stderr, "most contacts in a step %d, most iterations %d\n", stats->max_contacts, stats->max_iterations);
    return 0;
}

/* Every link generates a contact in a rod chain (lengths never come out exact), and the resolver uses
 * its whole budget. */
static int rod_chain(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(SCENARIO("", "\"pinned\": [0], \"link\": {\"type\": \"rod\", \"length\": 0.1},",
                                      ", \"link.length\": {\"random\": {\"min\": 0.09, \"max\": 0.12, \"seed\": 8}}"),
                             &st));
    CHECK(st.max_contacts == 9);
    CHECK(st.max_iterations == 18);
    return 0;
}

/* Pinned pairs: link 0 joins two pinned particles and is never generated; links 4 and 5 touch pinned 5. */
static int rod_chain_pinned(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(SCENARIO("", "\"pinned\": [0, 1, 5], \"link\": {\"type\": \"rod\", \"length\": 0.1},", ""),
                             &st));
    CHECK(st.max_contacts == 8);
    return 0;
}

/* Cables 0.09 .. 0.13 long around a 0.1 .. 0.12 spacing: slack and taut links, restitution 0 .. 1. */
static int cable_chain(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(
        SCENARIO("", "\"pinned\": [0], \"link\": {\"type\": \"cable\", \"length\": 0.1, \"restitution\": 0.5},",
                 ", \"link.length\": {\"random\": {\"min\": 0.09, \"max\": 0.13, \"seed\": 8}},"
                 " \"link.restitution\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 10}}"),
        &st));
    CHECK(st.max_contacts > 0);
    return 0;
}

/* A free rod chain hanging from a rod constraint at the anchor, lengths 0.05 .. 0.4 from a point
 * 0.1 .. 0.3 away: the constraint starts too long or too short. */
static int rod_constraint(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(
        SCENARIO("", "\"link\": {\"type\": \"rod\", \"length\": 0.1},"
                     " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.7, 0], \"length\": 0.2},",
                 ", \"anchor.length\": {\"random\": {\"min\": 0.05, \"max\": 0.4, \"seed\": 11}},"
                 " \"anchor.point[1]\": {\"random\": {\"min\": 0.6, \"max\": 0.8, \"seed\": 12}}"),
        &st));
    CHECK(st.max_contacts == 10);
    return 0;
}

/* A cable chain on a cable constraint, both with restitution per rope. */
static int cable_constraint(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(
        SCENARIO("", "\"link\": {\"type\": \"cable\", \"length\": 0.11, \"restitution\": 0.3},"
                     " \"anchor\": {\"type\": \"cable\", \"point\": [0, 0.7, 0], \"length\": 0.2, \"restitution\": 0.5},",
                 ", \"anchor.length\": {\"random\": {\"min\": 0.1, \"max\": 0.4, \"seed\": 11}},"
                 " \"anchor.restitution\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 13}},"
                 " \"link.restitution\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 10}}"),
        &st));
    CHECK(st.max_contacts > 0);
    return 0;
}

/* Springs held by a rod constraint: the only contact is the anchor's. */
static int springs_on_rod_constraint(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(
        SCENARIO("", "\"link\": {\"type\": \"spring\", \"stiffness\": 400, \"length\": 0.1},"
                     " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.7, 0], \"length\": 0.2},",
                 ", \"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 800, \"seed\": 14}}"),
        &st));
    CHECK(st.max_contacts == 1);
    return 0;
}

/* Spring chains falling onto the ground (restitution 0.6) from 0.2 .. 0.7 m: bounces, particles
 * arriving and leaving, one pinned particle below the plane (never a contact). */
static int ground_springs(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(
        SCENARIO("\"ground\": {\"height\": 0.05, \"restitution\": 0.6},",
                 "\"pinned\": [4], \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},",
                 ", \"start[1]\": {\"random\": {\"min\": -0.1, \"max\": 0.6, \"seed\": 15}}"),
        &st));
    CHECK(st.max_contacts > 3 && st.max_contacts <= 9);
    return 0;
}

/* W2's structure with every parameter drawn per rope: rods, a rod constraint, the ground (restitution
 * 0.2), the chain swinging down onto it. */
static int ground_rods(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(
        SCENARIO("\"ground\": {\"height\": 0, \"restitution\": 0.2},",
                 "\"link\": {\"type\": \"rod\", \"length\": 0.1},"
                 " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.6, 0], \"length\": 0.1},",
                 ", \"link.length\": {\"random\": {\"min\": 0.09, \"max\": 0.11, \"seed\": 8}},"
                 " \"anchor.length\": {\"random\": {\"min\": 0.05, \"max\": 0.2, \"seed\": 11}}"),
        &st));
    CHECK(st.max_contacts > 10);
    return 0;
}

/* Cable chains falling onto a bouncy ground (restitution 0.9). */
static int ground_cables(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(
        SCENARIO("\"ground\": {\"height\": 0.1, \"restitution\": 0.9},",
                 "\"link\": {\"type\": \"cable\", \"length\": 0.11, \"restitution\": 0.2},",
                 ", \"link.restitution\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 10}}"),
        &st));
    CHECK(st.max_contacts > 3);
    return 0;
}

/* Ropes deploying from an anchor near the ground (0.04 below to 0.04 above it): particles are inserted
 * under the plane or fall onto it while others are paid out, and lanes hold different particle counts. */
static int deploy_ground(void)
{
    static const char fmt[] =
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"%s\","
        CONTACT_DEPLOY_GROUND;

    contact_stats st;
    CHECK_OK(each_integrator(fmt, &st));
    CHECK(st.max_contacts >= 3);
    /* lanes at different counts */
    static char json[4096];
    snprintf(json, sizeof json, fmt, "symplectic");
    tb_stats counts;
    CHECK_OK(tb_against_reference(json, 600, 600, &counts));
    CHECK(counts.min_count < counts.max_count);
    return 0;
}

/* A fixed iteration count: 3 (lanes run out with contacts left) and 60 (more than needed: lanes stop
 * when nothing is closing or overlapping, each at its own iteration). */
static int fixed_iterations(void)
{
    contact_stats st;
    CHECK_OK(each_integrator(
        SCENARIO("\"iterations\": 3, \"ground\": {\"height\": 0.1, \"restitution\": 0.3},",
                 "\"link\": {\"type\": \"rod\", \"length\": 0.1},"
                 " \"anchor\": {\"type\": \"cable\", \"point\": [0, 0.7, 0], \"length\": 0.2, \"restitution\": 0.5},",
                 ""),
        &st));
    CHECK(st.max_iterations == 3);
    CHECK_OK(each_integrator(
        SCENARIO("\"iterations\": 60, \"ground\": {\"height\": 0.1, \"restitution\": 0.3},",
                 "\"link\": {\"type\": \"cable\", \"length\": 0.12, \"restitution\": 0.5}, \"pinned\": [0],", ""),
        &st));
    CHECK(st.max_iterations > 0 && st.max_iterations <= 60);
    return 0;
}

/* Groups side by side: springs without contacts, rods, springs on a cable constraint; then balls of one
 * particle bouncing on the ground (every group sees it). */
static int groups_side_by_side(void)
{
    static const char groups[] =
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"%s\", \"groups\": ["
        " {\"count\": 5, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300}},"
        " {\"count\": 7, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
        "  \"link\": {\"type\": \"rod\"}},"
        " {\"count\": 3, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [1, 9, 0],"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300},"
        "  \"anchor\": {\"type\": \"cable\", \"point\": [0, 10, 0], \"length\": 0.1, \"restitution\": 0.5}}]}";
    CHECK_OK(each_integrator(groups, NULL));
    static const char balls[] =
        "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 600, \"integrator\": \"%s\", \"gravity_as\": \"force\","
        " \"ground\": {\"height\": 0, \"restitution\": 0.7}, \"groups\": ["
        " {\"count\": 21, \"particles\": 1, \"start\": [0, 0.5, 0], \"end\": [0, 0.5, 0], \"mass\": 0.5,"
        "  \"velocity\": [0.5, 0, 0], \"drag\": {\"k1\": 0.1, \"k2\": 0.01},"
        "  \"sweep\": {\"start[1]\": {\"random\": {\"min\": 0.01, \"max\": 1, \"seed\": 51}},"
        "   \"velocity[1]\": {\"random\": {\"min\": -3, \"max\": 3, \"seed\": 52}}}}]}";
    contact_stats st;
    CHECK_OK(each_integrator(balls, &st));
    CHECK(st.max_contacts == 1);
    return 0;
}

/* The engine says what runs: the kernels' ISA for every group, contact groups included. */
static int isa_is_kernels(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, SCENARIO("\"ground\": {\"height\": 0, \"restitution\": 0.2},",
                                  "\"link\": {\"type\": \"rod\"}, \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.6, 0], \"length\": 0.1},",
                                  ""),
                     "cyclone"));
    const char *isas[4];
    int n = tb_isas(isas, 4);
    CHECK(n > 0);
    for (int i = 0; i < n; i++) {
        sk_error err = {0};
        sk_batch *b = sk_batch_create(&s, &(sk_batch_options){.isa = isas[i], .threads = 1}, &err);
        CHECK(b != NULL);
        CHECK(strcmp(sk_batch_isa(b), isas[i]) == 0);
        CHECK(strcmp(sk_batch_group_isa(b, 0), isas[i]) == 0);
        sk_batch_destroy(b);
    }
    sk_scenario_free(&s);
    return 0;
}

/* Per rope, per frame: the contacts and iterations of the last step and every link's tension (the
 * impulse its contact delivered over dt) are the reference's, to the bit. */
static int diagnostics_match(void)
{
    for (int k = 0; k < 4; k++) {
        sk_scenario s;
        CHECK_OK(tb_load(&s,
                         SCENARIO("\"ground\": {\"height\": 0, \"restitution\": 0.2},",
                                  "\"link\": {\"type\": \"cable\", \"length\": 0.1, \"restitution\": 0.3},"
                                  " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.6, 0], \"length\": 0.1},",
                                  ", \"link.length\": {\"random\": {\"min\": 0.09, \"max\": 0.11, \"seed\": 8}}"),
                         integrators[k]));
        const char *isas[4];
        int n_isas = tb_isas(isas, 4);
        sk_engine *ref = tb_engine(&s, "reference", NULL, 0);
        CHECK(ref != NULL);
        sk_engine *bat[4];
        for (int i = 0; i < n_isas; i++)
            CHECK((bat[i] = tb_engine(&s, "batch", isas[i], 2)) != NULL);
        double most_tension = 0;
        for (int frame = 0; frame <= 6; frame++) {
            if (frame > 0) {
                sk_engine_advance(ref, 100);
                for (int i = 0; i < n_isas; i++)
                    sk_engine_advance(bat[i], 100);
            }
            for (size_t r = 0; r < s.total_ropes; r++) {
                int rc, ri;
                sk_rope_diagnostics rd;
                sk_real rt[16];
                sk_engine_rope_contacts(ref, r, &rc, &ri);
                sk_engine_rope_diagnostics(ref, r, &rd, rt);
                for (int i = 0; i < n_isas; i++) {
                    int bc, bi;
                    sk_rope_diagnostics bd;
                    sk_real bt[16];
                    sk_engine_rope_contacts(bat[i], r, &bc, &bi);
                    sk_engine_rope_diagnostics(bat[i], r, &bd, bt);
                    CHECK(bc == rc && bi == ri);
                    for (int j = 0; j < 9; j++)
                        CHECK_SAME_BITS(bt[j], rt[j]);
                    CHECK_SAME_BITS(bd.kinetic, rd.kinetic);
                    CHECK_SAME_BITS(bd.gravity, rd.gravity);
                }
                for (int j = 0; j < 9; j++)
                    most_tension = rt[j] > most_tension ? rt[j] : most_tension;
                if (frame == 0)
                    CHECK(rc == 0 && ri == 0 && rt[0] == 0);
            }
        }
        CHECK(most_tension > 0);
        for (int i = 0; i < n_isas; i++)
            sk_engine_destroy(bat[i]);
        sk_engine_destroy(ref);
        sk_scenario_free(&s);
    }
    return 0;
}

/* The step of a contact group as separate kernels (forces, integration, then the contact phase) gives
 * the fused step's bits; CONTACTS alone changes nothing; RESOLVER moves the particles. */
static int stages(void)
{
    for (int k = 0; k < 4; k++) {
        sk_scenario s;
        CHECK_OK(tb_load(&s,
                         SCENARIO("\"ground\": {\"height\": 0.1, \"restitution\": 0.5},",
                                  "\"link\": {\"type\": \"rod\", \"length\": 0.1},"
                                  " \"anchor\": {\"type\": \"cable\", \"point\": [0, 0.6, 0], \"length\": 0.1},",
                                  ""),
                         integrators[k]));
        const char *isas[4];
        int n_isas = tb_isas(isas, 4);
        for (int i = 0; i < n_isas; i++) {
            sk_error err = {0};
            sk_batch_options opt = {.isa = isas[i], .threads = 1};
            sk_batch *fused = sk_batch_create(&s, &opt, &err), *unfused = sk_batch_create(&s, &opt, &err);
            CHECK(fused && unfused);
            CHECK(sk_batch_advance(fused, 300) == sk_batch_run_stage(unfused, SK_BATCH_STAGE_UNFUSED, 300));
            sk_real p[2][30], v[2][30];
            for (size_t r = 0; r < s.total_ropes; r++) {
                sk_batch_read_rope(fused, r, p[0], v[0]);
                sk_batch_read_rope(unfused, r, p[1], v[1]);
                CHECK(memcmp(p[0], p[1], sizeof p[0]) == 0 && memcmp(v[0], v[1], sizeof v[0]) == 0);
            }
            CHECK(sk_batch_run_stage(unfused, SK_BATCH_STAGE_CONTACTS, 3) == 3 * 21 * 10);
            for (size_t r = 0; r < s.total_ropes; r++) {
                sk_batch_read_rope(unfused, r, p[1], v[1]);
                sk_batch_read_rope(fused, r, p[0], v[0]);
                CHECK(memcmp(p[0], p[1], sizeof p[0]) == 0 && memcmp(v[0], v[1], sizeof v[0]) == 0);
            }
            CHECK(sk_batch_run_stage(unfused, SK_BATCH_STAGE_RESOLVER, 1) == 21 * 10);
            CHECK(sk_batch_step(unfused) == 300);
            sk_batch_destroy(fused);
            sk_batch_destroy(unfused);
        }
        sk_scenario_free(&s);
    }
    return 0;
}

/* Driven anchors holding balls by rod and by cable constraints: x(t) takes SLEEF's sine in the kernels
 * and libm's in the reference (within 1 ulp), so the ropes may differ by what that grows into. One
 * contact per rope, so no pick can go another way. The bounds are about 4x the largest deviations
 * measured here over 600 steps (every ISA gave the same numbers; order cyclone, euler, symplectic,
 * verlet; the test prints what it measures):
 *   double: p 2.5e-16 2.5e-16 4.4e-16 9.1e-15, v 1.8e-15 1.8e-15 1.2e-15 5.6e-14
 *   float:  p 3.0e-6  3.0e-6  5.4e-5  1.0e-5,  v 1.8e-5  1.8e-5  1.2e-4  7.8e-3 */
#ifdef SKEIN_REAL_FLOAT
static const double driven_bound_p[] = {1.2e-5, 1.2e-5, 2.2e-4, 4.2e-5};
static const double driven_bound_v[] = {7e-5, 7e-5, 5e-4, 3.2e-2};
#else
static const double driven_bound_p[] = {1e-15, 1e-15, 1.8e-15, 3.6e-14};
static const double driven_bound_v[] = {7e-15, 7e-15, 5e-15, 2.2e-13};
#endif

static int driven_constraint(void)
{
    const char *isas[4];
    int n_isas = tb_isas(isas, 4);
    for (int k = 0; k < 4; k++) {
        sk_scenario s;
        CHECK_OK(tb_load(&s,
            "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 600, \"integrator\": \"%s\", \"groups\": ["
            " {\"count\": 21, \"particles\": 1, \"start\": [0.3, 0.2, 0], \"end\": [0.3, 0.2, 0], \"mass\": 0.2,"
            "  \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.5, 0], \"length\": 0.4,"
            "   \"motion\": {\"amplitude\": [0.1, 0.05, 0], \"omega\": 10, \"phase\": 0.3}},"
            "  \"sweep\": {\"anchor.motion.omega\": {\"random\": {\"min\": 1, \"max\": 30, \"seed\": 71}}}},"
            " {\"count\": 21, \"particles\": 1, \"start\": [0.3, 0.2, 0], \"end\": [0.3, 0.2, 0], \"mass\": 0.2,"
            "  \"anchor\": {\"type\": \"cable\", \"point\": [0, 0.5, 0], \"length\": 0.45, \"restitution\": 0.5,"
            "   \"motion\": {\"amplitude\": [0.1, 0.05, 0], \"omega\": 10, \"phase\": 0.3}},"
            "  \"sweep\": {\"anchor.motion.omega\": {\"random\": {\"min\": 1, \"max\": 30, \"seed\": 72}}}}]}",
            integrators[k]));
        sk_engine *ref = tb_engine(&s, "reference", NULL, 0);
        CHECK(ref != NULL);
        sk_engine_advance(ref, STEPS);
        for (int i = 0; i < n_isas; i++) {
            sk_engine *bat = tb_engine(&s, "batch", isas[i], 1);
            CHECK(bat != NULL);
            sk_engine_advance(bat, STEPS);
            double dp, dv;
            tb_max_deviation(&s, bat, ref, &dp, &dv);
            fprintf(stderr, "driven constraint, %s, %s: position within %.3g (bound %.3g), velocity within %.3g (bound %.3g)\n",
                    integrators[k], isas[i], dp, driven_bound_p[k], dv, driven_bound_v[k]);
            CHECK(dp >= 0 && dp <= driven_bound_p[k] && dv <= driven_bound_v[k]);
            sk_engine_destroy(bat);
        }
        sk_engine_destroy(ref);
        sk_scenario_free(&s);
    }
    return 0;
}

/* Ground friction (docs/model.md section 4.2): the scenario with every integrator that resolves contacts,
 * the implicit one with one and three Newton iterations, against the reference. */
static int each_integrator_friction(const char *fmt)
{
    static const char *const runs[][2] = {{"cyclone", ""},    {"euler", ""},    {"symplectic", ""},
                                          {"verlet", ""},     {"implicit", ""},
                                          {"implicit", "\"implicit\": {\"iterations\": 3}, "}};
    static char json[1 << 15], text[1 << 15];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(text, sizeof text, fmt, runs[i][0]);
        snprintf(json, sizeof json, "{%s%s", runs[i][1], text + 1);
        if (tb_against_reference(json, STEPS, EVERY, NULL)) {
            fprintf(stderr, "integrator %s %s\n", runs[i][0], runs[i][1]);
            return 1;
        }
    }
    return 0;
}

/* Each rope's largest tangential speed |(vx, vz)| over its particles after `steps`, batch engine. */
static void tangential_speeds(const char *json, long steps, double *out, size_t n_out)
{
    sk_scenario s;
    if (tb_load(&s, "%s", json))
        return;
    sk_engine *e = tb_engine(&s, "batch", "auto", 1);
    sk_engine_advance(e, steps);
    for (size_t r = 0; r < s.total_ropes && r < n_out; r++) {
        sk_real p[64 * 3], v[64 * 3];
        const int n = sk_engine_rope_particles(e, r);
        sk_engine_read_rope(e, r, p, v);
        out[r] = 0;
        for (int i = 0; i < n && i < 64; i++) {
            const double t = sqrt((double)v[3 * i] * (double)v[3 * i] + (double)v[3 * i + 2] * (double)v[3 * i + 2]);
            out[r] = t > out[r] ? t : out[r];
        }
    }
    sk_engine_destroy(e);
    sk_scenario_free(&s);
}

/* Rod chains (W2's structure) laid on the ground and sliding along it, friction coefficients drawn per
 * rope from nearly frictionless to sticking; each rope's speed along the ground must also have dropped
 * below what the frictionless run keeps (friction acted in every lane). */
#define FRICTION_RODS(FRICTION, MORE_SWEEPS)                                                                                 \
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 600, \"integrator\": \"%s\","                                   \
    " \"ground\": {\"height\": 0, \"restitution\": 0.2" FRICTION "},"                                           \
    " \"groups\": [{\"count\": 21, \"particles\": 10, \"start\": [0, 0.02, 0], \"end\": [0.9, 0, 0.1],"          \
    " \"mass\": 0.1, \"damping\": 0.9, \"verlet_damping\": 0.001, \"velocity\": [1.5, 0, -0.5],"                \
    " \"link\": {\"type\": \"rod\", \"length\": \"auto\"},"                                                      \
    " \"sweep\": {\"mass\": {\"random\": {\"min\": 0.05, \"max\": 0.2, \"seed\": 2}},"                           \
    " \"velocity[2]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 7}},"                                    \
    " \"start[1]\": {\"random\": {\"min\": -0.01, \"max\": 0.05, \"seed\": 9}}"                                   \
    MORE_SWEEPS "}}]}"
#define FRICTION_SWEEPS                                                                                         \
    ", \"ground.friction.static\": {\"random\": {\"min\": 0.6, \"max\": 1.2, \"seed\": 41}},"                     \
    " \"ground.friction.kinetic\": {\"random\": {\"min\": 0.05, \"max\": 0.6, \"seed\": 42}}"

static int friction_rods(void)
{
    static const char with[] = FRICTION_RODS(", \"friction\": {\"static\": 0.8, \"kinetic\": 0.5}", FRICTION_SWEEPS);
    CHECK_OK(each_integrator_friction(with));
    static char json[1 << 14];
    double slid[21], free[21];
    snprintf(json, sizeof json, with, "cyclone");
    tangential_speeds(json, STEPS, slid, 21);
    static const char without[] = FRICTION_RODS("", "");
    snprintf(json, sizeof json, without, "cyclone");
    tangential_speeds(json, STEPS, free, 21);
    for (int r = 0; r < 21; r++)
        CHECK(slid[r] < 0.9 * free[r]);
    return 0;
}

/* Spring chains falling onto the ground (restitution 0.6, bounces and arrivals), friction swept per rope
 * from 0 (the lanes that must match the frictionless run) up, a fixed iteration count so that lanes run out
 * of iterations with contacts left. */
static int friction_springs(void)
{
    CHECK_OK(each_integrator_friction(
        SCENARIO("\"iterations\": 7, \"ground\": {\"height\": 0.05, \"restitution\": 0.6,"
                 " \"friction\": {\"static\": 0.4, \"kinetic\": 0.3}},",
                 "\"pinned\": [4], \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},",
                 ", \"start[1]\": {\"random\": {\"min\": -0.1, \"max\": 0.6, \"seed\": 15}},"
                 " \"velocity[0]\": {\"random\": {\"min\": -2, \"max\": 2, \"seed\": 16}},"
                 " \"ground.friction.static\": {\"from\": 0, \"to\": 1.5},"
                 " \"ground.friction.kinetic\": {\"from\": 0, \"to\": 1}")));
    return 0;
}

/* W2's structure (rods held by a rod constraint, whose world contact has no friction) swinging down onto a
 * frictional ground beside ropes deploying from an anchored spring onto it (lanes at different particle
 * counts), coefficients swept per rope in both groups. */
static int friction_anchored_and_deploying(void)
{
    CHECK_OK(each_integrator_friction(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"%s\","
        " \"ground\": {\"height\": 0.1, \"restitution\": 0.3, \"friction\": {\"static\": 0.7, \"kinetic\": 0.5}},"
        " \"groups\": [{\"count\": 21, \"particles\": 10, \"start\": [0, 0.5, 0], \"end\": [0.9, 0.45, 0.1],"
        " \"mass\": 0.1, \"velocity\": [0.3, 0, 1],"
        " \"link\": {\"type\": \"rod\", \"length\": 0.1},"
        " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.6, 0], \"length\": 0.1},"
        " \"sweep\": {\"ground.friction.kinetic\": {\"random\": {\"min\": 0, \"max\": 0.7, \"seed\": 51}},"
        " \"velocity[2]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 52}}}},"
        " {\"count\": 21, \"particles\": 16, \"start\": [0, 0.12, 0], \"end\": [0.1, 0.12, 0],"
        " \"mass\": 0.05, \"damping\": 0.9, \"velocity\": [0.3, 0, 0.4],"
        " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 0.1, 0], \"stiffness\": 300, \"length\": 0.05},"
        " \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"
        " \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 1, \"max\": 4, \"seed\": 53}},"
        " \"ground.friction.static\": {\"random\": {\"min\": 0.7, \"max\": 2, \"seed\": 54}},"
        " \"anchor.point[1]\": {\"random\": {\"min\": 0.06, \"max\": 0.14, \"seed\": 55}}}}]}"));
    return 0;
}

/* Zero coefficients leave every bit as the frictionless ground gives it (the lanes of the swept cases
 * with mu = 0 rely on it): stick needs mu_s dvn > 0, slip mu_k dvn > 0. */
static int friction_zero_is_frictionless(void)
{
    static const char fmt[] = SCENARIO("\"ground\": {\"height\": 0, \"restitution\": 0.2%s},",
                                       "\"link\": {\"type\": \"rod\", \"length\": 0.1},"
                                       " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0.6, 0], \"length\": 0.1},",
                                       ", \"velocity[0]\": {\"random\": {\"min\": -2, \"max\": 2, \"seed\": 16}}");
    for (int i = 0; i < 4; i++) {
        static char a[1 << 14], b[1 << 14];
        snprintf(a, sizeof a, fmt, integrators[i], "");
        snprintf(b, sizeof b, fmt, integrators[i], ", \"friction\": {\"static\": 0, \"kinetic\": 0}");
        sk_scenario sa, sb;
        CHECK_OK(tb_load(&sa, "%s", a));
        CHECK_OK(tb_load(&sb, "%s", b));
        CHECK(sb.has_friction && !sa.has_friction);
        for (int k = 0; k < 2; k++) {
            const char *engine = k ? "reference" : "batch";
            sk_engine *ea = tb_engine(&sa, engine, "auto", 1), *eb = tb_engine(&sb, engine, "auto", 1);
            CHECK(ea && eb);
            sk_engine_advance(ea, STEPS);
            sk_engine_advance(eb, STEPS);
            for (size_t r = 0; r < sa.total_ropes; r++) {
                sk_real pa[30], va[30], pb[30], vb[30];
                CHECK(sk_engine_rope_particles(ea, r) == 10 && sk_engine_rope_particles(eb, r) == 10);
                sk_engine_read_rope(ea, r, pa, va);
                sk_engine_read_rope(eb, r, pb, vb);
                CHECK(memcmp(pa, pb, sizeof pa) == 0 && memcmp(va, vb, sizeof va) == 0);
            }
            sk_engine_destroy(ea);
            sk_engine_destroy(eb);
        }
        sk_scenario_free(&sa);
        sk_scenario_free(&sb);
    }
    return 0;
}

CHECK_MAIN({"rod_chain", rod_chain}, {"rod_chain_pinned", rod_chain_pinned}, {"cable_chain", cable_chain},
           {"rod_constraint", rod_constraint}, {"cable_constraint", cable_constraint},
           {"springs_on_rod_constraint", springs_on_rod_constraint}, {"ground_springs", ground_springs},
           {"ground_rods", ground_rods}, {"ground_cables", ground_cables}, {"deploy_ground", deploy_ground},
           {"fixed_iterations", fixed_iterations}, {"groups_side_by_side", groups_side_by_side},
           {"isa_is_kernels", isa_is_kernels}, {"diagnostics_match", diagnostics_match}, {"stages", stages},
           {"driven_constraint", driven_constraint}, {"friction_rods", friction_rods},
           {"friction_springs", friction_springs}, {"friction_zero_is_frictionless", friction_zero_is_frictionless},
           {"friction_anchored_and_deploying", friction_anchored_and_deploying})
