/* The batch engine's parallelism, the one file with OpenMP (DESIGN.md "Stepping, threads, cache"): for an
 * output interval, threads take packs one at a time
 * (schedule(dynamic)) and advance each through every step of the interval while it sits in L1, so no two
 * threads share a pack and nothing is locked. Results depend on neither the thread count nor the order:
 * lanes never interact, and the only reductions are integer counts. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "batch/batch_impl.h"
#include "base/parallel.h"

int sk_batch_default_threads(int requested) { return requested > 0 ? requested : omp_get_max_threads(); }

void sk_parallel_for(size_t n, int threads, void (*fn)(void *ctx, size_t item, int thread), void *ctx)
{
#pragma omp parallel for schedule(dynamic) num_threads(threads > 0 ? threads : 1)
    for (size_t item = 0; item < n; item++)
        fn(ctx, item, omp_get_thread_num());
}

static int group_of(const sk_batch *b, size_t item)
{
    int g = 0;
    while (item >= b->work_first[g + 1])
        g++;
    return g;
}

/* One work item, pack k of group g, advanced from step0; returns the particle-steps of its ropes that have
 * not diverged. */
static uint64_t advance_item(const sk_batch *b, batch_group *g, size_t k, long step0, long steps)
{
    const int W = b->width;
    uint64_t done = 0;
    uint64_t lane_steps[64] = {0};
    b->kernels->advance(&g->cfg, batch_pack_param(g, k), batch_pack_state(g, k), step0, steps, lane_steps);
    for (int l = 0; l < W; l++) {
        size_t rope = k * (size_t)W + (size_t)l;
        if (rope < g->group->count && g->diverged[rope] < 0)
            done += lane_steps[l];
    }
    return done;
}

uint64_t sk_batch_parallel_advance(sk_batch *b, long steps)
{
    const size_t total = b->work_first[b->n_groups];
    const long step0 = b->step;
    uint64_t done = 0;
#pragma omp parallel for schedule(dynamic) num_threads(b->threads) reduction(+ : done)
    for (size_t item = 0; item < total; item++) {
        batch_group *g = &b->groups[group_of(b, item)];
        done += advance_item(b, g, item - b->work_first[g->index], step0, steps);
    }
    return done;
}

/* Lanes whose diagnostics are all finite: a finite state can still overflow an energy or a tension, and
 * no output may hold a non-finite number (the reference engine checks the same). diag and tension are
 * scratch of one pack. */
static unsigned sound_diagnostics(const sk_batch *b, const batch_group *g, size_t k, long step, sk_real *diag,
                                  sk_real *tension)
{
    const size_t W = (size_t)b->width;
    const sk_real *param = batch_pack_param(g, k);
    b->kernels->diagnose(&g->cfg, param, batch_pack_state(g, k), step, diag, tension);
    unsigned sound = 0;
    for (size_t l = 0; l < W; l++) {
        bool ok = true;
        for (size_t d = 0; d < SK_D_COUNT; d++)
            ok = ok && isfinite(diag[d * W + l]);
        int n = (int)param[SK_P_N * W + l];
        for (int i = 0; ok && i + 1 < n; i++)
            ok = isfinite(tension[(size_t)i * W + l]);
        sound |= (unsigned)ok << l;
    }
    return sound;
}

/* One pack at the frame of `step`: sound lanes are saved, diverging ones go back to the saved state (or,
 * before any save, to their initial state, which is then saved), ropes diverged earlier are put back
 * again. */
static size_t check_pack(sk_batch *b, batch_group *g, size_t k, long step, bool have_snapshot, sk_real *diag,
                         sk_real *tension)
{
    const int W = b->width;
    unsigned sound = b->kernels->finite_lanes(&g->cfg, batch_pack_param(g, k), batch_pack_state(g, k));
    if (diag && tension)
        sound &= sound_diagnostics(b, g, k, step, diag, tension);
    /* The usual case, every lane sound and none diverged before: the whole pack is saved at once. */
    bool any_was = false;
    for (int l = 0; l < W; l++) {
        size_t rope = k * (size_t)W + (size_t)l;
        any_was = any_was || (rope < g->group->count && g->diverged[rope] >= 0);
    }
    if (!any_was && sound == (1u << W) - 1u) {
        sk_batch_save_pack(g, W, k);
        return 0;
    }
    size_t newly = 0;
    for (int l = 0; l < W; l++) {
        size_t rope = k * (size_t)W + (size_t)l;
        bool real = rope < g->group->count;
        bool was = real && g->diverged[rope] >= 0;
        bool ok = (sound >> l) & 1u;
        if (ok && !was) {
            sk_batch_save_lane(g, W, k, l);
            continue;
        }
        if (!was && real) {
            g->diverged[rope] = step;
            g->frozen[rope] = have_snapshot ? b->snapshot_step : 0;
            newly++;
        }
        if (have_snapshot) {
            sk_batch_restore_lane(g, W, k, l);
        } else {
            sk_batch_lay_rope(b, g, real ? rope : g->group->count - 1, k, l);
            sk_batch_save_lane(g, W, k, l);
        }
    }
    return newly;
}

/* One work item at the frame of `step`; returns the ropes it marked diverged now. */
static size_t check_item(sk_batch *b, batch_group *g, size_t k, long step, sk_real *diag, sk_real *tension)
{
    return check_pack(b, g, k, step, b->snapshot_step >= 0, diag, tension);
}

/* Bytes of a thread's scratch for the checks: one pack's diagnostics and tensions, 64-byte aligned. */
static void scratch_bytes(const sk_batch *b, size_t *diag_bytes, size_t *tension_bytes)
{
    int capacity = 1;
    for (int i = 0; i < b->n_groups; i++)
        capacity = b->groups[i].group->particles > capacity ? b->groups[i].group->particles : capacity;
    *diag_bytes = ((size_t)SK_D_COUNT * (size_t)b->width * sizeof(sk_real) + 63) / 64 * 64;
    *tension_bytes = ((size_t)capacity * (size_t)b->width * sizeof(sk_real) + 63) / 64 * 64;
}

size_t sk_batch_parallel_check(sk_batch *b)
{
    const size_t total = b->work_first[b->n_groups];
    size_t diag_bytes, tension_bytes, newly = 0;
    scratch_bytes(b, &diag_bytes, &tension_bytes);
#pragma omp parallel num_threads(b->threads) reduction(+ : newly)
    {
        /* per thread: one pack's diagnostics (without them, out of memory, only the state is checked) */
        sk_real *diag = aligned_alloc(64, diag_bytes), *tension = aligned_alloc(64, tension_bytes);
#pragma omp for schedule(dynamic)
        for (size_t item = 0; item < total; item++) {
            batch_group *g = &b->groups[group_of(b, item)];
            newly += check_item(b, g, item - b->work_first[g->index], b->step, diag, tension);
        }
        free(diag);
        free(tension);
    }
    b->snapshot_step = b->step;
    return newly;
}

uint64_t sk_batch_parallel_advance_checked(sk_batch *b, long steps, size_t *newly_out)
{
    const size_t total = b->work_first[b->n_groups];
    const long step0 = b->step, frame = step0 + steps;
    size_t diag_bytes, tension_bytes, newly = 0;
    scratch_bytes(b, &diag_bytes, &tension_bytes);
    uint64_t done = 0;
#pragma omp parallel num_threads(b->threads) reduction(+ : done, newly)
    {
        sk_real *diag = aligned_alloc(64, diag_bytes), *tension = aligned_alloc(64, tension_bytes);
#pragma omp for schedule(dynamic)
        for (size_t item = 0; item < total; item++) {
            batch_group *g = &b->groups[group_of(b, item)];
            const size_t k = item - b->work_first[g->index];
            done += advance_item(b, g, k, step0, steps);
            /* checked while the pack is still in cache from its steps */
            newly += check_item(b, g, k, frame, diag, tension);
        }
        free(diag);
        free(tension);
    }
    b->snapshot_step = frame;
    *newly_out = newly;
    return done;
}
