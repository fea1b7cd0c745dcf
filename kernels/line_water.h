/* A line in water and on a compliant seabed on lanes (docs/model.md sections 3.6 and 3.7): the operations
 * of core/model/line_water.h, in its order, so batch and reference agree bit for bit. */
#ifndef SKEIN_KERNELS_LINE_WATER_H
#define SKEIN_KERNELS_LINE_WATER_H

#include "params.h"
#include "sym3w.h"

/* A particle's mass matrix with the added mass, inverted: acceleration (F - q (gamma (q . F))) inv; and
 * what the implicit integrator's blocks take (model/line_water.h, sk_line_inertia). */
typedef struct k_inertia {
    skv3 q, w;
    skv inv, gamma, added_n, added_t, cn, ct, bed_k, bed_c;
} k_inertia;

/* The unit vector of link i from its particle i to i + 1 (the zero vector for a zero-length link). */
SK_INLINE skv3 k_line_link_unit(skv3 p, skv3 pn)
{
    skv3 d = v3_sub(pn, p);
    return v3_unit_given(d, v3_length(d));
}

/* Particle i's share of the line: the profile row's, or the rope's link length, halved at an end. */
SK_INLINE skv k_line_share(const kparams *k, bool profiles, bool has_prev, bool has_next)
{
    if (profiles || (has_prev && has_next))
        return k->line_share;
    return skv_mul(k->line_share, skv_set1((sk_real)0.5));
}

SK_INLINE skv3 k_line_water_force(const kparams *k, skv share, skv3 q, skv3 p, skv3 v, skv3 u, skv3 a,
                                  k_inertia *inertia)
{
    skv frac = skv_add(skv_div(skv_sub(k->water_y, p.y), share), skv_set1((sk_real)0.5));
    frac = skv_select(skv_lt(frac, skv_zero()), skv_zero(), frac);
    frac = skv_select(skv_gt(frac, skv_set1(1)), skv_set1(1), frac);
    const skv lf = skv_mul(share, frac);
    const skv3 vr = v3_sub(u, v);
    const skv3 vrq = v3_scale(q, v3_dot(vr, q));
    const skv3 vrn = v3_sub(vr, vrq);
    skv3 f = v3_scale(k->line_b, lf);
    const skv cn = skv_mul(skv_mul(v3_length(vrn), k->line_dn), lf), ct = skv_mul(skv_mul(v3_length(vrq), k->line_dt), lf);
    f = v3_add(f, v3_scale(vrn, cn));
    f = v3_add(f, v3_scale(vrq, ct));
    const skv3 aq = v3_scale(q, v3_dot(a, q));
    const skv3 an = v3_sub(a, aq);
    f = v3_add(f, v3_scale(v3_add(v3_scale(an, k->line_fn), v3_scale(aq, k->line_ft)), lf));
    const skv added_n = skv_mul(k->line_an, lf), added_t = skv_mul(k->line_at, lf);
    inertia->q = q;
    inertia->inv = skv_div(skv_set1(1), skv_add(k->mass, added_n));
    inertia->gamma = skv_div(skv_sub(added_t, added_n), skv_add(k->mass, added_t));
    inertia->added_n = added_n;
    inertia->added_t = added_t;
    inertia->w = v3_unit(vrn);
    inertia->cn = cn;
    inertia->ct = ct;
    return f;
}

SK_INLINE skv3 k_line_acceleration(const kparams *k, const k_inertia *in, skv3 f)
{
    const skv3 F = v3_add(v3_scale(k->acc, k->mass), f);
    return v3_scale(v3_sub(F, v3_scale(in->q, skv_mul(in->gamma, v3_dot(in->q, F)))), in->inv);
}

SK_INLINE skv3 k_line_seabed_force(const kparams *k, skv share, sk_real ground_y, bool friction, skv3 p, skv3 v,
                                   skv3 f, k_inertia *inertia)
{
    const skv pen = skv_sub(skv_set1(ground_y), p.y);
    const skv ks = skv_mul(k->seabed_k, share), cs = skv_mul(k->seabed_c, share);
    skv normal = skv_sub(skv_mul(ks, pen), skv_mul(cs, v.y));
    const skm pushes = skm_and(skv_gt(pen, skv_zero()), skv_gt(normal, skv_zero()));
    normal = skv_keep(pushes, normal);
    inertia->bed_k = skv_keep(pushes, ks);
    inertia->bed_c = skv_keep(pushes, cs);
    f.y = skv_add(f.y, normal);
    if (friction) {
        const skv slide = skv_sqrt(skv_add(skv_mul(v.x, v.x), skv_mul(v.z, v.z)));
        const skv r = skv_div(skv_mul(k->friction_kinetic, normal),
                              skv_select(skv_gt(slide, k->slip_speed), slide, k->slip_speed));
        f.x = skv_sub(f.x, skv_mul(v.x, r));
        f.z = skv_sub(f.z, skv_mul(v.z, r));
    }
    return f;
}

SK_INLINE skv_sym3 k_line_rank_one(skv a, skv b, skv3 q)
{
    const skv3 bq = v3_scale(q, b);
    skv_sym3 r = {skv_add(skv_mul(bq.x, q.x), a), skv_add(skv_mul(bq.y, q.y), a), skv_add(skv_mul(bq.z, q.z), a),
                  skv_mul(bq.x, q.y), skv_mul(bq.x, q.z), skv_mul(bq.y, q.z)};
    return r;
}

SK_INLINE skv_sym3 k_line_added_block(const k_inertia *in)
{
    return k_line_rank_one(in->added_n, skv_sub(in->added_t, in->added_n), in->q);
}

SK_INLINE skv_sym3 k_line_drag_block(const k_inertia *in, skv h)
{
    const skv tn = skv_mul(in->cn, h), tt = skv_mul(skv_add(in->ct, in->ct), h);
    return s3_add(k_line_rank_one(tn, skv_sub(tt, tn), in->q), k_line_rank_one(skv_zero(), tn, in->w));
}

#endif
