/* Reference engine: the force registry, (particle, generator) pairs applied in the order they were
 * registered (seed 001 asks for it, seed 002's ParticleForceRegistry is it). */
#include <stdlib.h>

#include "reference/reference.h"

bool sk_force_registry_init(sk_force_registry *r, int capacity)
{
    r->count = 0;
    r->capacity = capacity;
    r->entries = capacity > 0 ? malloc((size_t)capacity * sizeof *r->entries) : NULL;
    return capacity <= 0 || r->entries != NULL;
}

void sk_force_registry_free(sk_force_registry *r)
{
    free(r->entries);
    r->entries = NULL;
    r->count = r->capacity = 0;
}

bool sk_force_registry_add(sk_force_registry *r, sk_particle *particle, const sk_force_generator *fg)
{
    if (r->count >= r->capacity)
        return false;
    r->entries[r->count].particle = particle;
    r->entries[r->count].fg = fg;
    r->count++;
    return true;
}

void sk_force_registry_clear(sk_force_registry *r) { r->count = 0; }

void sk_force_registry_update(const sk_force_registry *r)
{
    for (int i = 0; i < r->count; i++)
        r->entries[i].fg->update(r->entries[i].fg, r->entries[i].particle);
}
