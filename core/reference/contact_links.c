/* Reference engine: links between two particles as contact generators, rods and cables
 * (Cyclone's ParticleRod and ParticleCable, docs/model.md section 4). */
#include "reference/reference.h"
#include "model/vec3.h"

static sk_real link_length(sk_particle *const particle[2])
{
    return sk_vec3_length(sk_vec3_sub(particle[0]->p, particle[1]->p));
}

static void contact_between(sk_contact *contact, sk_particle *const particle[2])
{
    contact->particle[0] = particle[0];
    contact->particle[1] = particle[1];
    contact->normal = sk_vec3_unit(sk_vec3_sub(particle[1]->p, particle[0]->p));
}

static int rod_add_contact(const sk_contact_generator *cg, sk_contact *contact, int limit)
{
    const sk_rod_link *self = (const sk_rod_link *)cg;
    if (limit < 1 || (self->particle[0]->w == 0 && self->particle[1]->w == 0))
        return 0;
    sk_real length = link_length(self->particle);
    if (length == self->length)
        return 0;
    contact_between(contact, self->particle);
    contact->pushes = !(length > self->length);
    if (length > self->length) { /* too long: pull together */
        contact->penetration = length - self->length;
    } else { /* too short: push apart */
        contact->normal = sk_vec3_scale(contact->normal, -1);
        contact->penetration = self->length - length;
    }
    contact->restitution = 0;
    contact->friction = NULL;
    return 1;
}

sk_contact_generator *sk_rod_link_init(sk_rod_link *self, sk_particle *a, sk_particle *b, sk_real length)
{
    self->base.add_contact = rod_add_contact;
    self->particle[0] = a;
    self->particle[1] = b;
    self->length = length;
    return &self->base;
}

static int cable_add_contact(const sk_contact_generator *cg, sk_contact *contact, int limit)
{
    const sk_cable_link *self = (const sk_cable_link *)cg;
    if (limit < 1 || (self->particle[0]->w == 0 && self->particle[1]->w == 0))
        return 0;
    sk_real length = link_length(self->particle);
    if (length < self->max_length)
        return 0; /* slack */
    contact_between(contact, self->particle);
    contact->pushes = false;
    contact->penetration = length - self->max_length;
    contact->restitution = self->restitution;
    contact->friction = NULL;
    return 1;
}

sk_contact_generator *sk_cable_link_init(sk_cable_link *self, sk_particle *a, sk_particle *b,
                                         sk_real max_length, sk_real restitution)
{
    self->base.add_contact = cable_add_contact;
    self->particle[0] = a;
    self->particle[1] = b;
    self->max_length = max_length;
    self->restitution = restitution;
    return &self->base;
}
