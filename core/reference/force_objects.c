/* Reference engine: the forces of a group's force objects (model/force_objects.h; docs/model.md
 * section 3.8), each a function of the rope's parameters and the particle, and its potential energy for the
 * statics' line search. A new force object is its two functions and its entry in `objects` below. */
#include "base/assert.h"
#include "model/vec3.h"
#include "reference/rope_impl.h"

/* "wind": the same force F on every particle; its potential -F . x. */
static void wind_update(const sk_rope_params *rp, sk_particle *particle)
{
    particle->f = sk_vec3_add(particle->f, rp->wind_force);
}

static sk_real wind_potential(const sk_rope_params *rp, const sk_particle *particle)
{
    return -sk_vec3_dot(rp->wind_force, particle->p);
}

typedef struct object_force {
    void (*update)(const sk_rope_params *rp, sk_particle *particle);
    sk_real (*potential)(const sk_rope_params *rp, const sk_particle *particle);
} object_force;

static const object_force objects[SK_FORCE_OBJECT_COUNT] = {
    [SK_FORCE_WIND] = {wind_update, wind_potential},
};

static void object_update(const sk_force_generator *fg, sk_particle *particle)
{
    const sk_object_force *self = (const sk_object_force *)fg;
    objects[self->object].update(self->params, particle);
}

sk_force_generator *sk_object_force_init(sk_object_force *self, int object, const sk_rope_params *params)
{
    SK_ASSERT(object >= 0 && object < SK_FORCE_OBJECT_COUNT && objects[object].update && objects[object].potential);
    self->base.update = object_update;
    self->object = object;
    self->params = params;
    return &self->base;
}

sk_real sk_object_force_potential(const sk_rope_params *rp, unsigned force_objects, const sk_particle *particle)
{
    sk_real u = 0;
    for (int o = 0; o < SK_FORCE_OBJECT_COUNT; o++)
        if (force_objects & (1u << o))
            u = u + objects[o].potential(rp, particle);
    return u;
}
