/* Reference engine: springs and bungees, between two particles and from a particle to an anchor
 * (docs/model.md section 3: Hooke's law as seeds 001 and 003 state it), the links with their axial damping. */
#include "reference/reference.h"
#include "model/vec3.h"

/* Registered with its end a; acts on both ends, as one two-particle spring (docs/model.md section 6). */
static void spring_update(const sk_force_generator *fg, sk_particle *a)
{
    const sk_spring_force *self = (const sk_spring_force *)fg;
    sk_particle *b = self->other;
    sk_vec3 d = sk_vec3_sub(a->p, b->p);
    sk_real length = sk_vec3_length(d);
    if (self->bungee && !(length > self->rest_length))
        return; /* a slack bungee pulls nothing */
    sk_real magnitude = (self->rest_length - length) * self->stiffness;
    sk_vec3 u = sk_vec3_unit(d);
    if (self->damped) /* dl/dt = u . (v_a - v_b), the velocities the forces see */
        magnitude = magnitude - self->damping * sk_vec3_dot(u, sk_vec3_sub(a->v, b->v));
    if (a->w != 0)
        a->f = sk_vec3_add(a->f, sk_vec3_scale(u, magnitude));
    if (b->w != 0)
        b->f = sk_vec3_add(b->f, sk_vec3_scale(u, -magnitude));
}

sk_force_generator *sk_spring_force_init(sk_spring_force *self, sk_particle *other, sk_real stiffness,
                                         sk_real rest_length, bool bungee, bool damped, sk_real damping)
{
    self->base.update = spring_update;
    self->other = other;
    self->stiffness = stiffness;
    self->rest_length = rest_length;
    self->bungee = bungee;
    self->damped = damped;
    self->damping = damping;
    return &self->base;
}

static void anchored_spring_update(const sk_force_generator *fg, sk_particle *particle)
{
    const sk_anchored_spring_force *self = (const sk_anchored_spring_force *)fg;
    if (particle->w == 0)
        return;
    sk_vec3 d = sk_vec3_sub(particle->p, *self->anchor);
    sk_real length = sk_vec3_length(d);
    if (self->bungee && !(length > self->rest_length))
        return;
    sk_real magnitude = (self->rest_length - length) * self->stiffness;
    particle->f = sk_vec3_add(particle->f, sk_vec3_scale(sk_vec3_unit(d), magnitude));
}

sk_force_generator *sk_anchored_spring_force_init(sk_anchored_spring_force *self, const sk_vec3 *anchor,
                                                  sk_real stiffness, sk_real rest_length, bool bungee)
{
    self->base.update = anchored_spring_update;
    self->anchor = anchor;
    self->stiffness = stiffness;
    self->rest_length = rest_length;
    self->bungee = bungee;
    return &self->base;
}
