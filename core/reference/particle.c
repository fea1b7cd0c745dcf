/* Reference engine: a particle's mass and its four integrators (docs/model.md sections 1-2). */
#include "base/assert.h"
#include "reference/reference.h"
#include "model/vec3.h"

sk_real sk_particle_mass(const sk_particle *p) { return (sk_real)1 / p->w; }

sk_vec3 sk_particle_verlet_velocity(const sk_particle *p, sk_real dt)
{
    return sk_vec3_div(sk_vec3_sub(p->p, p->q), dt);
}

void sk_particle_integrate(sk_particle *p, sk_integrator integrator, sk_real dt, sk_real damp,
                           sk_real verlet_keep)
{
    /* Infinite mass: forces, integration and contacts never move it (seed 002). */
    if (p->w <= 0)
        return;

    /* a line's particle in water: its mass matrix with the added mass (model/line_water.h) */
    sk_vec3 acc = p->in_water ? sk_line_acceleration(p->line, p->a, sk_particle_mass(p), p->f)
                              : sk_vec3_add(p->a, sk_vec3_scale(p->f, p->w));
    switch (integrator) {
    case SK_INTEGRATOR_CYCLONE: /* Particle::integrate of seed 002 */
    case SK_INTEGRATOR_EULER:   /* seed 003's explicit Euler: the same update */
        p->p = sk_vec3_add(p->p, sk_vec3_scale(p->v, dt));
        p->v = sk_vec3_add(p->v, sk_vec3_scale(acc, dt));
        p->v = sk_vec3_scale(p->v, damp);
        break;
    case SK_INTEGRATOR_SYMPLECTIC: /* seed 003's semi-implicit Euler: the new velocity moves it */
        p->v = sk_vec3_add(p->v, sk_vec3_scale(acc, dt));
        p->v = sk_vec3_scale(p->v, damp);
        p->p = sk_vec3_add(p->p, sk_vec3_scale(p->v, dt));
        break;
    case SK_INTEGRATOR_IMPLICIT: /* a system of the whole rope, solved by reference/implicit.c */
        SK_ASSERT(!"the implicit integrator steps whole ropes");
        break;
    case SK_INTEGRATOR_VERLET: { /* seed 003, left to right as it writes it */
        sk_vec3 previous = p->p;
        p->p = sk_vec3_add(p->p, sk_vec3_scale(sk_vec3_sub(p->p, p->q), verlet_keep));
        p->p = sk_vec3_add(p->p, sk_vec3_scale(sk_vec3_scale(acc, dt), dt));
        p->q = previous;
        break;
    }
    }
}
