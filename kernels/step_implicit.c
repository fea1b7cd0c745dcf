/* The implicit integrator on lanes (docs/model.md section 2.1): per step and Newton iteration one forward
 * pass along the rope that computes each particle's forces (the explicit kernels' sums), assembles its row
 * of the block-tridiagonal system and eliminates it at once (block Thomas), keeping only the eliminated
 * coupling D_i^-1 S_i and D_i^-1 y_i per particle, then one backward pass of substitution that writes the
 * new velocities and positions. Every lane runs the same instructions: where lanes differ (particle counts
 * while deploying, a slack bungee, the particle the anchor holds) masks select what the reference adds or
 * skips, so each lane computes the reference's bits for its rope. Rows past a lane's count are identity
 * rows. */
#include <stdlib.h>

#include "anchor.h"
#include "bending.h"
#include "deploy.h"
#include "force_sum.h"
#include "integrate.h"
#include "model/bdf2.h"
#include "step.h"
#include "sym3w.h"

/* Scratch per particle, each [W]: D_i^-1 S_i (9, row-major), D_i^-1 y_i (3), whether link i couples two
 * unpinned particles (1: all ones or 0), the last iteration's dv (3), and link i's length and inverse length
 * (the square root and division are taken in a pass of their own: nothing there waits on the elimination,
 * so they overlap each other instead of stalling it). */
enum { IM_H = 0, IM_ZP = 9, IM_COUPLED = 12, IM_DV = 13, IM_LENGTH = 16, IM_INVERSE = 17, IM_ROW = 18 };
_Static_assert(IM_ROW == SK_PACK_IMPLICIT_ROW_REALS, "the memory check counts the solve's scratch");

/* BDF2's scratch per particle, each [W], after the solve's (and the hinges'): the step's extrapolated start x^
 * and v^ (6), the line search's accepted point a (3), the solve's result t from it (3), the residual at the
 * trial point (3) and link i's geometric share at the step's start (1). */
enum { IB_BASE = 0, IB_ACC = 6, IB_TARGET = 9, IB_RES = 12, IB_SHARE = 15, IB_ROW = 16 };

/* Whether BDF2's line search also judges by the step's energy (reference/implicit.c, energy_judges): every force
 * conservative and its potential summed. */
SK_INLINE bool bdf2_energy_judges(k_features ft)
{
    return !ft.bending && !ft.buoyancy && ft.drag == K_DRAG_NONE && !ft.link_damp && !ft.water && !ft.seabed &&
           !ft.objects;
}
_Static_assert(IB_ROW == SK_PACK_BDF2_ROW_REALS, "the memory check counts BDF2's scratch");

/* With bending, the hinges' forces (bending.h) follow the rows; with BDF2, its rows follow. */
SK_INLINE size_t scratch_row_reals(const sk_kernel_cfg *cfg)
{
    return (size_t)IM_ROW + (cfg->bending ? K_BEND_ROW : 0) + (cfg->bdf2 ? IB_ROW : 0);
}

sk_real *SK_KNAME(sk_kernel_implicit_scratch)(const sk_kernel_cfg *cfg)
{
    /* a whole number of 64-byte lines, as aligned_alloc asks */
    size_t bytes = (size_t)cfg->capacity * scratch_row_reals(cfg) * SK_W * sizeof(sk_real);
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

/* The linearisation point of a row and what its stiffness multiplies on the right-hand side: the state
 * itself and -v in the first iteration; later x0 + (v0 + dv) dt, v0 + dv and dv (a pinned row at x0 + v0 dt,
 * where the first iteration's -v0 took it). With BDF2 (brow, the row's BDF2 scratch) x0 and v0 are the step's
 * extrapolated start and dt is the step's h, and a pinned row stays (the state holds its end of the step). */
SK_INLINE void row_point(const kparams *k, const sk_real *row, const sk_real *srow, const sk_real *brow, bool pinned,
                         bool later, skv3 *p, skv3 *v, skv3 *z)
{
    skv3 x0 = v3_load(row), v0 = v3_load(row + 3 * SK_W);
    if (!later) {
        *p = x0;
        *v = v0;
        *z = v3_scale(v0, skv_set1(-1));
        return;
    }
    skv3 dv = v3_load(srow + IM_DV * SK_W);
    *z = dv;
    if (pinned) {
        *p = brow ? x0 : v3_add(x0, v3_scale(v0, k->dt));
        *v = v0;
        return;
    }
    if (brow) {
        x0 = v3_load(brow + IB_BASE * SK_W);
        v0 = v3_load(brow + (IB_BASE + 3) * SK_W);
    }
    *v = v3_add(v0, dv);
    *p = v3_add(x0, v3_scale(*v, k->dt));
}

/* Row i's BDF2 scratch, or NULL without BDF2. */
SK_INLINE const sk_real *bdf2_row(const sk_real *bscratch, int i)
{
    return bscratch ? bscratch + (size_t)i * IB_ROW * SK_W : NULL;
}

/* Whether a link acts wherever it exists (springs) and exists in every lane (ropes that do not deploy):
 * then link i couples rows i and i + 1 exactly where both are unpinned, the same in every lane, and no
 * per-lane flag is kept. */
SK_INLINE bool uniform_links(bool deploys, int link) { return !deploys && link == SK_LINK_SPRING; }

/* The links' lengths at the linearisation point, each |d| and s3_inverse_length of it (backward Euler's: BDF2
 * takes them in its setup and judging passes). */
SK_INLINE void link_lengths(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param, const sk_real *state,
                            sk_real *scratch, bool deploys, bool later)
{
    const size_t stride = (size_t)SK_F_COUNT * SK_W, sstride = (size_t)IM_ROW * SK_W;
    const int rows = deploys ? kp_max_count(param) : cfg->capacity;
    skv3 cp, cv, cz;
    row_point(k, state, scratch, NULL, cfg->pinned[0], later, &cp, &cv, &cz);
    for (int i = 0; i + 1 < rows; i++) {
        skv3 np, nv, nz;
        row_point(k, state + (size_t)(i + 1) * stride, scratch + (size_t)(i + 1) * sstride, NULL, cfg->pinned[i + 1],
                  later, &np, &nv, &nz);
        skv l = v3_length(v3_sub(cp, np));
        skv_store(scratch + (size_t)i * sstride + (size_t)IM_LENGTH * SK_W, l);
        skv_store(scratch + (size_t)i * sstride + (size_t)IM_INVERSE * SK_W, s3_inverse_length(l));
        cp = np;
    }
}

/* The linearisation point's rows, as a hinge walk reads them (bending.h). */
typedef struct iterate_rows {
    const kparams *k;
    const sk_real *state, *scratch, *bscratch;
    const unsigned char *pinned;
    bool later;
} iterate_rows;

SK_INLINE skv3 iterate_point(const void *ctx, int row)
{
    const iterate_rows *it = ctx;
    skv3 p, v, z;
    row_point(it->k, it->state + (size_t)row * SK_F_COUNT * SK_W, it->scratch + (size_t)row * IM_ROW * SK_W,
              bdf2_row(it->bscratch, row), it->pinned[row], it->later, &p, &v, &z);
    return p;
}

/* The hinges at the linearisation point, applied explicitly: they enter f, not the blocks. */
SK_INLINE void bend_points(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param, const sk_real *state,
                           sk_real *scratch, const sk_real *bscratch, sk_real *bend, bool deploys, bool later,
                           const sk_real *prof)
{
    const int rows = deploys ? kp_max_count(param) : cfg->capacity;
    const skv n = deploys ? kp_get(param, SK_P_N) : skv_set1((sk_real)cfg->capacity);
    const iterate_rows it = {k, state, scratch, bscratch, cfg->pinned, later};
    k_bend_walk(k, rows, n, bend, prof, iterate_point, &it);
}

/* BDF2's step energy with the anchored spring's (ka / 2)(l - rest)^2 added in the lanes `on` (the trial's
 * judging pass and the solving pass add it alike, in the reference's order). */
SK_INLINE skv anchor_energy(skv energy, skm on, skv ka, skv l, skv rest)
{
    const skv st = skv_sub(l, rest);
    return skv_select(on, skv_add(energy, skv_mul(skv_mul(skv_mul(skv_set1((sk_real)0.5), ka), st), st)), energy);
}

/* A profile row's terms of the implicit integrator for the step of k (k->dt, k->drag_t), with the operations
 * that give its rows the rope's dt terms (core/batch/storage.c, model/profile.h): under BDF2, k's step is h = 2 dt
 * / 3 in the lanes with a step before and dt in the others, and the rows' own terms are dt's. */
SK_INLINE void profile_row_step(kparams *row, const kparams *k)
{
    row->implicit_diag = skv_add(row->mass, k->drag_t);
    row->link_kdt2 = skv_mul(skv_mul(row->link_stiffness, k->dt), k->dt);
    row->link_cdt = skv_mul(row->link_c, k->dt);
}

/* The diagonal of M + T of row j of a group with profiles, for k's step under BDF2 (profile_row_step). */
SK_INLINE skv profile_diag(const kparams *k, const sk_real *prof, int j, bool bdf2)
{
    const sk_real *r = prof + (size_t)j * SK_Q_COUNT * SK_W;
    return bdf2 ? skv_add(skv_load(r + (size_t)SK_Q_MASS * SK_W), k->drag_t) : skv_load(r + (size_t)SK_Q_IMP_DIAG * SK_W);
}

/* One Newton iteration's forward elimination. Row i's terms are added in the reference's order
 * (reference/implicit.c): what the row above hands over (the diagonal plus S D^-1 E, and S D^-1 y - q) is
 * computed at the end of that row and carried in registers. With BDF2 (bscratch) it also keeps each row's
 * residual dv m~ - (f + a m~) h, sums the merit (its square over the unpinned rows in order) and, where
 * bdf2_energy_judges, the step's energy in the reference's order (step_energy). Without eliminate (BDF2's trial
 * judged before any solve) it sums only the merit and the energy: no blocks, no elimination, and it takes the
 * links' lengths itself. */
SK_INLINE void forward(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param, sk_real *state,
                       sk_real *scratch, sk_real *bscratch, skv3 x, sk_real t, k_features ft, bool later,
                       const sk_real *bend, const sk_real *prof, skv *merit, skv *energy, bool eliminate)
{
    const skv half = skv_set1((sk_real)0.5);
    const bool deploys = ft.deploys;
    const int link = ft.link, anchor = ft.anchor;
    const size_t stride = (size_t)SK_F_COUNT * SK_W, sstride = (size_t)IM_ROW * SK_W;
    const unsigned char *pinned = cfg->pinned;
    const int rows = deploys ? kp_max_count(param) : cfg->capacity;
    const skv n = deploys ? kp_get(param, SK_P_N) : skv_set1((sk_real)cfg->capacity);
    const skv rest = deploys ? kp_get(param, SK_P_S) : k->s;
    const skv held_index = deploys ? skv_sub(n, skv_set1(1)) : skv_zero();
    const skm all = skv_eq(skv_zero(), skv_zero());
    const bool bungee = link == SK_LINK_BUNGEE, uniform = uniform_links(deploys, link);
    const skv3 field = v3_scale(k->acc, k->mass); /* the acceleration field as a force: a m~ */
    const skv_sym3 diag = s3_diagonal(k->implicit_diag);
    k_pass pass = {x, rest, bend, rows, cfg, t, {0}};
    if (ft.water) /* the water at the step's start, as the anchor point x */
        pass.clock = sk_wave_clock_at(cfg->water, t);
    skv3 e_prev = v3_zero(); /* a line's: the unit vector of the link before the row */

    skv3 cp, cv, cz;
    row_point(k, state, scratch, bdf2_row(bscratch, 0), pinned[0], later, &cp, &cv, &cz);
    skv3 um_prev = v3_zero(), handed_y = v3_zero();
    skv_sym3 handed = prof ? s3_diagonal(profile_diag(k, prof, 0, ft.bdf2)) : diag;
    skm act_prev = skm_not(all);
    const kparams *const k_rope = k;
    for (int i = 0; i < rows; i++) {
        sk_real *row = state + (size_t)i * stride;
        sk_real *srow = scratch + (size_t)i * sstride;
        const bool has_next = i + 1 < rows;
        /* with profiles: particle i's and link i's constants, and row i + 1's diagonal (params.h) */
        kparams row_k;
        k = k_rope;
        if (prof) {
            row_k = *k_rope;
            kp_profile_row(&row_k, prof, i);
            if (ft.bdf2) /* the step's terms: h's where the lane has a step before, else dt's (bdf2_step) */
                profile_row_step(&row_k, k_rope);
            k = &row_k;
        }
        const skv3 field_i = prof ? v3_scale(k->acc, k->mass) : field;
        const skv_sym3 diag_i = prof ? s3_diagonal(k->implicit_diag) : diag;
        const skv_sym3 diag_next =
            prof && has_next ? s3_diagonal(profile_diag(k_rope, prof, i + 1, ft.bdf2)) : diag;
        const skv index = skv_set1((sk_real)i);
        const skm held = skv_eq(index, held_index);

        /* forces at the linearisation point, summed as the explicit kernels sum them (force_sum.h) */
        const skv3 um_before = um_prev;
        skv3 um_i = v3_zero();
        skv3 np = v3_zero(), nv = v3_zero(), nz = v3_zero();
        skv_sym3 s = diag_i;
        skv3 q = v3_zero();
        skm act = skm_not(all);
        skv link_energy = skv_zero(); /* link i's, added after the particle's terms */
        if (has_next) {
            row_point(k, row + stride, srow + sstride, bdf2_row(bscratch, i + 1), pinned[i + 1], later, &np, &nv, &nz);
            if (link != SK_LINK_NONE) {
                const skm next_exists = deploys ? skv_lt(skv_set1((sk_real)(i + 1)), n) : all;
                skv3 d = v3_sub(cp, np);
                /* a pass without the elimination (BDF2's judging) takes the lengths itself, nothing there waiting on
                 * a solve, and keeps them for the solve at its trial */
                const skv l = eliminate ? skv_load(srow + (size_t)IM_LENGTH * SK_W) : v3_length(d);
                const skv inv = eliminate ? skv_load(srow + (size_t)IM_INVERSE * SK_W) : s3_inverse_length(l);
                if (!eliminate) {
                    skv_store(srow + (size_t)IM_LENGTH * SK_W, l);
                    skv_store(srow + (size_t)IM_INVERSE * SK_W, inv);
                }
                /* d^ of the model: d * (1/l) where l > 0, the zero vector elsewhere */
                skv3 unit = v3_select(skv_gt(l, skv_zero()), v3_scale(d, inv), v3_zero());
                skv mag = skv_mul(skv_sub(k->link_l, l), k->link_stiffness);
                if (ft.link_damp) /* axial damping: forces.h k_link_force */
                    mag = skv_sub(mag, skv_mul(k->link_c, v3_dot(unit, v3_sub(cv, nv))));
                skv3 um = v3_scale(unit, mag);
                act = bungee ? skm_and(next_exists, skv_gt(l, k->link_l)) : next_exists;
                um = deploys || bungee ? v3_select(act, um, v3_zero()) : um;
                um_i = um;
                um_prev = um;
                if (eliminate) {
                    s = ft.bdf2 ? s3_spring_block_share(d, inv, skv_load(bscratch + ((size_t)i * IB_ROW + IB_SHARE) * SK_W),
                                                        k->link_kdt2)
                                : s3_spring_block(d, inv, k->link_l, k->link_kdt2);
                    q = s3_apply(s, v3_sub(cz, nz));
                    if (ft.link_damp) { /* its damping block T joins S; on the right T z in later iterations */
                        const skv_sym3 t = s3_damping_block(d, inv, k->link_cdt);
                        s = s3_add(s, t);
                        if (later)
                            q = v3_add(q, s3_apply(t, v3_sub(cz, nz)));
                    }
                }
                if (ft.bdf2 && bdf2_energy_judges(ft)) {
                    const skv st = skv_sub(l, k->link_l);
                    link_energy = skv_keep(act, skv_mul(skv_mul(skv_mul(half, k->link_stiffness), st), st));
                }
            }
        }

        k_line_row line = k_line_none();
        if (ft.water) { /* deploying: the newest particle's second link is the anchored segment (docs/model.md 7.2) */
            line.e_prev = e_prev;
            line.e_next = deploys    ? k_line_link_unit(cp, has_next ? v3_select(skv_lt(skv_set1((sk_real)(i + 1)), n), np, x) : x)
                          : has_next ? k_line_link_unit(cp, np)
                                     : v3_zero();
            e_prev = line.e_next;
        }
        const skv3 f = k_force_sum(k, ft, &pass, i, cp, cv, um_before, um_i, i > 0, has_next, k_hold_lanes(held),
                                    &line);

        /* what this row hands the next where link i acts but does not couple (this row or the next pinned) */
        skv_sym3 next_handed = s3_add(diag_next, s);
        skv3 next_handed_y = v3_scale(q, skv_set1(-1));
        if (!pinned[i]) {
            skv3 y = v3_scale(v3_add(f, field_i), k->dt);
            /* a line in water: its added mass and the Morison drag's damping (line_water.h) */
            const skv_sym3 added = ft.water ? k_line_added_block(&line.inertia) : s3_diagonal(skv_zero());
            if (ft.bdf2) {
                const skv3 mz = v3_scale(cz, k->mass);
                const skv3 res = v3_sub(ft.water ? v3_add(mz, s3_apply(added, cz)) : mz, y);
                if (eliminate) /* the energy's slope along the solve's step */
                    v3_store(bscratch + (size_t)i * IB_ROW * SK_W + IB_RES * SK_W, res);
                *merit = skv_add(*merit, v3_dot(res, res));
                if (bdf2_energy_judges(ft)) {
                    *energy = skv_add(*energy, skv_mul(skv_mul(half, k->mass), v3_dot(cz, cz)));
                    *energy = skv_sub(*energy, v3_dot(field_i, cp));
                    if (ft.gforce)
                        *energy = skv_sub(*energy, v3_dot(k->gforce, cp));
                }
            }
            if (!eliminate && ft.unit_damp) {
                /* the trial as the state (bdf2_step's last loop, its operations): the step's end where this pass is
                 * the step's last; until then the state's rows are not read (the step's start is in the scratch) */
                v3_store(row, cp);
                v3_store(row + 3 * SK_W, cv);
            }
            if (!eliminate) { /* BDF2's trial judged without a solve: the anchored spring's energy, then the next row */
                if (bdf2_energy_judges(ft) && (anchor == SK_ANCHOR_SPRING || anchor == SK_ANCHOR_BUNGEE) && skm_any(held)) {
                    const skv l = v3_length(v3_sub(cp, x));
                    const skm on = anchor == SK_ANCHOR_BUNGEE ? skm_and(held, skv_gt(l, rest)) : held;
                    *energy = anchor_energy(*energy, on, deploys ? k_anchor_stiffness(k, rest) : k->anchor_stiffness, l, rest);
                }
                goto next_row;
            }
            if (later && ft.drag)
                y = v3_add(y, v3_scale(cz, k->drag_t));
            skv_sym3 e = diag_i;
            /* uniform links act in every lane: no selects */
            if (i > 0 && link != SK_LINK_NONE) {
                e = uniform ? handed : s3_select(act_prev, handed, e);
                y = uniform ? v3_add(y, handed_y) : v3_select(act_prev, v3_add(y, handed_y), y);
            }
            if (ft.water) {
                const skv_sym3 drag = k_line_drag_block(&line.inertia, k->dt);
                e = s3_add(s3_add(e, added), drag);
                if (later)
                    y = v3_add(y, s3_apply(drag, cz));
            }
            if (ft.seabed) { /* the seabed where it pushes */
                const skv bk = skv_mul(skv_mul(line.inertia.bed_k, k->dt), k->dt), bc = skv_mul(line.inertia.bed_c, k->dt);
                e.yy = skv_add(e.yy, bk);
                y.y = skv_add(y.y, skv_mul(bk, cz.y));
                e.yy = skv_add(e.yy, bc);
                if (later)
                    y.y = skv_add(y.y, skv_mul(bc, cz.y));
            }
            if (anchor != SK_ANCHOR_NONE && skm_any(held)) {
                if (anchor == SK_ANCHOR_SPRING || anchor == SK_ANCHOR_BUNGEE) {
                    skv3 d = v3_sub(cp, x);
                    skv l = v3_length(d);
                    skm on = anchor == SK_ANCHOR_BUNGEE ? skm_and(held, skv_gt(l, rest)) : held;
                    /* deploying: a line given by EA holds the anchored segment's stiffness at the step's rest
                     * length s (forces.h k_anchor_stiffness), (ka h) h as the reference's */
                    const skv ka = deploys ? k_anchor_stiffness(k, rest) : k->anchor_stiffness;
                    const skv kdt2 = deploys ? skv_select(skv_gt(k->anchor_ea, skv_zero()), skv_mul(skv_mul(ka, k->dt), k->dt),
                                                          k->anchor_kdt2)
                                             : k->anchor_kdt2;
                    skv_sym3 sa = s3_spring_block(d, s3_inverse_length(l), rest, kdt2);
                    e = s3_select(on, s3_add(e, sa), e);
                    y = v3_select(on, v3_add(y, s3_apply(sa, cz)), y);
                    if (ft.bdf2 && bdf2_energy_judges(ft))
                        *energy = anchor_energy(*energy, on, ka, l, rest);
                } else if (anchor == SK_ANCHOR_FAKE_SPRING) {
                    skm on = skm_and(held, k->fake_active);
                    e = s3_select(on, s3_add_diagonal(s3_add_diagonal(e, k->fake_jx), k->fake_jv), e);
                    y = v3_select(on, v3_add(y, v3_scale(cz, k->fake_jx)), y);
                    if (later)
                        y = v3_select(on, v3_add(y, v3_scale(cz, k->fake_jv)), y);
                }
            }
            skv_sym3 a = e;
            if (has_next && link != SK_LINK_NONE) {
                a = uniform ? s3_add(e, s) : s3_select(act, s3_add(e, s), e);
                y = uniform ? v3_add(y, q) : v3_select(act, v3_add(y, q), y);
            }
            if (deploys) { /* identity rows past the lane's count */
                const skm present = skv_lt(index, n);
                a = s3_select(present, a, s3_diagonal(skv_set1(1)));
                y = v3_select(present, y, v3_zero());
            }
            /* BDF2's factors and elimination (sk_ldl3_factor's minor pivot, sk_ldl3_eliminate) */
            const skv_ldl3 fac = s3_factor(a, ft.bdf2);
            skv3 zp = s3_solve(&fac, y);
            v3_store(srow + IM_ZP * SK_W, zp);
            if (has_next && link != SK_LINK_NONE && !pinned[i + 1]) {
                skv_mat3 h;
                skv_sym3 sde;
                skv3 sdy;
                if (ft.bdf2) {
                    s3_eliminate(&fac, s, e, y, &h, &sde, &sdy);
                } else {
                    h = s3_solve_block(&fac, s);
                    sde = m3_transpose_mul_symmetric(&h, e);
                    sdy = m3_transpose_apply(&h, y);
                }
                for (int j = 0; j < 3; j++)
                    for (int c = 0; c < 3; c++)
                        skv_store(srow + (size_t)(IM_H + 3 * j + c) * SK_W, h.m[j][c]);
                if (!uniform)
                    skv_store(srow + (size_t)IM_COUPLED * SK_W, skv_keep(act, skv_set1(1)));
                next_handed = s3_add(diag_next, sde);
                next_handed_y = v3_sub(sdy, q);
            } else if (has_next && !uniform) {
                skv_store(srow + (size_t)IM_COUPLED * SK_W, skv_zero());
            }
        }
    next_row:
        if (ft.bdf2 && bdf2_energy_judges(ft))
            *energy = skv_add(*energy, link_energy);
        act_prev = act;
        handed = next_handed;
        handed_y = next_handed_y;
        cp = np;
        cv = nv;
        cz = nz;
    }
}

/* Back substitution: dv_i = D_i^-1 y_i + (D_i^-1 S_i) dv_(i+1) where link i couples; the last iteration
 * writes v = (v0 + dv) D and p = x0 + v dt, the others keep dv for the next linearisation. */
SK_INLINE void backward(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param, sk_real *state,
                        sk_real *scratch, bool deploys, int link, bool final, bool unit_damp)
{
    const bool uniform = uniform_links(deploys, link);
    const size_t stride = (size_t)SK_F_COUNT * SK_W, sstride = (size_t)IM_ROW * SK_W;
    const int rows = deploys ? kp_max_count(param) : cfg->capacity;
    const skv n = kp_get(param, SK_P_N);
    skv3 dv_next = v3_zero();
    for (int i = rows - 1; i >= 0; i--) {
        sk_real *row = state + (size_t)i * stride;
        sk_real *srow = scratch + (size_t)i * sstride;
        skv3 dv = v3_zero();
        if (!cfg->pinned[i]) {
            dv = v3_load(srow + IM_ZP * SK_W);
            if (i + 1 < rows && (!uniform || !cfg->pinned[i + 1])) {
                skv_mat3 h;
                for (int j = 0; j < 3; j++)
                    for (int c = 0; c < 3; c++)
                        h.m[j][c] = skv_load(srow + (size_t)(IM_H + 3 * j + c) * SK_W);
                skv3 coupled_dv = v3_add(dv, m3_apply(&h, dv_next));
                dv = uniform ? coupled_dv
                             : v3_select(skv_ne(skv_load(srow + (size_t)IM_COUPLED * SK_W), skv_zero()), coupled_dv, dv);
            }
            if (final) {
                skv3 x0 = v3_load(row), v0 = v3_load(row + 3 * SK_W);
                skv3 v = v3_add(v0, dv);
                if (!unit_damp)
                    v = v3_scale(v, k->damp);
                skv3 p = v3_add(x0, v3_scale(v, k->dt));
                if (deploys) {
                    skm present = skv_lt(skv_set1((sk_real)i), n);
                    p = v3_select(present, p, x0);
                    v = v3_select(present, v, v0);
                }
                v3_store(row, p);
                v3_store(row + 3 * SK_W, v);
            }
        }
        if (!final)
            v3_store(srow + IM_DV * SK_W, dv);
        dv_next = dv;
    }
}

/* BDF2's back substitution (a Newton solve at the accepted trial point of the lanes in solving): the solve's dv_i
 * row by row, then per lane as the reference (reference/implicit.c): where solving, a = the trial, t = dv and the
 * next trial dv. Returns the lanes whose dv is within the tolerance of the trial in every component of every
 * unpinned row, in *move the largest component of dv - trial, and in *slope the step energy's slope along the
 * solve's step, the residual . (dv - trial) summed from the last row up. */
SK_INLINE skm bdf2_backward(const sk_kernel_cfg *cfg, sk_real *scratch, sk_real *bscratch, int link, skm solving,
                            skv *slope, skv *move)
{
    *slope = skv_zero();
    *move = skv_zero();
    const bool uniform = uniform_links(false, link);
    const size_t sstride = (size_t)IM_ROW * SK_W, bstride = (size_t)IB_ROW * SK_W;
    const int rows = cfg->capacity;
    const skv tol = skv_set1(cfg->implicit_tolerance), low = skv_neg(tol);
    skm within = skv_eq(skv_zero(), skv_zero());
    skv3 dv_next = v3_zero();
    for (int i = rows - 1; i >= 0; i--) {
        sk_real *srow = scratch + (size_t)i * sstride, *brow = bscratch + (size_t)i * bstride;
        skv3 dv = v3_zero();
        if (!cfg->pinned[i]) {
            dv = v3_load(srow + IM_ZP * SK_W);
            if (i + 1 < rows && !cfg->pinned[i + 1]) {
                skv_mat3 h;
                for (int j = 0; j < 3; j++)
                    for (int c = 0; c < 3; c++)
                        h.m[j][c] = skv_load(srow + (size_t)(IM_H + 3 * j + c) * SK_W);
                const skv3 coupled_dv = v3_add(dv, m3_apply(&h, dv_next));
                dv = uniform ? coupled_dv
                             : v3_select(skv_ne(skv_load(srow + (size_t)IM_COUPLED * SK_W), skv_zero()), coupled_dv, dv);
            }
            const skv3 trial = v3_load(srow + IM_DV * SK_W);
            const skv3 d = v3_sub(dv, trial);
            *slope = skv_add(*slope, v3_dot(v3_load(brow + IB_RES * SK_W), d));
            within = skm_and(within, skm_and(skm_and(skm_and(skv_le(low, d.x), skv_le(d.x, tol)),
                                                     skm_and(skv_le(low, d.y), skv_le(d.y, tol))),
                                             skm_and(skv_le(low, d.z), skv_le(d.z, tol))));
            const skv ax = skv_select(skv_lt(d.x, skv_zero()), skv_neg(d.x), d.x),
                      ay = skv_select(skv_lt(d.y, skv_zero()), skv_neg(d.y), d.y),
                      az = skv_select(skv_lt(d.z, skv_zero()), skv_neg(d.z), d.z);
            *move = skv_select(skv_gt(ax, *move), ax, *move);
            *move = skv_select(skv_gt(ay, *move), ay, *move);
            *move = skv_select(skv_gt(az, *move), az, *move);
            v3_store(brow + IB_ACC * SK_W, v3_select(solving, trial, v3_load(brow + IB_ACC * SK_W)));
            v3_store(brow + IB_TARGET * SK_W, v3_select(solving, dv, v3_load(brow + IB_TARGET * SK_W)));
            v3_store(srow + IM_DV * SK_W, v3_select(solving, dv, trial));
        }
        dv_next = dv;
    }
    return within;
}

/* The line search's step back on the lanes in refuse: the trial a + (t - a) alpha. */
SK_INLINE void bdf2_back_off(const sk_kernel_cfg *cfg, sk_real *scratch, const sk_real *bscratch, skm refuse, skv alpha)
{
    for (int i = 0; i < cfg->capacity; i++) {
        if (cfg->pinned[i])
            continue;
        sk_real *srow = scratch + (size_t)i * IM_ROW * SK_W;
        const sk_real *brow = bscratch + (size_t)i * IB_ROW * SK_W;
        const skv3 acc = v3_load(brow + IB_ACC * SK_W), target = v3_load(brow + IB_TARGET * SK_W);
        const skv3 back = v3_add(acc, v3_scale(v3_sub(target, acc), alpha));
        v3_store(srow + IM_DV * SK_W, v3_select(refuse, back, v3_load(srow + IM_DV * SK_W)));
    }
}

/* Link i's geometric share (sk_spring_share) at inverse length inv, of its own rest length with profiles. */
SK_INLINE skv bdf2_link_share(const kparams *k, const sk_real *prof, int i, skv inv)
{
    const skv rest = prof ? skv_load(prof + ((size_t)i * SK_Q_COUNT + SK_Q_LINK_L) * SK_W) : k->link_l;
    return s3_spring_share(rest, inv);
}

/* The links' geometric shares at the trial point, from the lengths the setup or the judging pass kept, in the
 * lanes `own` (SK_BDF2_OWN_SHARE_SOLVE; reference/implicit.c link_shares). */
SK_INLINE void bdf2_own_shares(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *scratch, sk_real *bscratch,
                               const sk_real *prof, skm own)
{
    for (int i = 0; i + 1 < cfg->capacity; i++) {
        const skv inv = skv_load(scratch + ((size_t)i * IM_ROW + IM_INVERSE) * SK_W);
        sk_real *share = bscratch + ((size_t)i * IB_ROW + IB_SHARE) * SK_W;
        skv_store(share, skv_select(own, bdf2_link_share(k, prof, i, inv), skv_load(share)));
    }
}

/* One BDF2 step of a pack (docs/model.md section 2.1; reference/implicit.c's bdf2_step on every lane at once):
 * each lane's extrapolated start from its state and the state a step before (none before its first step: then
 * backward Euler, with the rope's dt terms in place of h's) and Newton's first trial from the velocities of the
 * steps before (linear from two, quadratic from three: model/bdf2.h), then solves and judged
 * trials until every lane has converged or spent its solves (a finished lane's numbers no longer change), then
 * the new state. */
SK_INLINE void bdf2_step(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param, sk_real *state,
                         sk_real *scratch, sk_real *bscratch, skv3 x, sk_real t, k_features ft, sk_real *bend,
                         const sk_real *prof, bool *lengths_at_state)
{
    const size_t stride = (size_t)SK_F_COUNT * SK_W, sstride = (size_t)IM_ROW * SK_W, bstride = (size_t)IB_ROW * SK_W,
                 hstride = (size_t)SK_H_COUNT * SK_W;
    const int rows = cfg->capacity;
    sk_real *prev = sk_pack_previous_rows(cfg, state, SK_W), *lane = sk_pack_bdf2_lane(cfg, state, SK_W);
    const skv steps_before = skv_load(lane + SK_B_VALID * SK_W);
    const skm valid = skv_ne(steps_before, skv_zero()), quadratic = skv_lt(skv_set1(1), steps_before);
    /* BDF2's constants, the operations of sk_rope_constants_compute with dt = h = (2 dt) / 3 (rope_constants.h) */
    const skv h = skv_div(skv_mul(skv_set1(2), k->dt), skv_set1(3));
    const skv drag_t = ft.drag != K_DRAG_NONE ? skv_mul(k->drag_k1, h) : skv_zero();
    kparams ks = *k;
    ks.dt = skv_select(valid, h, k->dt);
    ks.implicit_diag = skv_select(valid, skv_add(k->mass, drag_t), k->implicit_diag);
    ks.drag_t = skv_select(valid, drag_t, k->drag_t);
    ks.link_kdt2 = skv_select(valid, skv_mul(skv_mul(k->link_stiffness, h), h), k->link_kdt2);
    ks.anchor_kdt2 = skv_select(valid, skv_mul(skv_mul(k->anchor_stiffness, h), h), k->anchor_kdt2);
    ks.link_cdt = skv_select(valid, skv_mul(k->link_c, h), k->link_cdt);
    const skv third = skv_set1(SK_BDF2_THIRD), two = skv_set1(2),
              five_thirds = skv_set1(SK_BDF2_FIVE_THIRDS);
    skv3 trial_before = v3_zero(); /* row i - 1's at Newton's first trial */
    for (int i = 0; i < rows; i++) {
        sk_real *row = state + (size_t)i * stride, *prow = prev + (size_t)i * hstride;
        sk_real *srow = scratch + (size_t)i * sstride, *brow = bscratch + (size_t)i * bstride;
        const skv3 p = v3_load(row), v = v3_load(row + 3 * SK_W);
        const skv3 pv = v3_load(prow + SK_H_VX * SK_W);
        skv3 pb = p, vb = v, dv0 = v3_zero();
        if (!cfg->pinned[i]) {
            const skv3 pv2 = v3_load(prow + SK_H_V2X * SK_W);
            pb = v3_select(valid, v3_add(p, v3_scale(v3_sub(p, v3_load(prow)), third)), p);
            vb = v3_select(valid, v3_add(v, v3_scale(v3_sub(v, pv), third)), v);
            /* Newton's first trial: the velocity extrapolated from the steps before (model/bdf2.h) */
            const skv3 rise = v3_sub(v, pv);
            dv0 = v3_select(quadratic, v3_sub(v3_scale(rise, five_thirds), v3_sub(pv, pv2)),
                            v3_select(valid, v3_scale(v3_scale(rise, two), third), v3_zero()));
        }
        if (i + 1 < rows) { /* link i's geometric share at the step's start (reference/implicit.c, bdf2_step) */
            /* the last step's judging pass left the lengths where the state is (lengths_at_state) */
            const skv inv = *lengths_at_state ? skv_load(srow + (size_t)IM_INVERSE * SK_W)
                                              : s3_inverse_length(v3_length(v3_sub(p, v3_load(row + stride))));
            skv_store(brow + IB_SHARE * SK_W, bdf2_link_share(k, prof, i, inv));
        }
        /* link i - 1's length at Newton's first trial (row_point's operations), for the first solve */
        const skv3 trial = cfg->pinned[i] ? p : v3_add(pb, v3_scale(v3_add(vb, dv0), ks.dt));
        if (i > 0) {
            const skv l = v3_length(v3_sub(trial_before, trial));
            skv_store(srow - sstride + (size_t)IM_LENGTH * SK_W, l);
            skv_store(srow - sstride + (size_t)IM_INVERSE * SK_W, s3_inverse_length(l));
        }
        trial_before = trial;
        v3_store(brow + IB_BASE * SK_W, pb);
        v3_store(brow + (IB_BASE + 3) * SK_W, vb);
        v3_store(prow, p);
        v3_store(prow + SK_H_VX * SK_W, v);
        v3_store(prow + SK_H_V2X * SK_W, pv);
        v3_store(srow + IM_DV * SK_W, dv0);
    }
    skv_store(lane + SK_B_VALID * SK_W, skv_min(skv_add(steps_before, skv_set1(1)), skv_set1(SK_BDF2_STEPS_KEPT)));

    const skv one = skv_set1(1), half = skv_set1((sk_real)0.5), armijo = skv_set1(SK_BDF2_ARMIJO),
              alpha_min = skv_set1(SK_BDF2_ALPHA_MIN), tol = skv_set1(cfg->implicit_tolerance),
              budget = skv_set1((sk_real)cfg->implicit_iterations);
    const skm none = skm_not(skv_eq(skv_zero(), skv_zero()));
    skv alpha = one, accepted = skv_zero(), solves = skv_zero(), energy_accepted = skv_zero(), slope = skv_zero(),
        move = skv_zero(); /* the last solve's move */
    /* each lane solves at its accepted trial, then judges the next trial without a solve until one is accepted
     * (the reference's loops, reference/implicit.c bdf2_step); the pack runs a pass while any lane needs it */
    /* every lane solves first (budget >= 1), so the line search's accepted point and target need no start */
    skm solving = skv_lt(skv_zero(), budget), judging = none, done = none, ended_on_solve = none;
    bool last_judged = false; /* the loop's last pass a judging one, which left every lane's end in the state */
    while (skm_any(solving) || skm_any(judging)) {
        if (skm_any(solving)) {
            /* the links' lengths at the trial: the setup's for the first solve, the judging pass's after */
            if (ft.link != SK_LINK_NONE) {
                const skm own = skm_and(solving, skv_le(skv_set1(SK_BDF2_OWN_SHARE_SOLVE), solves));
                if (skm_any(own))
                    bdf2_own_shares(cfg, k, scratch, bscratch, prof, own);
            }
            if (ft.bending)
                bend_points(cfg, &ks, param, state, scratch, bscratch, bend, false, true, prof);
            skv merit = skv_zero(), energy = skv_zero(), step_slope, step_move;
            forward(cfg, &ks, param, state, scratch, bscratch, x, t, ft, true, bend, prof, &merit, &energy, true);
            const skm within = bdf2_backward(cfg, scratch, bscratch, ft.link, solving, &step_slope, &step_move);
            /* sk_bdf2_moves_converged after a full step (the first solve's move is 0) */
            const skv prev = skv_keep(skv_eq(alpha, one), move);
            const skm shrunk =
                skv_le(skv_mul(step_move, step_move), skv_mul(tol, skv_sub(prev, step_move)));
            const skm finished = skm_or(within, shrunk);
            accepted = skv_select(solving, merit, accepted);
            energy_accepted = skv_select(solving, energy, energy_accepted);
            alpha = skv_select(solving, one, alpha);
            slope = skv_select(solving, step_slope, slope);
            move = skv_select(solving, step_move, move);
            solves = skv_add(solves, skv_keep(solving, one));
            done = skm_or(done, skm_and(solving, finished));
            ended_on_solve = skm_or(ended_on_solve, skm_and(solving, finished));
            judging = skm_or(judging, skm_andnot(finished, solving));
            solving = none;
            last_judged = false;
        }
        if (skm_any(judging)) {
            if (ft.bending)
                bend_points(cfg, &ks, param, state, scratch, bscratch, bend, false, true, prof);
            skv merit = skv_zero(), energy = skv_zero();
            forward(cfg, &ks, param, state, scratch, bscratch, x, t, ft, true, bend, prof, &merit, &energy, false);
            last_judged = true;
            skm better = skm_or(skv_le(merit, skv_mul(accepted, skv_sub(one, skv_mul(armijo, alpha)))),
                                skv_le(alpha, alpha_min));
            if (bdf2_energy_judges(ft))
                better = skm_or(better, skv_le(energy, skv_add(energy_accepted, skv_mul(skv_mul(armijo, alpha), slope))));
            const skm accept = skm_and(judging, better), refuse = skm_andnot(better, judging);
            alpha = skv_select(refuse, skv_mul(alpha, half), alpha);
            if (skm_any(refuse))
                bdf2_back_off(cfg, scratch, bscratch, refuse, alpha);
            /* sk_bdf2_rate_converged's operations */
            const skv s = skv_add(move, tol);
            const skm rate = skm_and(skm_and(accept, skv_eq(alpha, one)),
                                     skv_le(skv_mul(skv_mul(merit, s), s), skv_mul(skv_mul(accepted, tol), tol)));
            done = skm_or(done, rate);
            solving = skm_and(skm_andnot(rate, accept), skv_lt(solves, budget));
            judging = refuse;
        }
    }
    /* every lane ended on a judged trial, whose lengths the state takes (undamped, no moving pin) */
    *lengths_at_state = !skm_any(ended_on_solve) && ft.unit_damp && cfg->anchor != SK_ANCHOR_PIN;
    skv_store(lane + SK_B_SOLVES * SK_W, solves);
    skv_store(lane + SK_B_UNCONVERGED * SK_W,
              skv_add(skv_load(lane + SK_B_UNCONVERGED * SK_W), skv_select(done, skv_zero(), one)));

    if (last_judged && ft.unit_damp)
        return;
    for (int i = 0; i < rows; i++) {
        if (cfg->pinned[i])
            continue;
        sk_real *row = state + (size_t)i * stride;
        const sk_real *srow = scratch + (size_t)i * sstride, *brow = bscratch + (size_t)i * bstride;
        skv3 v = v3_add(v3_load(brow + (IB_BASE + 3) * SK_W), v3_load(srow + IM_DV * SK_W));
        if (!ft.unit_damp)
            v = v3_scale(v, k->damp);
        v3_store(row, v3_add(v3_load(brow + IB_BASE * SK_W), v3_scale(v, ks.dt)));
        v3_store(row + 3 * SK_W, v);
    }
}

SK_INLINE void implicit_advance(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps,
                                uint64_t *lane_steps, sk_real *scratch, int iterations, k_features ft)
{
    const bool deploys = ft.deploys;
    const int link = ft.link;
    const sk_real *prof = ft.profiles ? sk_pack_profile_rows(param, SK_W) : NULL;
    const kparams k = kp_load(param);
    sk_real *bend = ft.bending ? scratch + (size_t)cfg->capacity * IM_ROW * SK_W : NULL;
    sk_real *bscratch =
        ft.bdf2 ? scratch + (size_t)cfg->capacity * (IM_ROW + (ft.bending ? K_BEND_ROW : 0)) * SK_W : NULL;
    bool lengths_at_state = false; /* BDF2: the scratch's link lengths are the state's (bdf2_step) */
    for (long s = 0; s < steps; s++) {
        skv3 x = ft.anchor != SK_ANCHOR_NONE || deploys ? k_anchor_point(cfg, &k, ft.driven, step0 + s) : v3_zero();
        if (deploys)
            k_deploy(cfg, &k, param, state, x, step0 + s);
        if (lane_steps)
            for (int l = 0; l < SK_W; l++)
                lane_steps[l] += deploys ? (uint64_t)param[(size_t)SK_P_N * SK_W + l] : (uint64_t)cfg->capacity;
        k_pin_hold(cfg, &k, state, step0 + s);
        const sk_real t = (sk_real)(step0 + s) * cfg->dt; /* the step's start, as the reference's rope time */
        if (ft.bdf2) {
            /* BDF2's forces are the step's end's: a pin anchor, the anchor's point and the water's time at
             * t + dt (reference/rope.c; with a pin anchor no lengths are kept from the last step) */
            const long end = step0 + s + 1;
            k_pin_hold(cfg, &k, state, end);
            const skv3 x_end = ft.anchor != SK_ANCHOR_NONE ? k_anchor_point(cfg, &k, ft.driven, end) : v3_zero();
            bdf2_step(cfg, &k, param, state, scratch, bscratch, x_end, (sk_real)end * cfg->dt, ft, bend, prof,
                      &lengths_at_state); /* which leaves pinned rows as they are */
            continue;
        }
        for (int it = 0; it < iterations; it++) {
            const bool final = it + 1 == iterations;
            if (link != SK_LINK_NONE)
                link_lengths(cfg, &k, param, state, scratch, deploys, it > 0);
            if (ft.bending)
                bend_points(cfg, &k, param, state, scratch, NULL, bend, deploys, it > 0, prof);
            if (it == 0)
                forward(cfg, &k, param, state, scratch, NULL, x, t, ft, false, bend, prof, NULL, NULL, true);
            else
                forward(cfg, &k, param, state, scratch, NULL, x, t, ft, true, bend, prof, NULL, NULL, true);
            if (final)
                backward(cfg, &k, param, state, scratch, deploys, link, true, ft.unit_damp);
            else
                backward(cfg, &k, param, state, scratch, deploys, link, false, ft.unit_damp);
        }
        k_pin_hold(cfg, &k, state, step0 + s + 1);
    }
}

/* The variants (feature_mask.h): the hot case (a stiff tether: springs, a static anchored spring or none, no
 * per-particle forces, not deploying) with and without damping, fully constant; then profiles (each row with
 * its particle's and its link's own constants, and with bending each hinge's own k_b), bending (the hinges'
 * pass at each linearisation point), and the rest, their other features read at run time. BDF2 has the hot
 * case's two undamped variants, one with profiles and one of its own for the rest. Damped links (axial
 * damping, their blocks T) come before profiles, so the others take them as absent. */
#define IMPLICIT_SPRINGS(X, name, anchor, damp) \
    K_EXACT(X, name, (damp) | K_INTEGRATOR(SK_INTEGRATOR_IMPLICIT) | K_LINK(SK_LINK_SPRING) | K_ANCHOR(anchor))
/* The lines' features are constant off after the lines' own variants (their ropes run none of that code). */
#define IMPLICIT_DRY (K_WATER | K_SEABED)
#define IMPLICIT_OPEN (K_BENDING | K_PROFILES | K_LEAN | K_UNIT_DAMP | K_BDF2 | K_LINK_DAMP | IMPLICIT_DRY)
#define IMPLICIT_VARIANTS(X)                                                                       \
    IMPLICIT_SPRINGS(X, springs_undamped, SK_ANCHOR_NONE, K_UNIT_DAMP)                            \
    IMPLICIT_SPRINGS(X, springs_damped, SK_ANCHOR_NONE, 0u)                                       \
    IMPLICIT_SPRINGS(X, springs_anchor_undamped, SK_ANCHOR_SPRING, K_UNIT_DAMP)                   \
    IMPLICIT_SPRINGS(X, springs_anchor_damped, SK_ANCHOR_SPRING, 0u)                              \
    IMPLICIT_SPRINGS(X, bdf2_springs_undamped, SK_ANCHOR_NONE, K_UNIT_DAMP | K_BDF2)              \
    IMPLICIT_SPRINGS(X, bdf2_springs_anchor_undamped, SK_ANCHOR_SPRING, K_UNIT_DAMP | K_BDF2)     \
    X(line_water, K_WATER, K_WATER, K_WATER | K_LEAN)                                               \
    X(line_seabed, K_SEABED, K_SEABED, IMPLICIT_DRY | K_LEAN)                                       \
    X(link_damped, K_LINK_DAMP, K_LINK_DAMP, K_LINK_DAMP | K_LEAN | IMPLICIT_DRY)                 \
    X(bdf2_profiled, K_PROFILES | K_BDF2, K_PROFILES | K_BDF2,                                     \
      K_PROFILES | K_LEAN | K_UNIT_DAMP | K_BDF2 | K_LINK_DAMP | IMPLICIT_DRY)                        \
    X(profiled, K_PROFILES, K_PROFILES, K_PROFILES | K_LEAN | K_UNIT_DAMP | K_BDF2 | K_LINK_DAMP | IMPLICIT_DRY) \
    X(bdf2_general, K_PROFILES | K_BDF2, K_BDF2, K_PROFILES | K_LEAN | K_UNIT_DAMP | K_BDF2 | K_LINK_DAMP | IMPLICIT_DRY) \
    X(bending, K_BENDING | K_PROFILES | K_BDF2, K_BENDING, IMPLICIT_OPEN)                         \
    X(general, K_BENDING | K_PROFILES | K_BDF2, 0u, IMPLICIT_OPEN)

#define K_VARIANT_PARAMS                                                                                    \
    const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0, long steps, uint64_t *lane_steps, \
        sk_real *scratch
#define K_VARIANT_ARGS cfg, param, state, step0, steps, lane_steps, scratch
#define K_VARIANT_RUN(features) \
    implicit_advance(cfg, param, state, step0, steps, lane_steps, scratch, cfg->implicit_iterations, features)
K_VARIANT_FUNCTIONS(IMPLICIT_VARIANTS)

void SK_KNAME(sk_kernel_implicit_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                          long steps, uint64_t *lane_steps, sk_real *scratch)
{
    K_VARIANTS(k_pack_mask(cfg, param), IMPLICIT_VARIANTS);
}
