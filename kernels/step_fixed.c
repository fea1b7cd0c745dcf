/* The fused, streaming step of a pack whose ropes do not deploy (every lane holds the same particle
 * count). Particle i's force is completed and the particle integrated right after segment i's force is
 * computed from the old p_i and p_{i+1}, kept in registers, so no force array is ever stored and a pack
 * stays in L1 for all the steps it is given.
 *
 * Per particle the sum is docs/model.md's (section 5): per-particle forces, then the force of segment i-1 (as its b end),
 * then segment i (as its a end), then the anchor (particle 0 only). The group's structure is the same in
 * every lane, so it is branched on outside the loops: the hot combinations are compiled with constant
 * flags, everything else takes the general instantiation. */
#include "anchor.h"
#include "forces.h"
#include "integrate.h"
#include "step.h"

/* The carried state between particles: p and v (or q) of particle i, read before anything is written,
 * and the force segment i-1 put on particle i-1 (its negation goes to particle i). */
typedef struct carry {
    skv3 p, w, um;
} carry;

SK_INLINE void particle(const kparams *k, sk_real *row, bool pinned, carry *c, bool first, bool has_next,
                        int integrator, int link, int anchor, bool gforce, bool drag, bool buoyancy,
                        bool unit_damp, skv3 x)
{
    const size_t next = (size_t)SK_F_COUNT * SK_W;
    const bool need_vel = drag || (first && anchor == SK_ANCHOR_FAKE_SPRING);
    skv3 vel = need_vel ? k_velocity(k, integrator, c->p, c->w) : c->w;
    skv3 f = k_particle_forces(k, gforce, drag, buoyancy, c->p, vel);
    if (!first && link != SK_LINK_NONE)
        f = v3_sub(f, c->um);
    skv3 pn = v3_zero(), wn = v3_zero();
    if (has_next) {
        pn = v3_load(row + next);
        wn = v3_load(row + next + 3 * SK_W);
        if (link != SK_LINK_NONE) {
            skv3 um = k_link_force(k, link, c->p, pn);
            f = v3_add(f, um);
            c->um = um;
        }
    }
    if (first && anchor != SK_ANCHOR_NONE)
        f = v3_add(f, k_anchor_force(k, anchor, c->p, vel, x, k->s));
    if (!pinned) {
        skv3 p = c->p, w = c->w;
        k_integrate_d(k, integrator, unit_damp, &p, &w, f);
        v3_store(row, p);
        v3_store(row + 3 * SK_W, w);
    }
    c->p = pn;
    c->w = wn;
}

SK_INLINE void fixed_advance(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                             int integrator, int link, int anchor, bool gforce, bool drag, bool buoyancy,
                             bool driven, bool unit_damp)
{
    const kparams k = kp_load(param);
    const int n = cfg->capacity;
    const unsigned char *pinned = cfg->pinned;
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    for (long s = 0; s < steps; s++) {
        skv3 x = anchor != SK_ANCHOR_NONE ? k_anchor_point(&k, driven, step0 + s) : v3_zero();
        carry c;
        c.p = v3_load(state);
        c.w = v3_load(state + 3 * SK_W);
        c.um = v3_zero();
        particle(&k, state, pinned[0], &c, true, n > 1, integrator, link, anchor, gforce, drag, buoyancy, unit_damp,
                 x);
        sk_real *row = state + stride;
        for (int i = 1; i < n - 1; i++, row += stride)
            particle(&k, row, pinned[i], &c, false, true, integrator, link, anchor, gforce, drag, buoyancy, unit_damp,
                     x);
        if (n > 1)
            particle(&k, row, pinned[n - 1], &c, false, false, integrator, link, anchor, gforce, drag, buoyancy,
                     unit_damp, x);
    }
}

/* One instantiation per hot combination: no per-particle forces, a static anchor (or none), with and
 * without damping. */
#define SK_FIXED(name, integ, link, anchor, unit_damp)                                                   \
    static void name(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps) \
    {                                                                                                  \
        fixed_advance(cfg, param, state, step0, steps, integ, link, anchor, false, false, false, false,  \
                      unit_damp);                                                                      \
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
                  cfg->drag, cfg->buoyancy, cfg->driven, false);
}

typedef void (*fixed_fn)(const sk_kernel_cfg *, sk_real *, sk_real *, long, long);

void SK_KNAME(sk_kernel_fixed_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                       long steps)
{
    bool plain = !cfg->gravity_force && !cfg->drag && !cfg->buoyancy && !cfg->driven;
    int integ = cfg->integrator == SK_INTEGRATOR_CYCLONE ? SK_INTEGRATOR_EULER : cfg->integrator;
    bool undamped = true;
    for (int l = 0; l < SK_W; l++)
        undamped = undamped && param[(size_t)SK_P_DAMP * SK_W + l] == 1;
#define PICK(name) (undamped ? name##_undamped : name##_damped)
    fixed_fn fn = general;
    if (plain && cfg->link == SK_LINK_SPRING && cfg->anchor == SK_ANCHOR_NONE)
        fn = integ == SK_INTEGRATOR_SYMPLECTIC ? PICK(sym_spring) : integ == SK_INTEGRATOR_EULER ? PICK(eul_spring) : ver_spring;
    else if (plain && cfg->link == SK_LINK_SPRING && cfg->anchor == SK_ANCHOR_SPRING)
        fn = integ == SK_INTEGRATOR_SYMPLECTIC ? PICK(sym_spring_anchor)
             : integ == SK_INTEGRATOR_EULER    ? PICK(eul_spring_anchor)
                                               : ver_spring_anchor;
    else if (plain && cfg->link == SK_LINK_BUNGEE && cfg->anchor == SK_ANCHOR_NONE &&
             integ == SK_INTEGRATOR_SYMPLECTIC)
        fn = PICK(sym_bungee);
#undef PICK
    fn(cfg, param, state, step0, steps);
}
