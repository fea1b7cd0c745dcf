/* Reference engine: bending stiffness, one three-particle generator per hinge (docs/model.md section 3.4). */
#include "model/bending.h"
#include "reference/reference.h"

/* Registered with the hinge's middle particle; acts on it and both neighbours (pinned ones skipped). */
static void bending_update(const sk_force_generator *fg, sk_particle *b)
{
    const sk_bending_force *self = (const sk_bending_force *)fg;
    sk_particle *a = self->prev, *c = self->next;
    sk_hinge h = sk_hinge_eval(self->kb, a->p, b->p, c->p);
    if (a->w != 0)
        a->f = sk_vec3_add(a->f, h.fa);
    if (b->w != 0)
        b->f = sk_vec3_add(b->f, sk_hinge_middle(&h));
    if (c->w != 0)
        c->f = sk_vec3_add(c->f, h.fc);
}

sk_force_generator *sk_bending_force_init(sk_bending_force *self, sk_particle *prev, sk_particle *next, sk_real kb)
{
    self->base.update = bending_update;
    self->prev = prev;
    self->next = next;
    self->kb = kb;
    return &self->base;
}
