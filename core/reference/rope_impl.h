/* Reference engine: the rope's private state, shared by the files that build, step and deploy it. */
#ifndef SKEIN_REF_ROPE_IMPL_H
#define SKEIN_REF_ROPE_IMPL_H

#include "model/sym3.h"
#include "reference/reference.h"

/* The generator behind one link, by the group's link type. */
typedef union ref_link {
    sk_spring_force spring; /* springs and bungees */
    sk_rod_link rod;
    sk_cable_link cable;
} ref_link;

/* The implicit integrator's work arrays, one entry per particle of the capacity (reference/implicit.c). */
typedef struct sk_ref_implicit {
    sk_vec3 *x0, *v0; /* the step's start */
    sk_vec3 *dv;      /* the velocity change the last solve found */
    sk_vec3 *z;       /* what the stiffness blocks multiply on the right-hand side */
    sk_sym3 *link;    /* stiffness block S_i of link i (times dt^2) */
    sk_vec3 *q;       /* S_i (z_i - z_(i+1)) */
    bool *active;     /* link i acts (a bungee: stretched) */
    bool *coupled;    /* ... and joins two unpinned particles */
    sk_vec3 *zp;      /* D_i^-1 y_i */
    sk_mat3 *h;       /* D_i^-1 S_i */
    sk_sym3 *handed;   /* what row i hands row i + 1: its diagonal block but link i + 1's */
    sk_vec3 *handed_y; /* ... and what it adds to its right-hand side */
    /* BDF2: the state a step before and the velocities two steps before (valid as prev_steps, 0 to 2, says), the
     * accepted Newton point and the solve's from it
     * (the line search moves between them), the last step's solves and the steps that did not converge */
    sk_vec3 *prev_p, *prev_v, *prev_v2;
    sk_vec3 *acc, *target;
    sk_vec3 *res; /* the residual at the trial point, per particle */
    sk_real *share; /* link i's geometric share at the step's start (sk_spring_share), its blocks' in every pass */
    /* the static solve's (reference/equilibrium.c) stiffness of each particle's own forces along y, times the
     * pseudo step squared, added to its diagonal block: NULL in the integrator's steps */
    const sk_real *vertical;
    int prev_steps;
    int solves;
    long unconverged;
} sk_ref_implicit;

bool sk_ref_implicit_init(sk_ref_implicit *im, int capacity);
void sk_ref_implicit_free(sk_ref_implicit *im);

/* The direct chain solver's work arrays, one entry per row slot (model/direct_rows.h) or per particle. */
typedef struct sk_ref_direct {
    unsigned char *kind;   /* enum sk_row_kind */
    bool *active;          /* the row is in the system being solved */
    bool *dropped;         /* the last elimination found the row dependent */
    sk_vec3 *normal;       /* the row's direction: the unit direction times scale */
    sk_real *scale;        /* |normal|: the row's length over its rest length (1 for the ground) */
    sk_real *gap;          /* its constraint value (0: at length, < 0: violated) */
    sk_real *taut;         /* a cable with gap <= this counts as taut */
    bool *held;            /* the row was active in the velocity stage's final solve */
    sk_real *rhs, *lambda; /* the system's right-hand side and solution */
    sk_real *impulse;      /* the velocity stage's lambda: the impulse (N s) the row delivered */
    sk_real *a0, *a1, *a2; /* the band of A: diagonal, couplings one and two slots on */
    sk_real *inv, *l1, *l2; /* its LDL^T: reciprocal pivots, the two subdiagonals */
    bool *touched;         /* per particle: a row moved it this step */
    int contacts, passes, iterations; /* rows generated, velocity solves, solves in all (diagnostics) */
} sk_ref_direct;

bool sk_ref_direct_init(sk_ref_direct *d, int capacity);
void sk_ref_direct_free(sk_ref_direct *d);

/* Factors the band a0, a1, a2 over the active rows of the first slots (LDL^T into inv, l1, l2; a dependent
 * row is dropped: made inactive) and solves for lambda from rhs (0 on inactive rows). */
void sk_ref_direct_solve(sk_ref_direct *d, int slots);

/* Tests: every row the rope has at its current positions, active, and A assembled from them. */
void sk_ref_direct_system(sk_ref_rope *r);

struct sk_ref_rope {
    const sk_scenario *scenario;
    const sk_group *group;
    sk_rope_params params;
    sk_rope_constants c;
    sk_rope_constants c_bdf2; /* BDF2's steps after the first: c with dt = 2 dt / 3 */

    sk_world world; /* particles at capacity, registry, contact generators, contacts, resolver */
    long steps;
    sk_vec3 anchor; /* x(t) of the last step; the anchor generators point here */

    /* deployment (docs/model.md section 7) */
    sk_real deploy_rest; /* s: rest length of the anchored segment */

    /* the generators, owned here; the world's registry and generator list point into them */
    sk_gravity_force gravity;
    sk_drag_force drag;
    sk_buoyancy_force buoyancy;
    sk_object_force objects[SK_FORCE_OBJECT_COUNT];
    ref_link *links; /* capacity - 1 */
    sk_bending_force *hinges; /* capacity: hinge i at particle i (1 .. n - 2), with bending only */
    sk_line_force *lines;     /* capacity: particle i's, for a line only */
    sk_line_inertia *line_states; /* capacity: what particle i's line terms leave for the integrators */
    sk_real time;             /* the step's time, steps * dt (the water's flow) */
    sk_anchored_spring_force anchor_spring;
    sk_fake_spring_force fake_spring;
    sk_rod_constraint rod_constraint;
    sk_cable_constraint cable_constraint;
    sk_ground_contacts ground;
    sk_friction friction; /* the ground's, this rope's coefficients */

    sk_ref_implicit implicit; /* allocated for the implicit integrator only */
    sk_ref_direct direct;     /* allocated for the direct resolver only */
};

/* (Re)builds the registry and the contact generator list for the particles present, in the canonical
 * order of docs/model.md section 5. Called at creation and after every insertion. */
void sk_ref_rope_register(sk_ref_rope *r);

/* Sets particle i to a fresh particle of the rope at p with velocity v (zero if pinned), verlet's
 * q = p - v dt and the reported velocity. */
void sk_ref_rope_place(sk_ref_rope *r, int i, sk_vec3 p, sk_vec3 v);

/* A pin anchor's particle 0 put at the anchor point of step `step` (x(step dt)) with its velocity; nothing
 * for other anchors. */
void sk_ref_rope_pin(sk_ref_rope *r, long step);

/* The implicit integrator's step (docs/model.md section 2.1): forces, the solve, the new velocities and
 * positions; the contacts follow as for every integrator. */
void sk_ref_rope_implicit_step(sk_ref_rope *r);

/* One solve of the implicit integrator's system with constants c at the particles' positions and forces (f
 * applied), in the form of its later iterations with the trial point im->z the caller set: into im->dv. */
void sk_ref_implicit_linear_solve(sk_ref_rope *r, const sk_rope_constants *c);

/* The contact phase with the direct chain solver (docs/model.md section 4.4), in place of Cyclone's
 * resolver: the rope's rows solved at once for velocities, then positions. */
void sk_ref_rope_direct_resolve(sk_ref_rope *r);

/* Step 1 of docs/model.md section 5 for deploying ropes: grows s and inserts a particle when due. */
void sk_ref_rope_deploy(sk_ref_rope *r);

#endif
