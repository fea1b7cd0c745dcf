/* A rope's complete state, exported from and imported into an engine: what checkpoints (io/checkpoint),
 * warm starts and the stand-in engines move between files, processes and engines, with the extremes a
 * resumed run puts back. Internal: the library, the skein program and the tests. */
#ifndef SKEIN_ENGINE_STATE_H
#define SKEIN_ENGINE_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "skein/engine.h"
#include "skein/types.h"

/* Puts back a rope's extremes as sk_engine_rope_extremes gave them at a frame check (NaN: no link yet), for a
 * checkpoint resumed at that frame: they become both its running figures and those of its last check (at a
 * check the two are equal), so the resumed run goes on as the one that stopped. False when the engine does
 * not track them. */
bool sk_engine_set_rope_extremes(sk_engine *e, size_t rope, sk_real max_tension, sk_real max_strain);

/* Puts them back as sk_engine_set_rope_extremes puts back the tension and strain (NaN is read as 0). */
bool sk_engine_set_rope_support_extremes(sk_engine *e, size_t rope, sk_real max_first, sk_real max_last);

/* The optional parts of a rope's state; which of them an engine keeps depends on the group
 * (sk_engine_state_fields). Positions, the counts and the marks are always kept. */
enum {
    SK_STATE_VELOCITY = 1u << 0, /* v: the stored velocity (every integrator but verlet) */
    SK_STATE_PREVIOUS = 1u << 1, /* q: verlet's previous position (the reference keeps one with every
                                  * integrator: its start state q = p - v dt, which only verlet reads) */
    SK_STATE_CONTACTS = 1u << 2, /* what the last step's contacts did: impulses, contacts, iterations */
    SK_STATE_HISTORY = 1u << 3   /* BDF2's (implicit.scheme "bdf2"): the state a step before and its Newton */
};

/* The arrays are the caller's, sized for the group's capacity (particles) N; every slot is kept, those past
 * n too (a deploying rope's later particles are written into them), so a restored rope is the same memory,
 * not only the same particles. */
typedef struct sk_rope_state {
    int n;         /* particles present */
    sk_real s;     /* rest length of the anchored segment: deployment's s, else the anchor's length */
    long steps;    /* steps this state has taken: the engine's step, or for a diverged rope the frame it holds */
    long diverged; /* the step it was marked diverged at, -1 if never */
    sk_real *p;    /* [N][3] positions (m) */
    sk_real *v;    /* [N][3] velocities (m/s), with SK_STATE_VELOCITY */
    sk_real *q;    /* [N][3] previous positions (m), with SK_STATE_PREVIOUS */
    /* with SK_STATE_CONTACTS: [N] impulses the last step's contacts delivered (N s; link i at i, the anchor
     * constraint at N - 1), then the contacts generated and the resolver iterations used */
    sk_real *impulse;
    int contacts, iterations;
    /* with SK_STATE_HISTORY: [N][3] positions (m) and velocities (m/s) a step before, [N][3] velocities two
     * steps before, how many of those steps there are (0 before the first step, which is backward Euler's; 1
     * after it, when the velocities two steps before are not yet there; 2 after that), the last step's Newton
     * solves and the steps whose Newton did not converge. An importing engine without prev_p, prev_v or
     * prev_v2 starts BDF2 again from a backward Euler step. */
    sk_real *prev_p, *prev_v, *prev_v2;
    int prev_steps, solves;
    long unconverged;
} sk_rope_state;

/* The parts of a rope's state (SK_STATE_*) a group's ropes keep; the batch and the reference engine keep
 * different state (sk_engine_kind), and a checkpoint is resumed by the kind that wrote it. */
unsigned sk_engine_state_fields(const sk_engine *e, int group);

/* Copies a rope's complete state into st (a diverged rope gives the state it holds). Returns false from an
 * engine whose state cannot be saved (sk_engine_kind "none"). */
bool sk_engine_export_rope(const sk_engine *e, size_t rope, sk_rope_state *st);

/* Puts a rope's state back. Returns false, leaving the rope in an unspecified state, when st cannot be the
 * rope's (a count out of range, a missing array). */
bool sk_engine_import_rope(sk_engine *e, size_t rope, const sk_rope_state *st);

/* After every rope was imported: the engine stands at `step`, just after that step's frame check; a rope that
 * diverges later goes back to its state at the check before, as in a run that never stopped. The batch engine
 * keeps no copy of the state for that: it steps the rope again from step 0, which meets the imported state
 * when that state came from a run of the same scenario (a checkpoint); a rope whose imported state did not
 * (set by hand) stays where it was found unsound instead. Returns false when out of memory. */
bool sk_engine_resume_at(sk_engine *e, long step);

/* At step 0, after every rope was imported (a warm start, sk_warm_start): the ropes' state is their start, which
 * a rope that diverges is stepped again from (to its state at the check before) instead of its group's shape.
 * The engine keeps a copy of every rope's state for it. Returns false when out of memory or from an engine
 * that cannot (sk_engine_kind "none"). */
bool sk_engine_keep_start(sk_engine *e);

#endif
