/* Diagnostics of one rope from its state (docs/model.md section 10), summed in the order the batch
 * engine's diagnostics kernel (kernels/diagnostics.c) follows lane by lane. */
#include <math.h>
#include <stdlib.h>

#include "model/bending.h"
#include "model/profile.h"
#include "reference/rope_impl.h"
#include "skein/engine.h"
#include "model/vec3.h"

static bool pinned(const sk_group *g, int i)
{
    for (int k = 0; k < g->n_pinned; k++)
        if (g->pinned[k] == i)
            return true;
    return false;
}

static bool finite3(sk_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* The anchor's force on the held particle: the step's own formulas (docs/model.md section 3). */
static sk_vec3 anchor_force(const sk_scenario *s, const sk_group *g, const sk_rope_params *rp,
                            const sk_rope_constants *c, sk_vec3 p, sk_vec3 v, sk_vec3 x, sk_real rest)
{
    if (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE) {
        sk_vec3 d = sk_vec3_sub(p, x);
        sk_real l = sk_vec3_length(d);
        if (g->anchor == SK_ANCHOR_BUNGEE && !(l > rest))
            return sk_vec3_zero();
        return sk_vec3_scale(sk_vec3_unit(d), (rest - l) * sk_rope_anchor_stiffness(rp, c, rest));
    }
    if (g->anchor == SK_ANCHOR_FAKE_SPRING && c->fake_active) {
        sk_vec3 r = sk_vec3_sub(p, x);
        sk_vec3 cc = sk_vec3_add(sk_vec3_scale(r, c->fake_cr), sk_vec3_scale(v, c->fake_cv));
        sk_vec3 target = sk_vec3_scale(sk_vec3_add(sk_vec3_scale(r, c->fake_cos), sk_vec3_scale(cc, c->fake_sin)),
                                       c->fake_exp);
        sk_vec3 acc = sk_vec3_sub(sk_vec3_scale(sk_vec3_sub(target, r), c->inv_dt2), sk_vec3_scale(v, c->inv_dt));
        return sk_vec3_scale(acc, g->has_profiles ? sk_rope_particle_constants(s, g, rp, 0).mass_back : c->mass_back);
    }
    return sk_vec3_zero();
}

void sk_rope_diagnose(const sk_scenario *s, const sk_group *g, const sk_rope_params *rp,
                      const sk_rope_constants *c, int n, const sk_vec3 *p, const sk_vec3 *v, sk_vec3 x,
                      sk_real rest, sk_rope_diagnostics *out, sk_real *tension)
{
    const sk_real half = (sk_real)0.5;
    sk_rope_diagnostics d = {0};
    d.finite = true;
    for (int i = 0; i < n; i++) {
        d.finite = d.finite && finite3(p[i]) && finite3(v[i]);
        if (pinned(g, i))
            continue; /* infinite mass: no energy of its own */
        const sk_real m = g->has_profiles ? sk_rope_particle_constants(s, g, rp, i).mass_back : c->mass_back;
        d.kinetic = d.kinetic + (m * sk_vec3_dot(v[i], v[i])) * half;
        d.gravity = d.gravity - m * sk_vec3_dot(s->gravity, p[i]);
    }

    bool springs = g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE;
    for (int i = 0; i + 1 < n; i++) {
        sk_real t = 0;
        if (springs) {
            sk_real l = sk_vec3_length(sk_vec3_sub(p[i], p[i + 1]));
            const sk_real rest_i = sk_rope_link_length(g, rp, c, i);
            sk_real stretch = l - rest_i;
            if (g->link == SK_LINK_SPRING || l > rest_i) {
                t = sk_rope_link_stiffness(g, rp, i) * stretch;
                d.elastic = d.elastic + (t * stretch) * half;
            }
        }
        if (tension)
            tension[i] = t;
    }

    /* bending after the links, before the anchor */
    if (g->has_bending)
        for (int i = 1; i + 1 < n; i++)
            d.elastic = d.elastic + sk_hinge_energy(sk_rope_hinge_kb(g, rp, c, i), p[i - 1], p[i], p[i + 1]);

    int held = g->deploys ? n - 1 : 0;
    if (n > 0 && g->anchor != SK_ANCHOR_NONE) {
        sk_real l = sk_vec3_length(sk_vec3_sub(p[held], x));
        if (g->anchor == SK_ANCHOR_SPRING || (g->anchor == SK_ANCHOR_BUNGEE && l > rest)) {
            sk_real stretch = l - rest;
            d.elastic = d.elastic + ((sk_rope_anchor_stiffness(rp, c, rest) * stretch) * stretch) * half;
        } else if (g->anchor == SK_ANCHOR_FAKE_SPRING && c->fake_active) {
            d.elastic = d.elastic + ((rp->anchor_stiffness * l) * l) * half;
        }
        if (!pinned(g, held))
            d.anchor_force = anchor_force(s, g, rp, c, p[held], v[held], x, rest);
    }

    sk_real links = sk_rope_links_length(g, rp, c, n);
    d.length = g->deploys ? links + rest : links;
    *out = d;
}

void sk_ref_rope_diagnose(const sk_ref_rope *r, sk_rope_diagnostics *out, sk_real *tension)
{
    int n = sk_ref_rope_count(r);
    sk_vec3 *pv = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *pv);
    if (!pv) {
        *out = (sk_rope_diagnostics){.finite = false};
        return;
    }
    for (int i = 0; i < n; i++) {
        pv[i] = sk_ref_rope_position(r, i);
        pv[n + i] = sk_ref_rope_velocity(r, i);
    }
    const sk_rope_params *rp = sk_ref_rope_params(r);
    sk_vec3 x = sk_anchor_position(r->group, rp, sk_ref_rope_time(r));
    sk_real rest = r->group->deploys ? r->deploy_rest : rp->anchor_length;
    sk_rope_diagnose(r->scenario, r->group, rp, sk_ref_rope_constants(r), n, pv, pv + n, x, rest, out, tension);
    free(pv);
    /* The rope's own registry evaluates the held ends' forces (its positions and velocities untouched). */
    sk_ref_rope_support((sk_ref_rope *)r, out->support);
    /* Rods and cables: the impulse each link's contact delivered in the last step, over dt, negative for a
     * rod pushing its ends apart (a link that generated no contact keeps 0). The links' contacts are
     * those with two particles. */
    if (tension && (r->group->link == SK_LINK_ROD || r->group->link == SK_LINK_CABLE) &&
        r->scenario->resolver == SK_RESOLVER_DIRECT) {
        /* The direct solver: each link row's impulse, signed already (positive pulls). */
        for (int i = 0; i + 1 < n; i++)
            tension[i] = r->direct.impulse[2 * i + 2] / sk_ref_rope_constants(r)->dt;
    } else if (tension && (r->group->link == SK_LINK_ROD || r->group->link == SK_LINK_CABLE)) {
        const sk_world *w = &r->world;
        for (int c = 0; c < w->used_contacts; c++) {
            const sk_contact *contact = &w->contacts[c];
            sk_real impulse = contact->pushes ? -contact->impulse : contact->impulse;
            if (contact->particle[1])
                tension[contact->particle[0] - w->particles] = impulse / sk_ref_rope_constants(r)->dt;
        }
    }
}
