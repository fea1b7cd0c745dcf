/* The batch engine's checkpoints: a rope's complete state copied out of its lane (or out of what it holds,
 * for a diverged rope) and put back into it, and the batch put at the step of a checkpoint. */
#include <stdlib.h>

#include "base/assert.h"
#include "model/bdf2.h"
#include "batch/batch_impl.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"

unsigned sk_batch_state_fields(const sk_batch *b, int group)
{
    const batch_group *g = &b->groups[group];
    /* a particle row keeps p and one more vector: v, or verlet's q */
    unsigned fields = b->scenario->integrator == SK_INTEGRATOR_VERLET ? SK_STATE_PREVIOUS : SK_STATE_VELOCITY;
    return fields | (g->cfg.contacts ? SK_STATE_CONTACTS : 0u) | (g->cfg.bdf2 ? SK_STATE_HISTORY : 0u);
}

void sk_batch_export_rope(const sk_batch *b, size_t rope, sk_rope_state *st)
{
    const batch_where w = sk_batch_locate(b, rope);
    const batch_group *g = w.g;
    const bool diverged = g->diverged[w.local] >= 0;
    const size_t W = (size_t)b->width, lane = (size_t)w.lane, cap = (size_t)g->cfg.capacity;
    /* a diverged rope's live lane is stepped on and put back at every check: what it holds is read instead */
    const sk_real *param, *state;
    sk_batch_lane_blocks(b, w, &param, &state);
    const sk_real n = param[SK_P_N * W + lane], s = param[SK_P_S * W + lane];
    st->n = (int)n;
    st->s = s;
    st->steps = diverged ? g->frozen[w.local] : b->step;
    st->diverged = g->diverged[w.local];
    sk_real *second = b->scenario->integrator == SK_INTEGRATOR_VERLET ? st->q : st->v;
    for (size_t i = 0; i < cap; i++) {
        const sk_real *row = state + i * SK_F_COUNT * W;
        for (size_t c = 0; c < 3; c++) {
            st->p[3 * i + c] = row[c * W + lane];
            second[3 * i + c] = row[(3 + c) * W + lane];
        }
    }
    if (g->cfg.contacts) {
        const sk_real *rows = state + cap * SK_F_COUNT * W;
        for (size_t i = 0; i < cap; i++)
            st->impulse[i] = rows[i * W + lane];
        st->contacts = (int)rows[(cap + SK_C_CONTACTS) * W + lane];
        st->iterations = (int)rows[(cap + SK_C_ITERATIONS) * W + lane];
    }
    if (g->cfg.bdf2 && st->prev_p && st->prev_v && st->prev_v2) {
        const sk_real *prev = sk_pack_previous_rows(&g->cfg, (sk_real *)state, b->width),
                      *bl = sk_pack_bdf2_lane(&g->cfg, (sk_real *)state, b->width);
        for (size_t i = 0; i < cap; i++)
            for (size_t c = 0; c < 3; c++) {
                st->prev_p[3 * i + c] = prev[i * SK_H_COUNT * W + (SK_H_PX + c) * W + lane];
                st->prev_v[3 * i + c] = prev[i * SK_H_COUNT * W + (SK_H_VX + c) * W + lane];
                st->prev_v2[3 * i + c] = prev[i * SK_H_COUNT * W + (SK_H_V2X + c) * W + lane];
            }
        st->prev_steps = (int)bl[SK_B_VALID * W + lane];
        st->solves = (int)bl[SK_B_SOLVES * W + lane];
        st->unconverged = (long)bl[SK_B_UNCONVERGED * W + lane];
    }
}

/* Lane `lane` of pack k takes the state st. */
static void write_lane(const sk_batch *b, const batch_group *g, size_t k, int lane, const sk_rope_state *st)
{
    const size_t W = (size_t)b->width, l = (size_t)lane, cap = (size_t)g->cfg.capacity;
    sk_real *param = batch_pack_param(g, k), *state = batch_pack_state(g, k);
    param[SK_P_N * W + l] = (sk_real)st->n;
    param[SK_P_S * W + l] = st->s;
    const sk_real *second = b->scenario->integrator == SK_INTEGRATOR_VERLET ? st->q : st->v;
    for (size_t i = 0; i < cap; i++) {
        sk_real *row = state + i * SK_F_COUNT * W;
        for (size_t c = 0; c < 3; c++) {
            row[c * W + l] = st->p[3 * i + c];
            row[(3 + c) * W + l] = second[3 * i + c];
        }
    }
    if (g->cfg.contacts) {
        sk_real *rows = sk_pack_contact_rows(&g->cfg, state, b->width);
        for (size_t i = 0; i < cap; i++)
            rows[i * W + l] = st->impulse[i];
        rows[(cap + SK_C_CONTACTS) * W + l] = (sk_real)st->contacts;
        rows[(cap + SK_C_ITERATIONS) * W + l] = (sk_real)st->iterations;
    }
    if (g->cfg.bdf2) { /* without the steps before, BDF2 starts again from a backward Euler step */
        const bool history = st->prev_p && st->prev_v && st->prev_v2;
        sk_real *prev = sk_pack_previous_rows(&g->cfg, state, b->width);
        sk_real *bl = sk_pack_bdf2_lane(&g->cfg, state, b->width);
        for (size_t i = 0; i < cap; i++)
            for (size_t c = 0; c < 3; c++) {
                prev[i * SK_H_COUNT * W + (SK_H_PX + c) * W + l] = history ? st->prev_p[3 * i + c] : 0;
                prev[i * SK_H_COUNT * W + (SK_H_VX + c) * W + l] = history ? st->prev_v[3 * i + c] : 0;
                prev[i * SK_H_COUNT * W + (SK_H_V2X + c) * W + l] = history ? st->prev_v2[3 * i + c] : 0;
            }
        bl[SK_B_VALID * W + l] = history ? (sk_real)st->prev_steps : 0;
        bl[SK_B_SOLVES * W + l] = history ? (sk_real)st->solves : 0;
        bl[SK_B_UNCONVERGED * W + l] = history ? (sk_real)st->unconverged : 0;
    }
}

bool sk_batch_import_rope(sk_batch *b, size_t rope, const sk_rope_state *st)
{
    const batch_where w = sk_batch_locate(b, rope);
    batch_group *g = w.g;
    const sk_group *grp = g->group;
    const bool verlet = b->scenario->integrator == SK_INTEGRATOR_VERLET;
    if (st->n < 1 || st->n > grp->particles || (!grp->deploys && st->n != grp->particles) ||
        (grp->deploys && st->n < grp->deploy_initial) || st->steps < 0 || !st->p || !(verlet ? st->q : st->v) ||
        (g->cfg.contacts && (!st->impulse || st->contacts < 0 || st->iterations < 0)) ||
        (g->cfg.bdf2 && st->prev_p && st->prev_v && st->prev_v2 &&
         (st->solves < 0 || st->unconverged < 0 || st->prev_steps < 0 || st->prev_steps > SK_BDF2_STEPS_KEPT)))
        return false;
    write_lane(b, g, w.pack, w.lane, st);
    /* the padding lanes after the group's last rope copy it, as they do from the start */
    if (w.local + 1 == grp->count)
        for (int l = w.lane + 1; l < b->width; l++)
            write_lane(b, g, w.pack, l, st);
    g->diverged[w.local] = st->diverged < 0 ? -1 : st->diverged;
    g->frozen[w.local] = st->diverged < 0 ? 0 : st->steps;
    /* a diverged rope holds the state it was put back to */
    if (st->diverged >= 0) {
        if (!sk_batch_hold(g, w.local))
            return false;
        sk_batch_lane_get(g, b->width, batch_pack_param(g, w.pack), batch_pack_state(g, w.pack), w.lane,
                          g->held[w.local]);
    } else {
        free(g->held[w.local]);
        g->held[w.local] = NULL;
    }
    b->diag_cache->group = -1;
    return true;
}

bool sk_batch_keep_start(sk_batch *b)
{
    SK_ASSERT(b->step == 0);
    for (int i = 0; i < b->n_groups; i++) {
        batch_group *g = &b->groups[i];
        const size_t count = g->group->count, row = g->lane_len + 2;
        sk_real *start = g->start ? g->start : malloc(count * row * sizeof *start);
        if (!start)
            return false;
        for (size_t r = 0; r < count; r++) {
            const size_t k = r / (size_t)b->width;
            sk_batch_lane_get(g, b->width, batch_pack_param(g, k), batch_pack_state(g, k),
                              (int)(r % (size_t)b->width), start + r * row);
        }
        g->start = start;
    }
    return true;
}

bool sk_batch_resume_at(sk_batch *b, long step)
{
    b->n_diverged = 0;
    for (int i = 0; i < b->n_groups; i++) {
        const batch_group *g = &b->groups[i];
        for (size_t r = 0; r < g->group->count; r++)
            b->n_diverged += g->diverged[r] >= 0;
    }
    /* A rope diverging later goes back to this frame, replayed from step 0 to it: the fingerprints say whether
     * the replay meets the imported state here. */
    for (int i = 0; i < b->n_groups; i++) {
        batch_group *g = &b->groups[i];
        if (!g->resumed_print)
            g->resumed_print = malloc(g->group->count * sizeof *g->resumed_print);
        if (!g->resumed_print)
            return false;
        for (size_t r = 0; r < g->group->count; r++) {
            const size_t k = r / (size_t)b->width;
            g->resumed_print[r] = sk_batch_lane_print(g, b->width, batch_pack_param(g, k), batch_pack_state(g, k),
                                                      (int)(r % (size_t)b->width));
        }
    }
    b->step = step;
    b->last_check = step;
    b->resumed = step;
    b->diag_cache->group = -1;
    return true;
}
