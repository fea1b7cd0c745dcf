/* Engines: every rope of a scenario advanced step by step, by the batch engine (SIMD kernels, a rope per
 * lane, packs spread over threads) or the reference engine (plain scalar C, one rope at a time, the
 * oracle). Both compute what docs/model.md says; the batch engine gives each rope the reference's bits
 * (docs/model.md section 9). */
#ifndef SKEIN_ENGINE_H
#define SKEIN_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skein/scenario.h"
#include "skein/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sk_engine sk_engine;

typedef struct sk_engine_options {
    const char *engine; /* "batch" or "reference"; NULL: "batch" */
    const char *isa;    /* batch: "auto", "scalar", "avx2", "avx512"; NULL: "auto", the widest this CPU runs */
    int threads;        /* batch: threads stepping packs; 0: sk_default_threads() */
    bool track_extremes; /* sk_engine_track_extremes(e, true) at once */
} sk_engine_options;

/* The engine for a validated scenario, which must outlive it, with every rope at step 0. NULL with err
 * filled: SK_ERR_INVALID for an unknown engine or ISA name, SK_ERR_UNSUPPORTED for an ISA this build did
 * not compile or this CPU cannot run, SK_ERR_NO_MEMORY. opt may be NULL. */
SK_API sk_engine *sk_engine_create(const sk_scenario *s, const sk_engine_options *opt, sk_error *err);
SK_API void sk_engine_destroy(sk_engine *e);

/* The scenario the engine steps. */
SK_API const sk_scenario *sk_engine_scenario(const sk_engine *e);

/* Advances every rope that has not diverged by `steps` steps. Returns the particle-steps done (particles
 * present after each step, summed). Results do not depend on how steps are split between calls, nor on the
 * thread count or the ISA. */
SK_API uint64_t sk_engine_advance(sk_engine *e, long steps);

/* Steps taken so far. */
SK_API long sk_engine_step(const sk_engine *e);

/* An output frame (docs/model.md section 10): every rope with a non-finite position or velocity, or a
 * diagnostic that overflows, is marked diverged at this step, put back to its state at the previous check
 * (step 0 before the first) and stepped no more. Returns the ropes diverged so far. */
SK_API size_t sk_engine_check_frame(sk_engine *e);

/* sk_engine_advance then sk_engine_check_frame at the step reached, with the same results; the batch engine
 * checks each pack right after its steps, while it is in cache. *diverged gets the ropes diverged so far. */
SK_API uint64_t sk_engine_advance_checked(sk_engine *e, long steps, size_t *diverged);

/* The step a rope (global index) was marked diverged at, or -1. */
SK_API long sk_engine_rope_diverged(const sk_engine *e, size_t rope);

/* Moves a rope's anchor (global index) between steps, as a controller driving a tether would: the rope's
 * anchor.point becomes `point` from the next step on, and a driven anchor's motion (sine, towing, path) adds
 * to it as it added to the point written. Both engines move it alike, so they stay bit-identical. A rope that
 * diverges later is put back by stepping it again from step 0 with the scenario's anchor point (moves are
 * not replayed; docs/model.md section 6.6), and moves are not part of a checkpoint. Returns SK_OK, or
 * SK_ERR_INVALID with err filled for a rope out of range, a group without an anchor (neither an anchor type
 * nor deployment), a non-finite point, or an engine that cannot (sk_engine_kind "none"). */
SK_API sk_status sk_engine_set_anchor(sk_engine *e, size_t rope, sk_vec3 point, sk_error *err);

/* ---- reading ropes (rope: global index, below sk_scenario_ropes) --------------------------------------- */

/* Particles present in a rope (a deploying rope grows). */
SK_API int sk_engine_rope_particles(const sk_engine *e, size_t rope);

/* Copies a rope's positions and velocities, [n][3] each (n = sk_engine_rope_particles; verlet's velocity is
 * (p - q) / dt); either pointer may be NULL. A diverged rope gives the state it was put back to. */
SK_API void sk_engine_read_rope(const sk_engine *e, size_t rope, sk_real *p, sk_real *v);

/* A rope's diagnostics at the current step (docs/model.md section 10). */
typedef struct sk_rope_diagnostics {
    sk_real kinetic;      /* sum of m |v|^2 / 2 over unpinned particles (J) */
    sk_real gravity;      /* -sum of m g . p over unpinned particles (J) */
    sk_real elastic;      /* springs, stretched bungees, bending hinges and the anchored spring (J) */
    sk_vec3 anchor_force; /* the anchor's force on the particle it holds (N); zero without an anchor force */
    sk_real length;       /* (n - 1) L, plus the anchored segment s of a deploying rope (m) */
    sk_vec3 support[2];   /* the force holding the first [0] and the last [1] particle, where pinned or held by a
                           * pin anchor (N; zero where the end is free; docs/model.md section 10.4) */
    bool finite;          /* every position and velocity finite */
} sk_rope_diagnostics;

/* Fills out and, when tension is not NULL, the n - 1 link tensions (N): k (|d| - l) for springs (0 for a
 * slack bungee), the last step's impulse / dt for rods and cables (negative for a rod that pushes). */
SK_API void sk_engine_rope_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension);

/* Whether a rope holds more energy than its loads can have given it since `start`, its diagnostics at the run's
 * start (docs/model.md section 2.2): kinetic + gravity + elastic energy grew by more than the larger of the
 * kinetic and elastic energy it started with and its weight times its length (rest length and anchor length),
 * where a rope that nothing drives (no driven anchor, flow, buoyancy or deployment) can only lose energy. The
 * mark of a step above the explicit stability limit. Always false for a driven rope. *gain (may be NULL) gets
 * the energy now less the energy at the start (J). */
SK_API bool sk_engine_rope_energy_excess(const sk_engine *e, size_t rope, const sk_rope_diagnostics *start,
                                         double *gain);

/* How a rope is held at the current step: the rest length of its links (link.length, or the initial spacing
 * for "auto"; a profile's link 0), the anchor point x(t) and the particle the anchor holds (-1 where the
 * group has no anchor), and, in pinned[n] when not NULL (n = sk_engine_rope_particles), which particles are
 * pinned. What a program drawing a rope shows beside its particles. False, leaving everything alone, from an
 * engine that does not keep it per particle: only the reference engine answers. */
typedef struct sk_rope_hold {
    sk_real link_length;
    sk_vec3 anchor;
    int held;
} sk_rope_hold;
SK_API bool sk_engine_rope_hold(const sk_engine *e, size_t rope, sk_rope_hold *out, bool *pinned);

/* The contacts a rope's last step generated and the resolver iterations it used (0 and 0 for a group
 * without contacts and before the first step). */
SK_API void sk_engine_rope_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations);

/* "initial": {"equilibrium": true} (docs/model.md section 2.3): puts every rope of a fresh engine at rest in its
 * static equilibrium, each solved by the reference engine's static Newton, so both engines start from the same
 * bits; nothing for other scenarios. SK_ERR_INVALID naming the ropes (the first few) that did not come to rest
 * within initial.tolerance in initial.iterations solves; SK_ERR_NO_MEMORY. */
SK_API sk_status sk_equilibrium_start(sk_engine *e, sk_error *err);

/* After sk_equilibrium_start put every rope at rest: the ropes it solved (the engine's), the Newton solves they
 * took, summed, and the most one rope took; false (and zeros) when the engine's ropes were not solved for rest. */
SK_API bool sk_engine_equilibrium(const sk_engine *e, size_t *ropes, long *solves, int *most);

/* BDF2 (implicit.scheme): the Newton solves a rope's last step took, and its steps that ended with its
 * iterations spent before it converged (0 and 0 for other integrators and before the first step). */
SK_API void sk_engine_rope_newton(const sk_engine *e, size_t rope, int *solves, long *unconverged);

/* ---- extremes over the steps (docs/model.md section 10.3) ------------------------------------------------ */

/* Tracks (on) or stops tracking each rope's largest link tension (as sk_engine_rope_diagnostics reports it),
 * largest strain ((|d| - l) / l, l the link's own rest length) and largest support force at each held end,
 * over the state it stands in now and after every step from then on, not only at frames. Only at step 0
 * (after any warm start, which sk_warm_start redoes tracking for): false at a later step (a resumed checkpoint
 * puts its extremes back itself) or when out of memory. Runs
 * that do not ask pay nothing. A rope marked diverged reports what it had at the frame check before the one
 * that found it unsound (the state it was put back to), so the figures depend neither on the threads nor on
 * how the steps were split. */
SK_API bool sk_engine_track_extremes(sk_engine *e, bool on);
SK_API bool sk_engine_tracks_extremes(const sk_engine *e);

/* A rope's largest link tension (N) and strain so far; NaN for a rope that has had no link. False, leaving
 * them alone, when the engine does not track them. Either pointer may be NULL. */
SK_API bool sk_engine_rope_extremes(const sk_engine *e, size_t rope, sk_real *max_tension, sk_real *max_strain);

/* A rope's largest support force magnitude |S| (N, docs/model.md section 10.4) at its first and at its last
 * particle over the same steps; 0 at an end that is not held (and for a deploying rope). False, leaving them
 * alone, when the engine does not track the extremes. Either pointer may be NULL. */
SK_API bool sk_engine_rope_support_extremes(const sk_engine *e, size_t rope, sk_real *max_first, sk_real *max_last);

/* ---- what runs ------------------------------------------------------------------------------------------ */

/* Which engine this is: "batch" or "reference" (or a stand-in's "none"). */
SK_API const char *sk_engine_kind(const sk_engine *e);

/* What the engine runs on: "reference", or the batch kernels' ISA: "avx512", "avx2", "scalar". */
SK_API const char *sk_engine_isa(const sk_engine *e);
/* Threads the engine steps with (1 for the reference engine). */
SK_API int sk_engine_threads(const sk_engine *e);

/* The threads a batch engine uses when asked for 0: OpenMP's default (OMP_NUM_THREADS, or the cores). */
SK_API int sk_default_threads(void);

/* The kernel ISAs, widest first: whether this build compiled each and whether this CPU can run it. Returns
 * how many entries were written (at most max). */
typedef struct sk_isa_info {
    const char *name; /* "avx512", "avx2", "scalar" */
    bool compiled;
    bool usable;
} sk_isa_info;
SK_API int sk_isa_list(sk_isa_info *out, int max);

#ifdef __cplusplus
}
#endif

#endif
