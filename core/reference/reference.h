/* The scalar reference engine: docs/model.md sections 1-8 written the way the examples write them (Cyclone's
 * particle engine): particles as structs, force generators and contact generators as small structs
 * with a function pointer, a force registry, a contact resolver, a world, and a rope built on them. */
#ifndef SKEIN_REFERENCE_H
#define SKEIN_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "skein/types.h"
#include "model/line_water.h"
#include "model/params.h"
#include "model/rope_constants.h"
#include "skein/engine.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"

/* ---- particles (docs/model.md section 1) ---------------------------------------------------------- */

typedef struct sk_particle {
    sk_vec3 p; /* position (m) */
    sk_vec3 v; /* velocity (m/s); verlet: (p - q) / dt, recomputed after every integration, resolution
                * and insertion (sk_world_refresh_velocities), so between steps it is the reported one */
    sk_vec3 q; /* verlet's previous position (m) */
    sk_vec3 a; /* constant acceleration field (m/s^2), set on pinned particles too */
    sk_vec3 f; /* force accumulator (N), cleared at the start of every step */
    sk_real w; /* inverse mass (1/kg); 0: pinned */
    bool in_water; /* a line's particle in water: its acceleration takes line's inertia (the added mass) */
    sk_line_inertia *line; /* a line's particle: what its water and seabed terms leave for the integrators (the
                            * rope's storage, not the particle's, so that a rope without a line keeps its size) */
} sk_particle;

/* Mass read back from the inverse mass: 1 / w. */
sk_real sk_particle_mass(const sk_particle *p);

/* One step of dt for one particle (docs/model.md section 2); nothing for a pinned particle (w <= 0).
 * damp is pow(d, dt), verlet_keep is 1 - k. Does not clear f. */
void sk_particle_integrate(sk_particle *p, sk_integrator integrator, sk_real dt, sk_real damp,
                           sk_real verlet_keep);

/* Verlet's velocity (p - q) / dt, one division per component. */
sk_vec3 sk_particle_verlet_velocity(const sk_particle *p, sk_real dt);

/* ---- force generators (docs/model.md section 3) --------------------------------------------------- */

typedef struct sk_force_generator sk_force_generator;

/* Adds the generator's force to particle (and, for a two-particle spring, to its other end). */
typedef void (*sk_force_update_fn)(const sk_force_generator *fg, sk_particle *particle);

struct sk_force_generator {
    sk_force_update_fn update;
};

/* Each generator embeds sk_force_generator first; its init returns &self->base for registering. */

typedef struct sk_gravity_force { /* f += g * (1/w) */
    sk_force_generator base;
    sk_vec3 gravity;
} sk_gravity_force;
sk_force_generator *sk_gravity_force_init(sk_gravity_force *self, sk_vec3 gravity);

typedef struct sk_drag_force { /* s = |v|; f += v^ * -(k1 s + k2 s s), v relative to the flow */
    sk_force_generator base;
    sk_real k1, k2;
    bool flow; /* v is the velocity relative to the fluid, u(y) = flow_velocity + flow_gradient y */
    sk_vec3 flow_velocity, flow_gradient;
} sk_drag_force;
sk_force_generator *sk_drag_force_init(sk_drag_force *self, sk_real k1, sk_real k2, bool flow, sk_vec3 flow_velocity,
                                       sk_vec3 flow_gradient);

/* A force object of the group's (model/force_objects.h, force_objects.c): its force from the rope's
 * parameters. */
typedef struct sk_object_force {
    sk_force_generator base;
    int object; /* SK_FORCE_<NAME> */
    const sk_rope_params *params;
} sk_object_force;
sk_force_generator *sk_object_force_init(sk_object_force *self, int object, const sk_rope_params *params);
/* The potential energy of the objects in force_objects (a bit per object) at the particle. */
sk_real sk_object_force_potential(const sk_rope_params *rp, unsigned force_objects, const sk_particle *particle);

typedef struct sk_buoyancy_force { /* f.y += rho V clamp((h + m - y) / (2 m), 0, 1) */
    sk_force_generator base;
    sk_real water_height, max_depth, density, volume;
} sk_buoyancy_force;
sk_force_generator *sk_buoyancy_force_init(sk_buoyancy_force *self, sk_real water_height,
                                           sk_real max_depth, sk_real density, sk_real volume);

/* A two-particle spring (or bungee: force only when stretched), registered with its end a, acting
 * on a and other. */
typedef struct sk_spring_force {
    sk_force_generator base;
    sk_particle *other;
    sk_real stiffness, rest_length;
    bool bungee;
    bool damped;     /* axial damping: damping * dl/dt against the change of length */
    sk_real damping; /* N s/m (model/rope_constants.h, link_c) */
} sk_spring_force;
sk_force_generator *sk_spring_force_init(sk_spring_force *self, sk_particle *other, sk_real stiffness,
                                         sk_real rest_length, bool bungee, bool damped, sk_real damping);

/* A spring (or bungee) from the registered particle to the point *anchor (read at every update,
 * so a driven anchor moves it). rest_length may be changed between steps (deployment does). */
typedef struct sk_anchored_spring_force {
    sk_force_generator base;
    const sk_vec3 *anchor;
    sk_real stiffness, rest_length;
    bool bungee;
} sk_anchored_spring_force;
sk_force_generator *sk_anchored_spring_force_init(sk_anchored_spring_force *self, const sk_vec3 *anchor,
                                                  sk_real stiffness, sk_real rest_length, bool bungee);

/* Cyclone's fake spring: a stiff damped anchored spring integrated in closed form over one step.
 * Its constants (gamma, cos, sin, exp, 1/dt, 1/dt^2, mass) come from sk_rope_constants; it only
 * acts when c->fake_active. */
typedef struct sk_fake_spring_force {
    sk_force_generator base;
    const sk_vec3 *anchor;
    bool active;
    sk_real cr, cv, cos_gdt, sin_gdt, exp_cdt, inv_dt, inv_dt2, mass;
} sk_fake_spring_force;
sk_force_generator *sk_fake_spring_force_init(sk_fake_spring_force *self, const sk_vec3 *anchor,
                                              const sk_rope_constants *c);

/* Bending: the hinge at the registered particle between prev and next, energy kb (1 - cos theta), kb = EI / L
 * (model/bending.h); acts on all three. */
typedef struct sk_bending_force {
    sk_force_generator base;
    sk_particle *prev, *next;
    sk_real kb;
} sk_bending_force;
sk_force_generator *sk_bending_force_init(sk_bending_force *self, sk_particle *prev, sk_particle *next, sk_real kb);

/* A line in water and on a compliant seabed (model/line_water.h): registered with each particle of the line,
 * between prev and next (NULL at an end), of share `share`; the water's flow at step time *time. A deploying
 * line's newest particle has no next particle but the anchor point, *next_point (its anchored segment's far
 * end, docs/model.md section 7.1); NULL elsewhere. */
typedef struct sk_line_force {
    sk_force_generator base;
    const sk_particle *prev, *next;
    const sk_vec3 *next_point;
    sk_real share;
    const sk_rope_constants *c;
    const sk_scenario *scenario;
    const sk_real *time;
    sk_real mu_k;
    bool water, seabed, friction;
    sk_line_inertia *state; /* the particle's (sk_particle.line points here) */
} sk_line_force;
sk_force_generator *sk_line_force_init(sk_line_force *self, const sk_particle *prev, const sk_particle *next,
                                       const sk_vec3 *next_point, sk_real share, const sk_rope_constants *c,
                                       const sk_scenario *s, const sk_real *time, sk_real mu_k,
                                       sk_line_inertia *state);

/* ---- the force registry: (particle, generator) pairs applied in registration order --------- */

typedef struct sk_force_registration {
    sk_particle *particle;
    const sk_force_generator *fg;
} sk_force_registration;

typedef struct sk_force_registry {
    sk_force_registration *entries;
    int count, capacity;
} sk_force_registry;

/* Storage for capacity registrations; returns false on allocation failure. */
bool sk_force_registry_init(sk_force_registry *r, int capacity);
void sk_force_registry_free(sk_force_registry *r);
/* Appends (particle, fg); returns false when full. */
bool sk_force_registry_add(sk_force_registry *r, sk_particle *particle, const sk_force_generator *fg);
void sk_force_registry_clear(sk_force_registry *r);
/* Calls every generator on its particle, in registration order. */
void sk_force_registry_update(const sk_force_registry *r);

/* ---- contacts (docs/model.md section 4) ----------------------------------------------------------- */

/* Coulomb friction of a ground contact (docs/model.md section 4.2). */
typedef struct sk_friction {
    sk_real mu_static, mu_kinetic; /* mu_kinetic <= mu_static */
} sk_friction;

typedef struct sk_contact {
    sk_particle *particle[2]; /* particle[1] NULL: the world (the anchor or the ground) */
    sk_real restitution;
    const sk_friction *friction; /* a ground contact with friction; NULL for every other */
    sk_vec3 normal;      /* unit; resolution pushes particle[0] along it and particle[1] against it */
    sk_real penetration; /* > 0: overlapping */
    sk_vec3 movement[2]; /* set by the last resolution: what each particle was moved by */
    bool picked;         /* resolved at least once this step (verlet rewrites q for its particles) */
    sk_real impulse;     /* the impulses of this step's resolutions, summed (N s): a link's tension * dt */
    bool pushes;         /* a rod (link or constraint) too short: its impulse pushes its ends apart */
} sk_contact;

/* vs = (v_a - v_b) . n, v_b = 0 for the world. */
sk_real sk_contact_separating_velocity(const sk_contact *c);
/* Resolves velocity, then interpenetration (sets movement; zero moves when skipped). */
void sk_contact_resolve(sk_contact *c, sk_real dt);
/* Friction's change of a ground contact's particle's tangential velocity (x, z), after a normal velocity
 * change dvn >= 0 of the same resolution: stick or slip (docs/model.md section 4.2). */
void sk_contact_friction(sk_particle *particle, const sk_friction *f, sk_real dvn);

/* ---- contact generators ---------------------------------------------------------------------- */

typedef struct sk_contact_generator sk_contact_generator;

/* Writes at most limit contacts from contact on; returns how many were written. */
typedef int (*sk_contact_add_fn)(const sk_contact_generator *cg, sk_contact *contact, int limit);

struct sk_contact_generator {
    sk_contact_add_fn add_contact;
};

typedef struct sk_rod_link { /* keeps |p_b - p_a| = length, restitution 0 */
    sk_contact_generator base;
    sk_particle *particle[2];
    sk_real length;
} sk_rod_link;
sk_contact_generator *sk_rod_link_init(sk_rod_link *self, sk_particle *a, sk_particle *b, sk_real length);

typedef struct sk_cable_link { /* keeps |p_b - p_a| <= max_length */
    sk_contact_generator base;
    sk_particle *particle[2];
    sk_real max_length, restitution;
} sk_cable_link;
sk_contact_generator *sk_cable_link_init(sk_cable_link *self, sk_particle *a, sk_particle *b,
                                         sk_real max_length, sk_real restitution);

typedef struct sk_rod_constraint { /* keeps |x - p| = length, x = *anchor */
    sk_contact_generator base;
    sk_particle *particle;
    const sk_vec3 *anchor;
    sk_real length;
} sk_rod_constraint;
sk_contact_generator *sk_rod_constraint_init(sk_rod_constraint *self, sk_particle *particle,
                                             const sk_vec3 *anchor, sk_real length);

typedef struct sk_cable_constraint { /* keeps |x - p| <= max_length */
    sk_contact_generator base;
    sk_particle *particle;
    const sk_vec3 *anchor;
    sk_real max_length, restitution;
} sk_cable_constraint;
sk_contact_generator *sk_cable_constraint_init(sk_cable_constraint *self, sk_particle *particle,
                                               const sk_vec3 *anchor, sk_real max_length,
                                               sk_real restitution);

typedef struct sk_ground_contacts { /* p.y >= height for each of count particles, in index order */
    sk_contact_generator base;
    sk_particle *particles;
    int count;
    sk_real height, restitution;
    const sk_friction *friction; /* NULL: frictionless */
} sk_ground_contacts;
sk_contact_generator *sk_ground_contacts_init(sk_ground_contacts *self, sk_particle *particles, int count,
                                              sk_real height, sk_real restitution, const sk_friction *friction);

/* ---- the contact resolver (Cyclone's ParticleContactResolver) ------------------------------- */

typedef struct sk_contact_resolver {
    int iterations;      /* most contacts resolved per call */
    int iterations_used; /* by the last call */
} sk_contact_resolver;

/* Repeatedly resolves the contact with the smallest separating velocity among those closing or
 * interpenetrating (first index on ties), updating the others' penetrations, until none is left or
 * iterations are used up. Sets each contact's picked flag. */
void sk_contact_resolver_resolve(sk_contact_resolver *r, sk_contact *contacts, int count, sk_real dt);

/* ---- the world (Cyclone's ParticleWorld) ---------------------------------------------------- */

typedef struct sk_world {
    sk_particle *particles; /* capacity of them; the first count are present */
    int count, capacity;

    sk_integrator integrator;
    sk_real dt, damp, verlet_keep;

    sk_force_registry registry;

    const sk_contact_generator **generators;
    int n_generators, max_generators;

    sk_contact *contacts;
    int max_contacts;
    int used_contacts; /* generated in the last step */

    sk_contact_resolver resolver;
    int fixed_iterations; /* > 0: resolver iterations per step; 0: twice the contacts generated */
} sk_world;

/* Storage for capacity particles, max_registrations force registrations, max_generators contact
 * generators and max_contacts contacts, all allocated here and only here. Returns false on
 * allocation failure (the world is then freed). */
bool sk_world_init(sk_world *w, int capacity, int max_registrations, int max_generators,
                   int max_contacts);
void sk_world_free(sk_world *w);
/* Appends a contact generator; returns false when full. */
bool sk_world_add_contact_generator(sk_world *w, const sk_contact_generator *cg);

/* Verlet: v = (p - q) / dt for every present particle (other integrators: nothing). */
void sk_world_refresh_velocities(sk_world *w);
/* Fills w->contacts from every generator in registration order until full; returns how many. */
int sk_world_generate_contacts(sk_world *w);

/* One step (docs/model.md section 5): clear forces, apply the registry, integrate, generate
 * contacts, resolve them (with verlet's velocity and q handling). The explicit integrators only. */
void sk_world_run_physics(sk_world *w);
/* Its parts: clear the forces and apply the registry; after integration, the contact phase. */
void sk_world_apply_forces(sk_world *w);
/* Clear the forces, apply the registry and integrate every present particle (the explicit integrators). */
void sk_world_integrate(sk_world *w);
void sk_world_resolve_contacts(sk_world *w);

/* ---- a rope of a scenario (docs/model.md sections 5-7) -------------------------------------------- */

typedef struct sk_ref_rope sk_ref_rope;

/* Rope `rope` (0-based within group `group`) of scenario s, at its initial state. The scenario
 * must outlive the rope. NULL on allocation failure. */
sk_ref_rope *sk_ref_rope_create(const sk_scenario *s, int group, size_t rope);
void sk_ref_rope_destroy(sk_ref_rope *r);

/* One step of dt: anchor, deployment, forces, integration, contacts (docs/model.md section 5). */
void sk_ref_rope_step(sk_ref_rope *r);
/* steps steps of dt (nothing when steps <= 0). */
void sk_ref_rope_advance(sk_ref_rope *r, long steps);
/* Steps taken so far. */
long sk_ref_rope_steps(const sk_ref_rope *r);
/* Time of the next step's start: steps * dt. */
sk_real sk_ref_rope_time(const sk_ref_rope *r);

/* Particles present (grows while a rope deploys). */
int sk_ref_rope_count(const sk_ref_rope *r);
/* Particle i (0 <= i < count): p, v, q, a, w. */
const sk_particle *sk_ref_rope_particle(const sk_ref_rope *r, int i);
sk_vec3 sk_ref_rope_position(const sk_ref_rope *r, int i);
/* The reported velocity: v, or verlet's (p - q) / dt. */
sk_vec3 sk_ref_rope_velocity(const sk_ref_rope *r, int i);

/* Deploying ropes: (n - 1) L + s; otherwise the sum of the link rest lengths ((n - 1) L). */
sk_real sk_ref_rope_deployed_length(const sk_ref_rope *r);
/* The anchor point x(t) used by the last step (before the first step: x(0)). */
sk_vec3 sk_ref_rope_anchor(const sk_ref_rope *r);
/* Index of the particle the anchor holds: 0, or n - 1 for a deploying rope. */
int sk_ref_rope_held(const sk_ref_rope *r);

/* Contacts generated and resolver iterations used in the last step. */
int sk_ref_rope_contacts(const sk_ref_rope *r);
int sk_ref_rope_iterations(const sk_ref_rope *r);
/* Puts the rope at rest in its static equilibrium (docs/model.md section 2.3): the unpinned particles moved
 * until no component of a particle's static force exceeds tolerance (N), in at most `iterations` Newton
 * solves; velocities 0. Returns the solves it took, or -1 when it did not converge (the rope then holds its
 * last point) or could not allocate. Not for ropes with contacts, a fake spring or deployment. */
int sk_ref_rope_equilibrium(sk_ref_rope *r, sk_real tolerance, int iterations);

/* BDF2: the Newton solves of the last step and the steps that did not converge (0 and 0 otherwise). */
void sk_ref_rope_newton(const sk_ref_rope *r, int *solves, long *unconverged);

/* The rope's parameters and constants (what sk_group_rope_params and sk_rope_constants_compute gave). */
const sk_rope_params *sk_ref_rope_params(const sk_ref_rope *r);
/* Moves the rope's anchor point (its anchor.point) from the next step on; a driven anchor's motion adds to it. */
void sk_ref_rope_set_anchor_point(sk_ref_rope *r, sk_vec3 point);
/* The group the rope belongs to. */
const sk_group *sk_ref_rope_group(const sk_ref_rope *r);
const sk_rope_constants *sk_ref_rope_constants(const sk_ref_rope *r);

/* Checkpoints (skein/checkpoint.h): the parts of the state a rope of group g keeps (SK_STATE_VELOCITY and
 * SK_STATE_PREVIOUS always, SK_STATE_CONTACTS with rod or cable links or anchors or the ground); a copy of
 * the rope's state (st->diverged is left alone); and the rope put back to st, as it stood after
 * st->steps steps. Import returns false, changing nothing, when st cannot be this rope's (a count out of
 * range). */
unsigned sk_ref_rope_state_fields(const sk_scenario *s, const sk_group *g);
void sk_ref_rope_export(const sk_ref_rope *r, sk_rope_state *st);
bool sk_ref_rope_import(sk_ref_rope *r, const sk_rope_state *st);

/* The anchor point at time t: point, plus whichever of the sine amplitude * sin(omega t + phase), the towing
 * velocity * t and the path's displacement the group's motion has (docs/model.md section 6.5). */
sk_vec3 sk_anchor_position(const sk_group *g, const sk_rope_params *p, sk_real t);
/* Its velocity at time t: the derivative of each motion (zero for a fixed point). */
sk_vec3 sk_anchor_velocity(const sk_group *g, const sk_rope_params *p, sk_real t);

/* ---- diagnostics (docs/model.md section 10) ----------------------------------------------- */

/* A rope of group g with parameters rp and constants c, n particles at p with velocities v (as reported:
 * verlet's (p - q) / dt), anchor point x and anchored rest length rest (deploying: s; otherwise the
 * anchor's length). tension (may be NULL) gets n - 1 values: k (|d| - l) per spring, the same for a
 * stretched bungee and 0 for a slack one; 0 for rods and cables, whose tension is not a function of the
 * state (sk_ref_rope_diagnose fills it in from the last step's contacts). */
void sk_rope_diagnose(const sk_scenario *s, const sk_group *g, const sk_rope_params *rp,
                      const sk_rope_constants *c, int n, const sk_vec3 *p, const sk_vec3 *v, sk_vec3 x,
                      sk_real rest, sk_rope_diagnostics *out, sk_real *tension);

/* The same for a reference rope at its current step (anchor at t = steps * dt, with libm's sine). A rod's
 * or cable's tension is the impulse its contact delivered in the last step (summed over the resolver's
 * picks of it) divided by dt: the force it transmitted, negative for a rod pushing its ends apart. */
void sk_ref_rope_diagnose(const sk_ref_rope *r, sk_rope_diagnostics *out, sk_real *tension);

/* The support forces of the rope's held ends at its current step (docs/model.md section 10.4): support[0] the
 * first particle's, support[1] the last's where pinned (or held by a pin anchor), zero where free or where the
 * rope deploys. Each is 0 - (f + a m~), f the particle's force summed by the rope's own registry with the
 * particle given the inverse mass it has unpinned (so that every generator acts on it), m~ that mass read
 * back. The particles' force accumulators (cleared at every step's start) serve as scratch; the rest of the
 * rope is left as it was. */
void sk_ref_rope_support(sk_ref_rope *r, sk_vec3 support[2]);

/* Folds the rope's current link tensions (as above) and strains ((|d| - l) / l, l the link's rest length) into
 * extremes[0] (the largest tension) and extremes[1] (the largest strain), and its support forces' magnitudes
 * into extremes[2] (the first particle's) and extremes[3] (the last's); tension is scratch for n - 1 values.
 * Nothing for a rope without links and without a held end. */
void sk_ref_rope_track_extremes(const sk_ref_rope *r, sk_real *tension, sk_real extremes[4]);

#endif
