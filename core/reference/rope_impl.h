/* Reference engine: the rope's private state, shared by the files that build, step and deploy it. */
#ifndef SKEIN_REF_ROPE_IMPL_H
#define SKEIN_REF_ROPE_IMPL_H

#include "reference/reference.h"

/* The generator behind one link, by the group's link type. */
typedef union ref_link {
    sk_spring_force spring; /* springs and bungees */
    sk_rod_link rod;
    sk_cable_link cable;
} ref_link;

struct sk_ref_rope {
    const sk_scenario *scenario;
    const sk_group *group;
    sk_rope_params params;
    sk_rope_constants c;

    sk_world world; /* particles at capacity, registry, contact generators, contacts, resolver */
    long steps;
    sk_vec3 anchor; /* x(t) of the last step; the anchor generators point here */

    /* deployment (docs/model.md section 7) */
    sk_real deploy_rest; /* s: rest length of the anchored segment */

    /* the generators, owned here; the world's registry and generator list point into them */
    sk_gravity_force gravity;
    sk_drag_force drag;
    sk_buoyancy_force buoyancy;
    ref_link *links; /* capacity - 1 */
    sk_anchored_spring_force anchor_spring;
    sk_fake_spring_force fake_spring;
    sk_rod_constraint rod_constraint;
    sk_cable_constraint cable_constraint;
    sk_ground_contacts ground;
};

/* (Re)builds the registry and the contact generator list for the particles present, in the canonical
 * order of docs/model.md section 5. Called at creation and after every insertion. */
void sk_ref_rope_register(sk_ref_rope *r);

/* Sets particle i to a fresh particle of the rope at p with velocity v (zero if pinned), verlet's
 * q = p - v dt and the reported velocity. */
void sk_ref_rope_place(sk_ref_rope *r, int i, sk_vec3 p, sk_vec3 v);

/* Step 1 of docs/model.md section 5 for deploying ropes: grows s and inserts a particle when due. */
void sk_ref_rope_deploy(sk_ref_rope *r);

#endif
