/* The layout of a pack of W ropes and the table of kernels one ISA provides: the contract between the
 * batch engine (core/batch/), which fills packs, and the kernels, which step them. No intrinsics.
 *
 * A pack is W ropes of one group, a lane per rope. Two blocks, each aligned to a vector of W reals (a
 * group's packs lie one after another in 64-byte aligned memory):
 *   param [SK_P_COUNT][W]      per-rope constants (and the two that change: n and s while deploying)
 *   state [capacity][6][W]     per particle: p.x p.y p.z v.x v.y v.z (verlet: q.x q.y q.z for v)
 *         [capacity + 2][W]    groups with contacts only: what the last step's contacts did (SK_C_*)
 * so particle i of the W ropes is six aligned vectors, 6 * W reals apart from particle i + 1. The
 * contact rows live in the state block so that a lane's state (what a diverged rope holds, what a
 * checkpoint restores) carries them with the rope. The sizes are model/pack_size.h's. */
#ifndef SKEIN_KERNELS_PACK_H
#define SKEIN_KERNELS_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/pack_size.h"
#include "model/params.h"
#include "skein/scenario.h"
#include "skein/types.h"

/* Fields of a particle row. Verlet keeps q in the velocity slots: its velocity is (p - q) / dt. */
enum { SK_F_PX, SK_F_PY, SK_F_PZ, SK_F_VX, SK_F_VY, SK_F_VZ, SK_F_COUNT };
_Static_assert(SK_F_COUNT == SK_PACK_PARTICLE_REALS, "the memory check counts a particle row's reals");

/* Per-rope parameters, each an array of W reals: the slots of core/model/params.h's SK_PACK_PARAMS, in its
 * order (a VEC3 slot is three: SLOT, SLOT_Y, SLOT_Z). */
#define SK_P_SLOTS_REAL(SLOT) SK_P_##SLOT,
#define SK_P_SLOTS_VEC3(SLOT) SK_P_##SLOT, SK_P_##SLOT##_Y, SK_P_##SLOT##_Z,
#define SK_P_ENUMERATE(kind, SLOT, member, value) SK_P_SLOTS_##kind(SLOT)
enum sk_pack_param { SK_PACK_PARAMS(SK_P_ENUMERATE) SK_P_COUNT };
_Static_assert((int)SK_P_COUNT == (int)SK_PACK_PARAM_REALS, "the memory check counts the parameter block's reals");
#undef SK_P_ENUMERATE
#undef SK_P_SLOTS_VEC3
#undef SK_P_SLOTS_REAL

/* A group with profiles or payloads (docs/model.md section 1.1): after the slots, the parameter block holds a
 * row per particle i, each [SK_Q_COUNT][W]: particle i's inverse mass, mass read back and gravity force,
 * link i's stiffness, rest length and divergence bound (the last row's link values repeat the rope's), and
 * the implicit integrator's diagonal and fake spring terms of particle i and stiffness term of link i, and
 * the k_b of the hinge at particle i. The
 * kernels read it where sk_kernel_cfg.profiles is set, in place of the slots of the same meaning. */
enum {
    SK_Q_W, SK_Q_MASS, SK_Q_GF, SK_Q_GF_Y, SK_Q_GF_Z, SK_Q_LINK_K, SK_Q_LINK_L, SK_Q_MAX_LINK2,
    SK_Q_IMP_DIAG, SK_Q_LINK_KDT2, SK_Q_FAKE_JX, SK_Q_FAKE_JV, /* the implicit integrator's (rope_constants.h) */
    SK_Q_BEND_KB, /* the hinge at particle i: its k_b (model/profile.h) */
    SK_Q_SHARE,   /* particle i's share of a line (model/profile.h) */
    SK_Q_LINK_C, SK_Q_LINK_CDT, /* link i's axial damping and its implicit block's factor */
    SK_Q_COUNT
};
_Static_assert(SK_Q_COUNT == SK_PACK_PROFILE_ROW_REALS, "the memory check counts a profile row's reals");

static inline const sk_real *sk_pack_profile_rows(const sk_real *param, int width)
{
    return param + (size_t)SK_P_COUNT * (size_t)width;
}

/* The contact rows after the particles of a contact group's state, each [W]: row i < capacity - 1 is
 * the impulse link i's contact delivered in the last step (summed over the resolver's picks of it, N s;
 * negative for a rod too short, which pushes),
 * row capacity - 1 the anchor constraint's; then the contacts generated and the resolver iterations
 * used in the last step (integers, exact as reals). */
enum { SK_C_CONTACTS = 0, SK_C_ITERATIONS = 1 };

/* What every rope of a group shares: the structure the kernels specialise on. */
typedef struct sk_kernel_cfg {
    int capacity;   /* particles a rope can hold (the count when not deploying) */
    int integrator; /* sk_integrator */
    int link;       /* sk_link_type (rods and cables are contacts, not forces) */
    int anchor;     /* sk_anchor_type (rod and cable constraints are contacts, not forces) */
    bool driven;    /* the anchor moves (kernels/anchor.h): by a sine, a towing velocity and/or a path */
    bool motion_sine, motion_tow;
    int path_count;                /* the path's points (0: no path), shared by the group's ropes */
    const sk_real *path_times;
    const sk_vec3 *path_points;
    sk_real dt;                    /* the scenario's step, for the times of the path and the speed table (step * dt) */
    bool gravity_force; /* gravity as a force generator (else it is in the acceleration field) */
    bool drag;
    bool flow;      /* drag acts on the velocity relative to the flow u(y) = flow_velocity + flow_gradient y */
    bool buoyancy;
    unsigned force_objects; /* bit 1 << SK_FORCE_<NAME> per force object (model/force_objects.h) */
    bool bending;   /* hinges between consecutive links (kernels/bending.h) */
    bool line_water;  /* a line in the scenario's water (kernels/line_water.h, docs/model.md section 3.6) */
    bool line_seabed; /* a line on the scenario's compliant seabed (section 3.7) */
    bool seabed_friction; /* ... with friction (per rope: SK_P_MU_K) */
    sk_real seabed_height;
    bool link_damping; /* the links' axial damping (SK_P_LINK_C, SK_P_LINK_CDT) */
    bool profiles;  /* per-particle masses and per-link constants in the parameter block's rows (SK_Q_*) */
    bool deploys;
    bool insert_along;   /* deployment's "along" rule, else the seed's */
    bool has_max_length; /* deployment guarded by max_length */
    int least_count;     /* reeling in stops at this count (deploy.initial_particles) */
    int speed_count;     /* deploy.velocity's table rows (0: the per-rope speed u), shared by the group */
    const sk_real *speed_times, *speed_values;
    const unsigned char *pinned; /* [capacity]: 1 where the particle is pinned (w = 0) */

    /* Contacts (docs/model.md section 4): rod or cable links, a rod or cable constraint, the ground. */
    bool contacts;             /* any of them: the step resolves contacts and the state has its rows */
    bool ground;               /* the scenario's ground plane */
    sk_real ground_height, ground_restitution;
    bool friction;             /* Coulomb friction on the ground's contacts (per rope: SK_P_MU_S, SK_P_MU_K) */
    int iterations;            /* resolver iterations per step; 0: twice the contacts generated */
    int resolver;              /* sk_resolver: Cyclone's, or the direct chain solver */
    int direct_iterations;     /* the direct solver's Newton iterations on positions per step, at most */
    sk_real direct_tolerance;  /* ... stopping once every row of the lane is within it */
    int implicit_iterations;   /* the implicit integrator's Newton iterations per step (BDF2: at most) */
    bool bdf2;                 /* the implicit integrator's scheme is BDF2: the state keeps the step before */
    sk_real implicit_tolerance; /* BDF2: a lane stops once no velocity component of a solve moves by more */

    const sk_water *water; /* the scenario's water (kernels/water_flow.h); NULL where it has none */
} sk_kernel_cfg;

/* How the drag acts, for the force passes: K_DRAG_NONE, K_DRAG (against the particle's velocity) or
 * K_DRAG_FLOW (against its velocity relative to the flow). */
enum { K_DRAG_NONE, K_DRAG, K_DRAG_FLOW };
static inline int sk_kernel_drag_mode(const sk_kernel_cfg *cfg) { return !cfg->drag ? K_DRAG_NONE : cfg->flow ? K_DRAG_FLOW : K_DRAG; }

/* Reals of one pack's state block: the particles, then for a contact group its contact rows. */
static inline size_t sk_pack_state_len(const sk_kernel_cfg *cfg, int width)
{
    return (size_t)sk_pack_lane_state_reals((uint64_t)cfg->capacity, cfg->contacts, cfg->bdf2) * (size_t)width;
}

/* BDF2's rows of a pack state, after the particles and any contact rows: the history rows [capacity][SK_H_COUNT]
 * [W] (p and v a step before, v two steps before), then SK_B_* rows of [W] (SK_B_VALID: how many of those steps
 * are there, 0 to 2). A lane's state carries them, so a rope put back or held keeps the steps before its own
 * state. */
enum { SK_H_PX, SK_H_PY, SK_H_PZ, SK_H_VX, SK_H_VY, SK_H_VZ, SK_H_V2X, SK_H_V2Y, SK_H_V2Z, SK_H_COUNT };
_Static_assert(SK_H_COUNT == SK_PACK_HISTORY_ROW_REALS, "the memory check counts BDF2's history rows");
enum { SK_B_VALID = 0, SK_B_SOLVES = 1, SK_B_UNCONVERGED = 2 };
_Static_assert(SK_B_UNCONVERGED + 1 == SK_PACK_BDF2_LANE_REALS, "the memory check counts BDF2's lane reals");
static inline sk_real *sk_pack_previous_rows(const sk_kernel_cfg *cfg, sk_real *state, int width)
{
    return state + (size_t)sk_pack_lane_state_reals((uint64_t)cfg->capacity, cfg->contacts, false) * (size_t)width;
}

/* BDF2's SK_B_* rows, after the history rows. */
static inline sk_real *sk_pack_bdf2_lane(const sk_kernel_cfg *cfg, sk_real *state, int width)
{
    return sk_pack_previous_rows(cfg, state, width) + (size_t)cfg->capacity * SK_H_COUNT * (size_t)width;
}

/* The contact rows of a contact group's pack state: impulses [capacity][W], then SK_C_* rows. */
static inline sk_real *sk_pack_contact_rows(const sk_kernel_cfg *cfg, sk_real *state, int width)
{
    return state + (size_t)cfg->capacity * SK_F_COUNT * (size_t)width;
}

/* A pack that cannot take its steps (its scratch could not be allocated) is made non-finite, NaN positions
 * and velocities, so that the next frame check reports its ropes diverged and puts them back, instead of
 * leaving them silently behind. */
static inline void sk_pack_poison(const sk_kernel_cfg *cfg, sk_real *state, int width)
{
    for (size_t i = 0; i < (size_t)cfg->capacity * SK_F_COUNT * (size_t)width; i++)
        state[i] = (sk_real)__builtin_nan("");
}

/* Per-lane diagnostics of a pack (docs/model.md section 10), written by the diagnostics kernel. */
enum sk_pack_diag {
    SK_D_KINETIC,
    SK_D_GRAVITY,
    SK_D_ELASTIC,
    SK_D_ANCHOR_FX, SK_D_ANCHOR_FY, SK_D_ANCHOR_FZ,
    SK_D_LENGTH,
    SK_D_SUPPORT, /* [2][3]: the first and the last particle's support force (kernels/support.h) */
    SK_D_COUNT = SK_D_SUPPORT + 6
};

/* Per-lane extremes of a run (sk_engine_track_extremes): rows of W reals; the tension and strain -inf until a
 * link is seen, the support forces' magnitudes at the first and the last particle 0 until an end is held. */
enum sk_pack_extreme { SK_X_TENSION, SK_X_STRAIN, SK_X_SUPPORT_FIRST, SK_X_SUPPORT_LAST, SK_X_COUNT };
/* (the engines' order: core/engine/engine_impl.h) */

/* The kernels of one ISA. Pointers are aligned to a vector of W reals; steps count from the global step index step0,
 * which fixes the time t = step * dt of the driven anchor. */
typedef struct sk_kernels {
    const char *isa;  /* "scalar", "avx2", "avx512" */
    int width;        /* W: lanes (ropes) per pack */
    const char *sin_name; /* the SLEEF function driven anchors use */

    /* Advances one pack by `steps` steps: anchor, deployment, forces, integration, contacts. Adds the
     * particles present after each step to lane_steps[l] (may be NULL). A contact group's pack needs
     * scratch for its contacts: allocated per call; where that fails, the pack's ropes are made
     * non-finite, so the next frame check reports them diverged rather than silently unstepped. */
    void (*advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                    uint64_t *lane_steps);

    /* advance, with each lane's largest link tension and strain and its held ends' largest support forces
     * (docs/model.md section 10.3) folded into extremes [SK_X_COUNT][W] after every step, while the pack is in
     * cache (where the support forces' scratch cannot be had, the pack's ropes are made non-finite, as a
     * contact group's are); track alone folds in the current state at step `step` (the state a run starts
     * from), false when that scratch cannot be had. */
    void (*advance_tracked)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                            uint64_t *lane_steps, sk_real *extremes);
    bool (*track)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, long step,
                  sk_real *extremes);

    /* Diagnostics at step `step`: diag [SK_D_COUNT][W], tension [capacity - 1][W] (may be NULL). */
    void (*diagnose)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, long step,
                     sk_real *diag, sk_real *tension);

    /* Bit l set where lane l's present particles are all finite. */
    unsigned (*finite_lanes)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state);

    /* Bit l set where lane l is within the divergence bounds: no present particle with v . v > max_speed2, no
     * link between present particles with d . d > max_link2 (docs/model.md section 10). */
    unsigned (*bounded_lanes)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state);

    /* The stages alone, for benchmarks (one step each, not fused): forces of step `step` into
     * force [capacity][3][W]; integration of every present particle with those forces; deployment. */
    void (*forces)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, long step,
                   sk_real *force);
    void (*integrate)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, const sk_real *force);
    void (*deploy)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step);
    /* Contact groups: generation alone (the contacts of the current state, computed and dropped), and
     * generation with resolution (one contact phase of a step, without its forces and integration),
     * `steps` times, at step `step`'s anchor; both leave the step count alone. */
    void (*contacts)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step, long steps);
    void (*resolve)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step, long steps);
} sk_kernels;

#ifdef SKEIN_HAVE_SCALAR
extern const sk_kernels sk_kernels_scalar;
#endif
#ifdef SKEIN_HAVE_AVX2
extern const sk_kernels sk_kernels_avx2;
#endif
#ifdef SKEIN_HAVE_AVX512
extern const sk_kernels sk_kernels_avx512;
#endif

#endif
