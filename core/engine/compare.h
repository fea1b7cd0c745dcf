/* Two engines compared frame by frame: `skein compare` and the accuracy tests. Internal (docs/architecture.md
 * lists the programs that include it). */
#ifndef SKEIN_ENGINE_COMPARE_H
#define SKEIN_ENGINE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "skein/engine.h"

/* Two engines side by side (the batch engine against the reference): the largest deviations between
 * them, per group, over every frame. */
/* The largest |a - b| over the components compared, and where it was first seen (rope 0, step 0
 * while it is 0). A pair that is
 * not the same number (a non-finite value on one side, NaN) counts as an infinite deviation. */
typedef struct sk_deviation {
    double max;
    size_t rope; /* global rope index of the largest deviation */
    long step;
    uint64_t differing; /* components whose bits differ (+0 and -0 included) */
    uint64_t compared;  /* components compared */
} sk_deviation;

typedef struct sk_group_deviation {
    sk_deviation position, velocity;
    uint64_t count_mismatches; /* frames x ropes where the particle counts differ */
    /* Groups with contacts: frames x ropes where the contacts generated or the resolver iterations used
     * by the last step differ, and frames x ropes compared so. */
    uint64_t contact_mismatches, contact_compared;
    /* BDF2: frames x ropes where the Newton solves of the last step or the steps not converged differ, and
     * frames x ropes compared so. */
    uint64_t newton_mismatches, newton_compared;
    /* When both engines track extremes (sk_engine_track_extremes): each rope's max_tension, max_strain,
     * max_support_first and max_support_last at every frame (N and a pure number side by side: only their
     * bits are judged) */
    sk_deviation extremes;
} sk_group_deviation;

/* Folds n components of a and b into d. */
void sk_deviation_add(sk_deviation *d, const sk_real *a, const sk_real *b, size_t n, size_t rope,
                             long step);

/* Within tolerance: every deviation <= tolerance and the particle counts agree; tolerance 0
 * asks for identical bits, and the same contacts, resolver iterations and tracked extremes (a tolerance lets
 * positions differ, and with them which contacts a step generates and the extremes). */
bool sk_group_deviation_within(const sk_group_deviation *g, double tolerance);

/* Advances a and b (built from the same scenario s, both at step 0) to `steps`, comparing the
 * selected ropes at every output frame (step 0, multiples of every, the last step). out has one
 * entry per group of s. Returns SK_OK, or SK_ERR_NO_MEMORY. */
sk_status sk_compare_engines(const sk_scenario *s, sk_engine *a, sk_engine *b, long steps, long every,
                              const size_t *ropes, size_t n_ropes, sk_group_deviation *out,
                              sk_error *err);

#endif
