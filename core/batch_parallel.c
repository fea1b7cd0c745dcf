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

static bool finite3(sk_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* Lanes whose diagnostics are all finite: a finite state can still overflow an energy or a tension, and
 * no output may hold a non-finite number (the reference engine checks the same). diag and tension are
 * scratch of one pack. */
static unsigned sound_diagnostics(const sk_batch *b, const batch_group *g, size_t k, sk_real *diag, sk_real *tension)
{
    const size_t W = (size_t)b->width;
    const sk_real *param = batch_pack_param(g, k);
    b->kernels->diagnose(&g->cfg, param, batch_pack_state(g, k), b->step, diag, tension);
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

/* One pack at a frame: sound lanes are saved, diverging ones go back to the saved state (or, before any
 * save, to their initial state, which is then saved), ropes diverged earlier are put back again. */
static size_t check_pack(sk_batch *b, batch_group *g, size_t k, bool have_snapshot, sk_real *diag,
                         sk_real *tension)
{
    const int W = b->width;
    unsigned sound = b->kernels->finite_lanes(&g->cfg, batch_pack_param(g, k), batch_pack_state(g, k));
    if (diag && tension)
        sound &= sound_diagnostics(b, g, k, diag, tension);
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

/* A reference rope is sound as the reference engine judges it: p, q and the reported v finite, and every
 * diagnostic too (the tensions when there is room for them: tension may be NULL). */
static bool reference_sound(const sk_ref_rope *r, sk_real *tension)
{
    for (int i = 0; i < sk_ref_rope_count(r); i++) {
        const sk_particle *p = sk_ref_rope_particle(r, i);
        sk_vec3 v = sk_ref_rope_velocity(r, i);
        if (!finite3(p->p) || !finite3(p->q) || !finite3(v))
            return false;
    }
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(r, &d, tension);
    bool ok = isfinite(d.kinetic) && isfinite(d.gravity) && isfinite(d.elastic) && finite3(d.anchor_force) &&
              isfinite(d.length);
    for (int i = 0; ok && tension && i + 1 < sk_ref_rope_count(r); i++)
        ok = isfinite(tension[i]);
    return ok;
}

size_t sk_batch_parallel_check(sk_batch *b)
{
    const size_t total = b->work_first[b->n_groups];
    const bool have_snapshot = b->snapshot_step >= 0;
    const long back_to = have_snapshot ? b->snapshot_step : 0;
    int capacity = 1;
    for (int i = 0; i < b->n_groups; i++)
        capacity = b->groups[i].group->particles > capacity ? b->groups[i].group->particles : capacity;
    const size_t diag_bytes = ((size_t)SK_D_COUNT * (size_t)b->width * sizeof(sk_real) + 63) / 64 * 64;
    const size_t tension_bytes = ((size_t)capacity * (size_t)b->width * sizeof(sk_real) + 63) / 64 * 64;
    size_t newly = 0;
#pragma omp parallel num_threads(b->threads) reduction(+ : newly)
    {
        /* per thread: one pack's diagnostics (without them, out of memory, only the state is checked) */
        sk_real *diag = aligned_alloc(64, diag_bytes), *tension = aligned_alloc(64, tension_bytes);
#pragma omp for schedule(dynamic)
        for (size_t item = 0; item < total; item++) {
            batch_group *g = &b->groups[group_of(b, item)];
            size_t k = item - b->work_first[g->index];
            if (!g->reference) {
                newly += check_pack(b, g, k, have_snapshot, diag, tension);
            } else if (g->diverged[k] < 0 && !reference_sound(g->ropes[k], tension)) {
                g->diverged[k] = b->step;
                g->frozen[k] = back_to;
                newly++;
                replay(b, g, k, back_to);
            }
        }
        free(diag);
        free(tension);
    }
    b->snapshot_step = b->step;
    return newly;
}
