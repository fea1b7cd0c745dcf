/* The batch engine seen from outside: advancing, frame checks, and reading a rope's particles and
 * diagnostics out of its lane (or out of the frame snapshot once it has diverged). */
#include <stdlib.h>
#include <string.h>

#include "batch/batch_impl.h"
#include "model/vec3.h"

uint64_t sk_batch_advance(sk_batch *b, long steps)
{
    if (steps <= 0)
        return 0;
    uint64_t done = sk_batch_pass_advance(b, steps);
    b->step += steps;
    b->diag_cache->group = -1;
    return done;
}

/* The frame snapshot, allocated by the first check: false when there is no room for it. */
static bool ensure_snapshot(sk_batch *b)
{
    for (int i = 0; i < b->n_groups; i++) {
        batch_group *g = &b->groups[i];
        if (g->snap_state)
            continue;
        g->snap_ns = malloc(g->n_packs * 2 * (size_t)b->width * sizeof(sk_real));
        /* the kernels read a diverged rope's diagnostics straight from here: 64-byte aligned like the packs */
        const size_t snap_bytes = (g->n_packs * g->state_len * sizeof(sk_real) + 63) / 64 * 64;
        g->snap_state = aligned_alloc(64, snap_bytes ? snap_bytes : 64);
        if (!g->snap_ns || !g->snap_state) {
            free(g->snap_ns);
            free(g->snap_state);
            g->snap_ns = g->snap_state = NULL;
            return false;
        }
    }
    return true;
}

size_t sk_batch_check_frame(sk_batch *b)
{
    /* Without room for the snapshot the frame cannot be kept: check nothing rather than fail the run (the
     * summary still counts earlier divergences). */
    if (!ensure_snapshot(b))
        return b->n_diverged;
    b->n_diverged += sk_batch_pass_check(b);
    b->diag_cache->group = -1;
    return b->n_diverged;
}

uint64_t sk_batch_advance_checked(sk_batch *b, long steps, size_t *diverged)
{
    if (steps <= 0 || !ensure_snapshot(b)) {
        uint64_t done = sk_batch_advance(b, steps);
        *diverged = sk_batch_check_frame(b);
        return done;
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

/* The blocks a rope's lane is read from: the live pack, or for a diverged rope (whose live lane keeps
 * being stepped with the others and is put back at every frame check) the snapshot's particles and the
 * pack's parameters with the snapshot's n and s. */
static void lane_blocks(const sk_batch *b, batch_where w, const sk_real **param, const sk_real **state)
{
    *param = batch_pack_param(w.g, w.pack);
    *state = batch_pack_state(w.g, w.pack);
    if (w.g->diverged[w.local] < 0 || !w.g->snap_state)
        return;
    const size_t W = (size_t)b->width;
    sk_real *view = b->view_param;
    memcpy(view, *param, w.g->param_len * sizeof(sk_real));
    memcpy(view + SK_P_N * W, w.g->snap_ns + w.pack * 2 * W, W * sizeof(sk_real));
    memcpy(view + SK_P_S * W, w.g->snap_ns + w.pack * 2 * W + W, W * sizeof(sk_real));
    *param = view;
    *state = w.g->snap_state + w.pack * w.g->state_len;
}

int sk_batch_rope_particles(const sk_batch *b, size_t rope)
{
    batch_where w = sk_batch_locate(b, rope);
    const sk_real *param, *state;
    lane_blocks(b, w, &param, &state);
    return (int)param[(size_t)SK_P_N * (size_t)b->width + (size_t)w.lane];
}

void sk_batch_read_rope(const sk_batch *b, size_t rope, sk_real *p, sk_real *v)
{
    batch_where w = sk_batch_locate(b, rope);
    const size_t W = (size_t)b->width, lane = (size_t)w.lane;
    const sk_real *param, *state;
    lane_blocks(b, w, &param, &state);
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
    lane_blocks(b, w, &param, &state);
    const bool diverged = w.g->diverged[w.local] >= 0;
    const long step = diverged ? w.g->frozen[w.local] : b->step;
    if (diverged || cache->group != w.g->index || cache->pack != w.pack ||
        cache->step != step) {
        b->kernels->diagnose(&w.g->cfg, param, state, step, cache->diag, cache->tension);
        /* a diverged rope's diagnostics come from the snapshot: never cached as its pack's */
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
    r.finite = (b->kernels->finite_lanes(&w.g->cfg, param, state) >> lane) & 1u;
    if (tension)
        for (int i = 0; i + 1 < n; i++)
            tension[i] = cache->tension[(size_t)i * W + lane];
    *out = r;
}

bool sk_batch_ensure_snapshot(sk_batch *b) { return ensure_snapshot(b); }
