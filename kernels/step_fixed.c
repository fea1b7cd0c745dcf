/* The fused, streaming step of a pack whose ropes do not deploy (every lane holds the same particle
 * count). Particle i's force is completed and the particle integrated right after segment i's force is
 * computed from the old p_i and p_{i+1}, kept in registers, so no force array is ever stored and a pack
 * stays in L1 for all the steps it is given.
 *
 * Per particle the sum is force_sum.h's (docs/model.md section 5). The group's structure is the same in
 * every lane, so it is branched on outside the loops: the variants (FIXED_VARIANTS, from the pack's feature
 * mask) compile the hot combinations with constant features and the rest with the features read at run
 * time. */
#include <math.h>

#include "anchor.h"
#include "bending.h"
#include "force_sum.h"
#include "integrate.h"
#include "step.h"

/* The carried state between particles: p of particle i, read before anything is written (row i + 1 is
 * still old when row i is written, so its p is loaded once, for segment i, and carried), and the force segment
 * i-1 put on particle i-1 (its negation goes to particle i). v (or q) is loaded where it is used: carrying it
 * too would hold three more registers across the loop, which AVX2's sixteen cannot spare. */
typedef struct carry {
    skv3 p, um;
    skv3 e; /* a line's (the water feature's): link i - 1's unit vector */
} carry;

/* The springs-only link (the lean feature, force_sum.h): a zero inverse length instead of a zero vector for
 * a zero-length spring's direction gives a zero force of either sign, which the lean sum allows. */
SK_INLINE skv3 k_link_force_lean(const kparams *k, skv3 pa, skv3 pb)
{
    skv3 d = v3_sub(pa, pb);
    skv l = v3_length(d);
    skv inv = skv_keep(skv_gt(l, skv_zero()), skv_div(skv_set1(1), l));
    skv mag = skv_mul(skv_sub(k->link_l, l), k->link_stiffness);
    return v3_scale(v3_scale(d, inv), mag);
}

SK_INLINE void particle(const kparams *k, k_features ft, const k_pass *pass, sk_real *row, bool pinned, carry *c,
                        bool first, bool has_next, int i, const sk_real *prof)
{
    kparams row_k;
    if (prof) { /* particle i's and link i's own constants (params.h) */
        row_k = *k;
        kp_profile_row(&row_k, prof, i);
        k = &row_k;
    }
    const size_t next = (size_t)SK_F_COUNT * SK_W;
    const bool need_vel = ft.drag || ft.link_damp || ft.water || ft.seabed || (first && ft.anchor == SK_ANCHOR_FAKE_SPRING);
    const skv3 w_old = v3_load(row + 3 * SK_W);
    const skv3 vel = need_vel ? k_velocity(k, ft.integrator, c->p, w_old) : w_old;
    const skv3 um_prev = c->um;
    skv3 pn = v3_zero(), um = v3_zero();
    if (has_next) {
        pn = v3_load(row + next);
        if (ft.link != SK_LINK_NONE) {
            /* the next particle's velocity only where the link is damped (row i + 1 is still old) */
            const skv3 vn = ft.link_damp ? k_velocity(k, ft.integrator, pn, v3_load(row + next + 3 * SK_W)) : vel;
            um = ft.lean ? k_link_force_lean(k, c->p, pn) : k_link_force(k, ft.link, ft.link_damp, c->p, pn, vel, vn);
            c->um = um;
        }
    }
    k_line_row line = k_line_none();
    if (ft.water) {
        line.e_prev = c->e;
        line.e_next = has_next ? k_line_link_unit(c->p, pn) : v3_zero();
        c->e = line.e_next;
    }
    /* the anchor holds particle 0 in every lane */
    skv3 f = k_force_sum(k, ft, pass, i, c->p, vel, um_prev, um, !first, has_next, k_hold_every(first), &line);
    if (!pinned) {
        skv3 p = c->p, w = w_old;
        if (ft.water)
            k_integrate_acc(k, ft.integrator, ft.unit_damp, &p, &w, k_line_acceleration(k, &line.inertia, f));
        else
            k_integrate_d(k, ft.integrator, ft.unit_damp, &p, &w, f);
        v3_store(row, p);
        v3_store(row + 3 * SK_W, w);
    }
    c->p = pn;
}

SK_INLINE void fixed_advance(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step0, long steps,
                             k_features ft, sk_real *bend, const sk_real *prof)
{
    const kparams k = kp_load(param);
    const int n = cfg->capacity;
    const unsigned char *pinned = cfg->pinned;
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    for (long s = 0; s < steps; s++) {
        skv3 x = ft.anchor != SK_ANCHOR_NONE ? k_anchor_point(cfg, &k, ft.driven, step0 + s) : v3_zero();
        k_pin_hold(cfg, &k, state, step0 + s);
        if (ft.bending) /* the hinges from the positions before the step (bending.h) */
            k_bend_pass(&k, state, n, skv_set1((sk_real)n), bend, prof);
        k_pass pass = {x, k.s, bend, n, cfg, (sk_real)(step0 + s) * cfg->dt, {0}};
        if (ft.water)
            pass.clock = sk_wave_clock_at(cfg->water, pass.t);
        carry c;
        c.p = v3_load(state);
        c.um = v3_zero();
        c.e = v3_zero();
        particle(&k, ft, &pass, state, pinned[0], &c, true, n > 1, 0, prof);
        sk_real *row = state + stride;
        for (int i = 1; i < n - 1; i++, row += stride)
            particle(&k, ft, &pass, row, pinned[i], &c, false, true, i, prof);
        if (n > 1)
            particle(&k, ft, &pass, row, pinned[n - 1], &c, false, false, n - 1, prof);
        k_pin_hold(cfg, &k, state, step0 + s + 1);
    }
}

/* One variant: the features constant where the variant fixes them, the hinges' scratch where it bends. */
SK_INLINE void fixed_run(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                         k_features ft)
{
    const sk_real *prof = ft.profiles ? sk_pack_profile_rows(param, SK_W) : NULL;
    if (!ft.bending) {
        fixed_advance(cfg, param, state, step0, steps, ft, NULL, prof);
        return;
    }
    sk_real *bend = k_bend_scratch(cfg->capacity);
    if (!bend) {
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    fixed_advance(cfg, param, state, step0, steps, ft, bend, prof);
    free(bend);
}

/* The variants, most specific first (feature_mask.h). Fully constant: lean springs under each explicit
 * integrator, with a static anchored spring or none, damped or not (Verlet has no damping factor of its
 * own), plain symplectic bungees, and contact chains (rods, cables) under Euler's and the symplectic step; then damped links (axial damping), profiles, bending, and everything
 * else, with their other features read at run time (the links' damping constant in all but the first). */
#define FIXED_LEAN(X, name, integrator, anchor) \
    K_EXACT(X, name, K_LEAN | K_INTEGRATOR(integrator) | K_LINK(SK_LINK_SPRING) | K_ANCHOR(anchor))
#define FIXED_LEAN2(X, name, integrator, anchor) \
    FIXED_LEAN(X, name##_damped, integrator, anchor)                                                          \
    K_EXACT(X, name##_undamped, K_UNIT_DAMP | K_LEAN | K_INTEGRATOR(integrator) | K_LINK(SK_LINK_SPRING) | K_ANCHOR(anchor))
#define FIXED_BUNGEE(X, name, damp) \
    K_EXACT(X, name, (damp) | K_INTEGRATOR(SK_INTEGRATOR_SYMPLECTIC) | K_LINK(SK_LINK_BUNGEE))
/* Rods or cables held by a rod, a cable or nothing (contacts, not forces), under gravity alone: every feature
 * constant but the damping factor's. */
#define FIXED_CONTACTS(X, name, integrator) X(name, K_ALL & ~K_UNIT_DAMP, K_INTEGRATOR(integrator), K_ALL & ~K_UNIT_DAMP)
/* The lines' features (water, seabed) are constant off in every variant after the lines' own, so that the ropes
 * of the other variants run none of their code. */
#define FIXED_DRY (K_WATER | K_SEABED)
#define FIXED_OPEN (K_BENDING | K_PROFILES | K_LEAN | K_UNIT_DAMP | K_DEPLOYS | K_LINK_DAMP | FIXED_DRY)
/* Lines given by EA in water (profiles: their ends carry half a segment), their links' damping and the seabed
 * read at run time; then any other line in water, and lines on a seabed in air, everything else at run time. */
#define FIXED_LINE ((FIXED_OPEN & ~(K_LINK_DAMP | K_SEABED)) | K_WATER)
#define FIXED_LINE_OTHER (K_WATER | K_LEAN | K_DEPLOYS | K_UNIT_DAMP)
#define FIXED_SEABED_DRY (FIXED_DRY | K_LEAN | K_DEPLOYS | K_UNIT_DAMP)
#define FIXED_VARIANTS(X)                                                                          \
    FIXED_LEAN2(X, sym_spring, SK_INTEGRATOR_SYMPLECTIC, SK_ANCHOR_NONE)                          \
    FIXED_LEAN2(X, sym_spring_anchor, SK_INTEGRATOR_SYMPLECTIC, SK_ANCHOR_SPRING)                 \
    FIXED_LEAN2(X, eul_spring, SK_INTEGRATOR_EULER, SK_ANCHOR_NONE)                               \
    FIXED_LEAN2(X, eul_spring_anchor, SK_INTEGRATOR_EULER, SK_ANCHOR_SPRING)                      \
    FIXED_LEAN(X, ver_spring, SK_INTEGRATOR_VERLET, SK_ANCHOR_NONE)                               \
    FIXED_LEAN(X, ver_spring_anchor, SK_INTEGRATOR_VERLET, SK_ANCHOR_SPRING)                      \
    FIXED_BUNGEE(X, sym_bungee_damped, 0u) FIXED_BUNGEE(X, sym_bungee_undamped, K_UNIT_DAMP)      \
    FIXED_CONTACTS(X, eul_contacts, SK_INTEGRATOR_EULER) FIXED_CONTACTS(X, sym_contacts, SK_INTEGRATOR_SYMPLECTIC) \
    X(line, K_WATER | K_PROFILES | K_BENDING, K_WATER | K_PROFILES, FIXED_LINE)                     \
    X(line_bending, K_WATER | K_PROFILES | K_BENDING, K_WATER | K_PROFILES | K_BENDING, FIXED_LINE)  \
    X(line_other, K_WATER, K_WATER, FIXED_LINE_OTHER)                                               \
    X(seabed_dry, K_SEABED, K_SEABED, FIXED_SEABED_DRY)                                             \
    X(link_damped, K_LINK_DAMP, K_LINK_DAMP, K_LINK_DAMP | K_LEAN | K_DEPLOYS | FIXED_DRY)          \
    X(profiled, K_PROFILES, K_PROFILES, K_PROFILES | K_LEAN | K_UNIT_DAMP | K_DEPLOYS | K_LINK_DAMP | FIXED_DRY) \
    X(bending, K_BENDING | K_PROFILES, K_BENDING, FIXED_OPEN)                                     \
    X(general, K_BENDING | K_PROFILES, 0u, FIXED_OPEN)

#define K_VARIANT_PARAMS const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps
#define K_VARIANT_ARGS cfg, param, state, step0, steps
#define K_VARIANT_RUN(features) fixed_run(cfg, param, state, step0, steps, features)
K_VARIANT_FUNCTIONS(FIXED_VARIANTS)

void SK_KNAME(sk_kernel_fixed_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                       long steps)
{
    K_VARIANTS(k_pack_mask(cfg, param) & ~K_DEPLOYS, FIXED_VARIANTS);
}
