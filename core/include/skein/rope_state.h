/* The complete state of one rope between two steps, as an engine keeps it: what a checkpoint saves and a
 * resumed run puts back (skein/checkpoint.h), through sk_engine_export_rope and sk_engine_import_rope. */
#ifndef SKEIN_ROPE_STATE_H
#define SKEIN_ROPE_STATE_H

#include "skein/real.h"

/* The optional parts of a rope's state; which of them an engine keeps depends on the group
 * (sk_engine_state_fields). Positions, the counts and the marks are always kept. */
enum {
    SK_STATE_VELOCITY = 1u << 0, /* v: the stored velocity (every integrator but verlet) */
    SK_STATE_PREVIOUS = 1u << 1, /* q: verlet's previous position (the reference keeps one with every
                                  * integrator: its start state q = p - v dt, checked for divergence) */
    SK_STATE_CONTACTS = 1u << 2  /* what the last step's contacts did: impulses, contacts, iterations */
};

/* The arrays are the caller's, sized for the group's capacity (particles) N; every slot is kept, those
 * past n too (a deploying rope's later particles are written into them), so a restored rope is the same
 * memory, not only the same particles. */
typedef struct sk_rope_state {
    int n;         /* particles present */
    sk_real s;     /* rest length of the anchored segment: deployment's s, else the anchor's length */
    long steps;    /* steps this state has taken: the engine's step, or for a diverged rope the frame it holds */
    long diverged; /* the step it was marked diverged at, -1 if never */
    sk_real *p;    /* [N][3] positions (m) */
    sk_real *v;    /* [N][3] velocities (m/s), with SK_STATE_VELOCITY */
    sk_real *q;    /* [N][3] previous positions (m), with SK_STATE_PREVIOUS */
    /* with SK_STATE_CONTACTS: [N] impulses the last step's contacts delivered (N s; link i at i, the
     * anchor constraint at N - 1), then the contacts generated and the resolver iterations used */
    sk_real *impulse;
    int contacts, iterations;
} sk_rope_state;

#endif
