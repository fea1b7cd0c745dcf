/* Advancing and checking the batch: for an output interval, threads take packs one at a time through the
 * parallel seam (base/parallel.h) and advance each through every step of the interval while it sits in
 * cache, so no two threads share a pack and nothing is locked. Results depend on neither the thread count
 * nor the order: lanes never interact, and each thread counts into its own slot, summed afterwards. */
#include <math.h>
#include <stdlib.h>

#include "base/parallel.h"
#include "batch/batch_impl.h"
#include "scenario/scenario.h"

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
    if (g->extremes) /* tracked: the extremes folded in after each step, while the pack is in cache */
        b->kernels->advance_tracked(&g->cfg, batch_pack_param(g, k), batch_pack_state(g, k), step0, steps, lane_steps,
                                    g->extremes + k * SK_X_COUNT * (size_t)W);
    else
        b->kernels->advance(&g->cfg, batch_pack_param(g, k), batch_pack_state(g, k), step0, steps, lane_steps);
    for (int l = 0; l < W; l++) {
        size_t rope = k * (size_t)W + (size_t)l;
        if (rope < g->group->count && g->diverged[rope] < 0)
            done += lane_steps[l];
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

/* Pack k of group g stepped again from step 0 to step `to` (when it was last checked sound), in scratch blocks
 * of one pack, for the lanes in `lanes`, whose ropes diverged at this frame: each takes its state there into
 * what it holds. Steps are deterministic and lanes independent, so that is the state its lane had at `to`, to
 * the bit; one replay serves every rope of the pack that diverges at the same frame. Past a resumed step the
 * replay must meet the state a rope was resumed with; the lanes that do not (a state that came from elsewhere,
 * whose past cannot be found again) are returned, holding nothing yet. */
static unsigned replay_pack(const sk_batch *b, const batch_group *g, size_t k, long to, unsigned lanes,
                            sk_real *param, sk_real *state)
{
    const int W = b->width;
    const size_t count = g->group->count;
    for (int l = 0; l < W; l++) {
        const size_t rope = k * (size_t)W + (size_t)l;
        sk_batch_lay_rope_into(b, g, rope < count ? rope : count - 1, param, state, l);
    }
    unsigned lost = 0;
    long at = 0;
    if (b->resumed >= 0 && to >= b->resumed) {
        b->kernels->advance(&g->cfg, param, state, 0, b->resumed, NULL);
        for (int l = 0; l < W; l++)
            if (((lanes >> l) & 1u) &&
                sk_batch_lane_print(g, W, param, state, l) != g->resumed_print[k * (size_t)W + (size_t)l])
                lost |= 1u << l;
        at = b->resumed;
    }
    if (to > at && (lanes & ~lost))
        b->kernels->advance(&g->cfg, param, state, at, to - at, NULL);
    for (int l = 0; l < W; l++)
        if (((lanes & ~lost) >> l) & 1u)
            sk_batch_lane_get(g, W, param, state, l, g->held[k * (size_t)W + (size_t)l]);
    return lost;
}

/* Puts lane l of pack blocks back to what rope `rope` holds (or, with nothing held, its step-0 state). */
static void put_back(const sk_batch *b, const batch_group *g, size_t rope, sk_real *param, sk_real *state, int l)
{
    if (g->held[rope])
        sk_batch_lane_put(g, b->width, param, state, l, g->held[rope]);
    else
        sk_batch_lay_rope_into(b, g, rope, param, state, l);
}

/* One pack's blocks to step diverging ropes again in, each 64-byte aligned, sized for the batch's largest
 * group: allocated by the first thread that needs them, kept for the pass; false when out of memory. */
static bool replay_scratch(const sk_batch *b, sk_real **param, sk_real **state)
{
    if (*param)
        return true;
    size_t state_len = 1, param_len = 1;
    for (int i = 0; i < b->n_groups; i++) {
        state_len = b->groups[i].state_len > state_len ? b->groups[i].state_len : state_len;
        param_len = b->groups[i].param_len > param_len ? b->groups[i].param_len : param_len;
    }
    *param = aligned_alloc(64, (param_len * sizeof(sk_real) + 63) / 64 * 64);
    *state = aligned_alloc(64, (state_len * sizeof(sk_real) + 63) / 64 * 64);
    if (*param && *state)
        return true;
    free(*param);
    free(*state);
    *param = *state = NULL;
    return false;
}

/* Tracked extremes at a check: a sound rope's are kept as its checked ones; a diverged rope's go back to those
 * (what it had at the check before it diverged), as its state does. */
static void check_extremes(batch_group *g, size_t k, int W)
{
    sk_real *live = g->extremes + k * SK_X_COUNT * (size_t)W;
    for (int l = 0; l < W; l++) {
        const size_t rope = k * (size_t)W + (size_t)l;
        if (rope >= g->group->count)
            break;
        sk_real *checked = g->checked_extremes + rope * SK_X_COUNT;
        for (size_t x = 0; x < SK_X_COUNT; x++) {
            if (g->diverged[rope] >= 0)
                live[x * (size_t)W + (size_t)l] = checked[x];
            else
                checked[x] = live[x * (size_t)W + (size_t)l];
        }
    }
}

/* One pack at the frame of `step`: a rope found unsound is marked diverged and put back to its state at the
 * previous check (its pack replayed from step 0 in the thread's scratch, then held); ropes diverged earlier are
 * put back to what they hold. Sound ropes are left as they are: nothing is copied. */
static size_t check_pack(sk_batch *b, batch_group *g, size_t k, long step, sk_real *diag, sk_real *tension,
                         sk_real **replay_param, sk_real **replay_state)
{
    const int W = b->width;
    sk_real *param = batch_pack_param(g, k), *state = batch_pack_state(g, k);
    unsigned sound = b->kernels->finite_lanes(&g->cfg, param, state) & b->kernels->bounded_lanes(&g->cfg, param, state);
    if (diag && tension)
        sound &= sound_diagnostics(b, g, k, step, diag, tension);
    const size_t count = g->group->count;
    const long back_to = b->last_check >= 0 ? b->last_check : 0;
    /* the ropes that diverge now: marked, with room to hold their state (or, without, back to step 0 for good) */
    size_t newly = 0;
    unsigned replayed = 0;
    for (int l = 0; l < W; l++) {
        const size_t rope = k * (size_t)W + (size_t)l;
        if (rope >= count)
            break;
        if (g->diverged[rope] >= 0 || ((sound >> l) & 1u))
            continue;
        g->diverged[rope] = step;
        g->frozen[rope] = 0;
        newly++;
        if (sk_batch_hold(g, rope) && replay_scratch(b, replay_param, replay_state))
            replayed |= 1u << l;
        else if (g->held[rope]) { /* no room to step it again: it goes back to step 0 */
            sk_batch_lay_rope_into(b, g, rope, param, state, l);
            sk_batch_lane_get(g, W, param, state, l, g->held[rope]);
        }
    }
    if (replayed) {
        const unsigned lost = replay_pack(b, g, k, back_to, replayed, *replay_param, *replay_state);
        for (int l = 0; l < W; l++) {
            const size_t rope = k * (size_t)W + (size_t)l;
            if ((lost >> l) & 1u) { /* its past is not this scenario's: it stays where it was found */
                g->frozen[rope] = step;
                sk_batch_lane_get(g, W, param, state, l, g->held[rope]);
            } else if ((replayed >> l) & 1u) {
                g->frozen[rope] = back_to;
            }
        }
    }
    /* every diverged rope back to what it holds */
    for (int l = 0; l < W; l++) {
        const size_t rope = k * (size_t)W + (size_t)l;
        if (rope >= count)
            break;
        if (g->diverged[rope] >= 0)
            put_back(b, g, rope, param, state, l);
    }
    /* The padding lanes after the group's last rope copy it and compute what it computes: they go back with it. */
    const size_t last = count - 1;
    if (k == g->n_packs - 1 && g->diverged[last] >= 0)
        for (int l = (int)(last % (size_t)W) + 1; l < W; l++)
            put_back(b, g, last, param, state, l);
    if (g->extremes)
        check_extremes(g, k, W);
    return newly;
}

/* Bytes of a thread's scratch for the checks, each 64-byte aligned: one pack's diagnostics and tensions. */
static void scratch_bytes(const sk_batch *b, size_t *diag_bytes, size_t *tension_bytes)
{
    int capacity = 1;
    for (int i = 0; i < b->n_groups; i++)
        capacity = b->groups[i].group->particles > capacity ? b->groups[i].group->particles : capacity;
    *diag_bytes = ((size_t)SK_D_COUNT * (size_t)b->width * sizeof(sk_real) + 63) / 64 * 64;
    *tension_bytes = ((size_t)capacity * (size_t)b->width * sizeof(sk_real) + 63) / 64 * 64;
}

/* Per-thread counters, a cache line each so that threads do not write to the same line. */
typedef struct thread_counts {
    uint64_t done;   /* particle-steps */
    size_t newly;    /* ropes marked diverged */
    sk_real *diag;   /* one pack's diagnostics: scratch of the frame check (NULL: out of memory, the state alone
                      * is checked) */
    sk_real *tension;
    sk_real *replay_param, *replay_state; /* one pack where diverging ropes are stepped again (NULL: none yet) */
    char pad[64 - sizeof(uint64_t) - sizeof(size_t) - 4 * sizeof(sk_real *)];
} thread_counts;
_Static_assert(sizeof(thread_counts) == 64, "one cache line per thread");

typedef struct pass {
    sk_batch *b;
    long step0, steps; /* advance: from step0 by steps (steps 0: no advance) */
    bool check;        /* then check the frame at step0 + steps */
    thread_counts *per_thread;
} pass;

static void pass_item(void *ctx, size_t item, int thread)
{
    const pass *ps = ctx;
    sk_batch *b = ps->b;
    thread_counts *t = &ps->per_thread[thread];
    batch_group *g = &b->groups[group_of(b, item)];
    const size_t k = item - b->work_first[g->index];
    if (ps->steps > 0)
        t->done += advance_item(b, g, k, ps->step0, ps->steps);
    /* checked while the pack is still in cache from its steps */
    if (ps->check)
        t->newly += check_pack(b, g, k, ps->step0 + ps->steps, t->diag, t->tension, &t->replay_param, &t->replay_state);
}

/* One pass over every pack; returns the particle-steps, *newly the ropes marked diverged now. */
static uint64_t run_pass(sk_batch *b, long steps, bool check, size_t *newly)
{
    int threads = b->threads > 0 ? b->threads : 1;
    thread_counts single;
    thread_counts *per_thread = threads > 1 ? aligned_alloc(64, (size_t)threads * sizeof *per_thread) : NULL;
    if (!per_thread) { /* one thread, or no memory for the counters of more: the calling thread alone */
        per_thread = &single;
        threads = 1;
    }
    size_t diag_bytes = 0, tension_bytes = 0;
    if (check)
        scratch_bytes(b, &diag_bytes, &tension_bytes);
    for (int t = 0; t < threads; t++) {
        per_thread[t] = (thread_counts){0};
        if (check) {
            per_thread[t].diag = aligned_alloc(64, diag_bytes);
            per_thread[t].tension = aligned_alloc(64, tension_bytes);
        }
    }
    pass ps = {.b = b, .step0 = b->step, .steps = steps, .check = check, .per_thread = per_thread};
    sk_parallel_for(b->work_first[b->n_groups], threads, pass_item, &ps);
    uint64_t done = 0;
    *newly = 0;
    for (int t = 0; t < threads; t++) {
        done += per_thread[t].done;
        *newly += per_thread[t].newly;
        free(per_thread[t].diag);
        free(per_thread[t].tension);
        free(per_thread[t].replay_param);
        free(per_thread[t].replay_state);
    }
    if (per_thread != &single)
        free(per_thread);
    if (check)
        b->last_check = b->step + steps;
    return done;
}

uint64_t sk_batch_pass_advance(sk_batch *b, long steps)
{
    size_t newly = 0;
    return run_pass(b, steps, false, &newly);
}

size_t sk_batch_pass_check(sk_batch *b)
{
    size_t newly = 0;
    run_pass(b, 0, true, &newly);
    return newly;
}

uint64_t sk_batch_pass_advance_checked(sk_batch *b, long steps, size_t *newly)
{
    return run_pass(b, steps, true, newly);
}
