/* The batch engine's parallelism, the one file with OpenMP (DESIGN.md "Stepping, threads, cache"): for an
 * output interval, threads take packs (and the ropes of reference groups) one at a time
 * (schedule(dynamic)) and advance each through every step of the interval while it sits in L1, so no two
 * threads share a pack and nothing is locked. Results depend on neither the thread count nor the order:
 * lanes never interact, and the only reductions are integer counts. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "batch_impl.h"

int sk_batch_default_threads(int requested) { return requested > 0 ? requested : omp_get_max_threads(); }

static int group_of(const sk_batch *b, size_t item)
{
    int g = 0;
    while (item >= b->work_first[g + 1])
        g++;
    return g;
}

uint64_t sk_batch_parallel_advance(sk_batch *b, long steps)
{
    const size_t total = b->work_first[b->n_groups];
    const long step0 = b->step;
    const int W = b->width;
    uint64_t done = 0;
#pragma omp parallel for schedule(dynamic) num_threads(b->threads) reduction(+ : done)
    for (size_t item = 0; item < total; item++) {
        batch_group *g = &b->groups[group_of(b, item)];
        size_t k = item - b->work_first[g->index];
        if (g->reference) {
            if (g->diverged[k] >= 0)
                continue; /* takes no more steps */
            for (long s = 0; s < steps; s++) {
                sk_ref_rope_step(g->ropes[k]);
                done += (uint64_t)sk_ref_rope_count(g->ropes[k]);
            }
            continue;
        }
        uint64_t lane_steps[64] = {0};
        b->kernels->advance(&g->cfg, batch_pack_param(g, k), batch_pack_state(g, k), step0, steps, lane_steps);
        for (int l = 0; l < W; l++) {
            size_t rope = k * (size_t)W + (size_t)l;
            if (rope < g->group->count && g->diverged[rope] < 0)
                done += lane_steps[l];
        }
    }
    return done;
}

/* A reference rope put back to step `step` by replaying it from the start (they are deterministic). */
static void replay(const sk_batch *b, batch_group *g, size_t k, long step)
{
    sk_ref_rope *fresh = sk_ref_rope_create(b->scenario, g->index, k);
    if (!fresh)
        return; /* out of memory: it keeps its state, still marked diverged, stepped no more */
    for (long s = 0; s < step; s++)
        sk_ref_rope_step(fresh);
    sk_ref_rope_destroy(g->ropes[k]);
    g->ropes[k] = fresh;
}

static bool reference_finite(const sk_ref_rope *r)
{
    for (int i = 0; i < sk_ref_rope_count(r); i++) {
        sk_vec3 p = sk_ref_rope_position(r, i), v = sk_ref_rope_velocity(r, i);
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z) || !isfinite(v.x) || !isfinite(v.y) || !isfinite(v.z))
            return false;
    }
    return true;
}

/* One pack at a frame: finite lanes are saved, diverging ones go back to the saved state (or, before any
 * save, to their initial state, which is then saved), ropes diverged earlier are put back again. */
static size_t check_pack(sk_batch *b, batch_group *g, size_t k, bool have_snapshot)
{
    const int W = b->width;
    unsigned finite = b->kernels->finite_lanes(&g->cfg, batch_pack_param(g, k), batch_pack_state(g, k));
    size_t newly = 0;
    for (int l = 0; l < W; l++) {
        size_t rope = k * (size_t)W + (size_t)l;
        bool real = rope < g->group->count;
        bool was = real && g->diverged[rope] >= 0;
        bool ok = (finite >> l) & 1u;
        if (ok && !was) {
            sk_batch_save_lane(g, W, k, l);
            continue;
        }
        if (!was && real) {
            g->diverged[rope] = b->step;
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

size_t sk_batch_parallel_check(sk_batch *b)
{
    const size_t total = b->work_first[b->n_groups];
    const bool have_snapshot = b->snapshot_step >= 0;
    const long back_to = have_snapshot ? b->snapshot_step : 0;
    size_t newly = 0;
#pragma omp parallel for schedule(dynamic) num_threads(b->threads) reduction(+ : newly)
    for (size_t item = 0; item < total; item++) {
        batch_group *g = &b->groups[group_of(b, item)];
        size_t k = item - b->work_first[g->index];
        if (!g->reference) {
            newly += check_pack(b, g, k, have_snapshot);
        } else if (g->diverged[k] < 0 && !reference_finite(g->ropes[k])) {
            g->diverged[k] = b->step;
            g->frozen[k] = back_to;
            newly++;
            replay(b, g, k, back_to);
        }
    }
    b->snapshot_step = b->step;
    return newly;
}
