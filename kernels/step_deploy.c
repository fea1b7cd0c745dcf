/* The step of a pack of deploying ropes: deployment first (each lane inserts on its own), then the same
 * streaming force-and-integrate pass as fixed ropes, but with per-lane particle counts: a lane's
 * particle i exists where i < n, segment i where i + 1 < n, and the anchor holds particle n - 1, so
 * masks select what each lane adds and stores. Rows past a lane's count are left untouched. */
#include "anchor.h"
#include "bending.h"
#include "deploy.h"
#include "force_sum.h"
#include "integrate.h"
#include "step.h"

/* bend: the hinges' scratch (bending.h) with the bending feature; prof: the parameter block's profile rows
 * (pack.h) with the profiles feature. Rows are indexed over the capacity, so an inserted particle finds its
 * own mass at its index. */
SK_INLINE void deploy_advance(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                              uint64_t *lane_steps, k_features ft, sk_real *bend, const sk_real *prof)
{
    const kparams k = kp_load(param);
    const unsigned char *pinned = cfg->pinned;
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    const bool need_vel = ft.drag || ft.link_damp || ft.water || ft.seabed || ft.anchor == SK_ANCHOR_FAKE_SPRING;
    for (long s = 0; s < steps; s++) {
        skv3 x = k_anchor_point(cfg, &k, ft.driven, step0 + s);
        k_deploy(cfg, &k, param, state, x, step0 + s);
        const skv n = kp_get(param, SK_P_N);
        const skv rest = kp_get(param, SK_P_S);
        const int rows = kp_max_count(param);
        if (lane_steps)
            for (int l = 0; l < SK_W; l++)
                lane_steps[l] += (uint64_t)param[(size_t)SK_P_N * SK_W + l];
        if (ft.bending) /* the hinges among the particles present, after the insertion (bending.h) */
            k_bend_pass(&k, state, rows, n, bend, prof);
        k_pass pass = {x, rest, bend, rows, cfg, (sk_real)(step0 + s) * cfg->dt, {0}};
        if (ft.water)
            pass.clock = sk_wave_clock_at(cfg->water, pass.t);

        /* p is carried from row to row (row i + 1 is still old when row i is written); v is loaded where it is
         * used, as in the fixed kernel, to spare registers; a line's (the water feature's) link i - 1's unit
         * vector too */
        skv3 p = v3_load(state), um_prev = v3_zero(), e_prev = v3_zero();
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
            const skv3 vel = need_vel ? k_velocity(kr, ft.integrator, p, w) : w;
            const skv3 um_before = um_prev;
            skv3 pn = v3_zero(), um = v3_zero();
            if (i + 1 < rows) {
                pn = v3_load(row + stride);
                if (ft.link != SK_LINK_NONE) {
                    const skv3 vn =
                        ft.link_damp ? k_velocity(kr, ft.integrator, pn, v3_load(row + stride + 3 * SK_W)) : vel;
                    um = v3_select(skv_lt(next_index, n), k_link_force(kr, ft.link, ft.link_damp, p, pn, vel, vn),
                                   v3_zero());
                    um_prev = um;
                }
            }
            k_line_row line = k_line_none();
            if (ft.water) { /* the newest particle's second link is the anchored segment, to the anchor point */
                line.e_prev = e_prev;
                line.e_next = k_line_link_unit(p, i + 1 < rows ? v3_select(skv_lt(next_index, n), pn, x) : x);
                e_prev = line.e_next;
            }
            skv3 f = k_force_sum(kr, ft, &pass, i, p, vel, um_before, um, i > 0, i + 1 < rows,
                                 k_hold_lanes(skv_eq(next_index, n)), &line);
            if (!pinned[i]) {
                skv3 pi = p, wi = w;
                if (ft.water)
                    k_integrate_acc(kr, ft.integrator, false, &pi, &wi, k_line_acceleration(kr, &line.inertia, f));
                else
                    k_integrate(kr, ft.integrator, &pi, &wi, f);
                v3_store(row, v3_select(present, pi, p));
                v3_store(row + 3 * SK_W, v3_select(present, wi, w));
            }
            p = pn;
        }
    }
}

SK_INLINE void deploy_run(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                          uint64_t *lane_steps, k_features ft)
{
    const sk_real *prof = ft.profiles ? sk_pack_profile_rows(param, SK_W) : NULL;
    if (!ft.bending) {
        deploy_advance(cfg, param, state, step0, steps, lane_steps, ft, NULL, prof);
        return;
    }
    sk_real *bend = k_bend_scratch(cfg->capacity);
    if (!bend) {
        sk_pack_poison(cfg, state, SK_W);
        return;
    }
    deploy_advance(cfg, param, state, step0, steps, lane_steps, ft, bend, prof);
    free(bend);
}

/* The variants (feature_mask.h): lines in water, then lines on a compliant seabed in air, their other features
 * read at run time (docs/model.md section 7.2); then profiles (each particle with its own constants, and with
 * bending each hinge's k_b), bending, a spring rope paid out from an anchored spring by Euler's or the
 * symplectic step (the seeds' deploying ropes, every feature constant), and the rest; the other features read
 * at run time. Damped links (axial
 * damping) first among these, so the others take them as absent. The lines' features are constant off in
 * every variant after the lines' own, so that the other ropes run none of their code. */
#define DEPLOY_DRY (K_WATER | K_SEABED)
#define DEPLOY_OPEN (K_BENDING | K_PROFILES | K_LEAN | K_UNIT_DAMP | K_LINK_DAMP | DEPLOY_DRY)
#define DEPLOY_LINE (K_WATER | K_DEPLOYS | K_LEAN | K_UNIT_DAMP)
/* A spring rope paid out from an anchored spring and nothing else, by Euler's (Cyclone's) or the symplectic
 * step: every feature but the damping factor's constant. */
#define DEPLOY_SPRINGS                                                                                           \
    (K_INTEGRATOR_BITS | K_LINK_BITS | K_ANCHOR_BITS | K_DRAG_BITS | K_GFORCE | K_BUOYANCY | K_DRIVEN | K_BENDING | \
     K_PROFILES | K_DEPLOYS | K_FRICTION | K_BDF2 | K_LINK_DAMP | K_OBJECT_BITS | DEPLOY_DRY)
#define DEPLOY_SPRINGS_WITH(integrator) \
    (K_INTEGRATOR(integrator) | K_LINK(SK_LINK_SPRING) | K_ANCHOR(SK_ANCHOR_SPRING) | K_DEPLOYS)
#define DEPLOY_VARIANTS(X)                                                                  \
    X(line, K_WATER | K_DEPLOYS, K_WATER | K_DEPLOYS, DEPLOY_LINE)                                \
    X(line_seabed_dry, K_SEABED | K_DEPLOYS, K_SEABED | K_DEPLOYS, DEPLOY_LINE | K_SEABED)        \
    X(link_damped, K_LINK_DAMP, K_LINK_DAMP, K_LINK_DAMP | K_LEAN | DEPLOY_DRY)              \
    X(profiled, K_PROFILES, K_PROFILES, K_PROFILES | K_LEAN | K_UNIT_DAMP | K_LINK_DAMP | DEPLOY_DRY) \
    X(bending, K_BENDING | K_PROFILES, K_BENDING, DEPLOY_OPEN)                   \
    X(springs_euler, DEPLOY_SPRINGS, DEPLOY_SPRINGS_WITH(SK_INTEGRATOR_EULER), DEPLOY_SPRINGS | K_LEAN)        \
    X(springs_symplectic, DEPLOY_SPRINGS, DEPLOY_SPRINGS_WITH(SK_INTEGRATOR_SYMPLECTIC), DEPLOY_SPRINGS | K_LEAN) \
    X(plain, K_BENDING | K_PROFILES, 0u, DEPLOY_OPEN)

#define K_VARIANT_PARAMS \
    const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps, uint64_t *lane_steps
#define K_VARIANT_ARGS cfg, param, state, step0, steps, lane_steps
#define K_VARIANT_RUN(features) deploy_run(cfg, param, state, step0, steps, lane_steps, features)
K_VARIANT_FUNCTIONS(DEPLOY_VARIANTS)

void SK_KNAME(sk_kernel_deploy_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                        long steps, uint64_t *lane_steps)
{
    K_VARIANTS(k_pack_mask(cfg, param), DEPLOY_VARIANTS);
}
