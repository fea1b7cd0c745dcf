/* Reference engine: the per-particle force generators, gravity, drag and buoyancy (docs/model.md section 3). */
#include "reference/reference.h"
#include "model/vec3.h"

static void gravity_update(const sk_force_generator *fg, sk_particle *particle)
{
    const sk_gravity_force *self = (const sk_gravity_force *)fg;
    if (particle->w == 0)
        return;
    particle->f = sk_vec3_add(particle->f, sk_vec3_scale(self->gravity, sk_particle_mass(particle)));
}

sk_force_generator *sk_gravity_force_init(sk_gravity_force *self, sk_vec3 gravity)
{
    self->base.update = gravity_update;
    self->gravity = gravity;
    return &self->base;
}

static void drag_update(const sk_force_generator *fg, sk_particle *particle)
{
    const sk_drag_force *self = (const sk_drag_force *)fg;
    if (particle->w == 0)
        return;
    sk_vec3 v = particle->v;
    if (self->flow) /* relative to the fluid at the particle's height: u(y) = velocity + gradient y */
        v = sk_vec3_sub(v, sk_vec3_add(self->flow_velocity, sk_vec3_scale(self->flow_gradient, particle->p.y)));
    sk_real speed = sk_vec3_length(v);
    sk_real c = self->k1 * speed + (self->k2 * speed) * speed;
    particle->f = sk_vec3_add(particle->f, sk_vec3_scale(sk_vec3_unit(v), -c));
}

sk_force_generator *sk_drag_force_init(sk_drag_force *self, sk_real k1, sk_real k2, bool flow, sk_vec3 flow_velocity,
                                       sk_vec3 flow_gradient)
{
    self->base.update = drag_update;
    self->k1 = k1;
    self->k2 = k2;
    self->flow = flow;
    self->flow_velocity = flow_velocity;
    self->flow_gradient = flow_gradient;
    return &self->base;
}

/* Upward force rho V times the submerged fraction: 0 at y >= h + m, 1 at y <= h - m, linear between
 * (Cyclone's buoyancy points down in that band; docs/model.md section 3 says why skein does not). */
static void buoyancy_update(const sk_force_generator *fg, sk_particle *particle)
{
    const sk_buoyancy_force *self = (const sk_buoyancy_force *)fg;
    if (particle->w == 0)
        return;
    sk_real y = particle->p.y;
    sk_real submerged = ((self->water_height + self->max_depth) - y) / ((sk_real)2 * self->max_depth);
    if (submerged < 0)
        submerged = 0;
    if (submerged > 1)
        submerged = 1;
    /* Added also when the fraction is 0, so that the sum is the same operation in every engine. */
    particle->f.y = particle->f.y + (self->density * self->volume) * submerged;
}

sk_force_generator *sk_buoyancy_force_init(sk_buoyancy_force *self, sk_real water_height,
                                           sk_real max_depth, sk_real density, sk_real volume)
{
    self->base.update = buoyancy_update;
    self->water_height = water_height;
    self->max_depth = max_depth;
    self->density = density;
    self->volume = volume;
    return &self->base;
}
