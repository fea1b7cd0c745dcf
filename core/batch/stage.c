/* The stages of the batch step run alone over every pack on the calling thread (sk_batch_run_stage):
 * what the benchmarks time separately, and the unfused step the tests hold the fused one to. */
#include "batch/batch_impl.h"
#include "scenario/scenario.h"

uint64_t sk_batch_run_stage(sk_batch *b, sk_batch_stage stage, long steps)
{
    const sk_kernels *k = b->kernels;
    uint64_t done = 0;
    for (int i = 0; i < b->n_groups; i++) {
        batch_group *g = &b->groups[i];
        for (size_t pack = 0; pack < g->n_packs; pack++) {
            sk_real *param = batch_pack_param(g, pack), *state = batch_pack_state(g, pack);
            if (stage == SK_BATCH_STAGE_STEP) {
                /* the real step: the pack through all the steps while it is in cache */
                uint64_t lane_steps[64] = {0};
                k->advance(&g->cfg, param, state, b->step, steps, lane_steps);
                for (int l = 0; l < b->width; l++)
                    if (pack * (size_t)b->width + (size_t)l < g->group->count)
                        done += lane_steps[l];
                continue;
            }
            if (stage == SK_BATCH_STAGE_CONTACTS || stage == SK_BATCH_STAGE_RESOLVER) {
                /* the contact phases of a pack's steps, in a row while it is in cache */
                if (!g->cfg.contacts)
                    continue;
                (stage == SK_BATCH_STAGE_CONTACTS ? k->contacts : k->resolve)(&g->cfg, param, state, b->step, steps);
                for (int l = 0; l < b->width; l++)
                    if (pack * (size_t)b->width + (size_t)l < g->group->count)
                        done += (uint64_t)steps * (uint64_t)param[(size_t)SK_P_N * (size_t)b->width + (size_t)l];
                continue;
            }
            for (long s = 0; s < steps; s++) {
                long step = b->step + s;
                switch (stage) {
                case SK_BATCH_STAGE_STEP:
                    break;
                case SK_BATCH_STAGE_UNFUSED:
                    k->deploy(&g->cfg, param, state, step);
                    k->forces(&g->cfg, param, state, step, b->stage_force);
                    k->integrate(&g->cfg, param, state, b->stage_force);
                    if (g->cfg.contacts)
                        k->resolve(&g->cfg, param, state, step, 1);
                    break;
                case SK_BATCH_STAGE_FORCES:
                    k->forces(&g->cfg, param, state, b->step, b->stage_force);
                    break;
                case SK_BATCH_STAGE_INTEGRATE:
                    k->integrate(&g->cfg, param, state, b->stage_force);
                    break;
                case SK_BATCH_STAGE_DEPLOY:
                    k->deploy(&g->cfg, param, state, b->step);
                    break;
                case SK_BATCH_STAGE_CONTACTS:
                case SK_BATCH_STAGE_RESOLVER:
                    break;
                }
                /* the particles the stage covered: every lane of the pack that is a rope */
                for (int l = 0; l < b->width; l++)
                    if (pack * (size_t)b->width + (size_t)l < g->group->count)
                        done += (uint64_t)param[(size_t)SK_P_N * (size_t)b->width + (size_t)l];
            }
        }
    }
    if (stage == SK_BATCH_STAGE_STEP || stage == SK_BATCH_STAGE_UNFUSED)
        b->step += steps;
    b->diag_cache->group = -1;
    return done;
}
