/* Reference engine: a line in water and on a compliant seabed, one generator per particle of the line
 * (docs/model.md sections 3.6 and 3.7; the arithmetic is model/line_water.h's). */
#include "model/ground.h"
#include "model/water_flow.h"
#include "reference/reference.h"

/* The unit vector from a to b (the zero vector where they coincide). */
static sk_vec3 link_unit(const sk_particle *a, const sk_particle *b) { return sk_vec3_unit(sk_vec3_sub(b->p, a->p)); }

static void line_update(const sk_force_generator *fg, sk_particle *particle)
{
    const sk_line_force *self = (const sk_line_force *)fg;
    if (particle->w == 0)
        return;
    particle->line = self->state;
    if (self->water) {
        const sk_vec3 prev = self->prev ? link_unit(self->prev, particle) : sk_vec3_zero();
        const sk_vec3 next = self->next         ? link_unit(particle, self->next)
                             : self->next_point ? sk_vec3_unit(sk_vec3_sub(*self->next_point, particle->p))
                                                : sk_vec3_zero();
        sk_vec3 u, a;
        sk_water_flow(&self->scenario->water, particle->p, *self->time, &u, &a);
        particle->f = sk_vec3_add(particle->f, sk_line_water_force(self->c, self->share, sk_line_tangent(prev, next),
                                                                   particle->p, particle->v, u, a,
                                                                   sk_particle_mass(particle), self->state));
        particle->in_water = true;
    }
    if (self->seabed)
        particle->f = sk_line_seabed_force(self->c, self->share, self->scenario->ground_height, self->friction,
                                           self->mu_k, particle->p, particle->v, particle->f, self->state);
}

sk_force_generator *sk_line_force_init(sk_line_force *self, const sk_particle *prev, const sk_particle *next,
                                       const sk_vec3 *next_point, sk_real share, const sk_rope_constants *c,
                                       const sk_scenario *s, const sk_real *time, sk_real mu_k,
                                       sk_line_inertia *state)
{
    self->state = state;
    self->base.update = line_update;
    self->prev = prev;
    self->next = next;
    self->next_point = next_point;
    self->share = share;
    self->c = c;
    self->scenario = s;
    self->time = time;
    self->mu_k = mu_k;
    self->water = s->water.present;
    self->seabed = sk_scenario_compliant_ground(s);
    self->friction = self->seabed && s->has_friction;
    return &self->base;
}
