/* What a pack uses, as one feature mask: the one description the step kernels specialise on. A kernel's
 * variants are a list of (care, value, clear) triples (K_VARIANTS below): the first whose `care` bits of
 * the pack's mask equal `value` runs, compiled with those bits (and `clear`'s) constant, so each variant
 * is the kernel's one body with its branches on those features folded away and the others read at run
 * time. Every feature that changes operations is a bit here, so a new one is a new bit, not a new set of
 * hand-written instantiations. */
#ifndef SKEIN_KERNELS_FEATURE_MASK_H
#define SKEIN_KERNELS_FEATURE_MASK_H

#include <math.h>

#include "forces.h"

typedef struct k_features {
    int integrator;   /* sk_integrator; Cyclone's is Euler's arithmetic */
    int link, anchor; /* as forces (forces.h: rods and cables are contacts) */
    int drag;         /* K_DRAG_* */
    bool gforce, buoyancy, driven, bending, profiles, deploys;
    bool unit_damp;   /* every lane's damping factor is exactly 1 (v * 1 is v: skipped) */
    bool lean;        /* springs alone, the acceleration field free of -0: f = u - u_prev (force_sum.h) */
    bool friction;    /* Coulomb friction on the ground's contacts (the resolver's) */
    bool bdf2;        /* the implicit integrator's BDF2 (step_implicit.c) */
    bool water;       /* a line in the scenario's water (line_water.h) */
    bool seabed;      /* a line on the scenario's compliant seabed */
    bool link_damp;   /* the links' axial damping (forces.h k_link_force) */
    unsigned objects; /* the force objects, bit 1 << SK_FORCE_<NAME> (forces.h k_object_forces) */
} k_features;

/* The mask's fields: three bits each for the integrator, link and anchor, two for the drag, one per flag, one
 * per force object. */
enum {
    K_INTEGRATOR_SHIFT = 0, K_LINK_SHIFT = 3, K_ANCHOR_SHIFT = 6, K_DRAG_SHIFT = 9,
    K_GFORCE = 1u << 11, K_BUOYANCY = 1u << 12, K_DRIVEN = 1u << 13, K_BENDING = 1u << 14,
    K_PROFILES = 1u << 15, K_DEPLOYS = 1u << 16, K_UNIT_DAMP = 1u << 17, K_LEAN = 1u << 18,
    K_FRICTION = 1u << 19, K_BDF2 = 1u << 20, K_WATER = 1u << 21, K_SEABED = 1u << 22, K_LINK_DAMP = 1u << 23,
    K_OBJECTS_SHIFT = 24, K_ALL = (1u << (K_OBJECTS_SHIFT + SK_FORCE_OBJECT_COUNT)) - 1
};
_Static_assert(K_OBJECTS_SHIFT + SK_FORCE_OBJECT_COUNT <= 31, "the feature mask has a bit per force object");
#define K_OBJECT(o) (1u << (K_OBJECTS_SHIFT + (o)))
#define K_OBJECT_BITS (K_ALL & ~(K_OBJECT(0) - 1u))
/* The one-bit features: k_features's member and its bit. */
#define K_FLAGS(X)                                                                                                 \
    X(gforce, K_GFORCE) X(buoyancy, K_BUOYANCY) X(driven, K_DRIVEN) X(bending, K_BENDING) X(profiles, K_PROFILES) \
    X(deploys, K_DEPLOYS) X(unit_damp, K_UNIT_DAMP) X(lean, K_LEAN) X(friction, K_FRICTION) X(bdf2, K_BDF2)        \
    X(water, K_WATER) X(seabed, K_SEABED) X(link_damp, K_LINK_DAMP)
#define K_INTEGRATOR(i) ((unsigned)(i) << K_INTEGRATOR_SHIFT)
#define K_LINK(l) ((unsigned)(l) << K_LINK_SHIFT)
#define K_ANCHOR(a) ((unsigned)(a) << K_ANCHOR_SHIFT)
#define K_DRAG(d) ((unsigned)(d) << K_DRAG_SHIFT)
#define K_INTEGRATOR_BITS K_INTEGRATOR(7)
#define K_LINK_BITS K_LINK(7)
#define K_ANCHOR_BITS K_ANCHOR(7)
#define K_DRAG_BITS K_DRAG(3)

SK_INLINE k_features k_features_of(unsigned m)
{
    k_features f;
    f.integrator = (int)((m >> K_INTEGRATOR_SHIFT) & 7u);
    f.link = (int)((m >> K_LINK_SHIFT) & 7u);
    f.anchor = (int)((m >> K_ANCHOR_SHIFT) & 7u);
    f.drag = (int)((m >> K_DRAG_SHIFT) & 3u);
#define K_FLAG_OF(member, bit) f.member = m & bit;
    K_FLAGS(K_FLAG_OF)
#undef K_FLAG_OF
    f.objects = (m & K_OBJECT_BITS) >> K_OBJECTS_SHIFT;
    return f;
}

/* The features a group's structure gives (cfg), the same for all its packs. */
SK_INLINE unsigned k_cfg_mask(const sk_kernel_cfg *cfg)
{
    const int integrator = cfg->integrator == SK_INTEGRATOR_CYCLONE ? SK_INTEGRATOR_EULER : cfg->integrator;
    unsigned m = K_INTEGRATOR(integrator) | K_LINK(k_force_link(cfg->link)) | K_ANCHOR(k_force_anchor(cfg->anchor)) |
                 K_DRAG(sk_kernel_drag_mode(cfg));
    return m | (cfg->gravity_force ? K_GFORCE : 0) | (cfg->buoyancy ? K_BUOYANCY : 0) | (cfg->driven ? K_DRIVEN : 0) |
           (cfg->bending ? K_BENDING : 0) | (cfg->profiles ? K_PROFILES : 0) | (cfg->deploys ? K_DEPLOYS : 0) |
           (cfg->friction ? K_FRICTION : 0) | (cfg->bdf2 && integrator == SK_INTEGRATOR_IMPLICIT ? K_BDF2 : 0) |
           (cfg->line_water ? K_WATER : 0) | (cfg->line_seabed ? K_SEABED : 0) |
           (cfg->link_damping && k_force_link(cfg->link) != SK_LINK_NONE ? K_LINK_DAMP : 0) |
           (cfg->force_objects << K_OBJECTS_SHIFT);
}

/* The mask of a pack: its group's features and what its lanes' parameters allow. unit_damp where the
 * integrator has a damping factor (Verlet keeps its own); lean for fixed explicit springs with a static
 * anchored spring or none and no per-particle force, where no lane's acceleration field holds a -0. */
SK_INLINE unsigned k_pack_mask(const sk_kernel_cfg *cfg, const sk_real *param)
{
    const unsigned m = k_cfg_mask(cfg);
    const int integrator = (int)((m >> K_INTEGRATOR_SHIFT) & 7u);
    bool undamped = integrator != SK_INTEGRATOR_VERLET, no_negative_zero = true;
    for (int l = 0; l < SK_W; l++) {
        undamped = undamped && param[(size_t)SK_P_DAMP * SK_W + l] == 1;
        for (int c = 0; c < 3; c++) {
            const sk_real a = param[(size_t)(SK_P_ACC + c) * SK_W + l];
            no_negative_zero = no_negative_zero && !(a == 0 && signbit(a));
        }
    }
    const bool explicit_fixed = integrator != SK_INTEGRATOR_IMPLICIT && !cfg->deploys;
    const bool plain = !cfg->gravity_force && !cfg->drag && !cfg->buoyancy && !cfg->driven && !cfg->bending &&
                       !cfg->profiles && !cfg->link_damping && !cfg->line_water && !cfg->line_seabed &&
                       !cfg->force_objects;
    const bool lean = explicit_fixed && plain && no_negative_zero && cfg->link == SK_LINK_SPRING &&
                      (cfg->anchor == SK_ANCHOR_NONE || cfg->anchor == SK_ANCHOR_SPRING);
    return m | (undamped ? K_UNIT_DAMP : 0) | (lean ? K_LEAN : 0);
}

/* The variants of a kernel: LIST(X) expands X(name, care, value, clear) per variant, most specific first.
 * K_VARIANT_FUNCTIONS(LIST) defines each as a function of its own (kept out of the dispatcher, so that each
 * has the registers to itself) that runs K_VARIANT_RUN(features) with the features of the pack's mask whose
 * `clear` bits (care's among them) are value's: constants the compiler folds. K_VARIANTS(mask, LIST) calls
 * the first whose `care` bits of the mask equal `value`. A kernel defines K_VARIANT_PARAMS (its parameters),
 * K_VARIANT_ARGS (their names) and K_VARIANT_RUN before expanding them. */
#define K_VARIANT_DEFINE(name, care, value, clear)                                  \
    static __attribute__((noinline)) void name(K_VARIANT_PARAMS, unsigned k_mask_) \
    {                                                                               \
        K_VARIANT_RUN(k_features_of((k_mask_ & ~(unsigned)(clear)) | (value)));     \
    }
#define K_VARIANT_PICK(name, care, value, clear) \
    if ((k_mask_ & (care)) == (value)) {          \
        name(K_VARIANT_ARGS, k_mask_);            \
        return;                                   \
    }
#define K_VARIANT_FUNCTIONS(LIST) LIST(K_VARIANT_DEFINE)
#define K_VARIANTS(mask, LIST)             \
    do {                                   \
        const unsigned k_mask_ = (mask);   \
        LIST(K_VARIANT_PICK)               \
    } while (0)

/* The same picked in place: each variant's body inlined into the caller, for kernels whose variants are
 * small beside the work around them (the contact phase's). */
#define K_VARIANT_INLINE(name, care, value, clear)                                   \
    if ((k_mask_ & (care)) == (value)) {                                             \
        K_VARIANT_RUN(k_features_of((k_mask_ & ~(unsigned)(clear)) | (value)));      \
        return;                                                                      \
    }
#define K_VARIANTS_INLINE(mask, LIST)    \
    do {                                 \
        const unsigned k_mask_ = (mask); \
        LIST(K_VARIANT_INLINE)           \
    } while (0)

/* One fully constant variant (care = clear = every bit). */
#define K_EXACT(X, name, mask) X(name, K_ALL, (mask), K_ALL)
/* Every combination of one or two features, each constant, the others read at run time. */
#define K_EACH1(X, name, a) X(name##_with, (a), (a), (a)) X(name##_without, (a), 0u, (a))
#define K_EACH2(X, name, a, b)                                                                     \
    X(name##_both, (a) | (b), (a) | (b), (a) | (b)) X(name##_first, (a) | (b), (a), (a) | (b))     \
    X(name##_second, (a) | (b), (b), (a) | (b)) X(name##_neither, (a) | (b), 0u, (a) | (b))

#endif
