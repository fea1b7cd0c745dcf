/* Reference engine: the ground plane y = height as a contact generator, one contact per particle
 * below it, in particle order (docs/model.md section 4). */
#include "reference/reference.h"
#include "model/vec3.h"

static int ground_add_contact(const sk_contact_generator *cg, sk_contact *contact, int limit)
{
    const sk_ground_contacts *self = (const sk_ground_contacts *)cg;
    int used = 0;
    for (int i = 0; i < self->count && used < limit; i++) {
        sk_particle *particle = &self->particles[i];
        if (particle->w == 0 || !(particle->p.y < self->height))
            continue;
        contact[used].particle[0] = particle;
        contact[used].particle[1] = NULL;
        contact[used].normal = sk_vec3_make(0, 1, 0);
        contact[used].penetration = self->height - particle->p.y;
        contact[used].restitution = self->restitution;
        contact[used].friction = self->friction;
        contact[used].pushes = false;
        used++;
    }
    return used;
}

sk_contact_generator *sk_ground_contacts_init(sk_ground_contacts *self, sk_particle *particles, int count,
                                              sk_real height, sk_real restitution, const sk_friction *friction)
{
    self->base.add_contact = ground_add_contact;
    self->particles = particles;
    self->count = count;
    self->height = height;
    self->restitution = restitution;
    self->friction = friction;
    return &self->base;
}
