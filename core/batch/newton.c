/* What BDF2's Newton did for a rope, read from its lane's BDF2 rows: the solves of its last step and the
 * steps that ended without converging (a diverged rope's from the state it holds). */
#include "batch/batch_impl.h"

void sk_batch_rope_newton(const sk_batch *b, size_t rope, int *solves, long *unconverged)
{
    batch_where w = sk_batch_locate(b, rope);
    *solves = 0;
    *unconverged = 0;
    if (!w.g->cfg.bdf2)
        return;
    const sk_real *param, *state;
    sk_batch_lane_blocks(b, w, &param, &state);
    const size_t W = (size_t)b->width;
    const sk_real *lane = sk_pack_bdf2_lane(&w.g->cfg, (sk_real *)state, b->width);
    *solves = (int)lane[SK_B_SOLVES * W + (size_t)w.lane];
    *unconverged = (long)lane[SK_B_UNCONVERGED * W + (size_t)w.lane];
}
