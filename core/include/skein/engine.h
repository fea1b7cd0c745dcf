/* An engine advances every rope of a scenario: the scalar reference or the batch (SIMD) engine. */
#ifndef SKEIN_ENGINE_H
#define SKEIN_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "skein/diagnostics.h"
#include "skein/error.h"
#include "skein/rope_state.h"
#include "skein/scenario.h"

typedef struct sk_engine sk_engine;

typedef struct sk_engine_options {
    const char *engine; /* "batch" or "reference"; NULL: the default engine */
    const char *isa;    /* batch: "auto", "scalar", "avx2", "avx512"; NULL: "auto" */
    int threads;        /* 0: OpenMP's default */
} sk_engine_options;

/* Builds the engine for a validated scenario. The scenario must outlive the engine.
 * Returns NULL and fills err (SK_EXIT_USAGE for an unknown engine or an ISA the CPU lacks). */
sk_engine *sk_engine_create(const sk_scenario *s, const sk_engine_options *opt, sk_error *err);

/* Advances every rope by `steps` steps. Returns the particle-steps done (particles present at
 * each step, summed). */
uint64_t sk_engine_advance(sk_engine *e, long steps);

/* Steps taken so far. */
long sk_engine_step(const sk_engine *e);

/* Particles present in a rope (global rope index). */
int sk_engine_rope_particles(const sk_engine *e, size_t rope);

/* Copies a rope's positions and velocities, [n][3] each (n = sk_engine_rope_particles);
 * either pointer may be NULL. */
void sk_engine_read_rope(const sk_engine *e, size_t rope, sk_real *p, sk_real *v);

/* An output frame (SPEC.md section 10): every rope with a non-finite p or v is marked diverged at this
 * step, put back to its state at the previous frame and stepped no more. Returns the ropes diverged so
 * far (0 from an engine that does not keep frames). */
size_t sk_engine_check_frame(sk_engine *e);

/* sk_engine_advance then sk_engine_check_frame at the step reached, with the same results; an engine may
 * do both in one pass over its memory. Returns the particle-steps; *diverged gets the ropes diverged so
 * far. */
uint64_t sk_engine_advance_checked(sk_engine *e, long steps, size_t *diverged);

/* The step a rope was marked diverged at, or -1. */
long sk_engine_rope_diverged(const sk_engine *e, size_t rope);

/* Diagnostics of a rope at the current step (SPEC.md section 10; tension: n - 1 values, may be NULL).
 * Returns false, leaving out alone, for an engine that does not provide them. */
bool sk_engine_rope_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension);

/* The contacts a rope's last step generated and the resolver iterations it used. Returns false, leaving
 * both alone, for an engine that does not count them. */
bool sk_engine_rope_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations);

/* Checkpoints (skein/checkpoint.h). Which engine's state this is ("batch" or "reference": the two keep
 * different state, and a checkpoint is resumed by the engine that wrote it), and which optional parts of a
 * rope's state (SK_STATE_*) the ropes of a group keep; 0 from an engine that cannot be checkpointed. */
const char *sk_engine_kind(const sk_engine *e);
unsigned sk_engine_state_fields(const sk_engine *e, int group);

/* Copies a rope's complete state into st (arrays sized for its group's capacity; the parts of
 * sk_engine_state_fields). A diverged rope gives the state it holds. Returns false when the engine cannot. */
bool sk_engine_export_rope(const sk_engine *e, size_t rope, sk_rope_state *st);

/* Puts a rope's state back (the parts of sk_engine_state_fields). Returns false, leaving the rope in an
 * unspecified state, when the state cannot be the rope's (a count out of range) or the engine cannot. */
bool sk_engine_import_rope(sk_engine *e, size_t rope, const sk_rope_state *st);

/* After every rope was imported: the engine stands at `step`, just after that step's frame check (the
 * state the imported ropes go back to if they diverge later is the imported one), as the engine that
 * exported them stood. Returns false when the engine cannot (out of memory for its frame snapshot). */
bool sk_engine_resume_at(sk_engine *e, long step);

/* What the engine runs on: "reference", "avx512", "avx2", "scalar". */
const char *sk_engine_isa(const sk_engine *e);
int sk_engine_threads(const sk_engine *e);

void sk_engine_destroy(sk_engine *e);

/* The kernel ISAs: whether this build compiled each and whether this CPU can run it,
 * widest first. Returns how many entries were written (at most max). */
typedef struct sk_isa_info {
    const char *name; /* "avx512", "avx2", "scalar" */
    bool compiled;
    bool usable;
} sk_isa_info;
int sk_isa_list(sk_isa_info *out, int max);

#endif
