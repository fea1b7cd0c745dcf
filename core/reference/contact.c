/* Reference engine: resolving one contact, velocity then interpenetration (Cyclone's
 * ParticleContact, docs/model.md section 4). */
#include "reference/reference.h"
#include "model/vec3.h"

sk_real sk_contact_separating_velocity(const sk_contact *c)
{
    sk_vec3 relative = c->particle[0]->v;
    if (c->particle[1])
        relative = sk_vec3_sub(relative, c->particle[1]->v);
    return sk_vec3_dot(relative, c->normal);
}

static sk_real total_inverse_mass(const sk_contact *c)
{
    sk_real total = c->particle[0]->w;
    if (c->particle[1])
        total = total + c->particle[1]->w;
    return total;
}

static void resolve_velocity(sk_contact *c, sk_real dt)
{
    sk_real separating = sk_contact_separating_velocity(c);
    if (separating > 0)
        return; /* separating or at rest: no impulse needed */
    sk_real total = total_inverse_mass(c);
    if (total <= 0)
        return;

    sk_real new_separating = -separating * c->restitution;
    /* The closing velocity built up by the acceleration fields in this very step is not bounced
     * back: that is what lets a resting particle stay at rest instead of jittering. */
    sk_vec3 acc = c->particle[0]->a;
    if (c->particle[1])
        acc = sk_vec3_sub(acc, c->particle[1]->a);
    sk_real acc_separating = sk_vec3_dot(acc, c->normal) * dt;
    if (acc_separating < 0) {
        new_separating = new_separating + c->restitution * acc_separating;
        if (new_separating < 0)
            new_separating = 0;
    }

    sk_real impulse = (new_separating - separating) / total;
    c->impulse = c->impulse + impulse;
    sk_vec3 impulse_per_w = sk_vec3_scale(c->normal, impulse);
    sk_particle *a = c->particle[0], *b = c->particle[1];
    a->v = sk_vec3_add(a->v, sk_vec3_scale(impulse_per_w, a->w));
    if (b)
        b->v = sk_vec3_add(b->v, sk_vec3_scale(impulse_per_w, -b->w));
    if (c->friction) /* the ground's: the normal velocity change is the y component just added */
        sk_contact_friction(a, c->friction, impulse * a->w);
}

static void resolve_interpenetration(sk_contact *c)
{
    /* Zero moves when skipped, so the resolver's penetration updates see no movement (Cyclone
     * would reuse a stale one: docs/model.md section 3). */
    c->movement[0] = sk_vec3_zero();
    c->movement[1] = sk_vec3_zero();
    if (c->penetration <= 0)
        return;
    sk_real total = total_inverse_mass(c);
    if (total <= 0)
        return;

    sk_vec3 move_per_w = sk_vec3_scale(c->normal, c->penetration / total);
    sk_particle *a = c->particle[0], *b = c->particle[1];
    c->movement[0] = sk_vec3_scale(move_per_w, a->w);
    a->p = sk_vec3_add(a->p, c->movement[0]);
    if (b) {
        c->movement[1] = sk_vec3_scale(move_per_w, -b->w);
        b->p = sk_vec3_add(b->p, c->movement[1]);
    }
}

void sk_contact_resolve(sk_contact *c, sk_real dt)
{
    resolve_velocity(c, dt);
    resolve_interpenetration(c);
}
