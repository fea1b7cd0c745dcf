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
#include "model/real_math.h"
#include "model/water_flow.h"
#include "reference/rope_impl.h"

/* The static forces at the particles' positions: R_i = f_i + a_i m~_i of each unpinned particle, and |R|^2
 * summed in order and its largest component. */
static sk_real static_residual(sk_ref_rope *r, sk_real *largest)
{
    sk_world *w = &r->world;
    sk_particle *ps = w->particles;
    sk_world_apply_forces(w);
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
 * constant force, -F . x (exact where the flow has no gradient), and a line's water and seabed. *size gets the
 * sum of its terms' magnitudes, which bounds its round-off. */
static sk_real potential(const sk_ref_rope *r, sk_real *size)
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
        if (g->has_line) {
            const sk_real t = line_potential(r, i);
            u = u + t;
            mag = mag + fabs(t);
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

static int solve(sk_ref_rope *r, sk_real tolerance, int iterations, sk_real *vertical)
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
    sk_real merit = static_residual(r, &largest);
    for (int it = 0; it < iterations; it++) {
        if (largest <= tolerance)
            return it;
        if (!isfinite(merit))
            return -1;
        pseudo.dt = tau;
        sk_rope_constants_compute(&pseudo, r->group, &r->params, &c);
        if (vertical)
            for (int i = 0; i < n; i++)
                vertical[i] = ps[i].w != 0 ? line_vertical_stiffness(r, i) * (tau * tau) : 0;
        sk_ref_implicit_linear_solve(r, &c); /* (M + tau^2 K) dv = tau R: dx = tau dv */
        const sk_real promise = slope_along(r, tau); /* the energy's fall at the start of the step, per unit step */
        for (int i = 0; i < n; i++)
            im->x0[i] = ps[i].p;
        sk_real size;
        const sk_real energy = potential(r, &size);
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
            trial = static_residual(r, &trial_largest);
            const sk_real fall = energy - potential(r, &size);
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
            merit = static_residual(r, &largest);
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

int sk_ref_rope_equilibrium(sk_ref_rope *r, sk_real tolerance, int iterations)
{
    if (!r->group->has_line)
        return solve(r, tolerance, iterations, NULL);
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
    const int solves = solve(r, tolerance, iterations, vertical);
    r->implicit.vertical = NULL;
    for (int i = 0; i < r->world.count; i++)
        r->lines[i].scenario = r->scenario;
    free(vertical);
    return solves;
}
