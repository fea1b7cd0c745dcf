/* Reference engine: a rope's static equilibrium (docs/model.md section 2.3), solved before step 0. Newton on
 * the static forces R(x) = f(x) + a m~ = 0 of the unpinned particles (velocities 0), each step the implicit
 * integrator's block-tridiagonal solve with a pseudo step tau: (M / tau^2 + K) dx = R, K the links' and the
 * anchor's stiffness blocks (geometric stiffness kept; slack bungees and compressed transverse parts have none:
 * M / tau^2 keeps the system definite, and dx a direction in which the potential energy falls). The line search
 * takes the longest of 1, 1/2, ... 1/64 of dx along which the potential energy falls by a part of what R . dx
 * promises, or |R|^2 falls (near the solution, where the energy's change is below its round-off); tau grows
 * fourfold after a full step and shrinks fourfold when no part of dx is taken, so the iteration is Newton's
 * near the solution and a damped descent far from it (a rope laid out compressed buckles: |R|^2 alone rises
 * there). The fixed point is R = 0 whatever tau. A line's statics (docs/model.md 3.6, 3.7) takes the water
 * without its waves, and its buoyancy across the surface and the seabed's stiffness in the diagonal blocks. */
#include <math.h>
#include <stdlib.h>

#include "model/bdf2.h"
#include "model/ground.h"
#include "model/profile.h"
#include "model/real_math.h"
#include "model/water_flow.h"
#include "reference/rope_impl.h"

/* A rigid ground at rest (docs/model.md 2.3), as a compliant one: particle i below its height h_i by pen pushed
 * up by k pen^2 / (2 e) within the first e of depth, k (pen - e/2) below (a force and a stiffness without
 * jumps, as Newton needs where the touchdown moves from particle to particle). h_i is the ground's own height
 * raised by the depth at which that force is what the particle's contact carries (contacts_at_rest). */
typedef struct ground_penalty {
    sk_real k, e;
    const sk_real *height; /* per particle */
} ground_penalty;

static sk_real ground_push(const ground_penalty *g, int i, sk_real y)
{
    const sk_real pen = g->height[i] - y;
    return pen <= 0 ? 0 : pen < g->e ? (g->k * pen) * (pen / (2 * g->e)) : g->k * (pen - g->e * (sk_real)0.5);
}

/* The depth at which the push is `push` (>= 0). */
static sk_real ground_depth(const ground_penalty *g, sk_real push)
{
    return push < g->k * g->e * (sk_real)0.5 ? SK_SQRT((2 * g->e) * (push / g->k)) : push / g->k + g->e * (sk_real)0.5;
}

static sk_real ground_energy(const ground_penalty *g, int i, sk_real y)
{
    const sk_real pen = g->height[i] - y, e = g->e;
    return pen <= 0  ? 0
           : pen < e ? ((g->k * pen) * pen) * (pen / (6 * e))
                     : g->k * ((pen * pen) * (sk_real)0.5 - (e * pen) * (sk_real)0.5 + (e * e) / 6);
}

static sk_real ground_stiffness(const ground_penalty *g, int i, sk_real y)
{
    const sk_real pen = g->height[i] - y;
    return pen <= 0 ? 0 : pen < g->e ? g->k * (pen / g->e) : g->k;
}

/* The static forces at the particles' positions: R_i = f_i + a_i m~_i of each unpinned particle (the ground's
 * penalty added to f_i where there is one), and |R|^2 summed in order and its largest component. */
static sk_real static_residual(sk_ref_rope *r, const ground_penalty *ground, sk_real *largest)
{
    sk_world *w = &r->world;
    sk_particle *ps = w->particles;
    sk_world_apply_forces(w);
    if (ground)
        for (int i = 0; i < w->count; i++)
            if (ps[i].w != 0)
                ps[i].f.y = ps[i].f.y + ground_push(ground, i, ps[i].p.y);
    sk_real merit = 0, most = 0;
    for (int i = 0; i < w->count; i++) {
        if (ps[i].w == 0)
            continue;
        const sk_vec3 f = sk_vec3_add(ps[i].f, sk_vec3_scale(ps[i].a, (sk_real)1 / ps[i].w));
        merit = merit + sk_vec3_dot(f, f);
        const sk_real m = fmax(fabs(f.x), fmax(fabs(f.y), fabs(f.z)));
        most = !(m <= most) ? m : most; /* NaN sticks */
    }
    *largest = most;
    return merit;
}

/* R . dx at the particles' positions (static_residual's forces): where positive the potential energy still
 * falls along dx = tau dv. */
static sk_real slope_along(const sk_ref_rope *r, sk_real tau)
{
    const sk_particle *ps = r->world.particles;
    sk_real s = 0;
    for (int i = 0; i < r->world.count; i++)
        if (ps[i].w != 0)
            s = s + sk_vec3_dot(sk_vec3_add(ps[i].f, sk_vec3_scale(ps[i].a, (sk_real)1 / ps[i].w)),
                                sk_vec3_scale(r->implicit.dv[i], tau));
    return s;
}

/* G(y), the integral over height of the submerged part lf(y) = l clamp((y_s - y) / l + 1/2, 0, 1) of a line's
 * share l (G' = lf): l (y - lo) below the band [lo, hi] = [y_s - l/2, y_s + l/2] the share crosses the surface
 * in, l^2 / 2 above it, (l^2 - (hi - y)^2) / 2 within. */
static sk_real submerged_integral(sk_real surface, sk_real l, sk_real y)
{
    const sk_real lo = surface - l * (sk_real)0.5, hi = surface + l * (sk_real)0.5;
    return y <= lo ? l * (y - lo) : y >= hi ? (l * l) * (sk_real)0.5 : (l * l - (hi - y) * (hi - y)) * (sk_real)0.5;
}

/* A line particle's potential energy in the water and on the seabed (docs/model.md sections 3.6, 3.7, at rest):
 * the buoyancy b lf, b = -(rho A) g, as -b.y G(y) - (b.x x + b.z z) lf (exact where gravity is vertical), the
 * seabed's (k d l) pen^2 / 2 where it is penetrated, and the current's Morison drag at rest, taken as the constant
 * force F it is at p, -F . p (exact only where F does not change with the position: a current that changes with
 * height or a line whose tangent turns makes it an estimate, which the line search only compares). */
static sk_real line_potential(const sk_ref_rope *r, int i)
{
    const sk_line_force *lf = &r->lines[i];
    const sk_rope_constants *c = &r->c;
    const sk_vec3 p = r->world.particles[i].p;
    sk_real u = 0;
    if (lf->water) {
        sk_real frac = (c->water_surface - p.y) / lf->share + (sk_real)0.5;
        frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
        const sk_real sub = lf->share * frac;
        const sk_vec3 b = c->line_buoyancy;
        u = u - b.y * submerged_integral(c->water_surface, lf->share, p.y) - (b.x * p.x + b.z * p.z) * sub;
        sk_vec3 flow, acc;
        sk_water_flow(&lf->scenario->water, p, *lf->time, &flow, &acc);
        const sk_vec3 prev = lf->prev ? sk_vec3_unit(sk_vec3_sub(p, lf->prev->p)) : sk_vec3_zero();
        const sk_vec3 next = lf->next ? sk_vec3_unit(sk_vec3_sub(lf->next->p, p)) : sk_vec3_zero();
        const sk_vec3 q = sk_line_tangent(prev, next);
        const sk_vec3 along = sk_vec3_scale(q, sk_vec3_dot(flow, q)), across = sk_vec3_sub(flow, along);
        const sk_vec3 drag = sk_vec3_add(sk_vec3_scale(across, (sk_vec3_length(across) * c->line_dn) * sub),
                                         sk_vec3_scale(along, (sk_vec3_length(along) * c->line_dt) * sub));
        u = u - sk_vec3_dot(drag, p);
    }
    if (lf->seabed) {
        const sk_real pen = r->scenario->ground_height - p.y;
        if (pen > 0)
            u = u + ((c->seabed_k * lf->share) * pen) * (pen * (sk_real)0.5);
    }
    return u;
}

/* The stiffness along y of a line particle's own static forces: the buoyancy's b.y where its share crosses the
 * surface (lf falls by 1 per metre it rises; only where b points up, which keeps the block definite) and the
 * seabed's k d l where it is penetrated. The water's drag at rest adds none: it is kept explicit. */
static sk_real line_vertical_stiffness(const sk_ref_rope *r, int i)
{
    const sk_line_force *lf = &r->lines[i];
    const sk_rope_constants *c = &r->c;
    const sk_real y = r->world.particles[i].p.y;
    sk_real k = 0;
    if (lf->water) {
        const sk_real frac = (c->water_surface - y) / lf->share + (sk_real)0.5;
        if (frac > 0 && frac < 1 && c->line_buoyancy.y > 0)
            k = k + c->line_buoyancy.y;
    }
    if (lf->seabed && r->scenario->ground_height - y > 0)
        k = k + c->seabed_k * lf->share;
    return k;
}

/* The potential energy of the static forces: gravity and the elastic energies (the diagnostics'), buoyancy's
 * -rho V times the integral of the submerged fraction over the height, the current's drag at rest as a
 * constant force, -F . x (exact where the flow has no gradient), the force objects' and a line's water and seabed. *size gets the
 * sum of its terms' magnitudes, which bounds its round-off. */
static sk_real potential(const sk_ref_rope *r, const ground_penalty *ground, sk_real *size)
{
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(r, &d, NULL);
    sk_real u = d.gravity + d.elastic, mag = fabs(d.gravity) + fabs(d.elastic);
    const sk_group *g = r->group;
    const sk_rope_params *rp = &r->params;
    const sk_particle *ps = r->world.particles;
    for (int i = 0; i < r->world.count; i++) {
        if (ps[i].w == 0)
            continue;
        if (g->has_buoyancy) {
            const sk_real m = rp->buoyancy_max_depth, lo = rp->buoyancy_water_height - m, hi = lo + 2 * m,
                          y = ps[i].p.y;
            const sk_real depth = y <= lo ? y - lo : y >= hi ? m : (4 * m * m - (hi - y) * (hi - y)) / (4 * m);
            u = u - (rp->buoyancy_density * rp->buoyancy_volume) * depth;
        }
        if (g->has_drag) {
            const sk_vec3 flow = g->has_flow ? sk_vec3_add(rp->flow_velocity, sk_vec3_scale(rp->flow_gradient, ps[i].p.y))
                                             : sk_vec3_zero();
            const sk_real speed = sk_vec3_length(flow);
            const sk_vec3 f = sk_vec3_scale(sk_vec3_unit(flow), rp->drag_k1 * speed + (rp->drag_k2 * speed) * speed);
            u = u - sk_vec3_dot(f, ps[i].p);
        }
        if (g->force_objects) {
            const sk_real t = sk_object_force_potential(rp, g->force_objects, &ps[i]);
            u = u + t;
            mag = mag + fabs(t);
        }
        if (g->has_line) {
            const sk_real t = line_potential(r, i);
            u = u + t;
            mag = mag + fabs(t);
        }
        if (ground) {
            const sk_real t = ground_energy(ground, i, ps[i].p.y);
            u = u + t;
            mag = mag + t;
        }
    }
    *size = mag;
    return u;
}

/* The first pseudo step: the slowest a link can pull a particle back, sqrt(m / k) of the rope's constants. */
static sk_real first_tau(const sk_ref_rope *r)
{
    const sk_real k = r->group->link == SK_LINK_SPRING || r->group->link == SK_LINK_BUNGEE ? r->params.link_stiffness
                                                                                           : r->params.anchor_stiffness;
    const sk_real tau = SK_SQRT(r->c.mass_back / (k > 0 ? k : 1));
    return isfinite(tau) && tau > 0 ? tau : 1;
}

static int solve(sk_ref_rope *r, sk_real tolerance, int iterations, sk_real *vertical, const ground_penalty *ground)
{
    sk_world *w = &r->world;
    sk_particle *ps = w->particles;
    const int n = w->count;
    sk_ref_implicit *im = &r->implicit;
    if (!im->dv && !sk_ref_implicit_init(im, w->capacity))
        return -1;
    for (int i = 0; i < n; i++) {
        ps[i].v = sk_vec3_zero();
        ps[i].q = ps[i].p; /* verlet's velocity (p - q) / dt: 0 */
        im->z[i] = sk_vec3_zero();
    }
    sk_scenario pseudo = *r->scenario; /* read only: the scenario with the pseudo step */
    sk_rope_constants c;
    sk_real tau = first_tau(r), largest;
    sk_real merit = static_residual(r, ground, &largest);
    for (int it = 0; it < iterations; it++) {
        if (largest <= tolerance)
            return it;
        if (!isfinite(merit))
            return -1;
        pseudo.dt = tau;
        sk_rope_constants_compute(&pseudo, r->group, &r->params, &c);
        if (vertical)
            for (int i = 0; i < n; i++)
                vertical[i] = ps[i].w == 0 ? 0
                              : ((r->group->has_line ? line_vertical_stiffness(r, i) : 0) +
                                 (ground ? ground_stiffness(ground, i, ps[i].p.y) : 0)) *
                                    (tau * tau);
        sk_ref_implicit_linear_solve(r, &c); /* (M + tau^2 K) dv = tau R: dx = tau dv */
        const sk_real promise = slope_along(r, tau); /* the energy's fall at the start of the step, per unit step */
        for (int i = 0; i < n; i++)
            im->x0[i] = ps[i].p;
        sk_real size;
        const sk_real energy = potential(r, ground, &size);
        /* a line's (stiff links over long spans, where the jumper stalled on falls of P within its round-off):
         * such a fall, within its terms' magnitudes times a few ulps, decides nothing, |R|^2 does. Other ropes
         * keep the plain test, which their float solves need (W3's tether took no step with it in float). */
        const sk_real noise = r->group->has_line ? (16 * SK_REAL_EPSILON) * size : 0;
        sk_real alpha = 1, trial = merit, trial_largest = largest;
        bool taken = false;
        while (alpha >= SK_BDF2_ALPHA_MIN / 4) {
            for (int i = 0; i < n; i++)
                if (ps[i].w != 0)
                    ps[i].p = sk_vec3_add(im->x0[i], sk_vec3_scale(im->dv[i], tau * alpha));
            /* the energy first: its diagnosis sums the registry's forces again, which the residual then
             * leaves with the ground's penalty for the solve and the slope */
            const sk_real fall = energy - potential(r, ground, &size);
            trial = static_residual(r, ground, &trial_largest);
            /* A fall within the energy's round-off decides nothing; the static forces at the trial, still
             * pulling along dx, say the energy fell all the way there (a float line laid out compressed falls by
             * less than its round-off per step while its |R|^2 rises as it buckles). */
            if (fall >= SK_BDF2_ARMIJO * alpha * promise + noise || trial <= merit * ((sk_real)1 - SK_BDF2_ARMIJO * alpha) ||
                (fabs(fall) <= noise && slope_along(r, tau) > 0)) {
                taken = true;
                break;
            }
            alpha = alpha * (sk_real)0.5;
        }
        if (!taken) { /* no decrease along this step: back to the point, a shorter pseudo step */
            for (int i = 0; i < n; i++)
                ps[i].p = im->x0[i];
            merit = static_residual(r, ground, &largest);
            tau = tau * (sk_real)0.25;
            continue;
        }
        merit = trial;
        largest = trial_largest;
        if (alpha == 1)
            tau = tau * 4;
    }
    return largest <= tolerance ? iterations : -1;
}

/* The stand-ins' common stiffness: stiff against the rope's weight over a link (1e4 W / L), so that the rest
 * lengths' updates converge fast, but no stiffer than the forces' round-off allows the tolerance to be met at
 * (k |x| eps, |x| the largest coordinate). */
static sk_real stand_in_stiffness(const sk_ref_rope *r, sk_real tolerance, sk_real extent, sk_real span)
{
    const sk_particle *ps = r->world.particles;
    sk_real weight = 0;
    for (int i = 0; i < r->world.count; i++)
        if (ps[i].w != 0)
            weight = weight + sk_vec3_length(r->scenario->gravity) / ps[i].w;
    const sk_real most = tolerance / ((4 * SK_REAL_EPSILON) * extent);
    const sk_real k = (weight * (sk_real)1e4) / span;
    return k > 0 && k < most ? k : most;
}

/* The length a rod or stretched cable, or the anchor's constraint, is off by (0 for a slack cable). */
static sk_real violation(sk_real l, sk_real length, bool cable)
{
    return cable ? (l > length ? l - length : 0) : fabs(l - length);
}

/* The rest length of a stand-in whose constraint has length `length`, that carries its force at that length:
 * length - tension / k, the tension the stand-in of rest length `rest` carries at l (none when a slack cable). */
static sk_real carrying_rest(sk_real l, sk_real rest, sk_real length, sk_real k, bool cable)
{
    const sk_real tension = k * (l - rest);
    return length - (cable && tension < 0 ? 0 : tension) / k;
}

/* Contacts at rest (docs/model.md 2.3): rods and cables, rod and cable anchors and a rigid ground hold exact
 * lengths and heights, which Newton on the static forces cannot take as they are. They are solved as stiff
 * stand-ins (rods as springs, cables as bungees, the anchors' constraints as anchored springs and bungees, the
 * ground as a penalty) whose rest lengths and heights are moved after each solve by what each carries (an
 * augmented Lagrangian): at the fixed point each stand-in carries its constraint's force at the constraint's
 * exact length or height. Stops when every rod (and stretched cable) is within delta of its length and every
 * particle the ground holds within delta of its height; those are then put on it. The rope is left with its
 * own links and contacts. */
static int contacts_at_rest(sk_ref_rope *r, sk_real tolerance, int iterations)
{
    const sk_scenario *real_s = r->scenario;
    const sk_group *real_g = r->group;
    const sk_rope_params real_params = r->params;
    const sk_rope_constants real_c = r->c;
    const sk_anchored_spring_force real_anchor = r->anchor_spring;
    sk_particle *ps = r->world.particles;
    const int n = r->world.count, cap = r->world.capacity;
    const bool links = real_g->link == SK_LINK_ROD || real_g->link == SK_LINK_CABLE;
    const bool anchor = real_g->anchor == SK_ANCHOR_ROD || real_g->anchor == SK_ANCHOR_CABLE;
    const bool ground = sk_scenario_rigid_ground(real_s);
    const bool cable = real_g->link == SK_LINK_CABLE, anchor_cable = real_g->anchor == SK_ANCHOR_CABLE;
    sk_real *length = calloc((size_t)cap, sizeof *length), *rest = calloc((size_t)cap, sizeof *rest);
    sk_real *vertical = calloc((size_t)cap, sizeof *vertical), *height = calloc((size_t)cap, sizeof *height);
    if (!length || !rest || !vertical || !height || (!r->implicit.dv && !sk_ref_implicit_init(&r->implicit, cap))) {
        free(length), free(rest), free(vertical), free(height);
        return -1;
    }
    sk_real extent = fabs(r->anchor.x) + fabs(r->anchor.y) + fabs(r->anchor.z), span = 0;
    for (int i = 0; i < n; i++)
        extent = fmax(extent, fmax(fabs(ps[i].p.x), fmax(fabs(ps[i].p.y), fabs(ps[i].p.z))));
    for (int i = 0; i + 1 < n; i++) {
        length[i] = rest[i] = sk_rope_link_length(real_g, &real_params, &real_c, i);
        span = span + length[i];
    }
    span = n > 1 ? span / (sk_real)(n - 1) : real_params.anchor_length;
    extent = extent + (span > 0 ? span : 1);
    const sk_real k = stand_in_stiffness(r, tolerance, extent, span > 0 ? span : 1);
    const sk_real delta = fmax((64 * SK_REAL_EPSILON) * extent, (4 * tolerance) / k);
    /* the smooth band: four times the depth the heaviest particle alone sinks to */
    sk_real heaviest = 0;
    for (int i = 0; i < n; i++)
        heaviest = ps[i].w != 0 ? fmax(heaviest, 1 / ps[i].w) : heaviest;
    const ground_penalty penalty = {k, (4 * heaviest * sk_vec3_length(real_s->gravity)) / k, height};
    const sk_real floor = real_s->ground_height;
    for (int i = 0; i < n; i++)
        height[i] = floor;
    sk_real anchor_rest = real_params.anchor_length;

    sk_scenario stand_s = *real_s;
    sk_group stand_g = *real_g;
    if (ground)
        stand_s.has_ground = false;
    if (links) {
        stand_g.link = cable ? SK_LINK_BUNGEE : SK_LINK_SPRING;
        stand_g.length_profile = SK_PROFILE_LIST;
        stand_g.length_list = rest;
        stand_g.stiffness_profile = SK_PROFILE_NONE;
        stand_g.has_link_damping = false;
        r->params.link_stiffness = k;
    }
    if (anchor) {
        stand_g.anchor = anchor_cable ? SK_ANCHOR_BUNGEE : SK_ANCHOR_SPRING;
        r->params.anchor_stiffness = k;
    }
    r->scenario = &stand_s;
    r->group = &stand_g;
    r->implicit.vertical = ground ? vertical : NULL;
    int used = 0, result = -1;
    for (int round = 0; used < iterations && round < iterations; round++) {
        r->params.anchor_length = anchor_rest;
        sk_rope_constants_compute(&stand_s, &stand_g, &r->params, &r->c);
        sk_ref_rope_register(r);
        r->anchor_spring.rest_length = anchor_rest;
        r->anchor_spring.stiffness = anchor ? k : r->anchor_spring.stiffness;
        const int solves = solve(r, tolerance, iterations - used, ground ? vertical : NULL, ground ? &penalty : NULL);
        if (solves < 0)
            break;
        used = used + solves;
        sk_real worst = 0;
        if (links)
            for (int i = 0; i + 1 < n; i++) {
                const sk_real l = sk_vec3_length(sk_vec3_sub(ps[i + 1].p, ps[i].p));
                worst = fmax(worst, violation(l, length[i], cable));
                rest[i] = carrying_rest(l, rest[i], length[i], k, cable);
            }
        if (anchor) {
            const sk_real l = sk_vec3_length(sk_vec3_sub(ps[sk_ref_rope_held(r)].p, r->anchor));
            worst = fmax(worst, violation(l, real_params.anchor_length, anchor_cable));
            anchor_rest = carrying_rest(l, anchor_rest, real_params.anchor_length, k, anchor_cable);
        }
        if (ground)
            for (int i = 0; i < n; i++) {
                const sk_real push = ground_push(&penalty, i, ps[i].p.y);
                if (ps[i].w != 0 && (push > 0 || ps[i].p.y < floor))
                    worst = fmax(worst, fabs(ps[i].p.y - floor));
                height[i] = floor + (push > 0 ? ground_depth(&penalty, push) : 0);
            }
        if (worst <= delta) {
            result = used;
            break;
        }
    }
    if (ground) /* on the ground: those below it, and those within the solve's reach of it */
        for (int i = 0; i < n; i++)
            ps[i].p.y = ps[i].w != 0 && ps[i].p.y < floor + delta ? floor : ps[i].p.y;
    r->implicit.vertical = NULL;
    r->scenario = real_s;
    r->group = real_g;
    r->params = real_params;
    r->c = real_c;
    r->anchor_spring = real_anchor;
    sk_ref_rope_register(r);
    free(length), free(rest), free(vertical), free(height);
    return result;
}

/* Bungees solved first as springs: laid out shorter than the rope, slack bungees have no stiffness, and the
 * solve is a slow descent until they come taut (the validation jumper took 5631 solves so, 313 this way);
 * springs push the rope out to its length. Where every link ends taut that is the bungees' rest too; the solve
 * with the bungees then goes on from it (no solve where nothing is left to do) with the solves the first left:
 * both count against the budget, and springs that spend it all leave the rope not at rest. */
static int solve_bungees_as_springs(sk_ref_rope *r, sk_real tolerance, int iterations, sk_real *vertical)
{
    const sk_group *real_g = r->group;
    sk_group springs = *real_g;
    springs.link = SK_LINK_SPRING;
    r->group = &springs;
    sk_ref_rope_register(r);
    const int first = solve(r, tolerance, iterations, vertical, NULL);
    r->group = real_g;
    sk_ref_rope_register(r);
    if (first < 0)
        return -1;
    const int then = solve(r, tolerance, iterations - first, vertical, NULL);
    return then < 0 ? -1 : first + then;
}

int sk_ref_rope_equilibrium(sk_ref_rope *r, sk_real tolerance, int iterations)
{
    if (sk_group_has_contacts(r->scenario, r->group))
        return contacts_at_rest(r, tolerance, iterations);
    if (!r->group->has_line)
        return r->group->link == SK_LINK_BUNGEE ? solve_bungees_as_springs(r, tolerance, iterations, NULL)
                                                : solve(r, tolerance, iterations, NULL, NULL);
    /* A line's statics: the water without its waves (their kinematics are no steady load; the current is), and
     * the line's own vertical stiffness in the solve's diagonal blocks. */
    sk_real *vertical = malloc((size_t)r->world.capacity * sizeof *vertical);
    if (!vertical || (!r->implicit.dv && !sk_ref_implicit_init(&r->implicit, r->world.capacity))) {
        free(vertical);
        return -1;
    }
    sk_scenario still = *r->scenario;
    still.water.waves = false;
    for (int i = 0; i < r->world.count; i++)
        r->lines[i].scenario = &still;
    r->implicit.vertical = vertical;
    const int solves = r->group->link == SK_LINK_BUNGEE ? solve_bungees_as_springs(r, tolerance, iterations, vertical)
                                                        : solve(r, tolerance, iterations, vertical, NULL);
    r->implicit.vertical = NULL;
    for (int i = 0; i < r->world.count; i++)
        r->lines[i].scenario = r->scenario;
    free(vertical);
    return solves;
}
