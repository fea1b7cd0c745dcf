/* The batch engine seen from outside: advancing, frame checks, and reading a rope's particles and
 * diagnostics out of its lane (or out of what it holds once it has diverged). */
#include <stdlib.h>
#include <string.h>

#include "batch/batch_impl.h"
#include "model/vec3.h"
#include "scenario/scenario.h"

uint64_t sk_batch_advance(sk_batch *b, long steps)
{
    if (steps <= 0)
        return 0;
    uint64_t done = sk_batch_pass_advance(b, steps);
    b->step += steps;
    b->diag_cache->group = -1;
    return done;
}

size_t sk_batch_check_frame(sk_batch *b)
{
    b->n_diverged += sk_batch_pass_check(b);
    b->diag_cache->group = -1;
    return b->n_diverged;
}

uint64_t sk_batch_advance_checked(sk_batch *b, long steps, size_t *diverged)
{
    if (steps <= 0) {
        *diverged = sk_batch_check_frame(b);
        return 0;
    }
    size_t newly = 0;
    uint64_t done = sk_batch_pass_advance_checked(b, steps, &newly);
    b->step += steps;
    b->n_diverged += newly;
    b->diag_cache->group = -1;
    *diverged = b->n_diverged;
    return done;
}

long sk_batch_rope_diverged(const sk_batch *b, size_t rope)
{
    batch_where w = sk_batch_locate(b, rope);
    return w.g->diverged[w.local];
}

void sk_batch_lane_blocks(const sk_batch *b, batch_where w, const sk_real **param, const sk_real **state)
{
    *param = batch_pack_param(w.g, w.pack);
    *state = batch_pack_state(w.g, w.pack);
    const sk_real *held = w.g->held[w.local];
    if (w.g->diverged[w.local] < 0 || !held)
        return;
    memcpy(b->view_param, *param, w.g->param_len * sizeof(sk_real));
    memcpy(b->view_state, *state, w.g->state_len * sizeof(sk_real));
    sk_batch_lane_put(w.g, b->width, b->view_param, b->view_state, w.lane, held);
    *param = b->view_param;
    *state = b->view_state;
}

int sk_batch_rope_particles(const sk_batch *b, size_t rope)
{
    batch_where w = sk_batch_locate(b, rope);
    const sk_real *param, *state;
    sk_batch_lane_blocks(b, w, &param, &state);
    return (int)param[(size_t)SK_P_N * (size_t)b->width + (size_t)w.lane];
}

void sk_batch_read_rope(const sk_batch *b, size_t rope, sk_real *p, sk_real *v)
{
    batch_where w = sk_batch_locate(b, rope);
    const size_t W = (size_t)b->width, lane = (size_t)w.lane;
    const sk_real *param, *state;
    sk_batch_lane_blocks(b, w, &param, &state);
    const int n = (int)param[SK_P_N * W + lane];
    const sk_real dt = param[SK_P_DT * W + lane];
    const bool verlet = b->scenario->integrator == SK_INTEGRATOR_VERLET;
    for (int i = 0; i < n; i++) {
        const sk_real *row = state + (size_t)i * SK_F_COUNT * W;
        for (int c = 0; c < 3; c++) {
            sk_real x = row[(size_t)c * W + lane], u = row[(size_t)(3 + c) * W + lane];
            if (p)
                p[3 * i + c] = x;
            if (v)
                v[3 * i + c] = verlet ? (x - u) / dt : u; /* (p - q) / dt */
        }
    }
}

void sk_batch_rope_diagnostics(const sk_batch *b, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    batch_where w = sk_batch_locate(b, rope);
    struct batch_diag_cache *cache = b->diag_cache;
    const size_t W = (size_t)b->width, lane = (size_t)w.lane;
    const sk_real *param, *state;
    sk_batch_lane_blocks(b, w, &param, &state);
    const bool diverged = w.g->diverged[w.local] >= 0;
    const long step = diverged ? w.g->frozen[w.local] : b->step;
    if (diverged || cache->group != w.g->index || cache->pack != w.pack ||
        cache->step != step) {
        b->kernels->diagnose(&w.g->cfg, param, state, step, cache->diag, cache->tension);
        /* a diverged rope's diagnostics come from what it holds: never cached as its pack's */
        cache->group = diverged ? -1 : w.g->index;
        cache->pack = w.pack;
        cache->step = step;
    }
    const sk_real *d = cache->diag;
    const int n = (int)param[SK_P_N * W + lane];
    sk_rope_diagnostics r = {0};
    r.kinetic = d[SK_D_KINETIC * W + lane];
    r.gravity = d[SK_D_GRAVITY * W + lane];
    r.elastic = d[SK_D_ELASTIC * W + lane];
    r.anchor_force = sk_vec3_make(d[SK_D_ANCHOR_FX * W + lane], d[SK_D_ANCHOR_FY * W + lane],
                                  d[SK_D_ANCHOR_FZ * W + lane]);
    r.length = d[SK_D_LENGTH * W + lane];
    for (int e = 0; e < 2; e++)
        r.support[e] = sk_vec3_make(d[(SK_D_SUPPORT + 3 * e) * W + lane], d[(SK_D_SUPPORT + 3 * e + 1) * W + lane],
                                    d[(SK_D_SUPPORT + 3 * e + 2) * W + lane]);
    r.finite = (b->kernels->finite_lanes(&w.g->cfg, param, state) >> lane) & 1u;
    if (tension)
        for (int i = 0; i + 1 < n; i++)
            tension[i] = cache->tension[(size_t)i * W + lane];
    *out = r;
}


void sk_batch_set_anchor_point(sk_batch *b, size_t rope, sk_vec3 point)
{
    batch_where w = sk_batch_locate(b, rope);
    const size_t W = (size_t)b->width;
    sk_real *param = batch_pack_param(w.g, w.pack);
    /* The padding lanes after the group's last rope copy it and compute what it computes: they move with it. */
    const size_t last = w.g->group->count - 1;
    const size_t end = w.local == last ? W : (size_t)w.lane + 1;
    for (size_t l = (size_t)w.lane; l < end; l++) {
        param[(size_t)SK_P_ANCHOR_POINT * W + l] = point.x;
        param[(size_t)SK_P_ANCHOR_POINT_Y * W + l] = point.y;
        param[(size_t)SK_P_ANCHOR_POINT_Z * W + l] = point.z;
    }
    b->diag_cache->group = -1;
}
