/* Reference engine: deployment, the anchored segment growing by the step's paid-out length and a new
 * particle inserted next to the anchor when it exceeds a segment (docs/model.md section 7, seed 000); with
 * a speed table, a negative length reels in: the segment shrinks and the particle next to the anchor is
 * wound onto the reel when it falls below zero. */
#include "reference/rope_impl.h"
#include "model/deploy_speed.h"
#include "model/vec3.h"

/* Paying out by ds >= 0 this step; u is the speed an "along" insertion gives the new particle. */
static void pay_out(sk_ref_rope *r, sk_real ds, sk_real u)
{
    const sk_group *g = r->group;
    sk_world *w = &r->world;
    int n = w->count;
    sk_real segment = r->c.link_length;
    bool can_add = n < w->capacity;
    bool growing = g->deploy_has_max_length
                       ? ((sk_real)(n - 1) * segment) + r->deploy_rest < r->params.deploy_max_length
                       : can_add || r->deploy_rest < segment;
    if (!growing)
        return;

    const sk_real before = r->deploy_rest;
    r->deploy_rest = r->deploy_rest + ds;
    if (can_add && r->deploy_rest > segment) {
        const sk_particle *newest = &w->particles[n - 1];
        const sk_vec3 d = sk_vec3_sub(newest->p, r->anchor);
        sk_vec3 e = sk_vec3_unit(d);
        sk_real len = r->deploy_rest - segment;
        /* A line given by EA: the new particle is placed stretched as the anchored segment was (its strain
         * (|d| - s) / s over max(len, s_min)), so the new anchored segment pulls as the old one did (7.1); s the
         * rest length after the step's growth, which an explicit step's frame lags by, an implicit one's the
         * rest length before it. */
        const sk_real base = r->scenario->integrator == SK_INTEGRATOR_IMPLICIT && before > 0 ? before : r->deploy_rest;
        const sk_real s_min = r->c.anchor_s_min, strain = (sk_vec3_length(d) - base) / base;
        const sk_real at = r->c.anchor_ea > 0 ? len + strain * (len < s_min ? s_min : len) : len;
        sk_vec3 p = sk_vec3_add(r->anchor, sk_vec3_scale(e, at));
        /* Seed 000: along the newest particle's motion with magnitude len (for verlet, v is already
         * (p - q) / dt); "along": leaving the deployer at the deployment speed along the tether. */
        sk_vec3 v = g->insert_velocity == SK_INSERT_SEED ? sk_vec3_scale(sk_vec3_unit(newest->v), len)
                                                         : sk_vec3_scale(e, u);
        sk_ref_rope_place(r, n, p, v);
        r->deploy_rest = r->deploy_rest - segment;
        w->count = n + 1;
        sk_ref_rope_register(r);
    }
}

/* Reeling in by ds < 0 this step: the reverse of an insertion. The particle next to the anchor leaves
 * the rope with its mass and momentum (onto the reel, which the anchor holds), and its link's rest length
 * joins the anchored segment; never below the initial particle count, where the segment stops at zero. */
static void reel_in(sk_ref_rope *r, sk_real ds)
{
    sk_world *w = &r->world;
    const int least = r->group->deploy_initial;
    sk_real s = r->deploy_rest + ds;
    if (s < 0 && w->count > least) {
        s = s + r->c.link_length;
        w->count = w->count - 1;
        sk_ref_rope_register(r);
    }
    if (s < 0 && w->count == least)
        s = 0;
    r->deploy_rest = s;
}

void sk_ref_rope_deploy(sk_ref_rope *r)
{
    const sk_group *g = r->group;
    if (g->speed_count > 0) {
        sk_real ds = sk_deploy_step_length(g->speed_times, g->speed_values, g->speed_count, r->steps, r->c.dt);
        if (ds < 0)
            reel_in(r, ds);
        else
            pay_out(r, ds, ds / r->c.dt);
    } else {
        pay_out(r, r->params.deploy_velocity * r->c.dt, r->params.deploy_velocity);
    }
    r->anchor_spring.rest_length = r->deploy_rest;
    /* a line given by EA: the segment's own stiffness at its new length (section 7.1) */
    r->anchor_spring.stiffness = sk_rope_anchor_stiffness(&r->params, &r->c, r->deploy_rest);
}
