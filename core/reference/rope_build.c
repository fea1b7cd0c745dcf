/* Reference engine: the parts a rope is built from, used when it is created and whenever deployment adds
 * a particle: a particle placed in its initial state, and the force registry and contact generators for
 * the particles present, in the canonical order of a step (docs/model.md section 5). */
#include "model/ground.h"
#include "model/profile.h"
#include "model/vec3.h"
#include "reference/rope_impl.h"

static bool is_pinned(const sk_group *g, int i)
{
    for (int k = 0; k < g->n_pinned; k++)
        if (g->pinned[k] == i)
            return true;
    return false;
}

void sk_ref_rope_place(sk_ref_rope *r, int i, sk_vec3 p, sk_vec3 v)
{
    sk_particle *particle = &r->world.particles[i];
    bool pinned = is_pinned(r->group, i);
    particle->p = p;
    particle->v = pinned ? sk_vec3_zero() : v;
    particle->a = r->c.accel; /* pinned ones too: the resolver reads it */
    particle->f = sk_vec3_zero();
    particle->in_water = false;
    particle->line = NULL;
    particle->w = pinned                      ? 0
                  : r->group->has_profiles ? sk_rope_particle_constants(r->scenario, r->group, &r->params, i).w
                                           : r->c.w;
    particle->q = sk_vec3_sub(particle->p, sk_vec3_scale(particle->v, r->c.dt));
    if (r->world.integrator == SK_INTEGRATOR_VERLET)
        particle->v = sk_particle_verlet_velocity(particle, r->c.dt);
}

/* The particle the anchor holds: the tip's far end, or the newest particle of a deploying rope. */
int sk_ref_rope_held(const sk_ref_rope *r) { return r->group->deploys ? r->world.count - 1 : 0; }

void sk_ref_rope_register(sk_ref_rope *r)
{
    const sk_scenario *s = r->scenario;
    const sk_group *g = r->group;
    sk_world *w = &r->world;
    sk_force_registry *reg = &w->registry;
    int n = w->count;
    sk_particle *ps = w->particles;

    /* Forces: per particle (gravity, drag, buoyancy, the force objects), then the links in segment order, then the
     * anchor, then the hinges. The storage was sized for the capacity, so no add can fail. */
    sk_force_registry_clear(reg);
    for (int i = 0; i < n; i++) {
        if (s->gravity_as == SK_GRAVITY_FORCE)
            sk_force_registry_add(reg, &ps[i], &r->gravity.base);
        if (g->has_drag)
            sk_force_registry_add(reg, &ps[i], &r->drag.base);
        if (g->has_buoyancy)
            sk_force_registry_add(reg, &ps[i], &r->buoyancy.base);
        for (int o = 0; o < SK_FORCE_OBJECT_COUNT; o++)
            if (g->force_objects & (1u << o))
                sk_force_registry_add(reg, &ps[i], &r->objects[o].base);
        /* a deploying line's newest particle: its second link is the anchored segment, to the anchor point */
        if (g->has_line)
            sk_force_registry_add(reg, &ps[i],
                                  sk_line_force_init(&r->lines[i], i > 0 ? &ps[i - 1] : NULL, i + 1 < n ? &ps[i + 1] : NULL,
                                                     g->deploys && i + 1 == n ? &r->anchor : NULL,
                                                     sk_rope_line_share(g, &r->params, &r->c, i), &r->c, s, &r->time,
                                                     r->params.ground_friction_kinetic, &r->line_states[i]));
    }
    bool bungee = g->link == SK_LINK_BUNGEE;
    if (g->link == SK_LINK_SPRING || bungee)
        for (int i = 0; i + 1 < n; i++)
            sk_force_registry_add(reg, &ps[i],
                                  sk_spring_force_init(&r->links[i].spring, &ps[i + 1],
                                                       sk_rope_link_stiffness(g, &r->params, i),
                                                       sk_rope_link_length(g, &r->params, &r->c, i), bungee,
                                                       g->has_link_damping,
                                                       g->has_profiles ? sk_rope_link_damping(g, &r->params, &r->c, i)
                                                                       : r->c.link_c));
    sk_particle *held = &ps[sk_ref_rope_held(r)];
    if (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE)
        sk_force_registry_add(reg, held, &r->anchor_spring.base);
    else if (g->anchor == SK_ANCHOR_FAKE_SPRING)
        sk_force_registry_add(reg, held, &r->fake_spring.base);
    /* bending last: each particle's sum ends with its hinges i - 1, i, i + 1 (docs/model.md section 5) */
    if (g->has_bending)
        for (int i = 1; i + 1 < n; i++)
            sk_force_registry_add(reg, &ps[i], sk_bending_force_init(&r->hinges[i], &ps[i - 1], &ps[i + 1],
                                                                     sk_rope_hinge_kb(g, &r->params, &r->c, i)));

    /* Contacts: the links in segment order, the anchor constraint, the ground. */
    w->n_generators = 0;
    if (g->link == SK_LINK_ROD)
        for (int i = 0; i + 1 < n; i++)
            sk_world_add_contact_generator(w, sk_rod_link_init(&r->links[i].rod, &ps[i], &ps[i + 1],
                                                               sk_rope_link_length(g, &r->params, &r->c, i)));
    if (g->link == SK_LINK_CABLE)
        for (int i = 0; i + 1 < n; i++)
            sk_world_add_contact_generator(w, sk_cable_link_init(&r->links[i].cable, &ps[i], &ps[i + 1],
                                                                 sk_rope_link_length(g, &r->params, &r->c, i),
                                                                 r->params.link_restitution));
    if (g->anchor == SK_ANCHOR_ROD)
        sk_world_add_contact_generator(w, sk_rod_constraint_init(&r->rod_constraint, held, &r->anchor,
                                                                 r->params.anchor_length));
    else if (g->anchor == SK_ANCHOR_CABLE)
        sk_world_add_contact_generator(w, sk_cable_constraint_init(&r->cable_constraint, held, &r->anchor,
                                                                   r->params.anchor_length,
                                                                   r->params.anchor_restitution));
    r->friction = (sk_friction){r->params.ground_friction_static, r->params.ground_friction_kinetic};
    if (sk_scenario_rigid_ground(s))
        sk_world_add_contact_generator(w, sk_ground_contacts_init(&r->ground, ps, n, s->ground_height,
                                                                  s->ground_restitution,
                                                                  s->has_friction ? &r->friction : NULL));
}
