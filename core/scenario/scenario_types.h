/* What a loaded scenario is made of, as every layer of the library reads it: the model's choices (enums), each
 * rope's parameters, a group's structure and sweeps, the water, the scenario itself. Internal: programs see an
 * opaque sk_scenario (skein/scenario.h) and read it through its accessors, so a new model changes these
 * structs and not the public API. The tests and the programs listed in docs/architecture.md may include it. */
#ifndef SKEIN_SCENARIO_TYPES_H
#define SKEIN_SCENARIO_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/force_objects.h"
#include "skein/types.h"

typedef enum sk_integrator {
    SK_INTEGRATOR_CYCLONE,
    SK_INTEGRATOR_EULER,
    SK_INTEGRATOR_SYMPLECTIC,
    SK_INTEGRATOR_VERLET,
    SK_INTEGRATOR_IMPLICIT /* linearly implicit backward Euler, one block-tridiagonal solve per rope */
} sk_integrator;

/* What resolves the contacts after a step: Cyclone's iterative resolver, or the direct chain solver
 * (docs/model.md section 4.4), which solves every link, anchor and ground constraint of a rope at once. */
/* The implicit integrator's scheme (docs/model.md section 2.1): backward Euler with a fixed count of Newton
 * iterations, or BDF2 (its first step backward Euler) solved by Newton with a line search to a tolerance. */
typedef enum sk_implicit_scheme {
    SK_IMPLICIT_EULER,
    SK_IMPLICIT_BDF2
} sk_implicit_scheme;

typedef enum sk_resolver {
    SK_RESOLVER_CYCLONE,
    SK_RESOLVER_DIRECT
} sk_resolver;

typedef enum sk_gravity_mode {
    SK_GRAVITY_ACCELERATION, /* seed 000: gravity lives in each particle's acceleration field */
    SK_GRAVITY_FORCE         /* seed 001/002: a gravity force generator, f += g * (1/w) */
} sk_gravity_mode;

typedef enum sk_link_type {
    SK_LINK_NONE, /* a rope of one particle that never deploys */
    SK_LINK_SPRING,
    SK_LINK_BUNGEE,
    SK_LINK_ROD,
    SK_LINK_CABLE
} sk_link_type;

typedef enum sk_anchor_type {
    SK_ANCHOR_NONE,
    SK_ANCHOR_SPRING, /* "anchored_spring" */
    SK_ANCHOR_BUNGEE, /* "anchored_bungee" */
    SK_ANCHOR_FAKE_SPRING,
    SK_ANCHOR_ROD,   /* rod constraint */
    SK_ANCHOR_CABLE, /* cable constraint */
    SK_ANCHOR_PIN    /* "pin": particle 0 held at the anchor point x(t), with its velocity (docs/model.md 6.4) */
} sk_anchor_type;

typedef enum sk_insert_velocity {
    SK_INSERT_SEED, /* v[n] = (v[n-1])^ len (seed 000) */
    SK_INSERT_ALONG /* v[n] = u e */
} sk_insert_velocity;

/* Point payloads a group may carry (docs/model.md section 1.1): each one's mass is a sweepable parameter. */
#define SK_MAX_PAYLOADS 4

/* How a per-particle or per-link property is given along the rope: one number for all, a list (one value
 * each, the group's own, not swept), or a linear profile from the first to the last (its two ends swept). */
typedef enum sk_profile_kind { SK_PROFILE_NONE, SK_PROFILE_LIST, SK_PROFILE_LINEAR } sk_profile_kind;

/* Every numeric parameter of one rope: what a sweep may vary per rope. Units SI. */
typedef struct sk_rope_params {
    sk_vec3 start, end;   /* the rope is laid from start to end (m) */
    sk_vec3 velocity;     /* initial velocity of every particle (m/s) */
    sk_real mass;         /* per particle (kg), > 0; a linear mass profile's value at particle 0 */
    sk_real mass_to;      /* a linear mass profile's value at the last particle (kg) */
    sk_real payload_mass[SK_MAX_PAYLOADS]; /* point masses added at the group's payload indices (kg), >= 0 */
    sk_real damping;      /* fraction of velocity kept after 1 s, in (0, 1] */
    sk_real verlet_damping; /* verlet's k, in [0, 1) */

    sk_real link_stiffness;   /* springs and bungees (N/m), > 0; a linear profile's value at link 0 */
    sk_real link_stiffness_to; /* a linear stiffness profile's value at the last link */
    sk_real link_length;      /* rest length (m), > 0; "auto" resolves to the initial spacing; linear: link 0 */
    sk_real link_length_to;   /* a linear rest length profile's value at the last link */
    sk_real link_restitution; /* cables, in [0, 1] */
    sk_real link_damping;       /* springs and bungees: axial damping (N s), force = damping * (dl/dt) / L, >= 0 */
    sk_real link_damping_ratio; /* ... or a fraction of each link's critical damping (MoorDyn's -BA), >= 0 */

    sk_vec3 anchor_point;       /* x (m) */
    sk_real anchor_stiffness;   /* anchored spring, bungee, fake spring (N/m) */
    sk_real anchor_length;      /* rest length or rod/cable length (m); deploying: initial s */
    sk_real anchor_damping;     /* fake spring's c (1/s) */
    sk_real anchor_restitution; /* cable constraint */
    sk_vec3 motion_amplitude;   /* driven anchor: x(t) = point + amplitude * sin(omega t + phase) */
    sk_real motion_omega;       /* rad/s */
    sk_real motion_phase;       /* rad */
    sk_vec3 motion_velocity;    /* towing: x(t) gains velocity * t (m/s) */

    sk_real drag_k1, drag_k2; /* drag: c = k1 s + k2 s^2 */
    sk_vec3 flow_velocity, flow_gradient; /* the fluid drag acts against: u(y) = velocity + gradient y */

    sk_real bending_stiffness; /* EI (N m^2): each hinge between consecutive links stores (EI / L)(1 - cos theta) */

    sk_real buoyancy_water_height; /* h (m) */
    sk_real buoyancy_max_depth;    /* m (m), > 0 */
    sk_real buoyancy_density;      /* rho (kg/m^3) */
    sk_real buoyancy_volume;       /* V (m^3) */

    sk_real ground_friction_static;  /* Coulomb friction on ground contacts: mu_s >= mu_k >= 0 */
    sk_real ground_friction_kinetic; /* mu_k */

    /* A line in water (docs/model.md section 3.6): its diameter and Morison coefficients, and where the line
     * is given as engineers give it, its mass per length, axial stiffness EA and unstretched length (the
     * particles' masses and the links' stiffness and rest length follow from them, model/profile.c). */
    sk_real line_diameter;        /* d (m), > 0 */
    sk_real line_drag_normal;     /* Cdn, >= 0 */
    sk_real line_drag_tangential; /* Cdt, >= 0 */
    sk_real line_added_normal;    /* Can, >= 0 */
    sk_real line_added_tangential; /* Cat, >= 0 */
    sk_real line_mass_per_length; /* kg/m, > 0 */
    sk_real line_ea;              /* N, > 0 */
    sk_real line_length;          /* m, > 0 */

    sk_real deploy_velocity;   /* u (m/s); unused where the group's deploy.velocity is a table */
    sk_real deploy_max_length; /* m; only used when sk_group.deploy_has_max_length */

    /* the force objects' numbers ("wind.force"), a member per row of model/params.h's SK_FORCE_PARAMS */
#define SK_FORCE_MEMBER_REAL(member) sk_real member;
#define SK_FORCE_MEMBER_VEC3(member) sk_vec3 member;
#define SK_FORCE_MEMBER(X, kind, member, OBJECT, object, key, units, range, required, def) SK_FORCE_MEMBER_##kind(member)
    SK_FORCE_PARAMS(SK_FORCE_MEMBER, _)
#undef SK_FORCE_MEMBER
#undef SK_FORCE_MEMBER_VEC3
#undef SK_FORCE_MEMBER_REAL
} sk_rope_params;

/* How one sweep key spreads its values over the ropes of a group. */
typedef enum sk_sweep_kind { SK_SWEEP_LINEAR, SK_SWEEP_VALUES, SK_SWEEP_RANDOM } sk_sweep_kind;

typedef struct sk_sweep {
    char *key;     /* as written: "link.stiffness", "anchor.point[1]" */
    size_t offset; /* offset of the sk_real it sets inside sk_rope_params */
    sk_sweep_kind kind;
    double from, to;   /* linear */
    double *values;    /* values: count numbers */
    double min, max;   /* random */
    uint64_t seed;     /* random: SplitMix64 seed */
} sk_sweep;

/* Ropes of one structure; numeric parameters may differ per rope through sweeps. */
typedef struct sk_group {
    size_t count;     /* ropes */
    size_t first_rope; /* global index of this group's rope 0 */
    int particles;    /* capacity N (the particle count when not deploying) */

    sk_link_type link;
    bool link_length_auto; /* link.length "auto": each rope's initial spacing |end - start| / (n0 - 1) */
    sk_anchor_type anchor;
    bool anchor_driven; /* anchor.motion given: the anchor moves */
    bool motion_sine;   /* ... with amplitude * sin(omega t + phase) */
    bool motion_tow;    /* ... with velocity * t */
    int path_count;     /* ... along a piecewise-linear path of this many points (0: none) */
    sk_real *path_times;  /* [path_count], strictly increasing (s) */
    sk_vec3 *path_points; /* [path_count]: the displacement at each time (m) */
    bool has_drag;
    bool has_flow; /* drag acts on the velocity relative to the flow (a top-level "flow", or a swept one) */
    bool has_buoyancy;
    bool has_bending; /* "bending" given: hinges between consecutive links resist bending */
    bool has_line;    /* "line" given: the group is a line of a diameter, in the scenario's water */
    bool line_by_ea;  /* ... given by mass_per_length, EA, length and segments (sk_group_line_segments) */
    unsigned force_objects;     /* bit 1 << SK_FORCE_<NAME> per force object given (model/force_objects.h) */
    bool has_link_damping;      /* link.damping or link.damping_ratio given (springs and bungees) */
    bool link_damping_by_ratio; /* ... and it is link.damping_ratio */

    bool deploys;
    int deploy_initial;          /* n0 >= 1 */
    sk_insert_velocity insert_velocity;
    bool deploy_has_max_length;
    int speed_count;       /* deploy.velocity as a table of this many rows (0: the number u) */
    sk_real *speed_times;  /* [speed_count], strictly increasing (s) */
    sk_real *speed_values; /* [speed_count]: the speed at each time (m/s; negative reels in) */

    /* Properties along the rope (docs/model.md section 1.1): mass per particle, stiffness and rest length
     * per link, each a number (SK_PROFILE_NONE), a list or a linear profile; payloads add point masses. */
    sk_profile_kind mass_profile, stiffness_profile, length_profile;
    sk_real *mass_list;      /* [particles] for a mass list */
    sk_real *stiffness_list; /* [particles - 1] for a stiffness list */
    sk_real *length_list;    /* [particles - 1] for a rest length list */
    int n_payloads;
    int payload_index[SK_MAX_PAYLOADS]; /* particle of each payload (negative indices resolved) */
    bool has_profiles; /* any of the above: the engines take the per-particle and per-link values */

    int *pinned; /* particle indices with w = 0, sorted, unique */
    int n_pinned;

    sk_rope_params base; /* the values written (or defaulted); sweeps override per rope */
    sk_sweep *sweeps;
    int n_sweeps;
    /* A group of a slice (sk_scenario_slice): its rope 0 is rope sweep_first of the sweep_count ropes the
     * sweeps spread their values over. 0 and 0 in a loaded scenario: the group's own ropes. */
    size_t sweep_first, sweep_count;
} sk_group;

/* Rows a current profile may have at most (water.current): the batch looks each particle's height up in it. */
#define SK_MAX_CURRENT_ROWS 256

/* The sea (top-level "water"); present where the scenario has the object. y is up. Kinematics:
 * core/model/water_flow.h (docs/model.md gives the equations and sign conventions). */
typedef struct sk_water {
    bool present;
    sk_real density;            /* kg/m^3, > 0 */
    sk_real surface;            /* y of the free surface (m), default 0 */
    int current_count;          /* rows of the current profile; 0: still water */
    sk_real *current_heights;   /* y (m), strictly increasing */
    sk_vec3 *current_velocities;/* m/s; piecewise linear in y between rows, held beyond the ends */
    bool waves;                 /* regular Airy waves */
    sk_real wave_amplitude, wave_period;  /* m, s */
    sk_real wave_heading, wave_phase;     /* radians (given in degrees in the file) */
    sk_real wave_depth;                   /* water depth under the surface (m) */
    sk_real wave_ramp;                    /* s; 0: no ramp */
    sk_real wave_omega, wave_number;      /* derived once at load: 2 pi / period, the dispersion's k */
    /* derived once at load too, so that neither engine computes them per particle: the direction the waves
     * travel (cos, sin of the heading) and 1 / (1 - exp(-2 k h)), which turns exponentials into the
     * cosh(k s) / sinh(k h) and sinh(k s) / sinh(k h) of the orbital motion */
    sk_real wave_cos_heading, wave_sin_heading;
    sk_real wave_depth_factor;
} sk_water;

typedef struct sk_scenario {
    char *source;  /* file name used in messages ("<default>" for the built-in batch) */
    sk_real dt;    /* s, > 0 */
    long steps;    /* >= 0; "duration" is rounded to whole steps */
    sk_integrator integrator;
    sk_vec3 gravity; /* m/s^2 */
    sk_gravity_mode gravity_as;

    sk_water water; /* "water": the sea's density, surface, current and waves (water.present: given) */

    bool has_flow;              /* "flow" given: the fluid's velocity field, each group's base values */
    sk_vec3 flow_velocity, flow_gradient;

    /* "initial" given: every rope starts from a frame of an earlier run's HDF5 output (a warm start,
     * sk_warm_start in skein/output.h) instead of its group's shape. */
    bool has_initial;
    char *initial_from;  /* the file as written */
    char *initial_path;  /* the file to open: initial_from relative to the scenario file's folder */
    long initial_frame;  /* the frame; negative counts from the end (-1: the last) */

    /* "initial": {"equilibrium": true}: every rope starts at rest in its static equilibrium, solved before step 0
     * (sk_equilibrium_start in skein/engine.h) to a force left on each particle of at most equilibrium_tolerance
     * (N) in at most equilibrium_iterations solves; has_initial stays false (no file) */
    bool initial_equilibrium;
    sk_real equilibrium_tolerance;
    int equilibrium_iterations;

    bool has_ground;
    sk_real ground_height;
    sk_real ground_restitution;
    bool has_friction; /* "ground.friction" given: Coulomb friction on ground contacts, each group's base values */
    sk_real ground_friction_static, ground_friction_kinetic;
    /* "ground.stiffness" given: a compliant seabed, a force on each line particle below it, in place of the
     * rigid contact (docs/model.md section 3.7) */
    bool ground_compliant;
    sk_real ground_stiffness; /* Pa/m: force per unit penetration and per unit of line projected area */
    sk_real ground_damping;   /* Pa s/m */
    sk_real ground_slip_speed; /* m/s: the compliant seabed's friction grows linearly up to mu_k N below it */

    int iterations; /* resolver iterations per step; 0: 2 x contacts (Cyclone's default) */
    sk_resolver resolver;
    int direct_iterations; /* "direct": Newton iterations of the position projection per step at most, >= 1 */
    sk_real direct_tolerance; /* "direct": a rope stops iterating once every row is within it (model.md 4.4) */
    int implicit_iterations; /* "implicit": Newton iterations per step, >= 1 (euler: exactly; bdf2: at most) */
    sk_implicit_scheme implicit_scheme; /* "implicit.scheme": euler (default) or bdf2 */
    sk_real implicit_tolerance; /* "implicit.tolerance" (bdf2): a rope stops iterating once no velocity update
                                 * component exceeds it (m/s) */

    /* Blow-ups flagged before numbers overflow (docs/model.md section 10): a rope with a particle faster
     * than max_speed, or a link stretched beyond (1 + max_strain) times its rest length, diverges as a
     * non-finite one does. */
    sk_real max_speed;  /* m/s, > 0; default 1e6 */
    sk_real max_strain; /* > 0; default 1e3 */

    sk_group *groups;
    int n_groups;
    size_t total_ropes;

    long output_every;     /* steps between frames; default steps (frames 0 and last) */
    size_t *output_ropes;  /* global rope indices, sorted, unique */
    size_t n_output_ropes; /* all ropes when the key is absent: filled with 0..total-1 */

    char *normalized_json; /* the scenario with every default filled in (skein validate) */
} sk_scenario;

#endif
