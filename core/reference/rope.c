/* Reference engine: one rope of a scenario as a world of particles and generators, and its step
 * (SPEC.md sections 5-7). */
#include <stdlib.h>

#include "reference/rope_impl.h"
#include "model/vec3.h"

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
    particle->w = pinned ? 0 : r->c.w;
    particle->q = sk_vec3_sub(particle->p, sk_vec3_scale(particle->v, r->c.dt));
    if (r->world.integrator == SK_INTEGRATOR_VERLET)
        particle->v = sk_particle_verlet_velocity(particle, r->c.dt);
}

/* The particle the anchor holds: the tip's far end, or the newest particle of a deploying rope. */
static int held_index(const sk_ref_rope *r) { return r->group->deploys ? r->world.count - 1 : 0; }

void sk_ref_rope_register(sk_ref_rope *r)
{
    const sk_scenario *s = r->scenario;
    const sk_group *g = r->group;
    sk_world *w = &r->world;
    sk_force_registry *reg = &w->registry;
    int n = w->count;
    sk_particle *ps = w->particles;

    /* Forces: per particle (gravity, drag, buoyancy), then the links in segment order, then the
     * anchor. The storage was sized for the capacity, so no add can fail. */
    sk_force_registry_clear(reg);
    for (int i = 0; i < n; i++) {
        if (s->gravity_as == SK_GRAVITY_FORCE)
            sk_force_registry_add(reg, &ps[i], &r->gravity.base);
        if (g->has_drag)
            sk_force_registry_add(reg, &ps[i], &r->drag.base);
        if (g->has_buoyancy)
            sk_force_registry_add(reg, &ps[i], &r->buoyancy.base);
    }
    sk_real link_length = r->c.link_length;
    bool bungee = g->link == SK_LINK_BUNGEE;
    if (g->link == SK_LINK_SPRING || bungee)
        for (int i = 0; i + 1 < n; i++)
            sk_force_registry_add(reg, &ps[i],
                                  sk_spring_force_init(&r->links[i].spring, &ps[i + 1], r->params.link_stiffness,
                                                       link_length, bungee));
    sk_particle *held = &ps[held_index(r)];
    if (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE)
        sk_force_registry_add(reg, held, &r->anchor_spring.base);
    else if (g->anchor == SK_ANCHOR_FAKE_SPRING)
        sk_force_registry_add(reg, held, &r->fake_spring.base);

    /* Contacts: the links in segment order, the anchor constraint, the ground. */
    w->n_generators = 0;
    if (g->link == SK_LINK_ROD)
        for (int i = 0; i + 1 < n; i++)
            sk_world_add_contact_generator(w, sk_rod_link_init(&r->links[i].rod, &ps[i], &ps[i + 1], link_length));
    if (g->link == SK_LINK_CABLE)
        for (int i = 0; i + 1 < n; i++)
            sk_world_add_contact_generator(w, sk_cable_link_init(&r->links[i].cable, &ps[i], &ps[i + 1], link_length,
                                                                 r->params.link_restitution));
    if (g->anchor == SK_ANCHOR_ROD)
        sk_world_add_contact_generator(w, sk_rod_constraint_init(&r->rod_constraint, held, &r->anchor,
                                                                 r->params.anchor_length));
    else if (g->anchor == SK_ANCHOR_CABLE)
        sk_world_add_contact_generator(w, sk_cable_constraint_init(&r->cable_constraint, held, &r->anchor,
                                                                   r->params.anchor_length,
                                                                   r->params.anchor_restitution));
    if (s->has_ground)
        sk_world_add_contact_generator(w, sk_ground_contacts_init(&r->ground, ps, n, s->ground_height,
                                                                  s->ground_restitution));
}

sk_ref_rope *sk_ref_rope_create(const sk_scenario *s, int group, size_t rope)
{
    const sk_group *g = &s->groups[group];
    sk_ref_rope *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->scenario = s;
    r->group = g;
    sk_group_rope_params(g, rope, &r->params);
    sk_rope_constants_compute(s, g, &r->params, &r->c);

    /* Everything is allocated once at the capacity (seed 000 uses static arrays): per particle up
     * to three per-particle forces and a link, plus the anchor; links, anchor and ground contacts. */
    int capacity = g->particles;
    r->links = calloc((size_t)capacity, sizeof *r->links);
    if (!r->links || !sk_world_init(&r->world, capacity, 4 * capacity + 1, capacity + 1, 2 * capacity + 1)) {
        free(r->links);
        free(r);
        return NULL;
    }
    sk_world *w = &r->world;
    w->integrator = s->integrator;
    w->dt = r->c.dt;
    w->damp = r->c.damp;
    w->verlet_keep = r->c.verlet_keep;
    w->fixed_iterations = s->iterations;

    r->anchor = sk_anchor_position(g, &r->params, 0);
    r->deploy_rest = r->params.anchor_length;
    sk_gravity_force_init(&r->gravity, s->gravity);
    sk_drag_force_init(&r->drag, r->params.drag_k1, r->params.drag_k2);
    sk_buoyancy_force_init(&r->buoyancy, r->params.buoyancy_water_height, r->params.buoyancy_max_depth,
                           r->params.buoyancy_density, r->params.buoyancy_volume);
    sk_anchored_spring_force_init(&r->anchor_spring, &r->anchor, r->params.anchor_stiffness,
                                  r->params.anchor_length, g->anchor == SK_ANCHOR_BUNGEE);
    sk_fake_spring_force_init(&r->fake_spring, &r->anchor, &r->c);

    int n0 = g->deploys ? g->deploy_initial : g->particles;
    for (int i = 0; i < n0; i++)
        sk_ref_rope_place(r, i, sk_rope_layout_position(&r->params, i, n0), r->params.velocity);
    w->count = n0;
    sk_ref_rope_register(r);
    return r;
}

void sk_ref_rope_destroy(sk_ref_rope *r)
{
    if (!r)
        return;
    sk_world_free(&r->world);
    free(r->links);
    free(r);
}

void sk_ref_rope_step(sk_ref_rope *r)
{
    r->anchor = sk_anchor_position(r->group, &r->params, (sk_real)r->steps * r->c.dt);
    if (r->group->deploys)
        sk_ref_rope_deploy(r);
    sk_world_run_physics(&r->world);
    r->steps++;
}

void sk_ref_rope_advance(sk_ref_rope *r, long steps)
{
    for (long k = 0; k < steps; k++)
        sk_ref_rope_step(r);
}

long sk_ref_rope_steps(const sk_ref_rope *r) { return r->steps; }

sk_real sk_ref_rope_time(const sk_ref_rope *r) { return (sk_real)r->steps * r->c.dt; }

int sk_ref_rope_count(const sk_ref_rope *r) { return r->world.count; }

const sk_particle *sk_ref_rope_particle(const sk_ref_rope *r, int i) { return &r->world.particles[i]; }

sk_vec3 sk_ref_rope_position(const sk_ref_rope *r, int i) { return r->world.particles[i].p; }

sk_vec3 sk_ref_rope_velocity(const sk_ref_rope *r, int i)
{
    const sk_particle *p = &r->world.particles[i];
    return r->world.integrator == SK_INTEGRATOR_VERLET ? sk_particle_verlet_velocity(p, r->c.dt) : p->v;
}

sk_real sk_ref_rope_deployed_length(const sk_ref_rope *r)
{
    sk_real links = (sk_real)(r->world.count - 1) * r->c.link_length;
    return r->group->deploys ? links + r->deploy_rest : links;
}

sk_vec3 sk_ref_rope_anchor(const sk_ref_rope *r) { return r->anchor; }

int sk_ref_rope_held(const sk_ref_rope *r) { return held_index(r); }

int sk_ref_rope_contacts(const sk_ref_rope *r) { return r->world.used_contacts; }

int sk_ref_rope_iterations(const sk_ref_rope *r) { return r->world.resolver.iterations_used; }

const sk_rope_params *sk_ref_rope_params(const sk_ref_rope *r) { return &r->params; }

const sk_rope_constants *sk_ref_rope_constants(const sk_ref_rope *r) { return &r->c; }
