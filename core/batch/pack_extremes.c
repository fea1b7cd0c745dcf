/* Each rope's largest link tension and strain and its held ends' largest support forces over the steps of a run (sk_engine_track_extremes): kept per
 * pack, [SK_X_COUNT][W], and folded in by the kernels after every step while the pack is in cache
 * (sk_kernels.advance_tracked). What a rope had at the last frame check is kept beside, [count][SK_X_COUNT]: a
 * rope found unsound goes back to it with its state (core/batch/step.c), so a diverged rope reports the
 * extremes up to the check before it diverged, whatever the threads and however the steps were split. */
#include <math.h>
#include <stdlib.h>

#include "batch/batch_impl.h"
#include "scenario/scenario.h"

static void release(batch_group *g)
{
    free(g->extremes);
    free(g->checked_extremes);
    g->extremes = NULL;
    g->checked_extremes = NULL;
}

bool sk_batch_track_extremes(sk_batch *b, bool on)
{
    const size_t W = (size_t)b->width;
    for (int i = 0; i < b->n_groups; i++)
        release(&b->groups[i]);
    if (!on)
        return true;
    for (int i = 0; i < b->n_groups; i++) {
        batch_group *g = &b->groups[i];
        const size_t live = g->n_packs * SK_X_COUNT * W;
        g->extremes = aligned_alloc(64, ((live ? live : 1) * sizeof(sk_real) + 63) / 64 * 64);
        g->checked_extremes = malloc((g->group->count ? g->group->count : 1) * SK_X_COUNT * sizeof(sk_real));
        if (!g->extremes || !g->checked_extremes) {
            for (int k = 0; k <= i; k++)
                release(&b->groups[k]);
            return false;
        }
        /* no link seen yet: -inf; no end held: 0, which every magnitude at least equals */
        for (size_t j = 0; j < live; j++)
            g->extremes[j] = j / W % SK_X_COUNT < SK_X_SUPPORT_FIRST ? -INFINITY : 0;
        /* the state the run starts from counts as its first */
        bool ok = true;
        for (size_t k = 0; k < g->n_packs && ok; k++)
            ok = b->kernels->track(&g->cfg, batch_pack_param(g, k), batch_pack_state(g, k), b->step,
                                   g->extremes + k * SK_X_COUNT * W);
        if (!ok) {
            for (int k = 0; k <= i; k++)
                release(&b->groups[k]);
            return false;
        }
        for (size_t r = 0; r < g->group->count; r++)
            for (size_t x = 0; x < SK_X_COUNT; x++)
                g->checked_extremes[r * SK_X_COUNT + x] = g->extremes[(r / W * SK_X_COUNT + x) * W + r % W];
    }
    return true;
}

_Static_assert((int)SK_X_COUNT == (int)SK_BATCH_EXTREMES, "a rope's figures");

bool sk_batch_rope_extremes(const sk_batch *b, size_t rope, sk_real out[SK_BATCH_EXTREMES])
{
    const batch_where w = sk_batch_locate(b, rope);
    if (!w.g->extremes)
        return false;
    const size_t W = (size_t)b->width;
    for (size_t x = 0; x < SK_X_COUNT; x++)
        out[x] = w.g->diverged[w.local] >= 0 ? w.g->checked_extremes[w.local * SK_X_COUNT + x]
                                             : w.g->extremes[(w.pack * SK_X_COUNT + x) * W + (size_t)w.lane];
    return true;
}

bool sk_batch_set_rope_extremes(sk_batch *b, size_t rope, int from, int count, const sk_real *x)
{
    const batch_where w = sk_batch_locate(b, rope);
    if (!w.g->extremes)
        return false;
    const size_t W = (size_t)b->width;
    for (int j = 0; j < count; j++) {
        const size_t k = (size_t)(from + j);
        w.g->checked_extremes[w.local * SK_X_COUNT + k] = x[j];
        w.g->extremes[(w.pack * SK_X_COUNT + k) * W + (size_t)w.lane] = x[j];
    }
    return true;
}
