/* A line in water and on a compliant seabed, one particle at a time (docs/model.md sections 3.6 and 3.7):
 * the scalar form of kernels/line_water.h, with the same operations in the same order, so the reference
 * engine and the batch engine agree bit for bit. */
#ifndef SKEIN_MODEL_LINE_WATER_H
#define SKEIN_MODEL_LINE_WATER_H

#include "model/rope_constants.h"
#include "model/sym3.h"
#include "model/vec3.h"

/* A particle's mass matrix m I + rho V (Can (I - q q^T) + Cat q q^T), inverted in closed form: the
 * acceleration of force F is (F - q (gamma (q . F))) inv. With it what the implicit integrator's blocks take
 * (docs/model.md section 2.1): the added mass an lf and at lf, the drag's unit normal relative velocity w
 * and its coefficients cn = (|vn| dn) lf, ct = (|vq| dt) lf, and the seabed's k d l and c d l where it
 * pushes (0 elsewhere). */
typedef struct sk_line_inertia {
    sk_vec3 q, w;
    sk_real inv, gamma, added_n, added_t, cn, ct, bed_k, bed_c;
} sk_line_inertia;

/* The line's tangent at a particle: the normalised sum of its links' unit vectors (prev from the particle
 * before to this one, next from this one to the next; the zero vector where a link is absent). */
static inline sk_vec3 sk_line_tangent(sk_vec3 prev, sk_vec3 next) { return sk_vec3_unit(sk_vec3_add(prev, next)); }

/* The water's force on a particle at p moving at v, of share `share` of the line with tangent q, in water
 * moving at u with acceleration a there: buoyancy, Morison drag (normal, then tangential), Froude-Krylov,
 * each times the submerged part of the share, lf = share * clamp((surface - y) / share + 1/2, 0, 1). Also
 * the particle's inertia with the added mass (mass m). */
static inline sk_vec3 sk_line_water_force(const sk_rope_constants *c, sk_real share, sk_vec3 q, sk_vec3 p, sk_vec3 v,
                                          sk_vec3 u, sk_vec3 a, sk_real m, sk_line_inertia *inertia)
{
    sk_real frac = (c->water_surface - p.y) / share + (sk_real)0.5;
    frac = frac < 0 ? 0 : frac;
    frac = frac > 1 ? 1 : frac;
    const sk_real lf = share * frac;
    const sk_vec3 vr = sk_vec3_sub(u, v);
    const sk_vec3 vrq = sk_vec3_scale(q, sk_vec3_dot(vr, q));
    const sk_vec3 vrn = sk_vec3_sub(vr, vrq);
    sk_vec3 f = sk_vec3_scale(c->line_buoyancy, lf);
    const sk_real cn = (sk_vec3_length(vrn) * c->line_dn) * lf, ct = (sk_vec3_length(vrq) * c->line_dt) * lf;
    f = sk_vec3_add(f, sk_vec3_scale(vrn, cn));
    f = sk_vec3_add(f, sk_vec3_scale(vrq, ct));
    const sk_vec3 aq = sk_vec3_scale(q, sk_vec3_dot(a, q));
    const sk_vec3 an = sk_vec3_sub(a, aq);
    f = sk_vec3_add(f, sk_vec3_scale(sk_vec3_add(sk_vec3_scale(an, c->line_fn), sk_vec3_scale(aq, c->line_ft)), lf));
    const sk_real added_n = c->line_an * lf, added_t = c->line_at * lf;
    inertia->q = q;
    inertia->inv = (sk_real)1 / (m + added_n);
    inertia->gamma = (added_t - added_n) / (m + added_t);
    inertia->added_n = added_n;
    inertia->added_t = added_t;
    inertia->w = sk_vec3_unit(vrn);
    inertia->cn = cn;
    inertia->ct = ct;
    return f;
}

/* The acceleration of a particle of inertia `in` under force f and acceleration field g (its mass m):
 * F = g m + f, then (F - q (gamma (q . F))) inv. */
static inline sk_vec3 sk_line_acceleration(const sk_line_inertia *in, sk_vec3 g, sk_real m, sk_vec3 f)
{
    const sk_vec3 F = sk_vec3_add(sk_vec3_scale(g, m), f);
    return sk_vec3_scale(sk_vec3_sub(F, sk_vec3_scale(in->q, in->gamma * sk_vec3_dot(in->q, F))), in->inv);
}

/* The compliant seabed's force on a particle of share `share` at p moving at v (ground at height y0): the
 * normal force N = max((k d share) pen - (c d share) v.y, 0) on a penetration pen = y0 - p.y > 0 (N = 0
 * elsewhere), and with friction mu_k a force against the horizontal velocity vh, mu_k N / max(|vh|, slip)
 * times vh: Coulomb's mu_k N when sliding faster than the slip speed, growing linearly to it below. Its
 * stiffness k d share and damping c d share where N > 0 (0 elsewhere) go to the implicit integrator's block. */
static inline sk_vec3 sk_line_seabed_force(const sk_rope_constants *c, sk_real share, sk_real ground_y, bool friction,
                                           sk_real mu_k, sk_vec3 p, sk_vec3 v, sk_vec3 f, sk_line_inertia *inertia)
{
    const sk_real pen = ground_y - p.y;
    const sk_real ks = c->seabed_k * share, cs = c->seabed_c * share;
    sk_real normal = ks * pen - cs * v.y;
    const bool pushes = pen > 0 && normal > 0;
    normal = pushes ? normal : 0;
    inertia->bed_k = pushes ? ks : 0;
    inertia->bed_c = pushes ? cs : 0;
    f.y = f.y + normal;
    if (friction) {
        const sk_real slide = SK_SQRT(v.x * v.x + v.z * v.z);
        const sk_real r = (mu_k * normal) / (slide > c->slip_speed ? slide : c->slip_speed);
        f.x = f.x - v.x * r;
        f.z = f.z - v.z * r;
    }
    return f;
}

/* a I + b q q^T, each entry ((b q_j) q_k) (+ a on the diagonal). */
static inline sk_sym3 sk_line_rank_one(sk_real a, sk_real b, sk_vec3 q)
{
    const sk_vec3 bq = sk_vec3_scale(q, b);
    return (sk_sym3){bq.x * q.x + a, bq.y * q.y + a, bq.z * q.z + a, bq.x * q.y, bq.x * q.z, bq.y * q.z};
}

/* The added mass's block, an lf (I - q q^T) + at lf q q^T, which joins m I on the diagonal. */
static inline sk_sym3 sk_line_added_block(const sk_line_inertia *in)
{
    return sk_line_rank_one(in->added_n, in->added_t - in->added_n, in->q);
}

/* The Morison drag's damping block, -h times its velocity Jacobian (h the step's dt): the normal part
 * (h cn) (I - q q^T + w w^T), the tangential (h (ct + ct)) q q^T, summed as tn I + (tt - tn) q q^T, then
 * + tn w w^T. */
static inline sk_sym3 sk_line_drag_block(const sk_line_inertia *in, sk_real h)
{
    const sk_real tn = in->cn * h, tt = (in->ct + in->ct) * h;
    return sk_sym3_add(sk_line_rank_one(tn, tt - tn, in->q), sk_line_rank_one(0, tn, in->w));
}

#endif
