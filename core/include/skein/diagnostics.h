/* Diagnostics of one rope (SPEC.md section 10) computed from its state, in a fixed summation order that
 * the batch engine's diagnostics kernel follows lane by lane, so both give the same bits. */
#ifndef SKEIN_DIAGNOSTICS_H
#define SKEIN_DIAGNOSTICS_H

#include <stdbool.h>

#include "skein/real.h"
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

#endif
