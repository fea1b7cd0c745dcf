/* The fused, streaming step of a pack whose ropes do not deploy (every lane holds the same particle
 * count). Particle i's force is completed and the particle integrated right after segment i's force is
 * computed from the old p_i and p_{i+1}, kept in registers, so no force array is ever stored and a pack
 * stays in L1 for all the steps it is given.
 *
 * Per particle the sum is docs/model.md's (section 5): per-particle forces, then the force of segment i-1 (as its b end),
 * then segment i (as its a end), then the anchor (particle 0 only). The group's structure is the same in
 * every lane, so it is branched on outside the loops: the hot combinations are compiled with constant
 * flags, everything else takes the general instantiation. */
#include <math.h>

#include "anchor.h"
#include "bending.h"
#include "forces.h"
#include "integrate.h"
#include "step.h"

/* The carried state between particles: p of particle i, read before anything is written (row i + 1 is
 * still old when row i is written, so its p is loaded once, for segment i, and carried), and the force segment
 * i-1 put on particle i-1 (its negation goes to particle i). v (or q) is loaded where it is used: carrying it
 * too would hold three more registers across the loop, which AVX2's sixteen cannot spare. */
typedef struct carry {
    skv3 p, um;
} carry;

/* The springs-only sum of a particle (no per-particle force, the acceleration field free of -0 in every lane,
 * docs/model.md section 5): the model's (0 - u_prev) + u is u - u_prev, and both are exact, so they differ at
 * most in the sign of a zero force; acc + f w then gives the same bits (acc is not -0, w is finite and
 * positive). Likewise the zero-length spring's direction: a zero inverse length instead of a zero vector gives
 * a zero force of either sign. Three subtractions and two blends fewer per particle. */
SK_INLINE skv3 k_link_force_lean(const kparams *k, skv3 pa, skv3 pb)
{
    skv3 d = v3_sub(pa, pb);
    skv l = v3_length(d);
    skv inv = skv_keep(skv_gt(l, skv_zero()), skv_div(skv_set1(1), l));
    skv mag = skv_mul(skv_sub(k->link_l, l), k->link_stiffness);
    return v3_scale(v3_scale(d, inv), mag);
}

SK_INLINE void particle(const kparams *k, sk_real *row, bool pinned, carry *c, bool first, bool has_next,
                        int integrator, int link, int anchor, bool gforce, int drag, bool buoyancy,
                        bool unit_damp, bool lean, skv3 x, const sk_real *bend, int i, int n, const sk_real *prof)
{
    kparams row_k;
    if (prof) { /* particle i's and link i's own constants (params.h) */
        row_k = *k;
        kp_profile_row(&row_k, prof, i);
        k = &row_k;
    }
    const size_t next = (size_t)SK_F_COUNT * SK_W;
    const bool need_vel = drag || (first && anchor == SK_ANCHOR_FAKE_SPRING);
    const skv3 w_old = v3_load(row + 3 * SK_W);
    skv3 vel = need_vel ? k_velocity(k, integrator, c->p, w_old) : w_old;
    skv3 pn = v3_zero();
    skv3 f;
    if (lean) { /* springs only: f = u - u_prev (see k_link_force_lean) */
        f = v3_zero();
        if (has_next) {
            pn = v3_load(row + next);
            skv3 um = k_link_force_lean(k, c->p, pn);
            f = first ? um : v3_sub(um, c->um);
            c->um = um;
        } else if (!first) {
            f = v3_sub(f, c->um);
        }
    } else {
        f = k_particle_forces(k, gforce, drag, buoyancy, c->p, vel);
        if (!first && link != SK_LINK_NONE)
            f = v3_sub(f, c->um);
        if (has_next) {
            pn = v3_load(row + next);
            if (link != SK_LINK_NONE) {
                skv3 um = k_link_force(k, link, c->p, pn);
                f = v3_add(f, um);
                c->um = um;
            }
        }
    }
    if (first && anchor != SK_ANCHOR_NONE)
        f = v3_add(f, k_anchor_force(k, anchor, c->p, vel, x, k->s));
    if (bend)
        f = k_bend_add(f, bend, i, n);
    if (!pinned) {
        skv3 p = c->p, w = w_old;
        k_integrate_d(k, integrator, unit_damp, &p, &w, f);
        v3_store(row, p);
        v3_store(row + 3 * SK_W, w);
    }
    c->p = pn;
}

SK_INLINE void fixed_advance(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                             int integrator, int link, int anchor, bool gforce, int drag, bool buoyancy,
                             bool driven, bool unit_damp, bool lean, sk_real *bend, const sk_real *prof)
{
    const kparams k = kp_load(param);
    const int n = cfg->capacity;
    const unsigned char *pinned = cfg->pinned;
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    for (long s = 0; s < steps; s++) {
        skv3 x = anchor != SK_ANCHOR_NONE ? k_anchor_point(cfg, &k, driven, step0 + s) : v3_zero();
        if (bend) /* the hinges from the positions before the step (bending.h) */
            k_bend_pass(&k, state, n, skv_set1((sk_real)n), bend, prof);
        carry c;
        c.p = v3_load(state);
        c.um = v3_zero();
        particle(&k, state, pinned[0], &c, true, n > 1, integrator, link, anchor, gforce, drag, buoyancy, unit_damp,
                 lean, x, bend, 0, n, prof);
        sk_real *row = state + stride;
        for (int i = 1; i < n - 1; i++, row += stride)
            particle(&k, row, pinned[i], &c, false, true, integrator, link, anchor, gforce, drag, buoyancy, unit_damp,
                     lean, x, bend, i, n, prof);
        if (n > 1)
            particle(&k, row, pinned[n - 1], &c, false, false, integrator, link, anchor, gforce, drag, buoyancy,
                     unit_damp, lean, x, bend, n - 1, n, prof);
    }
}

/* One instantiation per hot combination: no per-particle forces, a static anchor (or none), with and
 * without damping; springs take the lean sum (chosen only where the acceleration field has no -0). */
#define SK_FIXED(name, integ, link, anchor, unit_damp)                                                   \
    static void name(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps) \
    {                                                                                                  \
        fixed_advance(cfg, param, state, step0, steps, integ, link, anchor, false, false, false, false,  \
                      unit_damp, link == SK_LINK_SPRING, NULL, NULL);                                  \
    }
#define SK_FIXED2(name, integ, link, anchor)              \
    SK_FIXED(name##_damped, integ, link, anchor, false) \
    SK_FIXED(name##_undamped, integ, link, anchor, true)
SK_FIXED2(sym_spring, SK_INTEGRATOR_SYMPLECTIC, SK_LINK_SPRING, SK_ANCHOR_NONE)
SK_FIXED2(sym_spring_anchor, SK_INTEGRATOR_SYMPLECTIC, SK_LINK_SPRING, SK_ANCHOR_SPRING)
SK_FIXED2(sym_bungee, SK_INTEGRATOR_SYMPLECTIC, SK_LINK_BUNGEE, SK_ANCHOR_NONE)
SK_FIXED2(eul_spring, SK_INTEGRATOR_EULER, SK_LINK_SPRING, SK_ANCHOR_NONE)
SK_FIXED2(eul_spring_anchor, SK_INTEGRATOR_EULER, SK_LINK_SPRING, SK_ANCHOR_SPRING)
/* verlet has no damping factor of its own (its k is verlet_keep) */
SK_FIXED(ver_spring, SK_INTEGRATOR_VERLET, SK_LINK_SPRING, SK_ANCHOR_NONE, false)
SK_FIXED(ver_spring_anchor, SK_INTEGRATOR_VERLET, SK_LINK_SPRING, SK_ANCHOR_SPRING, false)

/* Everything else: the same code with the flags read at run time (uniform, so well predicted). */
static void general(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps)
{
    fixed_advance(cfg, param, state, step0, steps, cfg->integrator, k_force_link(cfg->link),
                  k_force_anchor(cfg->anchor), cfg->gravity_force,
                  sk_kernel_drag_mode(cfg), cfg->buoyancy, cfg->driven, false, false, NULL, NULL);
}

/* Profiles and payloads: the general step, each particle with its own constants and its link's (pack.h), and
 * with bending each hinge with its own k_b, in scratch of its own. */
static void profiled(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps)
{
    sk_real *bend = NULL;
    if (cfg->bending && !(bend = k_bend_scratch(cfg->capacity))) {
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    fixed_advance(cfg, param, state, step0, steps, cfg->integrator, k_force_link(cfg->link),
                  k_force_anchor(cfg->anchor), cfg->gravity_force, sk_kernel_drag_mode(cfg), cfg->buoyancy,
                  cfg->driven, false, false, bend, sk_pack_profile_rows(param, SK_W));
    free(bend);
}

/* Bending: the general step with the hinges' pass before each step, in scratch of its own. */
static void bending(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps)
{
    sk_real *bend = k_bend_scratch(cfg->capacity);
    if (!bend) {
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    fixed_advance(cfg, param, state, step0, steps, cfg->integrator, k_force_link(cfg->link),
                  k_force_anchor(cfg->anchor), cfg->gravity_force,
                  sk_kernel_drag_mode(cfg), cfg->buoyancy, cfg->driven, false, false, bend, NULL);
    free(bend);
}

typedef void (*fixed_fn)(const sk_kernel_cfg *, sk_real *, sk_real *, long, long);

void SK_KNAME(sk_kernel_fixed_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                       long steps)
{
    if (cfg->profiles) {
        profiled(cfg, param, state, step0, steps);
        return;
    }
    bool plain = !cfg->gravity_force && !cfg->drag && !cfg->buoyancy && !cfg->driven && !cfg->bending;
    int integ = cfg->integrator == SK_INTEGRATOR_CYCLONE ? SK_INTEGRATOR_EULER : cfg->integrator;
    bool undamped = true, no_negative_zero = true;
    for (int l = 0; l < SK_W; l++) {
        undamped = undamped && param[(size_t)SK_P_DAMP * SK_W + l] == 1;
        for (int c = 0; c < 3; c++) {
            const sk_real a = param[(size_t)(SK_P_ACC + c) * SK_W + l];
            no_negative_zero = no_negative_zero && !(a == 0 && signbit(a));
        }
    }
    /* the springs' lean sum needs an acceleration field without -0 (k_link_force_lean) */
    const bool springs = plain && cfg->link == SK_LINK_SPRING && no_negative_zero;
#define PICK(name) (undamped ? name##_undamped : name##_damped)
    fixed_fn fn = cfg->bending ? bending : general;
    if (springs && cfg->anchor == SK_ANCHOR_NONE)
        fn = integ == SK_INTEGRATOR_SYMPLECTIC ? PICK(sym_spring) : integ == SK_INTEGRATOR_EULER ? PICK(eul_spring) : ver_spring;
    else if (springs && cfg->anchor == SK_ANCHOR_SPRING)
        fn = integ == SK_INTEGRATOR_SYMPLECTIC ? PICK(sym_spring_anchor)
             : integ == SK_INTEGRATOR_EULER    ? PICK(eul_spring_anchor)
                                               : ver_spring_anchor;
    else if (plain && cfg->link == SK_LINK_BUNGEE && cfg->anchor == SK_ANCHOR_NONE &&
             integ == SK_INTEGRATOR_SYMPLECTIC)
        fn = PICK(sym_bungee);
#undef PICK
    fn(cfg, param, state, step0, steps);
}
