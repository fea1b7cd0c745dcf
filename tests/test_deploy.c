/* Reference engine: deployment (docs/model.md section 7) against values worked out by hand. Every number
 * is exact in binary (dt = 1/8, u = 1/2, L = 1/4, s0 = 1/8), so the checks are exact. */
#include <stdio.h>

#include "scenario/scenario.h"
#include "reference/rope_impl.h" /* white box: the deployment phase on its own, the anchored spring */
#include "reference_check.h"

/* capacity N, integrator, extra group keys (",\"pinned\": [2]" ...), extra deploy keys */
static int load_deploying(sk_scenario *s, int capacity, const char *integrator, const char *group_extra,
                          const char *deploy_extra)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"skein\": 1, \"dt\": 0.125, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
             " \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0, -0.5, 0], \"end\": [0, -0.25, 0],"
             " \"mass\": 1, \"velocity\": [0, -1, 0]%s,"
             " \"link\": {\"type\": \"spring\", \"stiffness\": 1, \"length\": 0.25},"
             " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 1, \"length\": 0.125},"
             " \"deploy\": {\"velocity\": 0.5, \"initial_particles\": 2%s}}]}",
             integrator, capacity, group_extra, deploy_extra);
    return test_load(json, s);
}

static int length_grows_exactly(void)
{
    /* s: 0.125 -> +0.0625 per step; inserts at steps 3 and 7 (s = 0.3125 > 0.25, then 0.0625);
     * at capacity 4 s still grows to L = 0.25 (step 10), then stops: length 3 L + L = 1. */
    sk_scenario s;
    CHECK_OK(load_deploying(&s, 4, "symplectic", "", ""));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    CHECK(sk_ref_rope_count(r) == 2);
    CHECK(sk_ref_rope_deployed_length(r) == 0.375);
    const int count_after[15] = {2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    for (int k = 1; k <= 14; k++) {
        sk_ref_rope_step(r);
        sk_real expected = k <= 10 ? (sk_real)(0.375 + 0.0625 * k) : (sk_real)1;
        CHECK(sk_ref_rope_deployed_length(r) == expected);
        CHECK(sk_ref_rope_count(r) == count_after[k]);
        CHECK(sk_ref_rope_held(r) == sk_ref_rope_count(r) - 1); /* the newest particle */
        CHECK(r->anchor_spring.rest_length == r->deploy_rest); /* the anchored segment's rest is s */
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Two steps, then the deployment phase of step 3 on its own: s = 0.3125 > 0.25, so it inserts at
 * len = 0.0625 from the anchor (0, 0, 0) towards particle 1. */
static int deploy_phase(sk_ref_rope *r)
{
    sk_ref_rope_step(r);
    sk_ref_rope_step(r);
    CHECK(sk_ref_rope_count(r) == 2);
    r->anchor = sk_anchor_position(r->group, &r->params, 2 * r->c.dt);
    sk_ref_rope_deploy(r);
    CHECK(sk_ref_rope_count(r) == 3);
    CHECK(r->deploy_rest == 0.0625);
    CHECK(r->anchor_spring.rest_length == 0.0625);
    /* the registry's last registration is the anchored spring, now on the new particle */
    const sk_force_registry *reg = &r->world.registry;
    CHECK(reg->entries[reg->count - 1].particle == &r->world.particles[2]);
    CHECK(reg->entries[reg->count - 1].fg == &r->anchor_spring.base);
    return 0;
}

static int insert_seed_rule(void)
{
    sk_scenario s;
    CHECK_OK(load_deploying(&s, 4, "symplectic", "", ""));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    CHECK_OK(deploy_phase(r));
    const sk_particle *p = sk_ref_rope_particle(r, 2);
    /* particle 1 sits below the anchor on the y axis and still moves down (v.y < 0): e = (0, -1, 0),
     * p = e * 0.0625, v = (v_1)^ * 0.0625 = (0, -0.0625, 0) */
    CHECK(sk_ref_rope_particle(r, 1)->v.y < 0);
    CHECK_VEC_EQ(p->p, 0, -0.0625, 0);
    CHECK_VEC_EQ(p->v, 0, -0.0625, 0);
    CHECK(p->w == 1);
    CHECK_VEC_EQ(p->a, 0, 0, 0);
    CHECK_VEC_EQ(p->f, 0, 0, 0);
    sk_ref_rope_destroy(r);

    /* a newest particle moving along (3, 0, 4): v = (0.6, 0, 0.8) * 0.0625 */
    r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_step(r);
    sk_ref_rope_step(r);
    r->world.particles[1].v = sk_vec3_make(3, 0, 4);
    sk_ref_rope_deploy(r);
    CHECK(sk_ref_rope_count(r) == 3);
    CHECK_VEC_NEAR(sk_ref_rope_particle(r, 2)->v, 0.0375, 0, 0.05, TOL);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int insert_along_rule(void)
{
    /* v = u e = 0.5 (0, -1, 0) */
    sk_scenario s;
    CHECK_OK(load_deploying(&s, 4, "symplectic", "", ", \"insert_velocity\": \"along\""));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    CHECK_OK(deploy_phase(r));
    CHECK_VEC_EQ(sk_ref_rope_particle(r, 2)->p, 0, -0.0625, 0);
    CHECK_VEC_EQ(sk_ref_rope_particle(r, 2)->v, 0, -0.5, 0);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int insert_verlet(void)
{
    /* verlet: q = p - v dt = (0, -0.0625 + 0.0625, 0) = 0; the reported velocity is (p - q) / dt */
    sk_scenario s;
    CHECK_OK(load_deploying(&s, 4, "verlet", "", ", \"insert_velocity\": \"along\""));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    CHECK_OK(deploy_phase(r));
    CHECK_VEC_EQ(sk_ref_rope_particle(r, 2)->q, 0, 0, 0);
    CHECK_VEC_EQ(sk_ref_rope_velocity(r, 2), 0, -0.5, 0);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int insert_pinned(void)
{
    /* an index listed in pinned is pinned when it is inserted: w = 0, v = 0, never moves */
    sk_scenario s;
    CHECK_OK(load_deploying(&s, 4, "symplectic", ", \"pinned\": [2]", ""));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    for (int k = 0; k < 3; k++)
        sk_ref_rope_step(r);
    CHECK(sk_ref_rope_count(r) == 3);
    const sk_particle *p = sk_ref_rope_particle(r, 2);
    CHECK(p->w == 0);
    CHECK_VEC_EQ(p->v, 0, 0, 0);
    CHECK_VEC_EQ(p->p, 0, -0.0625, 0);
    for (int k = 0; k < 5; k++)
        sk_ref_rope_step(r);
    CHECK_VEC_EQ(sk_ref_rope_particle(r, 2)->p, 0, -0.0625, 0);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int max_length_weightless_segment(void)
{
    /* capacity 2 (seed 000's WeightlessSegmentRope), max_length 0.5: 0.375 -> 0.4375 -> 0.5, then the
     * guard (n - 1) L + s < max_length stops it */
    sk_scenario s;
    CHECK_OK(load_deploying(&s, 2, "symplectic", "", ", \"max_length\": 0.5"));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    const double expected[6] = {0.375, 0.4375, 0.5, 0.5, 0.5, 0.5};
    for (int k = 1; k <= 5; k++) {
        sk_ref_rope_step(r);
        CHECK(sk_ref_rope_deployed_length(r) == (sk_real)expected[k]);
        CHECK(sk_ref_rope_count(r) == 2);
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int max_length_with_room(void)
{
    /* capacity 10, max_length 0.625: grows 4 steps (inserting at step 3), then stops with room left */
    sk_scenario s;
    CHECK_OK(load_deploying(&s, 10, "symplectic", "", ", \"max_length\": 0.625"));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    const double expected[9] = {0.375, 0.4375, 0.5, 0.5625, 0.625, 0.625, 0.625, 0.625, 0.625};
    const int count[9] = {2, 2, 2, 3, 3, 3, 3, 3, 3};
    for (int k = 1; k <= 8; k++) {
        sk_ref_rope_step(r);
        CHECK(sk_ref_rope_deployed_length(r) == (sk_real)expected[k]);
        CHECK(sk_ref_rope_count(r) == count[k]);
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"length_grows_exactly", length_grows_exactly}, {"insert_seed_rule", insert_seed_rule},
           {"insert_along_rule", insert_along_rule}, {"insert_verlet", insert_verlet},
           {"insert_pinned", insert_pinned}, {"max_length_weightless_segment", max_length_weightless_segment},
           {"max_length_with_room", max_length_with_room})
