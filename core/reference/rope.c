/* Reference engine: one rope of a scenario as a world of particles and generators, and its step
 * (docs/model.md sections 5-7). */
#include <stdlib.h>

#include "base/assert.h"
#include "model/profile.h"
#include "reference/rope_impl.h"
#include "model/vec3.h"

sk_ref_rope *sk_ref_rope_create(const sk_scenario *s, int group, size_t rope)
{
    SK_ASSERT(group >= 0 && group < s->n_groups && rope < s->groups[group].count);
    const sk_group *g = &s->groups[group];
    sk_ref_rope *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->scenario = s;
    r->group = g;
    sk_group_rope_params(g, rope, &r->params);
    sk_rope_constants_compute(s, g, &r->params, &r->c);
    sk_rope_constants_bdf2(s, g, &r->params, &r->c_bdf2);

    /* Everything is allocated once at the capacity (seed 000 uses static arrays): per particle up
     * to three per-particle forces and the force objects, a line's, a link and a hinge, plus the anchor; links, anchor and ground
     * contacts. */
    int capacity = g->particles;
    r->links = calloc((size_t)capacity, sizeof *r->links);
    r->hinges = g->has_bending ? calloc((size_t)capacity, sizeof *r->hinges) : NULL;
    r->lines = g->has_line ? calloc((size_t)capacity, sizeof *r->lines) : NULL;
    r->line_states = g->has_line ? calloc((size_t)capacity, sizeof *r->line_states) : NULL;
    if (!r->links || (g->has_bending && !r->hinges) || (g->has_line && (!r->lines || !r->line_states)) ||
        !sk_world_init(&r->world, capacity, (6 + SK_FORCE_OBJECT_COUNT) * capacity + 1, capacity + 1, 2 * capacity + 1) ||
        (s->integrator == SK_INTEGRATOR_IMPLICIT && !sk_ref_implicit_init(&r->implicit, capacity)) ||
        (s->resolver == SK_RESOLVER_DIRECT && !sk_ref_direct_init(&r->direct, capacity))) {
        sk_ref_rope_destroy(r); /* frees what was allocated: the rest is zero */
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
    sk_drag_force_init(&r->drag, r->params.drag_k1, r->params.drag_k2, g->has_flow, r->params.flow_velocity,
                       r->params.flow_gradient);
    sk_buoyancy_force_init(&r->buoyancy, r->params.buoyancy_water_height, r->params.buoyancy_max_depth,
                           r->params.buoyancy_density, r->params.buoyancy_volume);
    for (int o = 0; o < SK_FORCE_OBJECT_COUNT; o++)
        sk_object_force_init(&r->objects[o], o, &r->params);
    sk_anchored_spring_force_init(&r->anchor_spring, &r->anchor,
                                  sk_rope_anchor_stiffness(&r->params, &r->c, r->params.anchor_length),
                                  r->params.anchor_length, g->anchor == SK_ANCHOR_BUNGEE);
    sk_fake_spring_force_init(&r->fake_spring, &r->anchor, &r->c);
    if (g->has_profiles) /* the held particle's own mass (particle 0: a fake spring never deploys) */
        r->fake_spring.mass = sk_rope_particle_constants(s, g, &r->params, 0).mass_back;

    int n0 = g->deploys ? g->deploy_initial : g->particles;
    for (int i = 0; i < n0; i++)
        sk_ref_rope_place(r, i, sk_rope_layout_position(&r->params, i, n0), r->params.velocity);
    w->count = n0;
    sk_ref_rope_pin(r, 0);
    sk_ref_rope_register(r);
    return r;
}

void sk_ref_rope_destroy(sk_ref_rope *r)
{
    if (!r)
        return;
    sk_world_free(&r->world);
    sk_ref_implicit_free(&r->implicit);
    sk_ref_direct_free(&r->direct);
    free(r->links);
    free(r->hinges);
    free(r->lines);
    free(r->line_states);
    free(r);
}

/* A pin anchor (docs/model.md section 6.4): particle 0, pinned, put at x(t) of step `step` with the motion's
 * velocity (verlet: q = p - v dt and the velocity read back, as a particle is placed). */
void sk_ref_rope_pin(sk_ref_rope *r, long step)
{
    if (r->group->anchor != SK_ANCHOR_PIN)
        return;
    const sk_real t = (sk_real)step * r->c.dt;
    sk_particle *p = &r->world.particles[0];
    p->p = sk_anchor_position(r->group, &r->params, t);
    p->v = sk_anchor_velocity(r->group, &r->params, t);
    p->q = sk_vec3_sub(p->p, sk_vec3_scale(p->v, r->c.dt));
    if (r->world.integrator == SK_INTEGRATOR_VERLET)
        p->v = sk_particle_verlet_velocity(p, r->c.dt);
}

void sk_ref_rope_step(sk_ref_rope *r)
{
    r->time = (sk_real)r->steps * r->c.dt;
    r->anchor = sk_anchor_position(r->group, &r->params, r->time);
    if (r->group->deploys)
        sk_ref_rope_deploy(r);
    sk_ref_rope_pin(r, r->steps);
    sk_world *w = &r->world;
    if (r->scenario->integrator == SK_INTEGRATOR_IMPLICIT && r->scenario->implicit_scheme == SK_IMPLICIT_BDF2) {
        /* BDF2's forces are the step's end's, F(x_(n+1), v_(n+1)): a pin anchor, the anchor's point and the
         * water's time at t + dt (a pin left at t lags the rope by its motion over a step, which a solved
         * step keeps); the rope's time and anchor point are the step's start's again after it */
        const long end = r->steps + 1;
        sk_ref_rope_pin(r, end);
        r->time = (sk_real)end * r->c.dt;
        r->anchor = sk_anchor_position(r->group, &r->params, r->time);
        sk_ref_rope_implicit_step(r);
        r->time = (sk_real)r->steps * r->c.dt;
        r->anchor = sk_anchor_position(r->group, &r->params, r->time);
    } else if (r->scenario->integrator == SK_INTEGRATOR_IMPLICIT) {
        sk_ref_rope_implicit_step(r);
    } else {
        sk_world_integrate(w);
    }
    sk_ref_rope_pin(r, r->steps + 1);
    if (r->scenario->resolver == SK_RESOLVER_DIRECT)
        sk_ref_rope_direct_resolve(r);
    else
        sk_world_resolve_contacts(w);
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

const sk_particle *sk_ref_rope_particle(const sk_ref_rope *r, int i)
{
    SK_ASSERT(i >= 0 && i < r->world.count);
    return &r->world.particles[i];
}

sk_vec3 sk_ref_rope_position(const sk_ref_rope *r, int i)
{
    SK_ASSERT(i >= 0 && i < r->world.count);
    return r->world.particles[i].p;
}

sk_vec3 sk_ref_rope_velocity(const sk_ref_rope *r, int i)
{
    SK_ASSERT(i >= 0 && i < r->world.count);
    const sk_particle *p = &r->world.particles[i];
    return r->world.integrator == SK_INTEGRATOR_VERLET ? sk_particle_verlet_velocity(p, r->c.dt) : p->v;
}

sk_real sk_ref_rope_deployed_length(const sk_ref_rope *r)
{
    sk_real links = sk_rope_links_length(r->group, &r->params, &r->c, r->world.count);
    return r->group->deploys ? links + r->deploy_rest : links;
}

sk_vec3 sk_ref_rope_anchor(const sk_ref_rope *r) { return r->anchor; }

int sk_ref_rope_contacts(const sk_ref_rope *r)
{
    return r->scenario->resolver == SK_RESOLVER_DIRECT ? r->direct.contacts : r->world.used_contacts;
}

int sk_ref_rope_iterations(const sk_ref_rope *r)
{
    return r->scenario->resolver == SK_RESOLVER_DIRECT ? r->direct.iterations : r->world.resolver.iterations_used;
}

void sk_ref_rope_newton(const sk_ref_rope *r, int *solves, long *unconverged)
{
    *solves = r->implicit.solves;
    *unconverged = r->implicit.unconverged;
}

const sk_rope_params *sk_ref_rope_params(const sk_ref_rope *r) { return &r->params; }

void sk_ref_rope_set_anchor_point(sk_ref_rope *r, sk_vec3 point) { r->params.anchor_point = point; }

const sk_group *sk_ref_rope_group(const sk_ref_rope *r) { return r->group; }

const sk_rope_constants *sk_ref_rope_constants(const sk_ref_rope *r) { return &r->c; }
