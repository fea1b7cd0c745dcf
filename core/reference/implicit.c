/* Reference engine: the implicit integrator (docs/model.md section 2.1), linearly implicit backward Euler as
 * Baraff and Witkin write it, with Newton iterations, solved per rope by block-tridiagonal (Thomas)
 * elimination: one 3x3 block per particle, coupled to its neighbours by the links' stiffness blocks. Written
 * as plain scalar loops over the assembled system; the kernels fuse the same operations into one pass. */
#include <stdlib.h>

#include "model/bdf2.h"
#include "model/ground.h"
#include "model/profile.h"
#include "reference/rope_impl.h"
#include "model/sym3.h"

/* Every work array of the solve, one entry per particle, in one list for allocation and release. */
#define SK_IMPLICIT_ARRAYS(X)                                                                                   \
    X(x0) X(v0) X(dv) X(z) X(q) X(handed_y) X(handed) X(active) X(zp) X(link) X(coupled) X(h) X(prev_p) X(prev_v) \
    X(prev_v2) X(acc) X(target) X(res) X(share)

bool sk_ref_implicit_init(sk_ref_implicit *im, int capacity)
{
    size_t n = (size_t)(capacity > 0 ? capacity : 1);
    *im = (sk_ref_implicit){0};
    bool ok = true;
#define SK_ALLOCATE(name) ok = ok && (im->name = calloc(n, sizeof *im->name)) != NULL;
    SK_IMPLICIT_ARRAYS(SK_ALLOCATE)
#undef SK_ALLOCATE
    if (!ok)
        sk_ref_implicit_free(im);
    return ok;
}

void sk_ref_implicit_free(sk_ref_implicit *im)
{
#define SK_RELEASE(name) free(im->name);
    SK_IMPLICIT_ARRAYS(SK_RELEASE)
#undef SK_RELEASE
    *im = (sk_ref_implicit){0};
}

/* The links' stiffness blocks at the linearisation point the particles hold: for each link its block S_i,
 * q_i = S_i (z_i - z_(i+1)), whether it acts (a spring always, a bungee when stretched) and whether it
 * couples two unpinned particles. With share (BDF2) each block's geometric share is share[i], not the
 * point's. */
static void link_blocks(sk_ref_rope *r, const sk_rope_constants *c, bool later, const sk_real *share)
{
    sk_ref_implicit *im = &r->implicit;
    const sk_group *g = r->group;
    const sk_particle *ps = r->world.particles;
    const bool springs = g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE;
    for (int i = 0; i + 1 < r->world.count; i++) {
        sk_vec3 d = sk_vec3_sub(ps[i].p, ps[i + 1].p);
        /* a slack bungee has no force, and so no stiffness */
        const sk_real rest = sk_rope_link_length(g, &r->params, c, i);
        im->active[i] = springs && (g->link == SK_LINK_SPRING || sk_vec3_length(d) > rest);
        im->coupled[i] = im->active[i] && ps[i].w != 0 && ps[i + 1].w != 0;
        if (!im->active[i])
            continue;
        const sk_real kdt2 = g->has_profiles ? sk_rope_link_kdt2(c, sk_rope_link_stiffness(g, &r->params, i))
                                             : c->link_kdt2;
        im->link[i] = share ? sk_spring_block_share(d, sk_inverse_length(sk_vec3_length(d)), share[i], kdt2)
                            : sk_spring_block(d, rest, kdt2);
        im->q[i] = sk_sym3_apply(im->link[i], sk_vec3_sub(im->z[i], im->z[i + 1]));
        if (g->has_link_damping) { /* its damping block T joins S; on the right T z in later iterations */
            const sk_real cdt = g->has_profiles ? sk_rope_link_damping(g, &r->params, c, i) * c->dt : c->link_cdt;
            const sk_sym3 t = sk_damping_block(d, cdt);
            im->link[i] = sk_sym3_add(im->link[i], t);
            if (later)
                im->q[i] = sk_vec3_add(im->q[i], sk_sym3_apply(t, sk_vec3_sub(im->z[i], im->z[i + 1])));
        }
    }
}

/* BDF2's residual M dv - (f + a m~) dt of a particle's equations at the trial dv, y = (f + a m~) dt; M is m~ plus
 * a line's added mass (added, NULL for none). */
static sk_vec3 residual(sk_vec3 dv, sk_real mass, const sk_sym3 *added, sk_vec3 y)
{
    sk_vec3 mz = sk_vec3_scale(dv, mass);
    if (added)
        mz = sk_vec3_add(mz, sk_sym3_apply(*added, dv));
    return sk_vec3_sub(mz, y);
}

/* Particle i's row with the link before it already eliminated: E_i, every term of its diagonal block but
 * link i's (the diagonal of M + T, what row i - 1 hands over, the static solve's vertical stiffness, the
 * anchor), D_i = E_i + S_i, and y_i, each term added in this order (docs/model.md section 2.1). On the right:
 * (f + a m~) dt, the linear drag's T z in later iterations, what row i - 1 hands over, the anchor, the link
 * after (+q_i). */
static void row(sk_ref_rope *r, const sk_rope_constants *c, int i, bool later, bool lines, sk_sym3 *e_out,
                sk_sym3 *d_out, sk_vec3 *y_out, sk_real *merit)
{
    sk_ref_implicit *im = &r->implicit;
    const sk_group *g = r->group;
    const sk_particle *ps = r->world.particles;
    const int n = r->world.count;

    /* with profiles: particle i's own mass and terms (model/profile.h) */
    sk_real mass = c->mass_back, diag = c->implicit_diag, jx = c->fake_jx, jv = c->fake_jv;
    if (g->has_profiles) {
        mass = sk_rope_particle_constants(r->scenario, g, &r->params, i).mass_back;
        sk_rope_particle_implicit(c, mass, &diag, &jx, &jv);
    }
    sk_sym3 e = sk_sym3_diagonal(diag);
    /* the acceleration field (gravity, unless it is a force) as the force it is on this mass */
    sk_vec3 y = sk_vec3_scale(sk_vec3_add(ps[i].f, sk_vec3_scale(ps[i].a, mass)), c->dt);
    /* a line in water: its added mass and the Morison drag's damping (model/line_water.h) */
    const bool water = lines && r->scenario->water.present;
    const sk_sym3 added = water ? sk_line_added_block(ps[i].line) : sk_sym3_diagonal(0);
    if (merit) { /* BDF2: the residual of the equations at this point, squared */
        im->res[i] = residual(im->z[i], mass, water ? &added : NULL, y);
        *merit = *merit + sk_vec3_dot(im->res[i], im->res[i]);
    }
    if (later && g->has_drag)
        y = sk_vec3_add(y, sk_vec3_scale(im->z[i], c->drag_t));
    if (i > 0 && im->active[i - 1]) {
        e = im->handed[i - 1];
        y = sk_vec3_add(y, im->handed_y[i - 1]);
    }
    if (im->vertical)
        e.yy = e.yy + im->vertical[i];
    if (water) {
        const sk_sym3 drag = sk_line_drag_block(ps[i].line, c->dt);
        e = sk_sym3_add(sk_sym3_add(e, added), drag);
        if (later)
            y = sk_vec3_add(y, sk_sym3_apply(drag, im->z[i]));
    }
    if (lines && sk_scenario_compliant_ground(r->scenario)) { /* the seabed where it pushes */
        const sk_real bk = (ps[i].line->bed_k * c->dt) * c->dt, bc = ps[i].line->bed_c * c->dt;
        e.yy = e.yy + bk;
        y.y = y.y + bk * im->z[i].y;
        e.yy = e.yy + bc;
        if (later)
            y.y = y.y + bc * im->z[i].y;
    }
    if (i == sk_ref_rope_held(r)) {
        if (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE) {
            sk_vec3 da = sk_vec3_sub(ps[i].p, r->anchor);
            sk_real rest = r->anchor_spring.rest_length;
            if (g->anchor == SK_ANCHOR_SPRING || sk_vec3_length(da) > rest) {
                /* a deploying line given by EA: its anchored segment's stiffness at the step's s (deploy.c) */
                const sk_real kdt2 = c->anchor_ea > 0 ? (r->anchor_spring.stiffness * c->dt) * c->dt : c->anchor_kdt2;
                sk_sym3 s = sk_spring_block(da, rest, kdt2);
                e = sk_sym3_add(e, s);
                y = sk_vec3_add(y, sk_sym3_apply(s, im->z[i]));
            }
        } else if (g->anchor == SK_ANCHOR_FAKE_SPRING && c->fake_active) {
            e = sk_sym3_add_diagonal(sk_sym3_add_diagonal(e, jx), jv);
            y = sk_vec3_add(y, sk_vec3_scale(im->z[i], jx));
            if (later)
                y = sk_vec3_add(y, sk_vec3_scale(im->z[i], jv));
        }
    }
    sk_sym3 d = e;
    if (i + 1 < n && im->active[i]) {
        d = sk_sym3_add(e, im->link[i]);
        y = sk_vec3_add(y, im->q[i]);
    }
    *e_out = e;
    *d_out = d;
    *y_out = y;
}

/* Block Thomas elimination into dv. Forward: each row's D_i factored (LDL^T; BDF2's, with merit kept, with
 * the minor's pivot and sk_ldl3_eliminate) and solved for D_i^-1 y_i and D_i^-1 S_i; it hands row i + 1 the
 * diagonal of M + T plus S_i D_i^-1 E_i (which is S_i - S_i D_i^-1
 * S_i without the cancellation of subtracting two nearly equal blocks of a stiff link), and
 * S_i D_i^-1 y_i - q_i; where link i acts but does not couple, the diagonal plus S_i and -q_i. Back
 * substitution: dv_i = D_i^-1 y_i + (D_i^-1 S_i) dv_(i+1) where link i couples. Pinned rows take no part:
 * their dv is 0. */
static void solve(sk_ref_rope *r, const sk_rope_constants *c, bool later, bool lines, sk_real *merit)
{
    sk_ref_implicit *im = &r->implicit;
    const sk_particle *ps = r->world.particles;
    const int n = r->world.count;
    for (int i = 0; i < n; i++) {
        /* what row i hands row i + 1 starts from that row's diagonal (its own mass with profiles) */
        sk_real diag = c->implicit_diag, jx, jv;
        if (r->group->has_profiles && i + 1 < n)
            sk_rope_particle_implicit(c,
                                      sk_rope_particle_constants(r->scenario, r->group, &r->params, i + 1).mass_back,
                                      &diag, &jx, &jv);
        if (ps[i].w == 0) {
            if (i + 1 < n && im->active[i]) {
                im->handed[i] = sk_sym3_add(sk_sym3_diagonal(diag), im->link[i]);
                im->handed_y[i] = sk_vec3_scale(im->q[i], -1);
            }
            continue;
        }
        sk_sym3 e, d;
        sk_vec3 y;
        row(r, c, i, later, lines, &e, &d, &y, merit);
        /* BDF2 (merit kept): its factors and elimination (model/sym3.h) */
        const bool bdf2 = merit != NULL;
        const sk_ldl3 f = sk_ldl3_factor(d, bdf2);
        im->zp[i] = sk_ldl3_solve(&f, y);
        if (i + 1 < n && im->coupled[i]) {
            sk_sym3 sde;
            sk_vec3 sdy;
            if (bdf2) {
                sk_ldl3_eliminate(&f, im->link[i], e, y, &im->h[i], &sde, &sdy);
            } else {
                im->h[i] = sk_ldl3_solve_block(&f, im->link[i]);
                sde = sk_mat3_transpose_mul_symmetric(&im->h[i], e);
                sdy = sk_mat3_transpose_apply(&im->h[i], y);
            }
            im->handed[i] = sk_sym3_add(sk_sym3_diagonal(diag), sde);
            im->handed_y[i] = sk_vec3_sub(sdy, im->q[i]);
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

static void bdf2_step(sk_ref_rope *r);

/* The step's end: every unpinned particle's velocity v0 + dv, damped, and its position x0 + v h. */
static void take_step(sk_ref_rope *r, const sk_vec3 *dv, sk_real h)
{
    const sk_ref_implicit *im = &r->implicit;
    sk_world *w = &r->world;
    for (int i = 0; i < w->count; i++) {
        sk_particle *p = &w->particles[i];
        if (p->w == 0)
            continue;
        p->v = sk_vec3_add(im->v0[i], dv[i]);
        p->v = sk_vec3_scale(p->v, w->damp);
        p->p = sk_vec3_add(im->x0[i], sk_vec3_scale(p->v, h));
    }
}

void sk_ref_implicit_linear_solve(sk_ref_rope *r, const sk_rope_constants *c)
{
    link_blocks(r, c, true, NULL);
    solve(r, c, true, false, NULL);
}

/* Whether the rope is a line in water or on a compliant seabed: its particles' blocks gain the line's terms. */
static bool line_blocks(const sk_ref_rope *r)
{
    return sk_group_line_in_medium(r->scenario, r->group);
}

void sk_ref_rope_implicit_step(sk_ref_rope *r)
{
    if (r->scenario->implicit_scheme == SK_IMPLICIT_BDF2) {
        bdf2_step(r);
        return;
    }
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
        if (later) { /* linearise again where the last solve put the rope */
            for (int i = 0; i < n; i++) {
                if (ps[i].w != 0) {
                    ps[i].v = sk_vec3_add(im->v0[i], im->dv[i]);
                    ps[i].p = sk_vec3_add(im->x0[i], sk_vec3_scale(ps[i].v, dt));
                } else { /* a pinned particle where the first iteration's -v0 took it (a pin anchor moves) */
                    ps[i].p = sk_vec3_add(im->x0[i], sk_vec3_scale(im->v0[i], dt));
                }
            }
        }
        sk_world_apply_forces(w);
        /* what the stiffness (and later the damping) blocks multiply on the right-hand side */
        for (int i = 0; i < n; i++)
            im->z[i] = later ? im->dv[i] : sk_vec3_scale(im->v0[i], -1);
        link_blocks(r, &r->c, later, NULL);
        solve(r, &r->c, later, line_blocks(r), NULL);
    }
    take_step(r, im->dv, dt);
}

/* Whether BDF2's line search may also judge a trial point by the step's energy: where every force the rope
 * has is conservative and its potential is summed (gravity, links, the anchor's spring; no links' damping,
 * no force objects, no water or seabed). */
static bool energy_judges(const sk_ref_rope *r)
{
    const sk_group *g = r->group;
    return !g->has_bending && !g->has_buoyancy && !g->has_drag && !g->has_link_damping && !g->force_objects &&
           !line_blocks(r);
}

/* BDF2's step energy at the trial point dv (im->z): sum m~ |dv|^2 / 2 + P(x), P the potential of gravity (the
 * acceleration field as the force a m~, or gravity as a force), the anchor's spring and the links; its gradient
 * in dv is the residual the solve drives to zero, so a Newton step, whose matrix is positive definite, goes
 * down it. Summed row by row: the particle's terms and its anchor's (unpinned), then link i's. */
static sk_real step_energy(const sk_ref_rope *r, const sk_rope_constants *c)
{
    const sk_ref_implicit *im = &r->implicit;
    const sk_group *g = r->group;
    const sk_particle *ps = r->world.particles;
    const sk_real half = (sk_real)0.5;
    sk_real e = 0;
    for (int i = 0; i < r->world.count; i++) {
        if (ps[i].w != 0) {
            sk_real m = c->mass_back;
            sk_vec3 gravity_force = c->gravity_force;
            if (g->has_profiles) { /* particle i's own (model/profile.h) */
                const sk_particle_constants pc = sk_rope_particle_constants(r->scenario, g, &r->params, i);
                m = pc.mass_back;
                gravity_force = pc.gravity_force;
            }
            e = e + ((half * m) * sk_vec3_dot(im->z[i], im->z[i]));
            e = e - sk_vec3_dot(sk_vec3_scale(ps[i].a, m), ps[i].p);
            if (r->scenario->gravity_as == SK_GRAVITY_FORCE)
                e = e - sk_vec3_dot(gravity_force, ps[i].p);
            if (i == sk_ref_rope_held(r) && (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE)) {
                const sk_real l = sk_vec3_length(sk_vec3_sub(ps[i].p, r->anchor)), rest = r->anchor_spring.rest_length;
                if (g->anchor == SK_ANCHOR_SPRING || l > rest) {
                    const sk_real s = l - rest;
                    e = e + ((half * r->anchor_spring.stiffness) * s) * s;
                }
            }
        }
        if (i + 1 < r->world.count && im->active[i]) {
            const sk_real s = sk_vec3_length(sk_vec3_sub(ps[i].p, ps[i + 1].p)) - sk_rope_link_length(g, &r->params, c, i);
            const sk_real k = g->has_profiles ? sk_rope_link_stiffness(g, &r->params, i) : r->params.link_stiffness;
            e = e + ((half * k) * s) * s;
        }
    }
    return e;
}

/* Each link's geometric share (sk_spring_share) where the particles are. */
static void link_shares(sk_ref_rope *r, const sk_rope_constants *c)
{
    const sk_particle *ps = r->world.particles;
    for (int i = 0; i + 1 < r->world.count; i++)
        r->implicit.share[i] = sk_spring_share(sk_rope_link_length(r->group, &r->params, c, i),
                                               sk_inverse_length(sk_vec3_length(sk_vec3_sub(ps[i].p, ps[i + 1].p))));
}

/* Places the particles at the trial point of BDF2's Newton: v = v^ + dv, p = x^ + v h (pinned ones stay). */
static void place_trial(sk_ref_rope *r, sk_real h)
{
    sk_ref_implicit *im = &r->implicit;
    sk_particle *ps = r->world.particles;
    for (int i = 0; i < r->world.count; i++)
        if (ps[i].w != 0) {
            ps[i].v = sk_vec3_add(im->v0[i], im->z[i]);
            ps[i].p = sk_vec3_add(im->x0[i], sk_vec3_scale(ps[i].v, h));
        }
}

/* BDF2's merit at the trial point z, the residual's squared norm over the unpinned particles in order (as solve
 * sums it), and in *energy the step's energy where judge: the forces' evaluation of a solve without the solve. */
static sk_real trial_merit(sk_ref_rope *r, const sk_rope_constants *c, sk_real h, bool judge, bool lines,
                           sk_real *energy)
{
    sk_ref_implicit *im = &r->implicit;
    const sk_particle *ps = r->world.particles;
    place_trial(r, h);
    sk_world_apply_forces(&r->world);
    link_blocks(r, c, true, im->share); /* which links act, for the energy */
    const bool water = lines && r->scenario->water.present;
    sk_real merit = 0;
    for (int i = 0; i < r->world.count; i++)
        if (ps[i].w != 0) {
            const sk_real mass = r->group->has_profiles
                                     ? sk_rope_particle_constants(r->scenario, r->group, &r->params, i).mass_back
                                     : c->mass_back;
            const sk_sym3 added = water ? sk_line_added_block(ps[i].line) : sk_sym3_diagonal(0);
            const sk_vec3 y = sk_vec3_scale(sk_vec3_add(ps[i].f, sk_vec3_scale(ps[i].a, mass)), c->dt);
            const sk_vec3 res = residual(im->z[i], mass, water ? &added : NULL, y);
            merit = merit + sk_vec3_dot(res, res);
        }
    *energy = judge ? step_energy(r, c) : 0;
    return merit;
}

/* BDF2 (docs/model.md section 2.1): x_(n+1) = x^ + h v_(n+1), M (v_(n+1) - v^) = h F(x_(n+1), v_(n+1)), with
 * x^ = x_n + (x_n - x_(n-1)) / 3 (the same for v^; model/bdf2.h) and h = 2 dt / 3; the first step, with no state
 * before it, is backward Euler (x^ = x_n, h = dt). Each is solved by Newton (the trial point z holds dv) from the
 * velocity extrapolated from the steps before (linearly from two, quadratically from three), every solve the
 * block-tridiagonal one, with a backtracking line search: a solve at an accepted trial gives the next trial, which
 * is then judged by its merit (the residual's squared norm) and, where energy_judges, the step's energy without a
 * solve (sk_bdf2_accept, sk_bdf2_energy_accept); refused, it moves back towards the accepted point (alpha halved).
 * The rope stops once a solve moved no velocity component by more than the tolerance or its moves contracted
 * enough (sk_bdf2_moves_converged), taking the solve's result, or once an accepted full step's residual contracted
 * enough (sk_bdf2_rate_converged), taking that trial. */
static void bdf2_step(sk_ref_rope *r)
{
    sk_ref_implicit *im = &r->implicit;
    sk_world *w = &r->world;
    sk_particle *ps = w->particles;
    const int n = w->count;
    const sk_rope_constants *c = im->prev_steps > 0 ? &r->c_bdf2 : &r->c;
    const sk_real h = c->dt, tol = r->scenario->implicit_tolerance;
    for (int i = 0; i < n; i++) {
        const bool moves = ps[i].w != 0 && im->prev_steps > 0;
        im->x0[i] = moves ? sk_bdf2_start(ps[i].p, im->prev_p[i]) : ps[i].p;
        im->v0[i] = moves ? sk_bdf2_start(ps[i].v, im->prev_v[i]) : ps[i].v;
        /* Newton starts from the velocity extrapolated from the steps before: quadratically from three */
        im->z[i] = !moves                ? sk_vec3_zero()
                   : im->prev_steps > 1 ? sk_bdf2_predict2(ps[i].v, im->prev_v[i], im->prev_v2[i])
                                        : sk_bdf2_predict(ps[i].v, im->prev_v[i]);
        im->prev_v2[i] = im->prev_v[i];
        im->prev_p[i] = ps[i].p;
        im->prev_v[i] = ps[i].v;
        im->acc[i] = im->target[i] = sk_vec3_zero();
    }
    im->prev_steps = im->prev_steps < SK_BDF2_STEPS_KEPT ? im->prev_steps + 1 : SK_BDF2_STEPS_KEPT;
    /* the links' geometric shares at the step's start, where the tensions are the motion's: the trial point's
     * own (Newton's exact Jacobian) would take the predictor's stretch, far stiffer or slacker than the rope;
     * from SK_BDF2_OWN_SHARE_SOLVE on, the trial's */
    link_shares(r, c);
    const bool judge = energy_judges(r), lines = line_blocks(r);
    sk_real alpha = 1, accepted = 0, energy_accepted = 0, slope = 0;
    sk_real last_move = 0; /* the last solve's move, where it was a full step (alpha 1), else 0 */
    bool converged = false;
    int solves = 0;
    while (solves < r->scenario->implicit_iterations) {
        const sk_real prev_move = alpha == 1 ? last_move : 0;
        /* a solve at the accepted trial point */
        place_trial(r, h);
        sk_world_apply_forces(w);
        if (solves >= SK_BDF2_OWN_SHARE_SOLVE)
            link_shares(r, c);
        link_blocks(r, c, true, im->share);
        sk_real merit = 0;
        solve(r, c, true, lines, &merit);
        solves++;
        accepted = merit;
        energy_accepted = judge ? step_energy(r, c) : 0;
        alpha = 1;
        /* the energy's slope along the solve's step, r . (t - a), summed from the last row up */
        slope = 0;
        for (int i = n - 1; i >= 0; i--)
            if (ps[i].w != 0)
                slope = slope + sk_vec3_dot(im->res[i], sk_vec3_sub(im->dv[i], im->z[i]));
        bool within = true;
        sk_real move = 0; /* the largest component of t - a */
        for (int i = 0; i < n; i++) {
            if (ps[i].w == 0)
                continue;
            const sk_vec3 d = sk_vec3_sub(im->dv[i], im->z[i]);
            within = within && d.x >= -tol && d.x <= tol && d.y >= -tol && d.y <= tol && d.z >= -tol && d.z <= tol;
            const sk_real ax = d.x < 0 ? -d.x : d.x, ay = d.y < 0 ? -d.y : d.y, az = d.z < 0 ? -d.z : d.z;
            move = ax > move ? ax : move;
            move = ay > move ? ay : move;
            move = az > move ? az : move;
            im->acc[i] = im->z[i];
            im->target[i] = im->dv[i];
            im->z[i] = im->dv[i];
        }
        if (within || sk_bdf2_moves_converged(move, prev_move, tol)) {
            converged = true;
            break;
        }
        last_move = move;
        /* the next trial judged by its merit and energy alone, without a solve: refused, it moves back towards the
         * accepted point until one is accepted (sk_bdf2_accept takes the trial at ALPHA_MIN) */
        for (;;) {
            sk_real energy;
            merit = trial_merit(r, c, h, judge, lines, &energy);
            if (sk_bdf2_accept(merit, accepted, alpha) ||
                (judge && sk_bdf2_energy_accept(energy, energy_accepted, slope, alpha)))
                break;
            alpha = alpha * (sk_real)0.5;
            for (int i = 0; i < n; i++)
                if (ps[i].w != 0)
                    im->z[i] = sk_vec3_add(im->acc[i], sk_vec3_scale(sk_vec3_sub(im->target[i], im->acc[i]), alpha));
        }
        if (alpha == 1 && sk_bdf2_rate_converged(merit, accepted, move, tol)) {
            converged = true;
            break;
        }
    }
    im->solves = solves;
    im->unconverged += !converged;
    take_step(r, im->z, h);
}
