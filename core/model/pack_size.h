/* What one rope takes in the batch engine's packs, known from the scenario alone: the memory check
 * (scenario/memory.c) counts with these numbers and the pack layout (kernels/pack.h) is built from them
 * (it asserts so), so the figure a scenario is refused on is the memory its batch allocates. */
#ifndef SKEIN_MODEL_PACK_SIZE_H
#define SKEIN_MODEL_PACK_SIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/params.h"

/* The widest pack any ISA builds (AVX-512 with float): a group's ropes are padded to a multiple of it. */
#define SK_PACK_MAX_WIDTH 16

/* What the batch and each of its groups keep besides their packs and per-rope marks, at most (the batch
 * engine asserts its structures fit): counted whole by the memory check. */
#define SK_PACK_BATCH_BYTES 1024
#define SK_PACK_GROUP_BYTES 1024

/* Per rope besides its lanes: the step it diverged at, the step of the state it holds, where it holds it,
 * and (in a resumed run) the fingerprint of its resumed state. */
#define SK_PACK_ROPE_MARK_BYTES (2 * sizeof(long) + sizeof(void *) + sizeof(uint64_t))

/* Scratch beside the packs, at most this many packs of the largest group: a diverged rope's view, a stage's
 * forces and a pack's diagnostics, and the pack a thread steps diverging ropes again in (one thread's; more
 * threads replaying at once take one each). */
#define SK_PACK_SCRATCH_PACKS 3

/* Reals per lane and particle of the implicit integrator's solve (kernels/step_implicit.c), scratch each
 * thread holds while it steps a pack. */
#define SK_PACK_IMPLICIT_ROW_REALS 18

/* Reals per lane and particle of BDF2's solve besides those (kernels/step_implicit.c): the step's extrapolated
 * start, the line search's accepted point and its solve's result, the residual at the trial point, the link's
 * geometric share at the step's start. */
#define SK_PACK_BDF2_ROW_REALS 16

/* Reals per lane and particle of BDF2's state (kernels/pack.h, SK_H_*): p and v a step before, v two steps
 * before. */
#define SK_PACK_HISTORY_ROW_REALS 9

/* Reals per lane of BDF2's state besides the particles (kernels/pack.h, SK_B_*): how many steps before are
 * there, the last step's solves, the steps that did not converge. */
#define SK_PACK_BDF2_LANE_REALS 3

/* Reals per lane and particle of the bending forces' scratch (kernels/bending.h): each hinge's forces on
 * its two outer particles, taken in a pass before the step's force sum. */
#define SK_PACK_BENDING_ROW_REALS 6

/* Reals per lane of a particle row: p, and v (verlet: q). */
#define SK_PACK_PARTICLE_REALS 6

/* Reals per lane of the parameter block: every slot of SK_PACK_PARAMS (a VEC3 slot is three). */
#define SK_PACK_COUNT_SLOT(kind, SLOT, member, value) +SK_PARAM_REALS_##kind
enum { SK_PACK_PARAM_REALS = 0 SK_PACK_PARAMS(SK_PACK_COUNT_SLOT) };
#undef SK_PACK_COUNT_SLOT

/* Reals per lane and particle of a group with profiles or payloads (kernels/pack.h, SK_Q_*): the particle's
 * inverse mass, mass and gravity force, its link's stiffness, rest length and divergence bound, and the
 * implicit integrator's terms of both, and the bending constant of its hinge. */
#define SK_PACK_PROFILE_ROW_REALS 16

/* Reals per lane of a pack's parameter block: the slots, then for a group with profiles a row per particle. */
static inline uint64_t sk_pack_lane_param_reals(uint64_t capacity, bool profiles)
{
    return SK_PACK_PARAM_REALS + (profiles ? capacity * SK_PACK_PROFILE_ROW_REALS : 0);
}

/* Reals per lane of a pack's state block for ropes of `capacity` particles: the particle rows, then for a
 * group with contacts one impulse per particle and two counts, then for BDF2 (`previous`) the history rows of
 * the steps before and its lane's reals. */
static inline uint64_t sk_pack_lane_state_reals(uint64_t capacity, bool contacts, bool previous)
{
    return capacity * SK_PACK_PARTICLE_REALS + (contacts ? capacity + 2 : 0) +
           (previous ? capacity * SK_PACK_HISTORY_ROW_REALS + SK_PACK_BDF2_LANE_REALS : 0);
}

#endif
