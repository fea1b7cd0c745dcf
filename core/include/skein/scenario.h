/* The scenario model: what a scenario file describes, validated and with every default filled in. */
#ifndef SKEIN_SCENARIO_H
#define SKEIN_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skein/error.h"
#include "skein/real.h"

typedef enum sk_integrator {
    SK_INTEGRATOR_CYCLONE,
    SK_INTEGRATOR_EULER,
    SK_INTEGRATOR_SYMPLECTIC,
    SK_INTEGRATOR_VERLET
} sk_integrator;

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
    SK_ANCHOR_CABLE  /* cable constraint */
} sk_anchor_type;

typedef enum sk_insert_velocity {
    SK_INSERT_SEED, /* v[n] = (v[n-1])^ len (seed 000) */
    SK_INSERT_ALONG /* v[n] = u e */
} sk_insert_velocity;

/* Every numeric parameter of one rope: what a sweep may vary per rope. Units SI. */
typedef struct sk_rope_params {
    sk_vec3 start, end;   /* the rope is laid from start to end (m) */
    sk_vec3 velocity;     /* initial velocity of every particle (m/s) */
    sk_real mass;         /* per particle (kg), > 0 */
    sk_real damping;      /* fraction of velocity kept after 1 s, in (0, 1] */
    sk_real verlet_damping; /* verlet's k, in [0, 1) */

    sk_real link_stiffness;   /* springs and bungees (N/m), > 0 */
    sk_real link_length;      /* rest length (m), > 0; "auto" resolves to the initial spacing */
    sk_real link_restitution; /* cables, in [0, 1] */

    sk_vec3 anchor_point;       /* x (m) */
    sk_real anchor_stiffness;   /* anchored spring, bungee, fake spring (N/m) */
    sk_real anchor_length;      /* rest length or rod/cable length (m); deploying: initial s */
    sk_real anchor_damping;     /* fake spring's c (1/s) */
    sk_real anchor_restitution; /* cable constraint */
    sk_vec3 motion_amplitude;   /* driven anchor: x(t) = point + amplitude * sin(omega t + phase) */
    sk_real motion_omega;       /* rad/s */
    sk_real motion_phase;       /* rad */

    sk_real drag_k1, drag_k2; /* drag: c = k1 s + k2 s^2 */

    sk_real buoyancy_water_height; /* h (m) */
    sk_real buoyancy_max_depth;    /* m (m), > 0 */
    sk_real buoyancy_density;      /* rho (kg/m^3) */
    sk_real buoyancy_volume;       /* V (m^3) */

    sk_real deploy_velocity;   /* u (m/s) */
    sk_real deploy_max_length; /* m; only used when sk_group.deploy_has_max_length */
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
    bool anchor_driven; /* anchor.motion given */
    bool has_drag;
    bool has_buoyancy;

    bool deploys;
    int deploy_initial;          /* n0 >= 1 */
    sk_insert_velocity insert_velocity;
    bool deploy_has_max_length;

    int *pinned; /* particle indices with w = 0, sorted, unique */
    int n_pinned;

    sk_rope_params base; /* the values written (or defaulted); sweeps override per rope */
    sk_sweep *sweeps;
    int n_sweeps;
} sk_group;

typedef struct sk_scenario {
    char *source;  /* file name used in messages ("<default>" for the built-in batch) */
    sk_real dt;    /* s, > 0 */
    long steps;    /* >= 0; "duration" is rounded to whole steps */
    sk_integrator integrator;
    sk_vec3 gravity; /* m/s^2 */
    sk_gravity_mode gravity_as;

    bool has_ground;
    sk_real ground_height;
    sk_real ground_restitution;

    int iterations; /* resolver iterations per step; 0: 2 x contacts (Cyclone's default) */

    sk_group *groups;
    int n_groups;
    size_t total_ropes;

    long output_every;     /* steps between frames; default steps (frames 0 and last) */
    size_t *output_ropes;  /* global rope indices, sorted, unique */
    size_t n_output_ropes; /* all ropes when the key is absent: filled with 0..total-1 */

    char *normalized_json; /* the scenario with every default filled in (skein validate) */
} sk_scenario;

/* Command-line overrides applied to the JSON before validation: "PATH=VALUE" with PATH a key path
 * ("dt", "groups[0].link.stiffness", "groups[1].start[2]") and VALUE parsed as JSON (a bare word that is
 * not JSON is taken as a string). */
typedef struct sk_load_options {
    const char *const *sets;
    int n_sets;
} sk_load_options;

/* Parses and validates a scenario file. On error fills err (status SK_EXIT_USAGE for bad input,
 * SK_EXIT_FAILURE for an unreadable file) and leaves *out empty. Returns err's status or 0.
 * opt may be NULL. */
int sk_scenario_load_file(const char *path, const sk_load_options *opt, sk_scenario *out,
                          sk_error *err);

/* The same from text in memory; name is used in messages. */
int sk_scenario_load_string(const char *text, const char *name, const sk_load_options *opt,
                            sk_scenario *out, sk_error *err);

void sk_scenario_free(sk_scenario *s);

/* The parameters of rope r (0-based within the group): the base values with every sweep applied. */
void sk_group_rope_params(const sk_group *g, size_t r, sk_rope_params *out);

/* Bytes the batch engine needs for this scenario (estimated before anything is allocated); saturates at
 * UINT64_MAX. output_ropes NULL counts every rope as selected. */
uint64_t sk_scenario_memory_estimate(const sk_scenario *s);

/* Total particle count of one rope when it starts (deploying ropes start with deploy_initial). */
int sk_group_initial_particles(const sk_group *g);

/* Whether the group's ropes have contacts (SPEC.md section 4): rods, cables, a rod or cable anchor, or the
 * scenario's ground. */
bool sk_group_has_contacts(const sk_scenario *s, const sk_group *g);

/* Locates the group of a global rope index; returns the group index and sets *local (-1 when rope is
 * not below total_ropes). */
int sk_scenario_find_rope(const sk_scenario *s, size_t rope, size_t *local);

#endif
