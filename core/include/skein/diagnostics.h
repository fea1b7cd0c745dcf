/* Diagnostics of one rope (SPEC.md section 10) computed from its state, in a fixed summation order that
 * the batch engine's diagnostics kernel follows lane by lane, so both give the same bits. */
#ifndef SKEIN_DIAGNOSTICS_H
#define SKEIN_DIAGNOSTICS_H

#include <stdbool.h>

#include "skein/real.h"
#include "skein/reference.h"
#include "skein/rope_constants.h"
#include "skein/scenario.h"

typedef struct sk_rope_diagnostics {
    /* sum over unpinned particles, in index order, of (m * (v . v)) * 0.5 (J) */
    sk_real kinetic;
    /* 0 - m (g . p) - ... over unpinned particles in index order (J); g is the scenario's gravity */
    sk_real gravity;
    /* sum of ((k x) x) * 0.5, x = |d| - l, over the springs in segment order (bungees only when
     * stretched), then the anchored spring (bungee when stretched; fake spring: k |p - x|^2 / 2) (J) */
    sk_real elastic;
    /* the anchor's force on the held particle in this state, as the step computes it; zero without an
     * anchor force, for a pinned held particle, and for rod and cable constraints (N) */
    sk_vec3 anchor_force;
    /* (n - 1) L + s for a deploying rope, (n - 1) L otherwise (m) */
    sk_real length;
    /* every p and v finite */
    bool finite;
} sk_rope_diagnostics;

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

#endif
