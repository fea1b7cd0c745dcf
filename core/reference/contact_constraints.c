/* Reference engine: a particle tied to the anchor point as a contact generator, rod and cable
 * constraints (Cyclone's ParticleRodConstraint and ParticleCableConstraint, docs/model.md section 4).
 * The anchor is the static world: its own motion does not enter the separating velocity. */
#include "reference/reference.h"
#include "model/vec3.h"

static void contact_to_anchor(sk_contact *contact, sk_particle *particle, sk_vec3 anchor)
{
    contact->particle[0] = particle;
    contact->particle[1] = NULL;
    contact->normal = sk_vec3_unit(sk_vec3_sub(anchor, particle->p));
}

static int rod_constraint_add_contact(const sk_contact_generator *cg, sk_contact *contact, int limit)
{
    const sk_rod_constraint *self = (const sk_rod_constraint *)cg;
    if (limit < 1 || self->particle->w == 0)
        return 0;
    sk_real length = sk_vec3_length(sk_vec3_sub(self->particle->p, *self->anchor));
    if (length == self->length)
        return 0;
    contact_to_anchor(contact, self->particle, *self->anchor);
    contact->pushes = !(length > self->length);
    if (length > self->length) {
        contact->penetration = length - self->length;
    } else {
        contact->normal = sk_vec3_scale(contact->normal, -1);
        contact->penetration = self->length - length;
    }
    contact->restitution = 0;
    contact->friction = NULL;
    return 1;
}

sk_contact_generator *sk_rod_constraint_init(sk_rod_constraint *self, sk_particle *particle,
                                             const sk_vec3 *anchor, sk_real length)
{
    self->base.add_contact = rod_constraint_add_contact;
    self->particle = particle;
    self->anchor = anchor;
    self->length = length;
    return &self->base;
}

static int cable_constraint_add_contact(const sk_contact_generator *cg, sk_contact *contact, int limit)
{
    const sk_cable_constraint *self = (const sk_cable_constraint *)cg;
    if (limit < 1 || self->particle->w == 0)
        return 0;
    sk_real length = sk_vec3_length(sk_vec3_sub(self->particle->p, *self->anchor));
    if (length < self->max_length)
        return 0;
    contact_to_anchor(contact, self->particle, *self->anchor);
    contact->pushes = false;
    contact->penetration = length - self->max_length;
    contact->restitution = self->restitution;
    contact->friction = NULL;
    return 1;
}

sk_contact_generator *sk_cable_constraint_init(sk_cable_constraint *self, sk_particle *particle,
                                               const sk_vec3 *anchor, sk_real max_length,
                                               sk_real restitution)
{
    self->base.add_contact = cable_constraint_add_contact;
    self->particle = particle;
    self->anchor = anchor;
    self->max_length = max_length;
    self->restitution = restitution;
    return &self->base;
}
