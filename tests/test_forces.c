/* Reference engine: every force generator against values worked out by hand (docs/model.md section 3). */
#include "scenario/scenario.h"
#include "reference_check.h"

static int gravity(void)
{
    sk_gravity_force g;
    sk_force_generator *fg = sk_gravity_force_init(&g, sk_vec3_make(0, -10, 0));
    sk_particle p = test_particle(0, 0, 0, 0, 0, 0, 0.5); /* mass 2 */
    p.f = sk_vec3_make(1, 0, 0);
    fg->update(fg, &p);
    CHECK_VEC_EQ(p.f, 1, -20, 0); /* adds g * m to what was there */
    return 0;
}

static int gravity_pinned(void)
{
    sk_gravity_force g;
    sk_force_generator *fg = sk_gravity_force_init(&g, sk_vec3_make(0, -10, 0));
    sk_particle p = test_particle(0, 0, 0, 0, 0, 0, 0);
    fg->update(fg, &p);
    CHECK_VEC_EQ(p.f, 0, 0, 0); /* 1/w would be infinite: skipped */
    return 0;
}

static int drag(void)
{
    /* |v| = 5, c = 0.1 * 5 + 0.01 * 25 = 0.75, along -v^ = -(0.6, 0.8, 0) */
    sk_drag_force d;
    sk_force_generator *fg = sk_drag_force_init(&d, 0.1, 0.01, false, sk_vec3_zero(), sk_vec3_zero());
    sk_particle p = test_particle(0, 0, 0, 3, 4, 0, 1);
    fg->update(fg, &p);
    CHECK_VEC_NEAR(p.f, -0.45, -0.6, 0, TOL);
    return 0;
}

static int drag_at_rest(void)
{
    sk_drag_force d;
    sk_force_generator *fg = sk_drag_force_init(&d, 0.1, 0.01, false, sk_vec3_zero(), sk_vec3_zero());
    sk_particle p = test_particle(0, 0, 0, 0, 0, 0, 1);
    fg->update(fg, &p);
    CHECK_VEC_EQ(p.f, 0, 0, 0); /* v^ of a zero v is zero, never NaN */
    sk_particle pinned = test_particle(0, 0, 0, 3, 4, 0, 0);
    fg->update(fg, &pinned);
    CHECK_VEC_EQ(pinned.f, 0, 0, 0);
    return 0;
}

static int buoyancy(void)
{
    /* h = 0, m = 0.5, rho V = 1000 * 0.002 = 2; fraction (0.5 - y) / 1 clamped to [0, 1] */
    sk_buoyancy_force b;
    sk_force_generator *fg = sk_buoyancy_force_init(&b, 0, 0.5, 1000, 0.002);
    sk_particle above = test_particle(3, 1, 0, 0, 0, 0, 1);     /* fraction -0.5 -> 0 */
    sk_particle half = test_particle(3, 0, 0, 0, 0, 0, 1);      /* 0.5 */
    sk_particle quarter = test_particle(3, 0.25, 0, 0, 0, 0, 1); /* 0.25 */
    sk_particle deep = test_particle(3, -1, 0, 0, 0, 0, 1);     /* 1.5 -> 1 */
    sk_particle pinned = test_particle(3, -1, 0, 0, 0, 0, 0);
    above.f = sk_vec3_make(7, 1, 0);
    fg->update(fg, &above);
    fg->update(fg, &half);
    fg->update(fg, &quarter);
    fg->update(fg, &deep);
    fg->update(fg, &pinned);
    CHECK_VEC_EQ(above.f, 7, 1, 0);
    CHECK_VEC_NEAR(half.f, 0, 1, 0, TOL);
    CHECK_VEC_NEAR(quarter.f, 0, 0.5, 0, TOL);
    CHECK_VEC_NEAR(deep.f, 0, 2, 0, TOL);
    CHECK_VEC_EQ(pinned.f, 0, 0, 0);
    return 0;
}

static int spring_stretched(void)
{
    /* k = 10, l = 1, stretched to 2 along x: (1 - 2) * 10 = -10 on a along +x, +10 on b */
    sk_particle a = test_particle(2, 0, 0, 0, 0, 0, 1), b = test_particle(0, 0, 0, 0, 0, 0, 1);
    sk_spring_force s;
    sk_force_generator *fg = sk_spring_force_init(&s, &b, 10, 1, false, false, 0);
    fg->update(fg, &a);
    CHECK_VEC_EQ(a.f, -10, 0, 0);
    CHECK_VEC_EQ(b.f, 10, 0, 0);
    return 0;
}

static int spring_compressed(void)
{
    /* k = 8, l = 1, compressed to 0.5 along y: (1 - 0.5) * 8 = 4 pushes them apart */
    sk_particle a = test_particle(0, 1.5, 0, 0, 0, 0, 1), b = test_particle(0, 1, 0, 0, 0, 0, 1);
    sk_spring_force s;
    sk_force_generator *fg = sk_spring_force_init(&s, &b, 8, 1, false, false, 0);
    fg->update(fg, &a);
    CHECK_VEC_EQ(a.f, 0, 4, 0);
    CHECK_VEC_EQ(b.f, 0, -4, 0);
    return 0;
}

static int spring_pinned_end(void)
{
    sk_particle a = test_particle(0, 0, 3, 0, 0, 0, 1), b = test_particle(0, 0, 0, 0, 0, 0, 0);
    sk_spring_force s;
    sk_force_generator *fg = sk_spring_force_init(&s, &b, 2, 1, false, false, 0);
    fg->update(fg, &a);
    CHECK_VEC_EQ(a.f, 0, 0, -4); /* (1 - 3) * 2 along +z */
    CHECK_VEC_EQ(b.f, 0, 0, 0);  /* the pinned end gets nothing */
    sk_particle c = test_particle(0, 0, 3, 0, 0, 0, 0), d = test_particle(0, 0, 0, 0, 0, 0, 1);
    fg = sk_spring_force_init(&s, &d, 2, 1, false, false, 0);
    fg->update(fg, &c);
    CHECK_VEC_EQ(c.f, 0, 0, 0);
    CHECK_VEC_EQ(d.f, 0, 0, 4);
    return 0;
}

static int spring_damped(void)
{
    /* k = 10, l = 1, stretched to 2 along x, c = 3 N s/m: a moves away at 2 m/s and b toward it at 0.5 m/s
     * (dl/dt = 2 - 0.5 = 1.5), with 4 m/s across the link that stretches nothing: (1 - 2) * 10 - 3 * 1.5 =
     * -14.5 on a along +x */
    sk_particle a = test_particle(2, 0, 0, 2, 4, 0, 1), b = test_particle(0, 0, 0, 0.5, 0, 0, 1);
    sk_spring_force s;
    sk_force_generator *fg = sk_spring_force_init(&s, &b, 10, 1, false, true, 3);
    fg->update(fg, &a);
    CHECK_VEC_EQ(a.f, -14.5, 0, 0);
    CHECK_VEC_EQ(b.f, 14.5, 0, 0);
    /* a damped bungee while slack: nothing, however fast it closes */
    sk_particle c = test_particle(0.5, 0, 0, -7, 0, 0, 1), d = test_particle(0, 0, 0, 0, 0, 0, 1);
    fg = sk_spring_force_init(&s, &d, 10, 1, true, true, 3);
    fg->update(fg, &c);
    CHECK_VEC_EQ(c.f, 0, 0, 0);
    CHECK_VEC_EQ(d.f, 0, 0, 0);
    /* a stretched bungee that shortens fast: (1 - 2) * 10 - 3 * (-5) = 5, the damping pushes */
    sk_particle e = test_particle(2, 0, 0, -5, 0, 0, 1), f = test_particle(0, 0, 0, 0, 0, 0, 1);
    fg = sk_spring_force_init(&s, &f, 10, 1, true, true, 3);
    fg->update(fg, &e);
    CHECK_VEC_EQ(e.f, 5, 0, 0);
    return 0;
}

static int spring_coincident(void)
{
    /* Zero length: the direction is the zero vector, so no force (and no NaN). */
    sk_particle a = test_particle(1, 1, 1, 0, 0, 0, 1), b = test_particle(1, 1, 1, 0, 0, 0, 1);
    sk_spring_force s;
    sk_force_generator *fg = sk_spring_force_init(&s, &b, 10, 1, false, false, 0);
    fg->update(fg, &a);
    CHECK_VEC_EQ(a.f, 0, 0, 0);
    CHECK_VEC_EQ(b.f, 0, 0, 0);
    return 0;
}

static int bungee(void)
{
    sk_spring_force s;
    /* stretched: a spring */
    sk_particle a = test_particle(2, 0, 0, 0, 0, 0, 1), b = test_particle(0, 0, 0, 0, 0, 0, 1);
    sk_force_generator *fg = sk_spring_force_init(&s, &b, 10, 1, true, false, 0);
    fg->update(fg, &a);
    CHECK_VEC_EQ(a.f, -10, 0, 0);
    CHECK_VEC_EQ(b.f, 10, 0, 0);
    /* slack, and exactly at rest length: nothing */
    sk_particle c = test_particle(0.5, 0, 0, 0, 0, 0, 1), d = test_particle(0, 0, 0, 0, 0, 0, 1);
    fg = sk_spring_force_init(&s, &d, 10, 1, true, false, 0);
    fg->update(fg, &c);
    CHECK_VEC_EQ(c.f, 0, 0, 0);
    CHECK_VEC_EQ(d.f, 0, 0, 0);
    sk_particle e = test_particle(0, 1, 0, 0, 0, 0, 1), f = test_particle(0, 0, 0, 0, 0, 0, 1);
    fg = sk_spring_force_init(&s, &f, 10, 1, true, false, 0);
    fg->update(fg, &e);
    CHECK_VEC_EQ(e.f, 0, 0, 0);
    return 0;
}

static int anchored_spring(void)
{
    /* k = 4, l = 1, 3 below the anchor: (1 - 3) * 4 = -8 along +y (the direction away from x) */
    sk_vec3 x = sk_vec3_make(1, 2, 3);
    sk_anchored_spring_force s;
    sk_force_generator *fg = sk_anchored_spring_force_init(&s, &x, 4, 1, false);
    sk_particle p = test_particle(1, -1, 3, 0, 0, 0, 1);
    fg->update(fg, &p);
    CHECK_VEC_EQ(p.f, 0, 8, 0);
    /* the anchor is read at every update: move it and the force follows */
    x = sk_vec3_make(1, -1, 1.5);
    p.f = sk_vec3_zero();
    fg->update(fg, &p);
    CHECK_VEC_EQ(p.f, 0, 0, -2); /* |d| = 1.5 along +z: (1 - 1.5) * 4 = -2 along +z */
    return 0;
}

static int anchored_spring_compressed(void)
{
    sk_vec3 x = sk_vec3_make(0, 0, 0);
    sk_anchored_spring_force s;
    sk_force_generator *fg = sk_anchored_spring_force_init(&s, &x, 4, 1, false);
    sk_particle p = test_particle(-0.25, 0, 0, 0, 0, 0, 1);
    fg->update(fg, &p);
    CHECK_VEC_EQ(p.f, -3, 0, 0); /* (1 - 0.25) * 4 = 3 along -x, away from the anchor */
    sk_particle pinned = test_particle(-0.25, 0, 0, 0, 0, 0, 0);
    fg->update(fg, &pinned);
    CHECK_VEC_EQ(pinned.f, 0, 0, 0);
    return 0;
}

static int anchored_bungee(void)
{
    sk_vec3 x = sk_vec3_make(0, 0, 0);
    sk_anchored_spring_force s;
    sk_force_generator *fg = sk_anchored_spring_force_init(&s, &x, 4, 1, true);
    sk_particle slack = test_particle(-0.25, 0, 0, 0, 0, 0, 1);
    fg->update(fg, &slack);
    CHECK_VEC_EQ(slack.f, 0, 0, 0);
    sk_particle taut = test_particle(0, 0, -3, 0, 0, 0, 1);
    fg->update(fg, &taut);
    CHECK_VEC_EQ(taut.f, 0, 0, 8);
    return 0;
}

/* Constants of a rope with unit mass and the given fake spring, dt. */
static void fake_constants(sk_real k, sk_real c, sk_real dt, sk_rope_constants *out)
{
    sk_scenario s = {0};
    sk_group g = {0};
    sk_rope_params p = {0};
    s.dt = dt;
    g.particles = 1;
    p.mass = 1;
    p.damping = 1;
    p.anchor_stiffness = k;
    p.anchor_damping = c;
    sk_rope_constants_compute(&s, &g, &p, out);
}

static int fake_spring_exact(void)
{
    /* r'' = -k r - c r' with k = 4, c = 2: gamma = sqrt(k - c^2 / 4) = sqrt(3). Over one step the
     * generator's force moves the particle (symplectic, no damping: p += v dt + acc dt^2) exactly to
     * the analytic solution r(dt) = exp(-c dt / 2) (r0 cos(g dt) + (r0 c / (2 g) + v0 / g) sin(g dt)). */
    const double k = 4, c = 2, dt = 0.1;
    sk_rope_constants rc;
    fake_constants((sk_real)k, (sk_real)c, (sk_real)dt, &rc);
    CHECK(rc.fake_active);
    CHECK_NEAR(rc.fake_gamma, sqrt(3.0), TOL);

    sk_vec3 x = sk_vec3_make(0.5, 1, -1);
    sk_fake_spring_force fs;
    sk_force_generator *fg = sk_fake_spring_force_init(&fs, &x, &rc);
    const double r0[3] = {0.5, -1, 2}, v0[3] = {0, 0.5, -0.25};
    sk_particle p = test_particle((sk_real)(0.5 + r0[0]), (sk_real)(1 + r0[1]), (sk_real)(-1 + r0[2]), (sk_real)v0[0],
                                  (sk_real)v0[1], (sk_real)v0[2], 1);
    fg->update(fg, &p);
    sk_particle_integrate(&p, SK_INTEGRATOR_SYMPLECTIC, (sk_real)dt, 1, 1);

    double g = sqrt(k - c * c / 4), decay = exp(-c * dt / 2);
    double expect[3];
    for (int i = 0; i < 3; i++)
        expect[i] = decay * (r0[i] * cos(g * dt) + (r0[i] * c / (2 * g) + v0[i] / g) * sin(g * dt));
    /* 1/dt^2 = 100 amplifies rounding: a few hundred ulps of |r| in float */
    double tol = sizeof(sk_real) == 4 ? 5e-5 : 1e-12;
    CHECK_VEC_NEAR(sk_vec3_sub(p.p, x), expect[0], expect[1], expect[2], tol);
    return 0;
}

static int fake_spring_inactive(void)
{
    sk_rope_constants rc;
    sk_vec3 x = sk_vec3_zero();
    sk_fake_spring_force fs;
    /* overdamped (4k < c^2: gamma not real) and critical (gamma = 0): no force */
    const sk_real cases[2][2] = {{1, 3}, {1, 2}};
    for (int i = 0; i < 2; i++) {
        fake_constants(cases[i][0], cases[i][1], 0.1, &rc);
        CHECK(!rc.fake_active);
        sk_force_generator *fg = sk_fake_spring_force_init(&fs, &x, &rc);
        sk_particle p = test_particle(1, 0, 0, 0, 1, 0, 1);
        fg->update(fg, &p);
        CHECK_VEC_EQ(p.f, 0, 0, 0);
    }
    /* active but pinned */
    fake_constants(4, 2, 0.1, &rc);
    sk_force_generator *fg = sk_fake_spring_force_init(&fs, &x, &rc);
    sk_particle pinned = test_particle(1, 0, 0, 0, 0, 0, 0);
    fg->update(fg, &pinned);
    CHECK_VEC_EQ(pinned.f, 0, 0, 0);
    return 0;
}

static int registry_order(void)
{
    /* Registrations run in order and accumulate: gravity then a spring on the same particle. */
    sk_particle a = test_particle(2, 0, 0, 0, 0, 0, 1), b = test_particle(0, 0, 0, 0, 0, 0, 1);
    sk_gravity_force g;
    sk_spring_force s;
    sk_force_registry reg;
    CHECK(sk_force_registry_init(&reg, 3));
    CHECK(sk_force_registry_add(&reg, &a, sk_gravity_force_init(&g, sk_vec3_make(0, -10, 0))));
    CHECK(sk_force_registry_add(&reg, &b, &g.base));
    CHECK(sk_force_registry_add(&reg, &a, sk_spring_force_init(&s, &b, 10, 1, false, false, 0)));
    CHECK(!sk_force_registry_add(&reg, &a, &g.base)); /* full */
    sk_force_registry_update(&reg);
    CHECK_VEC_EQ(a.f, -10, -10, 0);
    CHECK_VEC_EQ(b.f, 10, -10, 0);
    sk_force_registry_clear(&reg);
    sk_force_registry_update(&reg);
    CHECK_VEC_EQ(a.f, -10, -10, 0);
    sk_force_registry_free(&reg);
    return 0;
}

CHECK_MAIN({"gravity", gravity}, {"gravity_pinned", gravity_pinned}, {"drag", drag},
           {"drag_at_rest", drag_at_rest}, {"buoyancy", buoyancy}, {"spring_stretched", spring_stretched},
           {"spring_compressed", spring_compressed}, {"spring_pinned_end", spring_pinned_end},
           {"spring_damped", spring_damped}, {"spring_coincident", spring_coincident}, {"bungee", bungee}, {"anchored_spring", anchored_spring},
           {"anchored_spring_compressed", anchored_spring_compressed}, {"anchored_bungee", anchored_bungee},
           {"fake_spring_exact", fake_spring_exact}, {"fake_spring_inactive", fake_spring_inactive},
           {"registry_order", registry_order})
