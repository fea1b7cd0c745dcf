/* Reference engine: Cyclone's ParticleContactResolver, which resolves the most severe contact
 * first and updates the penetrations the move changed (docs/model.md section 4). */
#include "reference/reference.h"
#include "model/real_math.h"
#include "model/vec3.h"

/* Moves of the picked contact's particles change the penetration of every contact sharing them:
 * a particle on a contact's a side moving along its normal reduces the penetration, on the b side
 * increases it. The world (particle[1] NULL) never matches. */
static void update_penetrations(sk_contact *contacts, int count, const sk_contact *picked)
{
    const sk_vec3 *move = picked->movement;
    for (int i = 0; i < count; i++) {
        sk_contact *c = &contacts[i];
        if (c->particle[0] == picked->particle[0])
            c->penetration = c->penetration - sk_vec3_dot(move[0], c->normal);
        else if (c->particle[0] == picked->particle[1])
            c->penetration = c->penetration - sk_vec3_dot(move[1], c->normal);
        if (c->particle[1]) {
            if (c->particle[1] == picked->particle[0])
                c->penetration = c->penetration + sk_vec3_dot(move[0], c->normal);
            else if (c->particle[1] == picked->particle[1])
                c->penetration = c->penetration + sk_vec3_dot(move[1], c->normal);
        }
    }
}

void sk_contact_resolver_resolve(sk_contact_resolver *r, sk_contact *contacts, int count, sk_real dt)
{
    for (int i = 0; i < count; i++) {
        contacts[i].picked = false;
        contacts[i].impulse = 0;
    }
    r->iterations_used = 0;
    while (r->iterations_used < r->iterations) {
        /* The most negative separating velocity among contacts closing or overlapping; strict <
         * keeps the first index on ties. */
        sk_real best = SK_REAL_MAX;
        int picked = count;
        for (int i = 0; i < count; i++) {
            sk_real vs = sk_contact_separating_velocity(&contacts[i]);
            if (vs < best && (vs < 0 || contacts[i].penetration > 0)) {
                best = vs;
                picked = i;
            }
        }
        if (picked == count)
            break;

        sk_contact_resolve(&contacts[picked], dt);
        contacts[picked].picked = true;
        update_penetrations(contacts, count, &contacts[picked]);
        r->iterations_used++;
    }
}
