/* Reference engine: contact generators, one contact's resolution, the resolver and the world's
 * contact phase, against values worked out by hand (docs/model.md sections 4-5). */
#include "scenario/scenario.h"
#include "reference_check.h"

static sk_contact world_contact(sk_particle *a, sk_real nx, sk_real ny, sk_real nz, sk_real pen, sk_real e)
{
    sk_contact c = {0};
    c.particle[0] = a;
    c.normal = sk_vec3_make(nx, ny, nz);
    c.penetration = pen;
    c.restitution = e;
    return c;
}

/* ---- generators ---- */

static int ground(void)
{
    sk_particle ps[4] = {test_particle(0, -0.25, 0, 0, 0, 0, 1), test_particle(1, 0.5, 0, 0, 0, 0, 1),
                         test_particle(2, -1, 0, 0, 0, 0, 0) /* pinned */, test_particle(3, -0.5, 0, 0, 0, 0, 1)};
    sk_ground_contacts g;
    sk_contact_generator *cg = sk_ground_contacts_init(&g, ps, 4, 0, 0.5, NULL);
    sk_contact cs[4];
    CHECK(cg->add_contact(cg, cs, 4) == 2); /* particles 0 and 3 below y = 0 */
    CHECK(cs[0].particle[0] == &ps[0] && cs[0].particle[1] == NULL);
    CHECK_VEC_EQ(cs[0].normal, 0, 1, 0);
    CHECK(cs[0].penetration == 0.25 && cs[0].restitution == 0.5);
    CHECK(cs[1].particle[0] == &ps[3] && cs[1].penetration == 0.5);
    CHECK(cg->add_contact(cg, cs, 1) == 1); /* the limit is respected, first particle first */
    CHECK(cs[0].particle[0] == &ps[0]);
    ps[0].p.y = 0; /* on the plane is not below it */
    CHECK(cg->add_contact(cg, cs, 4) == 1);
    return 0;
}

static int rod(void)
{
    sk_particle a = test_particle(0, 0, 0, 0, 0, 0, 1), b = test_particle(2, 0, 0, 0, 0, 0, 1);
    sk_rod_link r;
    sk_contact_generator *cg = sk_rod_link_init(&r, &a, &b, 1);
    sk_contact c;
    /* stretched to 2: normal a -> b, pen 1, no bounce */
    CHECK(cg->add_contact(cg, &c, 1) == 1);
    CHECK(c.particle[0] == &a && c.particle[1] == &b);
    CHECK_VEC_EQ(c.normal, 1, 0, 0);
    CHECK(c.penetration == 1 && c.restitution == 0);
    /* compressed to 0.5: the negated normal, pen 0.5 */
    b.p.x = 0.5;
    CHECK(cg->add_contact(cg, &c, 1) == 1);
    CHECK_VEC_EQ(c.normal, -1, 0, 0);
    CHECK(c.penetration == 0.5);
    /* exactly its length: none; no room: none */
    b.p.x = 1;
    CHECK(cg->add_contact(cg, &c, 1) == 0);
    b.p.x = 2;
    CHECK(cg->add_contact(cg, &c, 0) == 0);
    /* one end pinned: still generated; both: never */
    a.w = 0;
    CHECK(cg->add_contact(cg, &c, 1) == 1);
    b.w = 0;
    CHECK(cg->add_contact(cg, &c, 1) == 0);
    return 0;
}

static int cable(void)
{
    sk_particle a = test_particle(0, 0, 0, 0, 0, 0, 1), b = test_particle(0, 3, 0, 0, 0, 0, 1);
    sk_cable_link k;
    sk_contact_generator *cg = sk_cable_link_init(&k, &a, &b, 2, 0.25);
    sk_contact c;
    CHECK(cg->add_contact(cg, &c, 1) == 1);
    CHECK(c.particle[0] == &a && c.particle[1] == &b);
    CHECK_VEC_EQ(c.normal, 0, 1, 0);
    CHECK(c.penetration == 1 && c.restitution == 0.25);
    b.p.y = 2; /* exactly taut: a contact with pen 0 (len >= L) */
    CHECK(cg->add_contact(cg, &c, 1) == 1);
    CHECK(c.penetration == 0);
    b.p.y = 1; /* slack: none */
    CHECK(cg->add_contact(cg, &c, 1) == 0);
    a.w = b.w = 0;
    b.p.y = 3;
    CHECK(cg->add_contact(cg, &c, 1) == 0);
    return 0;
}

static int rod_constraint(void)
{
    sk_vec3 x = sk_vec3_make(0, 0, 0);
    sk_particle p = test_particle(0, -3, 0, 0, 0, 0, 1);
    sk_rod_constraint r;
    sk_contact_generator *cg = sk_rod_constraint_init(&r, &p, &x, 2);
    sk_contact c;
    CHECK(cg->add_contact(cg, &c, 1) == 1); /* too far: towards the anchor */
    CHECK(c.particle[0] == &p && c.particle[1] == NULL);
    CHECK_VEC_EQ(c.normal, 0, 1, 0);
    CHECK(c.penetration == 1 && c.restitution == 0);
    p.p.y = -1; /* too near: away from it */
    CHECK(cg->add_contact(cg, &c, 1) == 1);
    CHECK_VEC_EQ(c.normal, 0, -1, 0);
    CHECK(c.penetration == 1);
    p.p.y = -2;
    CHECK(cg->add_contact(cg, &c, 1) == 0);
    x.x = 1; /* the anchor is read when generating: |(1, 2)| != 2 now */
    CHECK(cg->add_contact(cg, &c, 1) == 1);
    p.w = 0;
    CHECK(cg->add_contact(cg, &c, 1) == 0);
    return 0;
}

static int cable_constraint(void)
{
    sk_vec3 x = sk_vec3_make(1, 1, 1);
    sk_particle p = test_particle(1, 1, 5, 0, 0, 0, 1);
    sk_cable_constraint k;
    sk_contact_generator *cg = sk_cable_constraint_init(&k, &p, &x, 3, 0.5);
    sk_contact c;
    CHECK(cg->add_contact(cg, &c, 1) == 1);
    CHECK(c.particle[0] == &p && c.particle[1] == NULL);
    CHECK_VEC_EQ(c.normal, 0, 0, -1);
    CHECK(c.penetration == 1 && c.restitution == 0.5);
    p.p.z = 3;
    CHECK(cg->add_contact(cg, &c, 1) == 0);
    p.p.z = 5;
    p.w = 0;
    CHECK(cg->add_contact(cg, &c, 1) == 0);
    return 0;
}

/* ---- one contact ---- */

static int bounce(void)
{
    /* ground, e = 0.5, vs = -2, no field: v' = +1; pen 0.25 moves it up 0.25 */
    sk_particle p = test_particle(0, -0.25, 0, 0, -2, 0, 1);
    sk_contact c = world_contact(&p, 0, 1, 0, 0.25, 0.5);
    CHECK(sk_contact_separating_velocity(&c) == -2);
    sk_contact_resolve(&c, 0.1);
    CHECK_VEC_EQ(p.v, 0, 1, 0);
    CHECK_VEC_EQ(p.p, 0, 0, 0);
    CHECK_VEC_EQ(c.movement[0], 0, 0.25, 0);
    return 0;
}

static int acceleration_term(void)
{
    /* a = (0, -10, 0), dt = 0.125: the field built up va = -1.25 this step. e = 0.5:
     * vs = -4: v' = 2 + 0.5 * -1.25 = 1.375; vs = -1: v' = 0.5 - 0.625 < 0 -> 0 */
    sk_particle p = test_particle(0, 0, 0, 0, -4, 0, 1);
    p.a = sk_vec3_make(0, -10, 0);
    sk_contact c = world_contact(&p, 0, 1, 0, 0, 0.5);
    sk_contact_resolve(&c, 0.125);
    CHECK_VEC_EQ(p.v, 0, 1.375, 0);
    p.v = sk_vec3_make(0, -1, 0);
    sk_contact_resolve(&c, 0.125);
    CHECK_VEC_EQ(p.v, 0, 0, 0);
    /* a field along the normal (va > 0) changes nothing: v' = 2 */
    p.a = sk_vec3_make(0, 10, 0);
    p.v = sk_vec3_make(0, -4, 0);
    sk_contact_resolve(&c, 0.125);
    CHECK_VEC_EQ(p.v, 0, 2, 0);
    return 0;
}

static int two_particles(void)
{
    /* w_a = 1, w_b = 3, n = +x, v_a = -1, v_b = +1: vs = -2, e = 0: impulse per w = 2 / 4 = 0.5,
     * v_a = -1 + 0.5 = -0.5, v_b = 1 - 1.5 = -0.5. pen 0.5: M = 0.125, m_a = 0.125, m_b = -0.375 */
    sk_particle a = test_particle(0, 0, 0, -1, 0, 0, 1), b = test_particle(1, 0, 0, 1, 0, 0, 3);
    a.a = sk_vec3_make(0, -10, 0);
    b.a = sk_vec3_make(0, -10, 0); /* equal fields: no relative build-up */
    sk_contact c = world_contact(&a, 1, 0, 0, 0.5, 0);
    c.particle[1] = &b;
    CHECK(sk_contact_separating_velocity(&c) == -2);
    sk_contact_resolve(&c, 0.1);
    CHECK_VEC_EQ(a.v, -0.5, 0, 0);
    CHECK_VEC_EQ(b.v, -0.5, 0, 0);
    CHECK_VEC_EQ(c.movement[0], 0.125, 0, 0);
    CHECK_VEC_EQ(c.movement[1], -0.375, 0, 0);
    CHECK_VEC_EQ(a.p, 0.125, 0, 0);
    CHECK_VEC_EQ(b.p, 0.625, 0, 0);
    return 0;
}

static int separating_and_pinned(void)
{
    /* separating (vs > 0): velocity untouched, position still corrected */
    sk_particle p = test_particle(0, -0.5, 0, 0, 3, 0, 1);
    sk_contact c = world_contact(&p, 0, 1, 0, 0.5, 1);
    sk_contact_resolve(&c, 0.1);
    CHECK_VEC_EQ(p.v, 0, 3, 0);
    CHECK_VEC_EQ(p.p, 0, 0, 0);
    /* pinned (W = 0): nothing at all, and zero moves */
    sk_particle q = test_particle(0, -0.5, 0, 0, -3, 0, 0);
    c = world_contact(&q, 0, 1, 0, 0.5, 1);
    c.movement[0] = sk_vec3_make(9, 9, 9);
    sk_contact_resolve(&c, 0.1);
    CHECK_VEC_EQ(q.v, 0, -3, 0);
    CHECK_VEC_EQ(q.p, 0, -0.5, 0);
    CHECK_VEC_EQ(c.movement[0], 0, 0, 0);
    return 0;
}

static int moves_zero_when_skipped(void)
{
    /* pen <= 0: the position step is skipped and the moves are zero (not left from earlier) */
    sk_particle a = test_particle(0, 0, 0, 0, -1, 0, 1), b = test_particle(0, 1, 0, 0, 0, 0, 1);
    sk_contact c = world_contact(&a, 0, 1, 0, -0.25, 0);
    c.particle[1] = &b;
    c.movement[0] = sk_vec3_make(1, 2, 3);
    c.movement[1] = sk_vec3_make(4, 5, 6);
    sk_contact_resolve(&c, 0.1);
    CHECK_VEC_EQ(c.movement[0], 0, 0, 0);
    CHECK_VEC_EQ(c.movement[1], 0, 0, 0);
    CHECK_VEC_EQ(a.p, 0, 0, 0);
    CHECK_VEC_EQ(a.v, 0, -0.5, 0); /* the velocity step did run: vs = -1 shared by w 1 + 1 */
    CHECK_VEC_EQ(b.v, 0, -0.5, 0);
    return 0;
}

/* ---- the resolver ---- */

static int resolver_order(void)
{
    /* vs = -1, -3, -3 (and one separating): the smallest wins, the first of a tie */
    sk_particle ps[4] = {test_particle(0, 0, 0, 0, -1, 0, 1), test_particle(1, 0, 0, 0, -3, 0, 1),
                         test_particle(2, 0, 0, 0, -3, 0, 1), test_particle(3, 0, 0, 0, 5, 0, 1)};
    sk_contact cs[4];
    for (int i = 0; i < 4; i++)
        cs[i] = world_contact(&ps[i], 0, 1, 0, 0, 0);
    sk_contact_resolver r = {1, 0};
    sk_contact_resolver_resolve(&r, cs, 4, 0.1);
    CHECK(r.iterations_used == 1);
    CHECK(!cs[0].picked && cs[1].picked && !cs[2].picked && !cs[3].picked);
    CHECK_VEC_EQ(ps[1].v, 0, 0, 0);
    CHECK_VEC_EQ(ps[2].v, 0, -3, 0);
    /* with room for all: 1, 2, 0 resolved, then nothing is closing or overlapping: stop */
    r.iterations = 10;
    sk_contact_resolver_resolve(&r, cs, 4, 0.1);
    CHECK(r.iterations_used == 2);
    CHECK(!cs[1].picked && cs[2].picked && cs[0].picked && !cs[3].picked); /* flags are per call */
    CHECK_VEC_EQ(ps[0].v, 0, 0, 0);
    CHECK_VEC_EQ(ps[3].v, 0, 5, 0);
    return 0;
}

static int resolver_penetration_updates(void)
{
    /* contact 0: A on the ground, pen 0.75; contact 1: B above A (B is its a side, A its b side),
     * pen 0.25; all at rest, w = 1.
     * 1st: tie at vs = 0, first wins: A up 0.75 -> pen0 0, pen1 0.25 + 0.75 = 1.
     * 2nd: contact 1 (pen 1, W = 2): B up 0.5, A down 0.5 -> pen0 0 + 0.5, pen1 1 - 0.5 - 0.5 = 0.
     * Two iterations allowed: A at 0.25, B at 0.5 + 0.5 = 1, pen0 0.5 left. */
    sk_particle a = test_particle(0, 0, 0, 0, 0, 0, 1), b = test_particle(0, 0.5, 0, 0, 0, 0, 1);
    sk_contact cs[2] = {world_contact(&a, 0, 1, 0, 0.75, 0), world_contact(&b, 0, 1, 0, 0.25, 0)};
    cs[1].particle[1] = &a;
    sk_contact_resolver r = {2, 0};
    sk_contact_resolver_resolve(&r, cs, 2, 0.1);
    CHECK(r.iterations_used == 2);
    CHECK_VEC_EQ(a.p, 0, 0.25, 0);
    CHECK_VEC_EQ(b.p, 0, 1, 0);
    CHECK(cs[0].penetration == 0.5);
    CHECK(cs[1].penetration == 0);
    return 0;
}

static int resolver_none(void)
{
    sk_particle p = test_particle(0, 0, 0, 0, 1, 0, 1);
    sk_contact c = world_contact(&p, 0, 1, 0, 0, 0); /* separating, not overlapping */
    sk_contact_resolver r = {4, 7};
    sk_contact_resolver_resolve(&r, &c, 1, 0.1);
    CHECK(r.iterations_used == 0 && !c.picked);
    CHECK_VEC_EQ(p.v, 0, 1, 0);
    return 0;
}

/* ---- the world's contact phase ---- */

static int world_rod_chain(void)
{
    /* 0 (pinned) at x = 0, 1 at 2, 2 at 4, rods of length 1, at rest, no force: both rods stretched
     * by 1. Default iterations: 2 x 2 contacts = 4, all used (see the resolver test's arithmetic):
     * 1: rod01 moves p1 to 1 (pen12 -> 2); 2: rod12 moves p1 to 2, p2 to 3 (pen01 -> 1);
     * 3: rod01 moves p1 to 1 (pen12 -> 1); 4: rod12 moves p1 to 1.5, p2 to 2.5. */
    sk_world w;
    CHECK(sk_world_init(&w, 3, 0, 2, 8));
    w.integrator = SK_INTEGRATOR_SYMPLECTIC;
    w.dt = 0.1;
    w.particles[0] = test_particle(0, 0, 0, 0, 0, 0, 0);
    w.particles[1] = test_particle(2, 0, 0, 0, 0, 0, 1);
    w.particles[2] = test_particle(4, 0, 0, 0, 0, 0, 1);
    w.count = 3;
    sk_rod_link rods[2];
    CHECK(sk_world_add_contact_generator(&w, sk_rod_link_init(&rods[0], &w.particles[0], &w.particles[1], 1)));
    CHECK(sk_world_add_contact_generator(&w, sk_rod_link_init(&rods[1], &w.particles[1], &w.particles[2], 1)));
    CHECK(!sk_world_add_contact_generator(&w, &rods[1].base)); /* full */
    sk_world_run_physics(&w);
    CHECK(w.used_contacts == 2);
    CHECK(w.resolver.iterations == 4);
    CHECK(w.resolver.iterations_used == 4);
    CHECK_VEC_EQ(w.particles[0].p, 0, 0, 0);
    CHECK_VEC_EQ(w.particles[1].p, 1.5, 0, 0);
    CHECK_VEC_EQ(w.particles[2].p, 2.5, 0, 0);
    /* a fixed count overrides the default */
    w.particles[1].p.x = 2;
    w.particles[2].p.x = 4;
    w.fixed_iterations = 1;
    sk_world_run_physics(&w);
    CHECK(w.resolver.iterations == 1 && w.resolver.iterations_used == 1);
    CHECK_VEC_EQ(w.particles[1].p, 1, 0, 0);
    CHECK_VEC_EQ(w.particles[2].p, 4, 0, 0);
    sk_world_free(&w);
    return 0;
}

static int world_verlet_q(void)
{
    /* verlet, dt = 0.5, no field or force, ground at 0 with e = 0.5, one iteration:
     * particle 0: p = -0.25, q = 0.25 -> integrates to p = -0.75, q = -0.25: vs = -1, pen 0.75
     * particle 1: p = -0.5, q = -0.25 -> p = -0.75, q = -0.5: vs = -0.5, pen 0.75
     * particle 2: above the ground, p = 1, q = 1.25 -> p = 0.75, q = 1
     * Contact 0 is picked (smallest vs): v = 0.5, moved up 0.75 to 0, q = 0 - 0.5 * 0.5 = -0.25.
     * Particle 1 was in a contact that was never picked, particle 2 in none: q keeps its bits. */
    sk_world w;
    CHECK(sk_world_init(&w, 3, 0, 1, 3));
    w.integrator = SK_INTEGRATOR_VERLET;
    w.dt = 0.5;
    w.fixed_iterations = 1;
    w.particles[0] = test_particle(0, -0.25, 0, 0, 0, 0, 1);
    w.particles[0].q = sk_vec3_make(0, 0.25, 0);
    w.particles[1] = test_particle(1, -0.5, 0, 0, 0, 0, 1);
    w.particles[1].q = sk_vec3_make(1, -0.25, 0);
    w.particles[2] = test_particle(2, 1, 0, 0, 0, 0, 1);
    w.particles[2].q = sk_vec3_make(2, 1.25, 0);
    w.count = 3;
    sk_ground_contacts g;
    CHECK(sk_world_add_contact_generator(&w, sk_ground_contacts_init(&g, w.particles, 3, 0, 0.5, NULL)));
    sk_world_run_physics(&w);
    CHECK(w.used_contacts == 2 && w.resolver.iterations_used == 1);
    CHECK_VEC_EQ(w.particles[0].p, 0, 0, 0);
    CHECK_VEC_EQ(w.particles[0].q, 0, -0.25, 0);
    CHECK_VEC_EQ(w.particles[0].v, 0, 0.5, 0); /* reported: (p - q) / dt */
    CHECK_VEC_EQ(w.particles[1].p, 1, -0.75, 0);
    CHECK_VEC_EQ(w.particles[1].q, 1, -0.5, 0);
    CHECK_VEC_EQ(w.particles[1].v, 0, -0.5, 0);
    CHECK_VEC_EQ(w.particles[2].p, 2, 0.75, 0);
    CHECK_VEC_EQ(w.particles[2].q, 2, 1, 0);
    sk_world_free(&w);
    return 0;
}

static int world_verlet_q_bits(void)
{
    /* As above with dt = 0.1 and a ground at 0.25: particle 1 (p = -0.01, q = -0.06) integrates to
     * p = 0.04, q = -0.01 and rises (vs = +0.5) through the ground (pen 0.21): its contact is
     * generated but particle 0 (vs = -5) takes the one iteration. Rewriting particle 1's q as
     * p - ((p - q) / dt) dt would not give back -0.01 in float nor in double; it must keep its bits. */
    sk_world w;
    CHECK(sk_world_init(&w, 2, 0, 1, 2));
    w.integrator = SK_INTEGRATOR_VERLET;
    w.dt = (sk_real)0.1;
    w.fixed_iterations = 1;
    w.particles[0] = test_particle(0, -0.25, 0, 0, 0, 0, 1);
    w.particles[0].q = sk_vec3_make(0, 0.25, 0);
    w.particles[1] = test_particle(1, (sk_real)-0.01, 0, 0, 0, 0, 1);
    w.particles[1].q = sk_vec3_make(1, (sk_real)-0.06, 0);
    w.count = 2;
    sk_ground_contacts g;
    CHECK(sk_world_add_contact_generator(&w, sk_ground_contacts_init(&g, w.particles, 2, 0.25, 0.5, NULL)));
    sk_world_run_physics(&w);
    CHECK(w.used_contacts == 2 && w.resolver.iterations_used == 1);
    CHECK(w.contacts[0].picked && !w.contacts[1].picked);
    CHECK(w.particles[0].p.y == (sk_real)0.25);
    sk_real p1 = (sk_real)-0.01, q1 = (sk_real)-0.06;
    CHECK_SAME_BITS(w.particles[1].q.y, p1); /* the integrator's q = old p, untouched */
    CHECK_SAME_BITS(w.particles[1].p.y, p1 + (p1 - q1));
    sk_world_free(&w);
    return 0;
}

CHECK_MAIN({"ground", ground}, {"rod", rod}, {"cable", cable}, {"rod_constraint", rod_constraint},
           {"cable_constraint", cable_constraint}, {"bounce", bounce}, {"acceleration_term", acceleration_term},
           {"two_particles", two_particles}, {"separating_and_pinned", separating_and_pinned},
           {"moves_zero_when_skipped", moves_zero_when_skipped}, {"resolver_order", resolver_order},
           {"resolver_penetration_updates", resolver_penetration_updates}, {"resolver_none", resolver_none},
           {"world_rod_chain", world_rod_chain}, {"world_verlet_q", world_verlet_q},
           {"world_verlet_q_bits", world_verlet_q_bits})
