/* Reference engine: a rope's complete state copied out and put back (checkpoints, skein/checkpoint.h). */
#include <math.h>

#include "model/bdf2.h"
#include "model/direct_rows.h"
#include "model/profile.h"
#include "reference/rope_impl.h"
#include "engine/engine_state.h"

unsigned sk_ref_rope_state_fields(const sk_scenario *s, const sk_group *g)
{
    return SK_STATE_VELOCITY | SK_STATE_PREVIOUS | (sk_group_has_contacts(s, g) ? SK_STATE_CONTACTS : 0u) |
           (sk_scenario_keeps_previous_step(s) ? SK_STATE_HISTORY : 0u);
}

/* A link's recorded impulse that a contact must give back: anything but +0. */
static bool link_seen(sk_real impulse) { return impulse != 0 || signbit(impulse); }

static void put3(sk_real *out, int i, sk_vec3 x)
{
    out[3 * i + 0] = x.x;
    out[3 * i + 1] = x.y;
    out[3 * i + 2] = x.z;
}

static sk_vec3 get3(const sk_real *in, int i) { return (sk_vec3){in[3 * i + 0], in[3 * i + 1], in[3 * i + 2]}; }

void sk_ref_rope_export(const sk_ref_rope *r, sk_rope_state *st)
{
    const sk_world *w = &r->world;
    st->n = w->count;
    st->s = r->deploy_rest;
    st->steps = r->steps;
    for (int i = 0; i < w->capacity; i++) {
        put3(st->p, i, w->particles[i].p);
        put3(st->v, i, w->particles[i].v);
        put3(st->q, i, w->particles[i].q);
    }
    const sk_ref_implicit *im = &r->implicit;
    if (sk_scenario_keeps_previous_step(r->scenario) && st->prev_p && st->prev_v && st->prev_v2 && im->prev_p) {
        for (int i = 0; i < w->capacity; i++) {
            put3(st->prev_p, i, im->prev_p[i]);
            put3(st->prev_v, i, im->prev_v[i]);
            put3(st->prev_v2, i, im->prev_v2[i]);
        }
        st->prev_steps = im->prev_steps;
        st->solves = im->solves;
        st->unconverged = im->unconverged;
    }
    if (!st->impulse)
        return;
    /* What its observers see of the last step's contacts: the links' impulses, negative (-0 included) for a
     * rod that pushes, as the batch engine keeps them (a link's tension is that over dt), the count and the
     * iterations. The next step generates its contacts afresh. */
    for (int i = 0; i < w->capacity; i++)
        st->impulse[i] = 0;
    if (r->scenario->resolver == SK_RESOLVER_DIRECT) {
        /* The direct solver's rows: each link's impulse, signed (positive pulls), the anchor's last. */
        const sk_ref_direct *d = &r->direct;
        for (int i = 0; i + 1 < w->count; i++)
            st->impulse[i] = d->impulse[2 * i + 2];
        st->impulse[w->capacity - 1] = d->impulse[0];
        st->contacts = d->contacts;
        st->iterations = d->iterations;
        return;
    }
    for (int c = 0; c < w->used_contacts; c++) {
        const sk_contact *contact = &w->contacts[c];
        if (contact->particle[1])
            st->impulse[contact->particle[0] - w->particles] = contact->pushes ? -contact->impulse : contact->impulse;
    }
    st->contacts = w->used_contacts;
    st->iterations = w->resolver.iterations_used;
}

bool sk_ref_rope_import(sk_ref_rope *r, const sk_rope_state *st)
{
    const sk_group *g = r->group;
    sk_world *w = &r->world;
    const bool contacts = sk_group_has_contacts(r->scenario, g);
    const int n = st->n;
    const bool history =
        sk_scenario_keeps_previous_step(r->scenario) && st->prev_p && st->prev_v && st->prev_v2 && r->implicit.prev_p;
    if (n < 1 || n > w->capacity || (!g->deploys && n != w->capacity) || (g->deploys && n < g->deploy_initial) ||
        st->steps < 0 ||
        (history &&
         (st->solves < 0 || st->unconverged < 0 || st->prev_steps < 0 || st->prev_steps > SK_BDF2_STEPS_KEPT)))
        return false;
    int links_pulled = 0;
    if (contacts) {
        if (!st->impulse || st->contacts < 0 || st->contacts > w->max_contacts || st->iterations < 0)
            return false;
        if (r->scenario->resolver == SK_RESOLVER_DIRECT && st->contacts > sk_direct_slots(n))
            return false;
        for (int i = 0; i + 1 < n; i++)
            links_pulled += link_seen(st->impulse[i]);
        if (links_pulled > st->contacts)
            return false;
    }

    /* Particles as sk_ref_rope_place leaves them (mass, damping and acceleration are the rope's); the slots
     * past n as a fresh rope has them, but for what the state says they hold. */
    for (int i = 0; i < w->capacity; i++) {
        sk_particle *p = &w->particles[i];
        bool pinned = false;
        for (int k = 0; k < g->n_pinned; k++)
            pinned = pinned || g->pinned[k] == i;
        *p = (sk_particle){.p = get3(st->p, i), .v = get3(st->v, i), .q = get3(st->q, i)};
        if (i < n) {
            p->a = r->c.accel;
            p->w = pinned                 ? 0
                   : g->has_profiles ? sk_rope_particle_constants(r->scenario, g, &r->params, i).w
                                     : r->c.w;
        }
    }
    w->count = n;
    r->steps = st->steps;
    /* BDF2's step before; without it BDF2 starts again from a backward Euler step */
    r->implicit.prev_steps = history ? st->prev_steps : 0;
    r->implicit.solves = history ? st->solves : 0;
    r->implicit.unconverged = history ? st->unconverged : 0;
    for (int i = 0; history && i < w->capacity; i++) {
        r->implicit.prev_p[i] = get3(st->prev_p, i);
        r->implicit.prev_v[i] = get3(st->prev_v, i);
        r->implicit.prev_v2[i] = get3(st->prev_v2, i);
    }
    r->deploy_rest = st->s;
    r->anchor_spring.rest_length = st->s;
    r->anchor_spring.stiffness = sk_rope_anchor_stiffness(&r->params, &r->c, st->s);
    /* x(t) of the last step taken (sk_ref_rope_step sets it at the step's start), x(0) before any */
    r->anchor = sk_anchor_position(g, &r->params, st->steps > 0 ? (sk_real)(st->steps - 1) * r->c.dt : 0);
    sk_ref_rope_register(r);

    /* The contacts as their observers see them: a contact per link whose tension is not +0 (an impulse, or
     * a pushing rod's -0), then contacts with the world up to the count (the diagnostics read only the
     * links'; a link without a contact and one with a +0 impulse both have the tension +0). */
    w->used_contacts = 0;
    w->resolver.iterations_used = 0;
    if (contacts && r->scenario->resolver == SK_RESOLVER_DIRECT) {
        sk_ref_direct *d = &r->direct;
        for (int s = 0; s < sk_direct_slots(w->capacity); s++)
            d->impulse[s] = 0;
        for (int i = 0; i + 1 < n; i++)
            d->impulse[2 * i + 2] = st->impulse[i];
        d->impulse[0] = st->impulse[w->capacity - 1];
        d->contacts = st->contacts;
        d->iterations = st->iterations;
    } else if (contacts) {
        int k = 0;
        for (int i = 0; i + 1 < n; i++)
            if (link_seen(st->impulse[i]))
                w->contacts[k++] = (sk_contact){.particle = {&w->particles[i], &w->particles[i + 1]},
                                                .impulse = fabs(st->impulse[i]),
                                                .pushes = signbit(st->impulse[i]) != 0};
        while (k < st->contacts)
            w->contacts[k++] = (sk_contact){.particle = {&w->particles[0], NULL}};
        w->used_contacts = st->contacts;
        w->resolver.iterations_used = st->iterations;
    }
    return true;
}
