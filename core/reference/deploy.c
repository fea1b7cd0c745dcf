/* Reference engine: deployment, the anchored segment growing at the deployment velocity and a new
 * particle inserted next to the anchor when it exceeds a segment (docs/model.md section 7, seed 000). */
#include "reference/rope_impl.h"
#include "model/vec3.h"

void sk_ref_rope_deploy(sk_ref_rope *r)
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

    r->deploy_rest = r->deploy_rest + r->params.deploy_velocity * r->c.dt;
    if (can_add && r->deploy_rest > segment) {
        const sk_particle *newest = &w->particles[n - 1];
        sk_vec3 e = sk_vec3_unit(sk_vec3_sub(newest->p, r->anchor));
        sk_real len = r->deploy_rest - segment;
        sk_vec3 p = sk_vec3_add(r->anchor, sk_vec3_scale(e, len));
        /* Seed 000: along the newest particle's motion with magnitude len (for verlet, v is already
         * (p - q) / dt); "along": leaving the deployer at the deployment speed along the tether. */
        sk_vec3 v = g->insert_velocity == SK_INSERT_SEED ? sk_vec3_scale(sk_vec3_unit(newest->v), len)
                                                         : sk_vec3_scale(e, r->params.deploy_velocity);
        sk_ref_rope_place(r, n, p, v);
        r->deploy_rest = r->deploy_rest - segment;
        w->count = n + 1;
        sk_ref_rope_register(r);
    }
    r->anchor_spring.rest_length = r->deploy_rest;
}
