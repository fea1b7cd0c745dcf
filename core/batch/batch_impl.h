/* The batch engine's private state, shared by core/batch/: every group stored as packs for the
 * kernels (groups with contacts included). */
#ifndef SKEIN_BATCH_IMPL_H
#define SKEIN_BATCH_IMPL_H

#include "pack.h"
#include "batch/batch.h"
#include "scenario/scenario.h"

typedef struct batch_group {
    const sk_group *group;
    int index;

    sk_kernel_cfg cfg;
    unsigned char *pinned; /* [capacity] */
    size_t n_packs;
    size_t param_len; /* reals per pack: SK_P_COUNT * W, then with profiles [capacity][SK_Q_COUNT][W] */
    size_t state_len; /* reals per pack: capacity * SK_F_COUNT * W, then a contact group's rows */
    sk_real *param;   /* [n_packs][SK_P_COUNT][W] */
    sk_real *state;   /* [n_packs][state_len] */
    size_t lane_len;  /* reals of one lane in a pack's state: state_len / W */

    /* Divergence (sk_batch_check_frame). No copy of the batch is kept to go back to: a rope found unsound
     * at a frame is stepped again from step 0, alone, to the frame before (its steps are deterministic, so
     * that gives its state there to the bit), and that state is held here from then on: its lane's state
     * reals, then n and s ([lane_len + 2]); NULL for every rope that has not diverged. */
    sk_real **held;   /* [count] */
    /* After sk_batch_resume_at: a fingerprint of each rope's state there ([count]). A rope's history before
     * the resumed step was not stepped here: a replay passing that step must meet the same state, or the
     * rope cannot be replayed (its state was imported from elsewhere) and stays where it was found. */
    uint64_t *resumed_print;
    /* After sk_batch_keep_start (a warm start): each rope's step-0 state as sk_batch_lane_get gives it
     * ([count][lane_len + 2]), which a diverged rope is stepped again from instead of its group's shape;
     * NULL for a run that started from the shapes. */
    sk_real *start;
    long *diverged;   /* [count]: step marked diverged, or -1 */
    long *frozen;     /* [count]: the step whose state a diverged rope holds */
    /* While tracked (core/batch/pack_extremes.c): each lane's largest link tension and strain so far
     * ([n_packs][SK_X_COUNT][W]), and each rope's at the last frame check ([count][SK_X_COUNT]), which a
     * diverged rope reports; NULL when not tracked. */
    sk_real *extremes;
    sk_real *checked_extremes;
} batch_group;

struct sk_batch {
    const sk_scenario *scenario;
    const sk_kernels *kernels;
    int width;
    int threads;
    long step;
    long last_check; /* step of the last frame check; -1 before the first */
    long resumed;    /* the step sk_batch_resume_at put the batch at; -1 when it started at step 0 */
    batch_group *groups;
    int n_groups;
    /* Units of parallel work, the packs: group i's are work_first[i] .. work_first[i + 1] - 1. */
    size_t *work_first;
    size_t n_diverged;

    /* the last pack whose diagnostics were computed (reads of neighbouring ropes reuse them): filled by const
     * readers, so it lives behind a pointer, outside the batch's observable state */
    struct batch_diag_cache {
        int group;
        size_t pack;
        long step;
        sk_real *diag;    /* [SK_D_COUNT][W] */
        sk_real *tension; /* [capacity - 1][W] */
    } *diag_cache;

    sk_real *stage_force; /* [max capacity][3][W]: sk_batch_run_stage's force array */
    /* one pack's blocks where a diverged rope's held state is laid into its lane for the kernels that read it */
    sk_real *view_param, *view_state;
    uint64_t scratch_bytes; /* the blocks above, stage_force's and diag_cache's */
};

/* Per-pack addresses. */
static inline sk_real *batch_pack_param(const batch_group *g, size_t pack) { return g->param + pack * g->param_len; }
static inline sk_real *batch_pack_state(const batch_group *g, size_t pack) { return g->state + pack * g->state_len; }

/* The kernels for an ISA name ("auto" or NULL: the widest usable); NULL with err filled (SK_ERR_INVALID). */
const sk_kernels *sk_batch_pick_kernels(const char *isa, sk_error *err);

/* Lays rope r (local index) of group g at step 0 into lane `lane` of the pack blocks param and state (any
 * pack-shaped blocks: a group's own, or scratch), or of its pack k: its parameters, and its group's shape or
 * the start it was given (g->start). */
void sk_batch_lay_rope_into(const sk_batch *b, const batch_group *g, size_t r, sk_real *param, sk_real *state,
                            int lane);
void sk_batch_lay_rope(const sk_batch *b, batch_group *g, size_t r, size_t pack, int lane);

/* A lane's state out of pack blocks into out[lane_len + 2] (its state reals, then n and s), and back in. */
void sk_batch_lane_get(const batch_group *g, int width, const sk_real *param, const sk_real *state, int lane,
                       sk_real *out);
void sk_batch_lane_put(const batch_group *g, int width, sk_real *param, sk_real *state, int lane,
                       const sk_real *in);

/* A fingerprint of a lane's state in pack blocks (the reals sk_batch_lane_get gives, hashed). */
uint64_t sk_batch_lane_print(const batch_group *g, int width, const sk_real *param, const sk_real *state, int lane);

/* Room to hold a diverged rope's state (g->held[rope]); false when out of memory. */
bool sk_batch_hold(batch_group *g, size_t rope);

/* Advancing and checking every pack (core/batch/step.c, through the parallel seam). */
uint64_t sk_batch_pass_advance(sk_batch *b, long steps);
/* Checks every rope at a frame: marks the unsound ones diverged and puts them back to their state at the
 * previous check, puts ropes diverged earlier back again; returns how many ropes diverged now. */
size_t sk_batch_pass_check(sk_batch *b);
/* Both in one pass: each item is advanced `steps` steps and checked at once, while it is in cache. The results
 * are those of sk_batch_pass_advance then sk_batch_pass_check, with b->step still at the start; *newly gets
 * the ropes diverged now. */
uint64_t sk_batch_pass_advance_checked(sk_batch *b, long steps, size_t *newly);

/* Lane of a global rope: group, index in it, pack, lane. */
typedef struct batch_where {
    batch_group *g;
    size_t local, pack;
    int lane;
} batch_where;
batch_where sk_batch_locate(const sk_batch *b, size_t rope);

/* The blocks a rope is read from: its pack's; for a diverged rope (whose live lane is stepped on with the
 * others and put back at every check) one pack's copy with the held state in its lane. */
void sk_batch_lane_blocks(const sk_batch *b, batch_where w, const sk_real **param, const sk_real **state);

#endif
