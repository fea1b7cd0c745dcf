/* Properties along a rope (docs/model.md section 1.1): each particle's mass (the group's mass, list or
 * linear profile, plus its payloads) and each link's stiffness and rest length, evaluated with the same
 * operations for both engines, so that a particle's inverse mass and a link's constants start from the
 * same bits in each. */
#ifndef SKEIN_MODEL_PROFILE_H
#define SKEIN_MODEL_PROFILE_H

#include "model/rope_constants.h"

/* Value i of `count` along a linear profile from `from` to `to`: from + (to - from) * (i / (count - 1)),
 * from when count == 1. */
sk_real sk_profile_linear(sk_real from, sk_real to, int i, int count);

/* Mass of particle i (kg): the group's mass profile (or p->mass) plus the masses of the payloads at i, in
 * the order the group lists them. */
sk_real sk_rope_particle_mass(const sk_group *g, const sk_rope_params *p, int i);

/* Stiffness (N/m) and rest length (m) of link i (between particles i and i + 1); c gives the rest length
 * of a group without a length profile ("auto" resolved). */
sk_real sk_rope_link_stiffness(const sk_group *g, const sk_rope_params *p, int i);
sk_real sk_rope_link_length(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int i);

/* What the engines keep per particle and per link of a rope with profiles, from the numbers above with the
 * operations rope_constants.c uses for a uniform rope. */
typedef struct sk_particle_constants {
    sk_real w;             /* 1 / mass */
    sk_real mass_back;     /* 1 / w */
    sk_vec3 gravity_force; /* g * mass_back */
} sk_particle_constants;
sk_particle_constants sk_rope_particle_constants(const sk_scenario *s, const sk_group *g, const sk_rope_params *p,
                                                 int i);

/* The rest length of the first n - 1 links: (n - 1) L, or for a group with profiles their sum in link order. */
sk_real sk_rope_links_length(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int n);

/* The implicit integrator's terms of a particle whose mass reads back as mass_back, with the operations
 * rope_constants.c gives the rope's: the diagonal mass_back + drag_t, and the fake spring's jx and jv (0
 * where it is not active). */
void sk_rope_particle_implicit(const sk_rope_constants *c, sk_real mass_back, sk_real *diag, sk_real *jx,
                               sk_real *jv);

/* Link i's stiffness term of the implicit integrator: (k_i dt) dt. */
sk_real sk_rope_link_kdt2(const sk_rope_constants *c, sk_real stiffness);

/* The bending constant of the hinge at particle i (1 .. n - 2, between links i - 1 and i): EI over the
 * rest length a hinge stands for, (L_(i-1) + L_i) * 0.5 with a length profile, which is L itself when the
 * two are equal, so a rope without a length profile keeps EI / L's bits; 0 without bending. */
sk_real sk_rope_hinge_kb(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int i);

/* Particle i's share of a line (docs/model.md section 3.6): half of each adjacent link's rest length, the
 * two halves added (0 + x where an end has one link), so an inner particle of a uniform rope has L's bits and
 * an end 0.5 L's. A deploying line's particles past the tip take a whole segment (section 7.1), the last row
 * (the newest at the capacity) too. */
sk_real sk_rope_line_share(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int i);
/* Link i's axial damping coefficient (sk_rope_link_c), its line mass the larger of particles i and i + 1's
 * masses without payloads (the lumped masses of a uniform line's interior, whether or not its ends carry
 * half), so a rope without profiles gets the rope's link_c. */
sk_real sk_rope_link_damping(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int i);

/* Link i's divergence bound, compared with d . d: (L_i (1 + max_strain))^2. */
sk_real sk_rope_link_max2(const sk_scenario *s, sk_real length);

#endif
