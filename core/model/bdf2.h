/* BDF2's numbers both engines share (docs/model.md section 2.1): the extrapolated start of a step and the
 * Newton iteration's line search, with the operations fixed so that every lane computes the reference's bits. */
#ifndef SKEIN_MODEL_BDF2_H
#define SKEIN_MODEL_BDF2_H

#include <stdbool.h>

#include "model/vec3.h"

/* 1/3 rounded once. */
#define SK_BDF2_THIRD ((sk_real)1 / 3)

/* The start a step is solved from, from the state x now and x_prev a step before: (4 x - x_prev) / 3 written as
 * x + (x - x_prev) THIRD, the rounded third scaling the step's increment alone (3 operations where a division by
 * 3 costs a vector unit as much as ten). Not ((4 x - x_prev) THIRD): that factor's bias (3e-8 in float) would
 * scale x itself every step, a force of bias x / h^2 that at small steps outweighs the rope's own; on the
 * increment it is a relative 3e-8 of one step's motion. */
static inline sk_vec3 sk_bdf2_start(sk_vec3 x, sk_vec3 x_prev)
{
    return sk_vec3_add(x, sk_vec3_scale(sk_vec3_sub(x, x_prev), SK_BDF2_THIRD));
}

/* The steps before a step that BDF2 keeps: x and v one step before, v two steps before (the quadratic start). */
#define SK_BDF2_STEPS_KEPT 2

/* Newton's first trial dv from the step's start v^ = (4 v - v_prev) / 3: the velocity extrapolated from the
 * steps before, less v^. From v now and v_prev a step before, linearly: 2 v - v_prev - v^ = ((v - v_prev) 2)
 * THIRD. */
static inline sk_vec3 sk_bdf2_predict(sk_vec3 v, sk_vec3 v_prev)
{
    return sk_vec3_scale(sk_vec3_scale(sk_vec3_sub(v, v_prev), 2), SK_BDF2_THIRD);
}

/* With v_prev2 two steps before too, quadratically: v + 2 (v - v_prev) - (v_prev - v_prev2) - v^, which is
 * (v - v_prev) FIVE_THIRDS - (v_prev - v_prev2): the closer start, after which fewer steps need a second solve. */
#define SK_BDF2_FIVE_THIRDS ((sk_real)5 / 3)

static inline sk_vec3 sk_bdf2_predict2(sk_vec3 v, sk_vec3 v_prev, sk_vec3 v_prev2)
{
    return sk_vec3_sub(sk_vec3_scale(sk_vec3_sub(v, v_prev), SK_BDF2_FIVE_THIRDS), sk_vec3_sub(v_prev, v_prev2));
}

/* A step's solves from this one on (counted from 0) take the trial point's own geometric share in the links'
 * blocks, not the step start's: by then the trial is near the solution, while the start's share, wrong where a
 * link's tension changed much within the step (a whipping tip), leaves Newton contracting only linearly. */
#define SK_BDF2_OWN_SHARE_SOLVE 2

/* A trial point of the line search is accepted when its merit (the residual's squared norm) is at most
 * (1 - ARMIJO alpha) times the accepted point's; alpha halves from 1 on each refusal, and a trial at
 * ALPHA_MIN is taken whatever its merit. */
#define SK_BDF2_ARMIJO ((sk_real)2e-4)
#define SK_BDF2_ALPHA_MIN ((sk_real)0.0625)

static inline bool sk_bdf2_accept(sk_real merit, sk_real accepted, sk_real alpha)
{
    return merit <= accepted * ((sk_real)1 - SK_BDF2_ARMIJO * alpha) || alpha <= SK_BDF2_ALPHA_MIN;
}

/* ... or when the step's energy falls by ARMIJO alpha times its slope along the step (negative) from the
 * accepted point's. */
static inline bool sk_bdf2_energy_accept(sk_real energy, sk_real accepted, sk_real slope, sk_real alpha)
{
    return energy <= accepted + (SK_BDF2_ARMIJO * alpha) * slope;
}

/* After a full Newton step from the accepted point that moved some velocity component by move (the largest, above
 * the tolerance), the trial it reached has converged when rho / (1 - rho) move <= tol, rho = sqrt(merit /
 * accepted) the contraction of the residual over the step: the distance left to the solution, were Newton to go on
 * contracting at that rate. Squared, without the root and the division: merit (move + tol)^2 <= accepted tol^2. */
static inline bool sk_bdf2_rate_converged(sk_real merit, sk_real accepted, sk_real move, sk_real tol)
{
    const sk_real s = move + tol;
    return (merit * s) * s <= (accepted * tol) * tol;
}

/* Or, after a second full step in a row whose move shrank from prev to move: converged when rho / (1 - rho) move
 * <= tol with rho = move / prev the contraction of Newton's moves, that is move^2 <= tol (prev - move) (never after a
 * first solve, prev = 0). */
static inline bool sk_bdf2_moves_converged(sk_real move, sk_real prev, sk_real tol)
{
    return move * move <= tol * (prev - move);
}

#endif
