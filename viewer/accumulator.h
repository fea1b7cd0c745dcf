/* The fixed-step accumulator of real time (docs/model.md section 8, seed 000): frames of any length,
 * steps of exactly dt. */
#ifndef SKEIN_ACCUMULATOR_H
#define SKEIN_ACCUMULATOR_H

#include "skein/types.h"

/* Longest frame time taken into account (s): a slow frame must not ask for ever more steps
 * ("spiral of death"). */
#define SK_ACCUMULATOR_MAX_FRAME 0.01

typedef struct sk_accumulator {
    double dt;        /* the fixed step (s) */
    double remainder; /* real time not yet simulated (s), in [0, dt) after every call */
} sk_accumulator;

/* An empty accumulator for steps of dt (> 0). */
sk_accumulator sk_accumulator_make(sk_real dt);

/* Adds a frame's real time (clamped to SK_ACCUMULATOR_MAX_FRAME; a non-positive time adds nothing)
 * and returns how many whole steps of dt to take now; the remainder is kept for the next frame. */
long sk_accumulator_add(sk_accumulator *acc, double frame_time);

#endif
