/* The batch engine: every rope of a scenario stepped by SIMD kernels, a lane per rope, packs of W ropes
 * advanced in parallel (OpenMP) through whole output intervals while they sit in cache. Each rope gets
 * the bits the scalar reference gives it alone (docs/model.md section 9), except driven anchors' sine.
 *
 * Groups with contacts (rod or cable links, rod or cable anchors, the ground) run contact kernels too:
 * every lane generates its contacts and runs Cyclone's resolver (kernels/contacts.h). */
#ifndef SKEIN_BATCH_H
#define SKEIN_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skein/engine.h"
#include "skein/types.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"

typedef struct sk_batch sk_batch;

typedef struct sk_batch_options {
    const char *isa; /* "auto" (or NULL): the widest this build and CPU run; "scalar", "avx2", "avx512" */
    int threads;     /* 0: OpenMP's default */
} sk_batch_options;

/* Builds the packs of every group of a validated scenario (which must outlive the batch), at step 0.
 * NULL with err filled: SK_ERR_INVALID for an unknown ISA or one this build or CPU lacks,
 * SK_ERR_NO_MEMORY when out of memory. opt may be NULL. */
sk_batch *sk_batch_create(const sk_scenario *s, const sk_batch_options *opt, sk_error *err);
void sk_batch_destroy(sk_batch *b);

/* Advances every rope that has not diverged by `steps` steps; returns the particle-steps done (particles
 * present after each step, summed over those ropes). Results do not depend on how steps are split
 * between calls, nor on the thread count. */
uint64_t sk_batch_advance(sk_batch *b, long steps);
long sk_batch_step(const sk_batch *b);

/* An output frame (docs/model.md section 10): every unsound rope (a non-finite or out-of-bounds p or v, or
 * diagnostic) is marked diverged at this step, put back to its state at the previous check (step 0 before
 * the first) and stepped no more. Returns the ropes diverged so far. Nothing is copied for the sound ones:
 * a diverging rope's state at the previous check is found by stepping it again from step 0, alone. */
size_t sk_batch_check_frame(sk_batch *b);
/* The step a rope was marked diverged at, or -1. */
long sk_batch_rope_diverged(const sk_batch *b, size_t rope);
/* sk_batch_advance then sk_batch_check_frame, with the same results, in one pass: each pack is checked
 * right after its steps, while it is still in cache. *diverged gets the ropes diverged so far. */
uint64_t sk_batch_advance_checked(sk_batch *b, long steps, size_t *diverged);

/* Particles present in a rope (global index), and its positions and velocities [n][3] (verlet's
 * velocity is (p - q) / dt); either pointer may be NULL. */
int sk_batch_rope_particles(const sk_batch *b, size_t rope);
void sk_batch_read_rope(const sk_batch *b, size_t rope, sk_real *p, sk_real *v);

/* Diagnostics of a rope at the current step (docs/model.md section 10); tension gets n - 1 values (may be
 * NULL). Computed by the diagnostics kernel for the rope's whole pack. */
void sk_batch_rope_diagnostics(const sk_batch *b, size_t rope, sk_rope_diagnostics *out, sk_real *tension);

/* The contacts a rope's last step generated and the resolver iterations it used (0 and 0 before the
 * first step and for a group without contacts; a diverged rope's, from the state it was put back to). */
void sk_batch_rope_contacts(const sk_batch *b, size_t rope, int *contacts, int *iterations);
/* BDF2: the Newton solves of the rope's last step and its steps that did not converge (0 and 0 otherwise). */
void sk_batch_rope_newton(const sk_batch *b, size_t rope, int *solves, long *unconverged);

/* Moves a rope's anchor point (its anchor.point slot) from the next step on (sk_engine_set_anchor). */
void sk_batch_set_anchor_point(sk_batch *b, size_t rope, sk_vec3 point);

/* Checkpoints (skein/checkpoint.h, through the engine seam sk_engine_export_rope ...): the parts of the
 * state a group's ropes keep, a rope's state copied out (a diverged rope's, the state it holds) and put back
 * (false, for a state that cannot be the rope's), and the batch put at `step` just after its frame check
 * (false when out of memory for the ropes' fingerprints there, see sk_engine_resume_at). Lanes are
 * independent and step to the same bits on every ISA, so a checkpoint resumes on any ISA. */
unsigned sk_batch_state_fields(const sk_batch *b, int group);
void sk_batch_export_rope(const sk_batch *b, size_t rope, sk_rope_state *st);
bool sk_batch_import_rope(sk_batch *b, size_t rope, const sk_rope_state *st);
bool sk_batch_resume_at(sk_batch *b, long step);
/* At step 0, after every rope was imported: their state is their start (sk_engine_keep_start). False when out
 * of memory. */
bool sk_batch_keep_start(sk_batch *b);

/* Tracks each rope's largest link tension and strain and its held ends' largest support forces from the current
 * state on (every step folded in by the kernels; a diverged rope keeps what it had at the check before it
 * diverged), or stops tracking (on false). False when out of memory. sk_batch_rope_extremes gives a rope's
 * figures in the order of kernels/pack.h's SK_X_* (-inf tension and strain before any link was seen, 0 support
 * where no end is held); false when not tracked. */
enum { SK_BATCH_EXTREMES = 4 }; /* SK_X_COUNT */
bool sk_batch_track_extremes(sk_batch *b, bool on);
bool sk_batch_rope_extremes(const sk_batch *b, size_t rope, sk_real out[SK_BATCH_EXTREMES]);
/* Sets a rope's running and checked extremes from..from + count - 1 (SK_X_*) to x (a resumed checkpoint's);
 * false when not tracked. */
bool sk_batch_set_rope_extremes(sk_batch *b, size_t rope, int from, int count, const sk_real *x);

/* What runs the batch: the kernels' ISA ("avx512", "avx2", "scalar"). */
const char *sk_batch_isa(const sk_batch *b);
/* The ISA of one group: the kernels' ISA (every group runs the kernels). */
const char *sk_batch_group_isa(const sk_batch *b, int group);
int sk_batch_width(const sk_batch *b); /* ropes per pack (W) */
int sk_batch_threads(const sk_batch *b);
/* Bytes held for ropes: packs (parameters, particles, contact rows), per-rope marks, and the states diverged
 * ropes hold. Frame checks copy nothing else (a diverging rope is stepped again to its last sound frame in
 * one pack of scratch per thread). */
uint64_t sk_batch_bytes(const sk_batch *b);

/* Benchmark entry points: one stage of the step run alone over every pack of the kernel groups, `steps`
 * times, on the calling thread. STEP is the fused step sk_batch_advance runs; UNFUSED is the same step
 * as three separate kernels (deployment, forces into an array, integration from it), giving the same
 * bits; both advance the batch's step. FORCES, INTEGRATE and DEPLOY run one kernel alone, for timing
 * only: they leave the step count alone; the force array is one pack's, kept in cache, so INTEGRATE
 * moves every pack with the forces the last FORCES left there (the last pack's), and DEPLOY uses the
 * anchor of the current step. Returns the particle-steps
 * the stage covered (particles present in the ropes of every pack visited, per step). */
typedef enum sk_batch_stage {
    SK_BATCH_STAGE_STEP,
    SK_BATCH_STAGE_UNFUSED,
    SK_BATCH_STAGE_FORCES,
    SK_BATCH_STAGE_INTEGRATE,
    SK_BATCH_STAGE_DEPLOY,
    /* Contact groups only, leaving the step count alone: CONTACTS generates the contacts of the current
     * state (and drops them); RESOLVER runs the contact phase of a step, generation and Cyclone's
     * resolver, on the current state without forces or integration (so the packs move). */
    SK_BATCH_STAGE_CONTACTS,
    SK_BATCH_STAGE_RESOLVER
} sk_batch_stage;
uint64_t sk_batch_run_stage(sk_batch *b, sk_batch_stage stage, long steps);

#endif
