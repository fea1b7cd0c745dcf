/* Reference engine: the world that runs one step of its particles (Cyclone's ParticleWorld:
 * forces, integration, contact generation, resolution; docs/model.md section 5). */
#include <stdlib.h>

#include "reference/reference.h"
#include "model/vec3.h"

bool sk_world_init(sk_world *w, int capacity, int max_registrations, int max_generators,
                   int max_contacts)
{
    *w = (sk_world){0};
    w->capacity = capacity;
    w->max_generators = max_generators;
    w->max_contacts = max_contacts;
    w->particles = calloc((size_t)(capacity > 0 ? capacity : 1), sizeof *w->particles);
    w->generators = calloc((size_t)(max_generators > 0 ? max_generators : 1), sizeof *w->generators);
    w->contacts = calloc((size_t)(max_contacts > 0 ? max_contacts : 1), sizeof *w->contacts);
    bool ok = sk_force_registry_init(&w->registry, max_registrations);
    if (!ok || !w->particles || !w->generators || !w->contacts) {
        sk_world_free(w);
        return false;
    }
    w->damp = 1;
    w->verlet_keep = 1;
    return true;
}

void sk_world_free(sk_world *w)
{
    free(w->particles);
    free(w->generators);
    free(w->contacts);
    sk_force_registry_free(&w->registry);
    *w = (sk_world){0};
}

bool sk_world_add_contact_generator(sk_world *w, const sk_contact_generator *cg)
{
    if (w->n_generators >= w->max_generators)
        return false;
    w->generators[w->n_generators++] = cg;
    return true;
}

void sk_world_refresh_velocities(sk_world *w)
{
    if (w->integrator != SK_INTEGRATOR_VERLET)
        return;
    for (int i = 0; i < w->count; i++)
        w->particles[i].v = sk_particle_verlet_velocity(&w->particles[i], w->dt);
}

/* Every generator in registration order adds its contacts, until the storage is full. */
int sk_world_generate_contacts(sk_world *w)
{
    int limit = w->max_contacts;
    sk_contact *next = w->contacts;
    for (int g = 0; g < w->n_generators && limit > 0; g++) {
        int used = w->generators[g]->add_contact(w->generators[g], next, limit);
        limit -= used;
        next += used;
    }
    return w->max_contacts - limit;
}

void sk_world_apply_forces(sk_world *w)
{
    for (int i = 0; i < w->count; i++)
        w->particles[i].f = sk_vec3_zero();
    sk_force_registry_update(&w->registry);
}

void sk_world_integrate(sk_world *w)
{
    sk_world_apply_forces(w);
    for (int i = 0; i < w->count; i++)
        sk_particle_integrate(&w->particles[i], w->integrator, w->dt, w->damp, w->verlet_keep);
}

void sk_world_run_physics(sk_world *w)
{
    sk_world_integrate(w);
    sk_world_resolve_contacts(w);
}

void sk_world_resolve_contacts(sk_world *w)
{
    /* Verlet keeps no velocity of its own: the contacts work on (p - q) / dt. */
    sk_world_refresh_velocities(w);
    w->used_contacts = sk_world_generate_contacts(w);
    w->resolver.iterations_used = 0;
    if (w->used_contacts > 0) {
        w->resolver.iterations = w->fixed_iterations > 0 ? w->fixed_iterations : 2 * w->used_contacts;
        sk_contact_resolver_resolve(&w->resolver, w->contacts, w->used_contacts, w->dt);
    }

    if (w->integrator == SK_INTEGRATOR_VERLET) {
        /* Only particles a resolution touched get a new q; the others keep their bits. */
        for (int c = 0; c < w->used_contacts; c++) {
            const sk_contact *contact = &w->contacts[c];
            if (!contact->picked)
                continue;
            for (int k = 0; k < 2; k++) {
                sk_particle *p = contact->particle[k];
                if (p)
                    p->q = sk_vec3_sub(p->p, sk_vec3_scale(p->v, w->dt));
            }
        }
        sk_world_refresh_velocities(w);
    }
}
