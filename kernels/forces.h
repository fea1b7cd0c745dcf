/* Force generators on lanes (docs/model.md section 3), each adding to a force accumulator that starts at zero:
 * gravity as a force, drag, buoyancy, the link spring or bungee, the anchored spring or bungee and the
 * fake spring. The callers add them in the model's order (docs/model.md section 5); pinned particles are simply not integrated, so
 * their accumulators are never read. */
#ifndef SKEIN_KERNELS_FORCES_H
#define SKEIN_KERNELS_FORCES_H

#include "params.h"
#include "skein/scenario.h"

/* The link and anchor as forces: rods, cables and their constraints are contacts (kernels/contacts.h),
 * not force generators, so the force passes see them as none. */
SK_INLINE int k_force_link(int link) { return link == SK_LINK_ROD || link == SK_LINK_CABLE ? SK_LINK_NONE : link; }
SK_INLINE int k_force_anchor(int anchor)
{
    return anchor == SK_ANCHOR_ROD || anchor == SK_ANCHOR_CABLE || anchor == SK_ANCHOR_PIN ? SK_ANCHOR_NONE : anchor;
}

/* The forces of the group's force objects (model/force_objects.h), added to f in the table's order
 * (reference/force_objects.c). objects: bit 1 << SK_FORCE_<NAME> per object. */
SK_INLINE skv3 k_object_forces(const kparams *k, unsigned objects, skv3 f)
{
    if (objects & (1u << SK_FORCE_WIND))
        f = v3_add(f, k->wind_force);
    return f;
}

/* The per-particle forces of one particle, in the model's order (docs/model.md section 5): gravity, drag,
 * buoyancy, the force objects. f starts at zero and is summed into, so an accumulator is never -0 and adding a
 * zero changes no bit. */
SK_INLINE skv3 k_particle_forces(const kparams *k, bool gforce, int drag, bool buoyancy, unsigned objects, skv3 p,
                                 skv3 vel)
{
    skv3 f = v3_zero();
    if (gforce)
        f = v3_add(f, k->gforce);
    if (drag != K_DRAG_NONE) {
        /* against the fluid at the particle's height, u(y) = velocity + gradient y, where there is a flow */
        skv3 rel = drag == K_DRAG_FLOW ? v3_sub(vel, v3_add(k->flow_velocity, v3_scale(k->flow_gradient, p.y))) : vel;
        skv speed = v3_length(rel);
        skv c = skv_add(skv_mul(k->drag_k1, speed), skv_mul(skv_mul(k->drag_k2, speed), speed));
        f = v3_add(f, v3_scale(v3_unit_given(rel, speed), skv_neg(c)));
    }
    if (buoyancy) {
        skv sub = skv_div(skv_sub(k->buoy_hm, p.y), k->buoy_m2);
        sub = skv_select(skv_lt(sub, skv_zero()), skv_zero(), sub);
        sub = skv_select(skv_gt(sub, skv_set1(1)), skv_set1(1), sub);
        f.y = skv_add(f.y, skv_mul(k->buoy_rv, sub));
    }
    return objects ? k_object_forces(k, objects, f) : f;
}

/* The link between a and b (velocities va, vb, the ones the forces see): u * mag, the force on a; b receives
 * u * (-mag), which is its exact negation, so callers subtract it. damped: its axial damping,
 * mag - c (u . (va - vb)). A slack bungee gives zero, the same bits as skipping it. */
SK_INLINE skv3 k_link_force(const kparams *k, int link, bool damped, skv3 pa, skv3 pb, skv3 va, skv3 vb)
{
    skv3 d = v3_sub(pa, pb);
    skv l = v3_length(d);
    skv mag = skv_mul(skv_sub(k->link_l, l), k->link_stiffness);
    skv3 u = v3_unit_given(d, l);
    if (damped)
        mag = skv_sub(mag, skv_mul(k->link_c, v3_dot(u, v3_sub(va, vb))));
    skv3 um = v3_scale(u, mag);
    if (link == SK_LINK_BUNGEE)
        um = v3_select(skv_gt(l, k->link_l), um, v3_zero());
    return um;
}

/* The anchored spring's stiffness at rest length rest: anchor.stiffness, or in the lanes of a deploying line
 * given by EA, EA / max(s, s_min) (model/deploy_anchor.h, the same operations). */
SK_INLINE skv k_anchor_stiffness(const kparams *k, skv rest)
{
    const skv s = skv_select(skv_lt(rest, k->anchor_s_min), k->anchor_s_min, rest);
    return skv_select(skv_gt(k->anchor_ea, skv_zero()), skv_div(k->anchor_ea, s), k->anchor_stiffness);
}

/* The anchor's force on the held particle (position p, velocity vel) toward x; rest is the anchored
 * segment's rest length (deploying: s). Zero where the anchor does not act. */
SK_INLINE skv3 k_anchor_force(const kparams *k, int anchor, skv3 p, skv3 vel, skv3 x, skv rest)
{
    if (anchor == SK_ANCHOR_SPRING || anchor == SK_ANCHOR_BUNGEE) {
        skv3 d = v3_sub(p, x);
        skv l = v3_length(d);
        skv mag = skv_mul(skv_sub(rest, l), k_anchor_stiffness(k, rest));
        skv3 f = v3_scale(v3_unit_given(d, l), mag);
        if (anchor == SK_ANCHOR_BUNGEE)
            f = v3_select(skv_gt(l, rest), f, v3_zero());
        return f;
    }
    if (anchor == SK_ANCHOR_FAKE_SPRING) {
        skv3 r = v3_sub(p, x);
        skv3 c = v3_add(v3_scale(r, k->fake_cr), v3_scale(vel, k->fake_cv));
        skv3 target = v3_scale(v3_add(v3_scale(r, k->fake_cos), v3_scale(c, k->fake_sin)), k->fake_exp);
        skv3 acc = v3_sub(v3_scale(v3_sub(target, r), k->inv_dt2), v3_scale(vel, k->inv_dt));
        return v3_select(k->fake_active, v3_scale(acc, k->mass), v3_zero());
    }
    return v3_zero();
}

#endif
