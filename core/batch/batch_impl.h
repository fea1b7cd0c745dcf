/* The batch engine's private state, shared by core/batch/: every group stored as packs for the
 * kernels (groups with contacts included). */
#ifndef SKEIN_BATCH_IMPL_H
#define SKEIN_BATCH_IMPL_H

#include "pack.h"
#include "batch/batch.h"

typedef struct batch_group {
    const sk_group *group;
    int index;

    sk_kernel_cfg cfg;
    unsigned char *pinned; /* [capacity] */
    size_t n_packs;
    size_t param_len; /* reals per pack: SK_P_COUNT * W */
    size_t state_len; /* reals per pack: capacity * SK_F_COUNT * W, then a contact group's rows */
    sk_real *param;   /* [n_packs][SK_P_COUNT][W] */
    sk_real *state;   /* [n_packs][state_len] */

    /* frame snapshot (sk_batch_check_frame): what a diverging rope goes back to. Of the parameters only
     * the two that change are kept: n and s, [n_packs][2][W]. */
    sk_real *snap_ns, *snap_state;
    long *diverged; /* [count]: step marked diverged, or -1 */
    long *frozen;   /* [count]: the step whose state a diverged rope holds */
} batch_group;

struct sk_batch {
    const sk_scenario *scenario;
    const sk_kernels *kernels;
    int width;
    int threads;
    long step;
    long snapshot_step; /* step of the last frame check; -1 before the first */
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
    sk_real *view_param;  /* [SK_P_COUNT][W]: a diverged rope's parameters with its snapshot's n and s */
};

/* Per-pack addresses. */
static inline sk_real *batch_pack_param(const batch_group *g, size_t pack) { return g->param + pack * g->param_len; }
static inline sk_real *batch_pack_state(const batch_group *g, size_t pack) { return g->state + pack * g->state_len; }

/* The kernels for an ISA name ("auto" or NULL: the widest usable); NULL with err filled (SK_ERR_INVALID). */
const sk_kernels *sk_batch_pick_kernels(const char *isa, sk_error *err);

/* Lays rope r (local index) of group g into lane `lane` of its pack at step 0; the params of a rope. */
void sk_batch_lay_rope(const sk_batch *b, batch_group *g, size_t r, size_t pack, int lane);

/* Advancing and checking every pack (core/batch/step.c, through the parallel seam). */
uint64_t sk_batch_pass_advance(sk_batch *b, long steps);
/* Checks every rope at a frame, restores and marks diverged ones, saves the others; returns how many
 * ropes diverged now. */
size_t sk_batch_pass_check(sk_batch *b);
/* Both in one pass: each item is advanced `steps` steps and checked at once, while it is in cache (the frame
 * snapshot must exist). The results are those of sk_batch_pass_advance then sk_batch_pass_check,
 * with b->step still at the start; *newly gets the ropes diverged now. */
uint64_t sk_batch_pass_advance_checked(sk_batch *b, long steps, size_t *newly);

/* Saves lane `lane` of pack k to the frame snapshot, or puts it back from there. */
void sk_batch_save_lane(const batch_group *g, int width, size_t k, int lane);
void sk_batch_restore_lane(const batch_group *g, int width, size_t k, int lane);
/* Saves every lane of pack k (all sound, none diverged): two block copies. */
void sk_batch_save_pack(const batch_group *g, int width, size_t k);

/* Allocates the frame snapshot if it is not yet (core/batch/access.c); false when out of memory. */
bool sk_batch_ensure_snapshot(sk_batch *b);

/* Lane of a global rope: group, index in it, pack, lane. */
typedef struct batch_where {
    batch_group *g;
    size_t local, pack;
    int lane;
} batch_where;
batch_where sk_batch_locate(const sk_batch *b, size_t rope);

#endif
