/* What a rope's contacts did in its last step, read from its lane's contact rows: the contacts generated
 * and the resolver iterations used (a diverged rope's from the state it holds). */
#include "batch/batch_impl.h"

void sk_batch_rope_contacts(const sk_batch *b, size_t rope, int *contacts, int *iterations)
{
    batch_where w = sk_batch_locate(b, rope);
    *contacts = *iterations = 0;
    if (!w.g->cfg.contacts)
        return;
    const sk_real *param, *state;
    sk_batch_lane_blocks(b, w, &param, &state);
    const size_t W = (size_t)b->width, capacity = (size_t)w.g->cfg.capacity;
    const sk_real *rows = state + capacity * SK_F_COUNT * W;
    *contacts = (int)rows[(capacity + SK_C_CONTACTS) * W + (size_t)w.lane];
    *iterations = (int)rows[(capacity + SK_C_ITERATIONS) * W + (size_t)w.lane];
}
