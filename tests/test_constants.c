/* The shared per-rope constants, the initial layout and the anchor motion, against values worked out by
 * hand. */
#include "scenario/scenario.h"
#include "reference_check.h"

/* dt 0.5, mass 4, damping 0.25, verlet damping 0.25, gravity (0, -8, 0). */
static void base(sk_scenario *s, sk_group *g, sk_rope_params *p)
{
    *s = (sk_scenario){0};
    *g = (sk_group){0};
    *p = (sk_rope_params){0};
    s->dt = 0.5;
    s->gravity = sk_vec3_make(0, -8, 0);
    g->particles = 6;
    p->mass = 4;
    p->damping = 0.25;
    p->verlet_damping = 0.25;
    p->link_length = 0.75;
    p->end = sk_vec3_make(3, 4, 0);
}

static int constants(void)
{
    sk_scenario s;
    sk_group g;
    sk_rope_params p;
    sk_rope_constants c;
    base(&s, &g, &p);
    s.gravity_as = SK_GRAVITY_FORCE;
    sk_rope_constants_compute(&s, &g, &p, &c);
    CHECK(c.dt == 0.5 && c.inv_dt == 2 && c.inv_dt2 == 4);
    CHECK(c.w == 0.25 && c.mass_back == 4);
    CHECK(c.damp == 0.5); /* 0.25^0.5 */
    CHECK(c.verlet_keep == 0.75);
    CHECK_VEC_EQ(c.accel, 0, 0, 0); /* gravity is a force here */
    CHECK_VEC_EQ(c.gravity_force, 0, -32, 0);
    CHECK(c.link_length == 0.75);

    s.gravity_as = SK_GRAVITY_ACCELERATION;
    g.link_length_auto = true; /* |(3, 4, 0)| / (6 - 1) = 1 */
    sk_rope_constants_compute(&s, &g, &p, &c);
    CHECK_VEC_EQ(c.accel, 0, -8, 0);
    CHECK(c.link_length == 1);
    g.deploys = true;
    g.deploy_initial = 3; /* spacing of the initial particles: 5 / 2 */
    sk_rope_constants_compute(&s, &g, &p, &c);
    CHECK(c.link_length == 2.5);
    return 0;
}

static int fake_spring_constants(void)
{
    /* k = 4, c = 2, dt = 0.5: gamma = 0.5 sqrt(16 - 4) = sqrt(3) */
    sk_scenario s;
    sk_group g;
    sk_rope_params p;
    sk_rope_constants c;
    base(&s, &g, &p);
    p.anchor_stiffness = 4;
    p.anchor_damping = 2;
    sk_rope_constants_compute(&s, &g, &p, &c);
    double gamma = sqrt(3.0);
    CHECK(c.fake_active);
    CHECK_NEAR(c.fake_gamma, gamma, TOL);
    CHECK_NEAR(c.fake_cr, 2 / (2 * gamma), TOL);
    CHECK_NEAR(c.fake_cv, 1 / gamma, TOL);
    CHECK_NEAR(c.fake_cos, cos(gamma * 0.5), TOL);
    CHECK_NEAR(c.fake_sin, sin(gamma * 0.5), TOL);
    CHECK_NEAR(c.fake_exp, 0.60653065971263342, TOL); /* exp(-0.5) */
    p.anchor_damping = 5; /* 16 - 25 < 0: overdamped */
    sk_rope_constants_compute(&s, &g, &p, &c);
    CHECK(!c.fake_active);
    return 0;
}

static int layout(void)
{
    sk_rope_params p = {0};
    p.start = sk_vec3_make(1, 0, 0);
    p.end = sk_vec3_make(1, 8, -4);
    for (int i = 0; i < 5; i++)
        CHECK_VEC_EQ(sk_rope_layout_position(&p, i, 5), 1, 2 * i, -i);
    CHECK_VEC_EQ(sk_rope_layout_position(&p, 0, 1), 1, 0, 0); /* one particle sits at start */
    return 0;
}

static int anchor_motion(void)
{
    sk_group g = {0};
    sk_rope_params p = {0};
    p.anchor_point = sk_vec3_make(1, 2, 3);
    p.motion_amplitude = sk_vec3_make(0, 0.5, -1);
    p.motion_omega = 2;
    p.motion_phase = 0.1;
    CHECK_VEC_EQ(sk_anchor_position(&g, &p, 0.25), 1, 2, 3); /* not driven: the point */
    g.anchor_driven = g.motion_sine = true;
    /* sin(2 * 0.25 + 0.1) = sin(0.6) = 0.56464247339503535 */
    CHECK_VEC_NEAR(sk_anchor_position(&g, &p, 0.25), 1, 2.2823212366975177, 2.4353575266049646, TOL);
    CHECK_VEC_NEAR(sk_anchor_position(&g, &p, 0), 1, 2 + 0.5 * 0.099833416646828155,
                   3 - 0.099833416646828155, TOL); /* sin(0.1) */
    /* towing adds velocity * t, exactly here (0.25 and the components are binary fractions) */
    g.motion_sine = false;
    g.motion_tow = true;
    p.motion_velocity = sk_vec3_make(2, -0.5, 0.25);
    CHECK_VEC_EQ(sk_anchor_position(&g, &p, 0.25), 1.5, 1.875, 3.0625);
    /* a path: held before its first time and after its last, linear between */
    sk_real times[3] = {1, 2, 4};
    sk_vec3 points[3] = {{0, 0, 0}, {1, -2, 4}, {3, 0, 0}};
    g.motion_tow = false;
    g.path_count = 3, g.path_times = times, g.path_points = points;
    CHECK_VEC_EQ(sk_anchor_position(&g, &p, 0.5), 1, 2, 3);
    CHECK_VEC_EQ(sk_anchor_position(&g, &p, 1.5), 1.5, 1, 5);
    CHECK_VEC_EQ(sk_anchor_position(&g, &p, 2), 2, 0, 7);
    CHECK_VEC_EQ(sk_anchor_position(&g, &p, 3), 3, 1, 5);
    CHECK_VEC_EQ(sk_anchor_position(&g, &p, 9), 4, 2, 3);
    /* all three add up */
    g.motion_sine = g.motion_tow = true;
    sk_vec3 all = sk_anchor_position(&g, &p, 0.25);
    CHECK_VEC_NEAR(all, 1 + 0.5, 2.2823212366975177 - 0.125, 2.4353575266049646 + 0.0625, TOL);
    return 0;
}

CHECK_MAIN({"constants", constants}, {"fake_spring_constants", fake_spring_constants}, {"layout", layout},
           {"anchor_motion", anchor_motion})
