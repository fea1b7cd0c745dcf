/* The step of a pack of deploying ropes: deployment first (each lane inserts on its own), then the same
 * streaming force-and-integrate pass as fixed ropes, but with per-lane particle counts: a lane's
 * particle i exists where i < n, segment i where i + 1 < n, and the anchor holds particle n - 1, so
 * masks select what each lane adds and stores. Rows past a lane's count are left untouched. */
#include "anchor.h"
#include "bending.h"
#include "deploy.h"
#include "forces.h"
#include "integrate.h"
#include "step.h"

/* bend: the hinges' scratch (bending.h), NULL without bending (a separate instantiation: the groups that do
 * not bend run the loop they ran before); prof: the parameter block's profile rows (pack.h), NULL for a rope
 * of one mass (likewise its own instantiation). Rows are indexed over the capacity, so an inserted particle
 * finds its own mass at its index. */
SK_INLINE void deploy_advance(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                              uint64_t *lane_steps, sk_real *bend, const sk_real *prof)
{
    const kparams k = kp_load(param);
    const unsigned char *pinned = cfg->pinned;
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    const int integrator = cfg->integrator, link = k_force_link(cfg->link), anchor = k_force_anchor(cfg->anchor);
    const bool need_vel = cfg->drag || anchor == SK_ANCHOR_FAKE_SPRING;
    for (long s = 0; s < steps; s++) {
        skv3 x = k_anchor_point(cfg, &k, cfg->driven, step0 + s);
        k_deploy(cfg, &k, param, state, x, step0 + s);
        const skv n = kp_get(param, SK_P_N);
        const skv rest = kp_get(param, SK_P_S);
        const int rows = kp_max_count(param);
        if (lane_steps)
            for (int l = 0; l < SK_W; l++)
                lane_steps[l] += (uint64_t)param[(size_t)SK_P_N * SK_W + l];
        if (bend) /* the hinges among the particles present, after the insertion (bending.h) */
            k_bend_pass(&k, state, rows, n, bend, prof);

        /* p is carried from row to row (row i + 1 is still old when row i is written); v is loaded where it is
         * used, as in the fixed kernel, to spare registers */
        skv3 p = v3_load(state), um_prev = v3_zero();
        sk_real *row = state;
        for (int i = 0; i < rows; i++, row += stride) {
            kparams row_k;
            const kparams *kr = &k;
            if (prof) { /* particle i's own mass (a deploying group's links are uniform, scenario-format.md) */
                row_k = k;
                kp_profile_row(&row_k, prof, i);
                kr = &row_k;
            }
            const skv3 w = v3_load(row + 3 * SK_W);
            const skv next_index = skv_set1((sk_real)(i + 1));
            const skm present = skv_lt(skv_set1((sk_real)i), n);
            const skm held = skv_eq(next_index, n);
            skv3 vel = need_vel ? k_velocity(kr, integrator, p, w) : w;
            skv3 f = k_particle_forces(kr, cfg->gravity_force, sk_kernel_drag_mode(cfg), cfg->buoyancy, p, vel);
            if (i > 0 && link != SK_LINK_NONE)
                f = v3_sub(f, um_prev);
            skv3 pn = v3_zero();
            if (i + 1 < rows) {
                pn = v3_load(row + stride);
                if (link != SK_LINK_NONE) {
                    skv3 um = v3_select(skv_lt(next_index, n), k_link_force(kr, link, p, pn), v3_zero());
                    f = v3_add(f, um);
                    um_prev = um;
                }
            }
            if (anchor != SK_ANCHOR_NONE && skm_any(held))
                f = v3_add(f, v3_select(held, k_anchor_force(kr, anchor, p, vel, x, rest), v3_zero()));
            if (bend)
                f = k_bend_add(f, bend, i, rows);
            if (!pinned[i]) {
                skv3 pi = p, wi = w;
                k_integrate(kr, integrator, &pi, &wi, f);
                v3_store(row, v3_select(present, pi, p));
                v3_store(row + 3 * SK_W, v3_select(present, wi, w));
            }
            p = pn;
        }
    }
}

static void plain(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                  uint64_t *lane_steps)
{
    deploy_advance(cfg, param, state, step0, steps, lane_steps, NULL, NULL);
}

static void bending(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                    uint64_t *lane_steps)
{
    sk_real *bend = k_bend_scratch(cfg->capacity);
    if (!bend) {
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    deploy_advance(cfg, param, state, step0, steps, lane_steps, bend, NULL);
    free(bend);
}

/* Mass profiles and payloads: each particle with its own constants (and with bending each hinge's k_b). */
static void profiled(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                     uint64_t *lane_steps)
{
    sk_real *bend = NULL;
    if (cfg->bending && !(bend = k_bend_scratch(cfg->capacity))) {
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    deploy_advance(cfg, param, state, step0, steps, lane_steps, bend, sk_pack_profile_rows(param, SK_W));
    free(bend);
}

void SK_KNAME(sk_kernel_deploy_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                        long steps, uint64_t *lane_steps)
{
    (cfg->profiles ? profiled : cfg->bending ? bending : plain)(cfg, param, state, step0, steps, lane_steps);
}
