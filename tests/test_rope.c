/* Reference engine: ropes of a scenario stepped whole (docs/model.md sections 5-6) and the reference
 * sk_engine, against values worked out by hand. */
#include <stdint.h>
#include <string.h>

#include "scenario/scenario.h"
#include "engine/engine_impl.h"
#include "reference_check.h"
#include "skein/engine.h"

static int anchor_holds_particle_0(void)
{
    /* dt 0.5, no gravity, mass 1; particle 0 at (0, -2, 0) on an anchored spring k 1, l 1 at the origin,
     * particle 1 one rest length below it. Step 1: f_0 = (1 - 2) * 1 * (0, -1, 0) = (0, 1, 0), the link
     * is at rest: v_0 = 0.5, p_0 = -2 + 0.25 = -1.75; particle 1 does not move. */
    sk_scenario s;
    CHECK_OK(test_load("{\"skein\": 1, \"dt\": 0.5, \"steps\": 1, \"gravity\": [0, 0, 0], \"groups\": [{"
                       "\"count\": 1, \"particles\": 2, \"start\": [0, -2, 0], \"end\": [0, -3, 0],"
                       "\"link\": {\"type\": \"spring\", \"stiffness\": 1},"
                       "\"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 1, \"length\": 1}}]}",
                       &s));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    CHECK(sk_ref_rope_held(r) == 0);
    CHECK(sk_ref_rope_deployed_length(r) == 1); /* one link of the auto length 1 */
    sk_ref_rope_step(r);
    CHECK(sk_ref_rope_steps(r) == 1);
    CHECK(sk_ref_rope_time(r) == 0.5);
    CHECK_VEC_EQ(sk_ref_rope_position(r, 0), 0, -1.75, 0);
    CHECK_VEC_EQ(sk_ref_rope_velocity(r, 0), 0, 0.5, 0);
    CHECK_VEC_EQ(sk_ref_rope_position(r, 1), 0, -3, 0);
    CHECK_VEC_EQ(sk_ref_rope_velocity(r, 1), 0, 0, 0);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int driven_anchor(void)
{
    /* the anchor of the test above driven by (0, 1, 0) sin(pi t), dt 0.5. Step 1 uses x(0) = 0: as
     * above. Step 2 uses x(0.5) = (0, 1, 0): d = (0, -2.75, 0), f = (1 - 2.75) * (0, -1, 0) = (0, 1.75, 0),
     * v = 0.5 + 0.875 = 1.375, p = -1.75 + 0.6875 = -1.0625. */
    sk_scenario s;
    CHECK_OK(test_load("{\"skein\": 1, \"dt\": 0.5, \"steps\": 2, \"gravity\": [0, 0, 0], \"groups\": [{"
                       "\"count\": 1, \"particles\": 1, \"start\": [0, -2, 0], \"end\": [0, -2, 0],"
                       "\"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 1, \"length\": 1,"
                       "\"motion\": {\"amplitude\": [0, 1, 0], \"omega\": 3.14159265358979323846}}}]}",
                       &s));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_step(r);
    CHECK_VEC_EQ(sk_ref_rope_anchor(r), 0, 0, 0);
    CHECK_VEC_EQ(sk_ref_rope_position(r, 0), 0, -1.75, 0);
    sk_ref_rope_step(r);
    CHECK_VEC_NEAR(sk_ref_rope_anchor(r), 0, 1, 0, TOL);
    CHECK_VEC_NEAR(sk_ref_rope_velocity(r, 0), 0, 1.375, 0, TOL);
    CHECK_VEC_NEAR(sk_ref_rope_position(r, 0), 0, -1.0625, 0, TOL);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int pinned_untouched(void)
{
    /* gravity, springs and a ground above the rope: the pinned particle 0 keeps its bits and a zero
     * velocity, and gets no ground contact; the two free ones do. */
    sk_scenario s;
    CHECK_OK(test_load("{\"skein\": 1, \"dt\": 0.01, \"steps\": 1, \"ground\": {\"height\": 1},"
                       "\"groups\": [{\"count\": 1, \"particles\": 3, \"start\": [0.1, 0.3, 0.7], \"end\": [2.1, 0.3, 0.7],"
                       "\"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 50}}]}",
                       &s));
    for (int integrator = 0; integrator < 4; integrator++) {
        s.integrator = (sk_integrator)integrator;
        sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
        CHECK(r);
        sk_particle before = *sk_ref_rope_particle(r, 0);
        CHECK(before.w == 0);
        sk_ref_rope_step(r);
        CHECK(sk_ref_rope_contacts(r) == 2);
        for (int k = 0; k < 20; k++)
            sk_ref_rope_step(r);
        const sk_particle *p = sk_ref_rope_particle(r, 0);
        CHECK_VEC_SAME_BITS(p->p, before.p);
        CHECK_VEC_SAME_BITS(p->q, before.q);
        CHECK_VEC_EQ(sk_ref_rope_velocity(r, 0), 0, 0, 0);
        CHECK(sk_ref_rope_position(r, 1).y != (sk_real)0.3); /* the others did move */
        sk_ref_rope_destroy(r);
    }
    sk_scenario_free(&s);
    return 0;
}

/* Three free particles below a ground at 0, at rest, no gravity, e = 0, and no links (three ropes of
 * one particle would not share contacts, so: a rope of three with springs at rest). */
static const char *ground_rope =
    "{\"skein\": 1, \"dt\": 0.125, \"steps\": 1, \"gravity\": [0, 0, 0], %s \"ground\": {\"height\": 0},"
    "\"groups\": [{\"count\": 1, \"particles\": 3, \"start\": [0, -0.5, 0], \"end\": [2, -0.5, 0],"
    "\"link\": {\"type\": \"spring\", \"stiffness\": 1}}]}";

static int iterations(void)
{
    /* default: up to 2 x 3 contacts; each resolution lifts one particle by 0.5 and clears its contact,
     * so 3 are used. With "iterations": 1 only the first is resolved. */
    char json[1024];
    sk_scenario s;
    snprintf(json, sizeof json, ground_rope, "");
    CHECK_OK(test_load(json, &s));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    CHECK(sk_ref_rope_contacts(r) == 0 && sk_ref_rope_iterations(r) == 0);
    sk_ref_rope_step(r);
    CHECK(sk_ref_rope_contacts(r) == 3);
    CHECK(sk_ref_rope_iterations(r) == 3);
    for (int i = 0; i < 3; i++)
        CHECK(sk_ref_rope_position(r, i).y == 0);
    sk_ref_rope_step(r);
    CHECK(sk_ref_rope_contacts(r) == 0 && sk_ref_rope_iterations(r) == 0);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);

    snprintf(json, sizeof json, ground_rope, "\"iterations\": 1,");
    CHECK_OK(test_load(json, &s));
    r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_step(r);
    CHECK(sk_ref_rope_contacts(r) == 3 && sk_ref_rope_iterations(r) == 1);
    CHECK(sk_ref_rope_position(r, 0).y == 0);
    CHECK(sk_ref_rope_position(r, 1).y == -0.5 && sk_ref_rope_position(r, 2).y == -0.5);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int verlet_start(void)
{
    /* q = p - v dt at the start; the reported velocity is (p - q) / dt: (1, 0.5, 0) back exactly */
    sk_scenario s;
    CHECK_OK(test_load("{\"skein\": 1, \"dt\": 0.25, \"steps\": 1, \"integrator\": \"verlet\","
                       "\"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
                       "\"velocity\": [1, 0.5, 0], \"pinned\": [1], \"link\": {\"type\": \"rod\"}}]}",
                       &s));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    CHECK_VEC_EQ(sk_ref_rope_particle(r, 0)->q, -0.25, -0.125, 0);
    CHECK_VEC_EQ(sk_ref_rope_velocity(r, 0), 1, 0.5, 0);
    CHECK_VEC_EQ(sk_ref_rope_particle(r, 1)->q, 1, 0, 0); /* pinned: v = 0, q = p */
    CHECK_VEC_EQ(sk_ref_rope_velocity(r, 1), 0, 0, 0);
    CHECK_VEC_NEAR(sk_ref_rope_particle(r, 0)->a, 0, -9.81, 0, TOL); /* the default field */
    CHECK_VEC_NEAR(sk_ref_rope_particle(r, 1)->a, 0, -9.81, 0, TOL); /* on pinned ones too */
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int engine(void)
{
    /* group 0: two ropes of 3 particles; group 1: a deploying rope with counts 2, 2, 3, 3 after the
     * steps 1..4 (see test_deploy). Particle-steps over 4 steps: 2 * 3 * 4 + 10 = 34. */
    sk_scenario s;
    CHECK_OK(test_load(
        "{\"skein\": 1, \"dt\": 0.125, \"steps\": 4, \"gravity\": [0, 0, 0], \"groups\": ["
        "{\"count\": 2, \"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"velocity\": [0, 1, 0],"
        " \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 10},"
        " \"sweep\": {\"link.stiffness\": {\"from\": 10, \"to\": 20}}},"
        "{\"count\": 1, \"particles\": 4, \"start\": [0, -0.5, 0], \"end\": [0, -0.25, 0], \"velocity\": [0, -1, 0],"
        " \"link\": {\"type\": \"spring\", \"stiffness\": 1, \"length\": 0.25},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 1, \"length\": 0.125},"
        " \"deploy\": {\"velocity\": 0.5, \"initial_particles\": 2}}]}",
        &s));
    sk_error err = {0};
    sk_engine_options opt = {.engine = "reference"};
    sk_engine *e = sk_engine_create(&s, &opt, &err);
    CHECK(e);
    CHECK(strcmp(sk_engine_isa(e), "reference") == 0);
    CHECK(sk_engine_threads(e) == 1);
    CHECK(sk_engine_rope_particles(e, 2) == 2);
    CHECK(sk_engine_advance(e, 4) == 34);
    CHECK(sk_engine_step(e) == 4);
    CHECK(sk_engine_rope_particles(e, 0) == 3 && sk_engine_rope_particles(e, 2) == 3);

    /* every rope reads back what the same rope stepped alone gives, to the bit */
    const int group[3] = {0, 0, 1};
    const size_t local[3] = {0, 1, 0};
    for (size_t rope = 0; rope < 3; rope++) {
        sk_real p[12], v[12];
        sk_engine_read_rope(e, rope, p, v);
        sk_ref_rope *r = sk_ref_rope_create(&s, group[rope], local[rope]);
        CHECK(r);
        sk_ref_rope_advance(r, 4);
        CHECK(sk_ref_rope_steps(r) == 4);
        for (int i = 0; i < sk_ref_rope_count(r); i++) {
            sk_vec3 x = sk_ref_rope_position(r, i), u = sk_ref_rope_velocity(r, i);
            CHECK_VEC_SAME_BITS(sk_vec3_make(p[3 * i], p[3 * i + 1], p[3 * i + 2]), x);
            CHECK_VEC_SAME_BITS(sk_vec3_make(v[3 * i], v[3 * i + 1], v[3 * i + 2]), u);
        }
        sk_ref_rope_destroy(r);
    }
    /* the sweep reached the ropes: different stiffness, different motion */
    sk_real a[9], b[9];
    sk_engine_read_rope(e, 0, a, NULL);
    sk_engine_read_rope(e, 1, NULL, NULL);
    sk_engine_read_rope(e, 1, b, NULL);
    CHECK(memcmp(a, b, sizeof a) != 0);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"anchor_holds_particle_0", anchor_holds_particle_0}, {"driven_anchor", driven_anchor},
           {"pinned_untouched", pinned_untouched}, {"iterations", iterations}, {"verlet_start", verlet_start},
           {"engine", engine})
