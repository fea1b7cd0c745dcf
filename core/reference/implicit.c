/* Reference engine: the implicit integrator (docs/model.md section 2.1), linearly implicit backward Euler as
 * Baraff and Witkin write it, with Newton iterations, solved per rope by block-tridiagonal (Thomas)
 * elimination: one 3x3 block per particle, coupled to its neighbours by the links' stiffness blocks. Written
 * as plain scalar loops over the assembled system; the kernels fuse the same operations into one pass. */
#include <stdlib.h>

#include "reference/rope_impl.h"
#include "model/sym3.h"

bool sk_ref_implicit_init(sk_ref_implicit *im, int capacity)
{
    size_t n = (size_t)(capacity > 0 ? capacity : 1);
    *im = (sk_ref_implicit){0};
    im->x0 = calloc(n, sizeof *im->x0);
    im->v0 = calloc(n, sizeof *im->v0);
    im->dv = calloc(n, sizeof *im->dv);
    im->z = calloc(n, sizeof *im->z);
    im->b = calloc(n, sizeof *im->b);
    im->zp = calloc(n, sizeof *im->zp);
    im->diag = calloc(n, sizeof *im->diag);
    im->link = calloc(n, sizeof *im->link);
    im->coupled = calloc(n, sizeof *im->coupled);
    im->h = calloc(n, sizeof *im->h);
    if (!im->x0 || !im->v0 || !im->dv || !im->z || !im->b || !im->zp || !im->diag || !im->link || !im->coupled ||
        !im->h) {
        sk_ref_implicit_free(im);
        return false;
    }
    return true;
}

void sk_ref_implicit_free(sk_ref_implicit *im)
{
    free(im->x0);
    free(im->v0);
    free(im->dv);
    free(im->z);
    free(im->b);
    free(im->zp);
    free(im->diag);
    free(im->link);
    free(im->coupled);
    free(im->h);
    *im = (sk_ref_implicit){0};
}

/* The system at the linearisation point the particles hold (their p and v) and the forces just applied:
 * diag_i and b_i for every unpinned particle, and for each link its stiffness block and whether it couples
 * two unpinned particles. In each row the terms are added in the force order (docs/model.md section 5):
 * drag, the link before, the link after, the anchor. */
static void assemble(sk_ref_rope *r, bool later)
{
    sk_ref_implicit *im = &r->implicit;
    const sk_group *g = r->group;
    const sk_rope_constants *c = &r->c;
    sk_particle *ps = r->world.particles;
    const int n = r->world.count;

    for (int i = 0; i < n; i++) {
        im->diag[i] = sk_sym3_diagonal(c->implicit_diag);
        im->b[i] = sk_vec3_scale(ps[i].f, c->dt);
        if (later && g->has_drag)
            im->b[i] = sk_vec3_add(im->b[i], sk_vec3_scale(im->z[i], c->drag_t));
    }
    const bool springs = g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE;
    for (int i = 0; i + 1 < n; i++) {
        im->coupled[i] = false;
        if (!springs)
            continue;
        sk_vec3 d = sk_vec3_sub(ps[i].p, ps[i + 1].p);
        /* a slack bungee has no force, and so no stiffness */
        if (g->link == SK_LINK_BUNGEE && !(sk_vec3_length(d) > c->link_length))
            continue;
        sk_sym3 s = sk_spring_block(d, c->link_length, c->link_kdt2);
        sk_vec3 q = sk_sym3_apply(s, sk_vec3_sub(im->z[i], im->z[i + 1]));
        if (ps[i].w != 0) {
            im->diag[i] = sk_sym3_add(im->diag[i], s);
            im->b[i] = sk_vec3_add(im->b[i], q);
        }
        if (ps[i + 1].w != 0) {
            im->diag[i + 1] = sk_sym3_add(im->diag[i + 1], s);
            im->b[i + 1] = sk_vec3_sub(im->b[i + 1], q);
        }
        im->link[i] = s;
        im->coupled[i] = ps[i].w != 0 && ps[i + 1].w != 0;
    }
    const int h = sk_ref_rope_held(r);
    if (ps[h].w == 0)
        return;
    if (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE) {
        sk_vec3 d = sk_vec3_sub(ps[h].p, r->anchor);
        sk_real rest = r->anchor_spring.rest_length;
        if (g->anchor == SK_ANCHOR_BUNGEE && !(sk_vec3_length(d) > rest))
            return;
        sk_sym3 s = sk_spring_block(d, rest, c->anchor_kdt2);
        im->diag[h] = sk_sym3_add(im->diag[h], s);
        im->b[h] = sk_vec3_add(im->b[h], sk_sym3_apply(s, im->z[h]));
    } else if (g->anchor == SK_ANCHOR_FAKE_SPRING && c->fake_active) {
        im->diag[h] = sk_sym3_add_diagonal(sk_sym3_add_diagonal(im->diag[h], c->fake_jx), c->fake_jv);
        im->b[h] = sk_vec3_add(im->b[h], sk_vec3_scale(im->z[h], c->fake_jx));
        if (later)
            im->b[h] = sk_vec3_add(im->b[h], sk_vec3_scale(im->z[h], c->fake_jv));
    }
}

/* Block Thomas elimination of the assembled system into dv: forward, each row's block reduced by the
 * coupling to the row before (D_i = A_i - S D_(i-1)^-1 S, y_i = b_i + S D_(i-1)^-1 y_(i-1)), then back
 * substitution (dv_i = D_i^-1 y_i + D_i^-1 S dv_(i+1)). Pinned rows are not part of it: their dv is 0. */
static void solve(sk_ref_rope *r)
{
    sk_ref_implicit *im = &r->implicit;
    const sk_particle *ps = r->world.particles;
    const int n = r->world.count;
    sk_sym3 carried = {0};   /* S_(i-1) D_(i-1)^-1 S_(i-1) */
    sk_vec3 carried_y = {0}; /* S_(i-1) D_(i-1)^-1 y_(i-1) */
    for (int i = 0; i < n; i++) {
        if (ps[i].w == 0)
            continue;
        sk_sym3 d = im->diag[i];
        sk_vec3 y = im->b[i];
        if (i > 0 && im->coupled[i - 1]) {
            d = sk_sym3_sub(d, carried);
            y = sk_vec3_add(y, carried_y);
        }
        sk_sym3 inv = sk_sym3_inverse(d);
        im->zp[i] = sk_sym3_apply(inv, y);
        if (i + 1 < n && im->coupled[i]) {
            im->h[i] = sk_sym3_mul(inv, im->link[i]);
            carried = sk_sym3_mul_symmetric(im->link[i], im->h[i]);
            carried_y = sk_sym3_apply(im->link[i], im->zp[i]);
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        if (ps[i].w == 0) {
            im->dv[i] = sk_vec3_zero();
            continue;
        }
        im->dv[i] = im->zp[i];
        if (i + 1 < n && im->coupled[i])
            im->dv[i] = sk_vec3_add(im->zp[i], sk_mat3_apply(&im->h[i], im->dv[i + 1]));
    }
}

void sk_ref_rope_implicit_step(sk_ref_rope *r)
{
    sk_ref_implicit *im = &r->implicit;
    sk_world *w = &r->world;
    sk_particle *ps = w->particles;
    const int n = w->count;
    const sk_real dt = r->c.dt;
    for (int i = 0; i < n; i++) {
        im->x0[i] = ps[i].p;
        im->v0[i] = ps[i].v;
    }
    for (int it = 0; it < r->scenario->implicit_iterations; it++) {
        const bool later = it > 0;
        if (later) /* linearise again where the last solve put the rope */
            for (int i = 0; i < n; i++)
                if (ps[i].w != 0) {
                    ps[i].v = sk_vec3_add(im->v0[i], im->dv[i]);
                    ps[i].p = sk_vec3_add(im->x0[i], sk_vec3_scale(ps[i].v, dt));
                }
        sk_world_apply_forces(w);
        /* what the stiffness (and later the damping) blocks multiply on the right-hand side */
        for (int i = 0; i < n; i++)
            im->z[i] = later ? im->dv[i] : sk_vec3_scale(im->v0[i], -1);
        assemble(r, later);
        solve(r);
    }
    for (int i = 0; i < n; i++) {
        sk_particle *p = &ps[i];
        if (p->w == 0)
            continue;
        p->v = sk_vec3_add(im->v0[i], im->dv[i]);
        p->v = sk_vec3_scale(p->v, w->damp);
        p->p = sk_vec3_add(im->x0[i], sk_vec3_scale(p->v, dt));
    }
}
