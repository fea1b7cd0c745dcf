/* Reference engine: the four integrators of docs/model.md section 2 against values worked out by hand. */
#include "scenario/scenario.h"
#include "reference_check.h"

/* p = (1, 2, 3), v = (1, 0, 0), a = (0, -10, 0), f = (2, 0, 0), w = 0.5: A = a + w f = (1, -10, 0). */
static sk_particle moving(void)
{
    sk_particle p = test_particle(1, 2, 3, 1, 0, 0, 0.5);
    p.a = sk_vec3_make(0, -10, 0);
    p.f = sk_vec3_make(2, 0, 0);
    return p;
}

static int cyclone(void)
{
    /* dt = 0.5: p += v dt -> (1.5, 2, 3); v += A dt -> (1.5, -5, 0); v *= 0.5 -> (0.75, -2.5, 0) */
    sk_particle p = moving();
    sk_particle_integrate(&p, SK_INTEGRATOR_CYCLONE, 0.5, 0.5, 1);
    CHECK_VEC_EQ(p.p, 1.5, 2, 3);
    CHECK_VEC_EQ(p.v, 0.75, -2.5, 0);
    CHECK_VEC_EQ(p.f, 2, 0, 0); /* the world clears the accumulator, not the integrator */
    return 0;
}

static int euler(void)
{
    /* seed 003's explicit Euler is Cyclone's update */
    sk_particle p = moving();
    sk_particle_integrate(&p, SK_INTEGRATOR_EULER, 0.5, 1, 1);
    CHECK_VEC_EQ(p.p, 1.5, 2, 3);
    CHECK_VEC_EQ(p.v, 1.5, -5, 0);
    return 0;
}

static int symplectic(void)
{
    /* v += A dt -> (1.5, -5, 0); v *= 0.5 -> (0.75, -2.5, 0); p += v dt -> (1.375, 0.75, 3) */
    sk_particle p = moving();
    sk_particle_integrate(&p, SK_INTEGRATOR_SYMPLECTIC, 0.5, 0.5, 1);
    CHECK_VEC_EQ(p.v, 0.75, -2.5, 0);
    CHECK_VEC_EQ(p.p, 1.375, 0.75, 3);
    return 0;
}

static int verlet(void)
{
    /* p = (1, 0, 0), q = (0.5, 0, 0), A = (0, -8, 0) + 0.5 (0, 4, 0) = (0, -6, 0), dt = 0.5:
     * keep 1: p = (1, 0, 0) + (0.5, 0, 0) + (0, -6 * 0.25, 0) = (1.5, -1.5, 0); q = (1, 0, 0)
     * keep 0.5: p.x = 1 + 0.25 = 1.25 */
    sk_particle p = test_particle(1, 0, 0, 0, 0, 0, 0.5);
    p.q = sk_vec3_make(0.5, 0, 0);
    p.a = sk_vec3_make(0, -8, 0);
    p.f = sk_vec3_make(0, 4, 0);
    sk_particle damped = p;
    sk_particle_integrate(&p, SK_INTEGRATOR_VERLET, 0.5, 1, 1);
    CHECK_VEC_EQ(p.p, 1.5, -1.5, 0);
    CHECK_VEC_EQ(p.q, 1, 0, 0);
    CHECK_VEC_EQ(sk_particle_verlet_velocity(&p, 0.5), 1, -3, 0); /* (p - q) / dt */
    sk_particle_integrate(&damped, SK_INTEGRATOR_VERLET, 0.5, 1, 0.5);
    CHECK_VEC_EQ(damped.p, 1.25, -1.5, 0);
    return 0;
}

static int pinned(void)
{
    const sk_integrator all[4] = {SK_INTEGRATOR_CYCLONE, SK_INTEGRATOR_EULER, SK_INTEGRATOR_SYMPLECTIC,
                                  SK_INTEGRATOR_VERLET};
    for (int i = 0; i < 4; i++) {
        sk_particle p = moving();
        p.w = 0;
        p.v = sk_vec3_zero();
        p.q = sk_vec3_make(0, 0, 7);
        sk_particle before = p;
        sk_particle_integrate(&p, all[i], 0.5, 0.5, 1);
        CHECK(memcmp(&p, &before, sizeof p) == 0); /* field, force and all: nothing moves */
    }
    return 0;
}

static int mass_read_back(void)
{
    sk_particle p = test_particle(0, 0, 0, 0, 0, 0, 0.25);
    CHECK(sk_particle_mass(&p) == 4);
    return 0;
}

CHECK_MAIN({"cyclone", cyclone}, {"euler", euler}, {"symplectic", symplectic}, {"verlet", verlet},
           {"pinned", pinned}, {"mass_read_back", mass_read_back})
