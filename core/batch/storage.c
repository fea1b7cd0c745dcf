/* The batch engine's storage: each group of the scenario as packs of W ropes (per-rope parameters
 * [W], particles [capacity][6][W] and a contact group's contact rows, 64-byte aligned, padding lanes
 * copying the group's last rope); creation, lookup and the lanes' initial state. */
#include <stdlib.h>
#include <string.h>

#include "model/ground.h"
#include "base/assert.h"
#include "base/fingerprint.h"
#include "base/parallel.h"
#include "model/anchor_motion.h"
#include "model/pack_size.h"
#include "model/params.h"
#include "batch/batch_impl.h"
#include "model/profile.h"
#include "model/rope_constants.h"
#include "model/vec3.h"
#include "scenario/scenario.h"

static void *aligned_zeroed(size_t reals)
{
    size_t bytes = (reals * sizeof(sk_real) + 63) / 64 * 64;
    void *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p)
        memset(p, 0, bytes ? bytes : 64);
    return p;
}

void sk_batch_lay_rope_into(const sk_batch *b, const batch_group *bg, size_t r, sk_real *param, sk_real *state,
                            int lane)
{
    SK_ASSERT(r < bg->group->count && lane >= 0 && lane < b->width);
    const sk_scenario *s = b->scenario;
    const sk_group *g = bg->group;
    const int W = b->width;
    sk_rope_params params;
    sk_rope_constants constants;
    sk_group_rope_params(g, r, &params);
    sk_rope_constants_compute(s, g, &params, &constants);
    const sk_rope_params *rp = &params;
    const sk_rope_constants *c = &constants;

    /* every slot of the parameter block, from its line of SK_PACK_PARAMS (model/params.h) */
#define SLOT(which) param[(size_t)(which) * (size_t)W + (size_t)lane]
#define FILL_REAL(SLOT_NAME, value) SLOT(SK_P_##SLOT_NAME) = (value);
#define FILL_VEC3(SLOT_NAME, value)                                                                           \
    do {                                                                                                      \
        const sk_vec3 v_ = (value);                                                                           \
        SLOT(SK_P_##SLOT_NAME) = v_.x;                                                                        \
        SLOT(SK_P_##SLOT_NAME##_Y) = v_.y;                                                                    \
        SLOT(SK_P_##SLOT_NAME##_Z) = v_.z;                                                                    \
    } while (0);
#define FILL(kind, SLOT_NAME, member, value) FILL_##kind(SLOT_NAME, value)
    SK_PACK_PARAMS(FILL)
#undef FILL
#undef FILL_VEC3
#undef FILL_REAL
#undef SLOT

    /* Profiles: a row per particle of its own constants and its link's, from the same numbers as the reference */
    if (bg->cfg.profiles) {
        sk_real *rows = param + (size_t)SK_P_COUNT * (size_t)W;
        for (int i = 0; i < g->particles; i++) {
            const sk_particle_constants pc = sk_rope_particle_constants(s, g, rp, i);
            const int link = i + 1 < g->particles ? i : -1;
            const sk_real length = link >= 0 ? sk_rope_link_length(g, rp, c, link) : c->link_length;
            const sk_real stiffness = link >= 0 ? sk_rope_link_stiffness(g, rp, link) : rp->link_stiffness;
            sk_real diag, jx, jv;
            sk_rope_particle_implicit(c, pc.mass_back, &diag, &jx, &jv);
            const sk_real values[SK_Q_COUNT] = {
                [SK_Q_W] = pc.w,
                [SK_Q_MASS] = pc.mass_back,
                [SK_Q_GF] = pc.gravity_force.x,
                [SK_Q_GF_Y] = pc.gravity_force.y,
                [SK_Q_GF_Z] = pc.gravity_force.z,
                [SK_Q_LINK_K] = stiffness,
                [SK_Q_LINK_L] = length,
                [SK_Q_MAX_LINK2] = link >= 0 ? sk_rope_link_max2(s, length) : c->max_link2,
                [SK_Q_IMP_DIAG] = diag,
                [SK_Q_LINK_KDT2] = sk_rope_link_kdt2(c, stiffness),
                [SK_Q_FAKE_JX] = jx,
                [SK_Q_FAKE_JV] = jv,
                [SK_Q_BEND_KB] = sk_rope_hinge_kb(g, rp, c, i),
                [SK_Q_SHARE] = sk_rope_line_share(g, rp, c, i),
                [SK_Q_LINK_C] = link >= 0 ? sk_rope_link_damping(g, rp, c, link) : c->link_c,
                [SK_Q_LINK_CDT] = link >= 0 ? sk_rope_link_damping(g, rp, c, link) * c->dt : c->link_cdt,
            };
            for (int q = 0; q < SK_Q_COUNT; q++)
                rows[((size_t)i * SK_Q_COUNT + (size_t)q) * (size_t)W + (size_t)lane] = values[q];
        }
    }

    const int n0 = sk_group_initial_particles(g);
    /* Particles as the reference places them: v = 0 when pinned, verlet's q = p - v dt. */
    const bool verlet = s->integrator == SK_INTEGRATOR_VERLET;
    for (int i = 0; i < g->particles; i++) {
        sk_vec3 p = {0, 0, 0}, w = {0, 0, 0};
        if (i < n0) {
            p = sk_rope_layout_position(rp, i, n0);
            sk_vec3 v = bg->pinned[i] ? sk_vec3_zero() : rp->velocity;
            if (i == 0 && g->anchor == SK_ANCHOR_PIN) { /* held at x(0) with its velocity (reference/rope.c) */
                p = sk_anchor_motion_point(g, rp, 0);
                v = sk_anchor_motion_velocity(g, rp, 0);
            }
            w = verlet ? sk_vec3_sub(p, sk_vec3_scale(v, c->dt)) : v;
        }
        sk_real *row = state + (size_t)i * SK_F_COUNT * (size_t)W;
        const sk_real values[SK_F_COUNT] = {p.x, p.y, p.z, w.x, w.y, w.z};
        for (int f = 0; f < SK_F_COUNT; f++)
            row[(size_t)f * (size_t)W + (size_t)lane] = values[f];
    }
    /* A contact group's contact rows (impulses, counts): nothing happened before the first step. */
    if (bg->cfg.contacts) {
        sk_real *rows = sk_pack_contact_rows(&bg->cfg, state, W);
        for (int i = 0; i < g->particles + 2; i++)
            rows[(size_t)i * (size_t)W + (size_t)lane] = 0;
    }
    /* BDF2's rows: no step before the first */
    if (bg->cfg.bdf2) {
        sk_real *rows = sk_pack_previous_rows(&bg->cfg, state, W);
        for (int i = 0; i < g->particles * SK_H_COUNT + SK_PACK_BDF2_LANE_REALS; i++)
            rows[(size_t)i * (size_t)W + (size_t)lane] = 0;
    }
    /* a start it was given (a warm start) over the shape: its particles, count and anchored segment */
    if (bg->start)
        sk_batch_lane_put(bg, W, param, state, lane, bg->start + r * (bg->lane_len + 2));
}

void sk_batch_lay_rope(const sk_batch *b, batch_group *g, size_t r, size_t pack, int lane)
{
    SK_ASSERT(pack < g->n_packs);
    sk_batch_lay_rope_into(b, g, r, batch_pack_param(g, pack), batch_pack_state(g, pack), lane);
}

static int build_kernel_group(sk_batch *b, batch_group *g)
{
    const sk_group *grp = g->group;
    const int W = b->width;
    g->cfg = (sk_kernel_cfg){
        .capacity = grp->particles,
        .integrator = (int)b->scenario->integrator,
        .implicit_iterations = b->scenario->implicit_iterations,
        .bdf2 = sk_scenario_keeps_previous_step(b->scenario),
        .implicit_tolerance = b->scenario->implicit_tolerance,
        .link = (int)grp->link,
        .anchor = (int)grp->anchor,
        .driven = grp->anchor_driven && grp->anchor != SK_ANCHOR_NONE,
        .motion_sine = grp->motion_sine,
        .motion_tow = grp->motion_tow,
        .path_count = grp->path_count,
        .path_times = grp->path_times,
        .path_points = grp->path_points,
        .dt = b->scenario->dt,
        .gravity_force = b->scenario->gravity_as == SK_GRAVITY_FORCE,
        .drag = grp->has_drag,
        .flow = grp->has_flow,
        .buoyancy = grp->has_buoyancy,
        .force_objects = grp->force_objects,
        .bending = grp->has_bending,
        .line_water = grp->has_line && b->scenario->water.present,
        .line_seabed = grp->has_line && sk_scenario_compliant_ground(b->scenario),
        .seabed_friction = sk_scenario_compliant_ground(b->scenario) && b->scenario->has_friction,
        .seabed_height = b->scenario->ground_height,
        .link_damping = grp->has_link_damping,
        .profiles = grp->has_profiles,
        .deploys = grp->deploys,
        .insert_along = grp->insert_velocity == SK_INSERT_ALONG,
        .has_max_length = grp->deploy_has_max_length,
        .least_count = grp->deploy_initial,
        .speed_count = grp->speed_count,
        .speed_times = grp->speed_times,
        .speed_values = grp->speed_values,
        .pinned = g->pinned,
        .contacts = sk_group_has_contacts(b->scenario, grp),
        .ground = sk_scenario_rigid_ground(b->scenario),
        .ground_height = b->scenario->ground_height,
        .ground_restitution = b->scenario->ground_restitution,
        .friction = sk_scenario_rigid_ground(b->scenario) && b->scenario->has_friction,
        .iterations = b->scenario->iterations,
        .resolver = (int)b->scenario->resolver,
        .direct_iterations = b->scenario->direct_iterations,
        .direct_tolerance = b->scenario->direct_tolerance,
        .water = b->scenario->water.present ? &b->scenario->water : NULL,
    };
    g->n_packs = (grp->count + (size_t)W - 1) / (size_t)W;
    g->param_len = (size_t)sk_pack_lane_param_reals((uint64_t)grp->particles, grp->has_profiles) * (size_t)W;
    g->state_len = sk_pack_state_len(&g->cfg, W);
    g->lane_len = g->state_len / (size_t)W;
    g->param = aligned_zeroed(g->n_packs * g->param_len);
    g->state = aligned_zeroed(g->n_packs * g->state_len);
    if (!g->param || !g->state)
        return -1;
    for (size_t pack = 0; pack < g->n_packs; pack++)
        for (int lane = 0; lane < W; lane++) {
            size_t r = pack * (size_t)W + (size_t)lane;
            sk_batch_lay_rope(b, g, r < grp->count ? r : grp->count - 1, pack, lane);
        }
    return 0;
}

sk_batch *sk_batch_create(const sk_scenario *s, const sk_batch_options *opt, sk_error *err)
{
    const sk_kernels *k = sk_batch_pick_kernels(opt ? opt->isa : NULL, err);
    if (!k)
        return NULL;
    sk_batch *b = calloc(1, sizeof *b);
    if (!b || !(b->diag_cache = calloc(1, sizeof *b->diag_cache)))
        goto oom;
    b->scenario = s;
    b->kernels = k;
    b->width = k->width;
    b->threads = sk_threads_resolve(opt ? opt->threads : 0);
    b->last_check = -1;
    b->resumed = -1;
    b->diag_cache->group = -1;
    b->n_groups = s->n_groups;
    b->groups = calloc((size_t)(s->n_groups > 0 ? s->n_groups : 1), sizeof *b->groups);
    if (!b->groups)
        goto oom;

    int max_capacity = 1;
    for (int i = 0; i < s->n_groups; i++) {
        batch_group *g = &b->groups[i];
        g->group = &s->groups[i];
        g->index = i;
        g->diverged = malloc(g->group->count * sizeof *g->diverged);
        g->frozen = calloc(g->group->count, sizeof *g->frozen);
        g->held = calloc(g->group->count, sizeof *g->held);
        g->pinned = calloc((size_t)g->group->particles, 1);
        if (!g->diverged || !g->frozen || !g->held || !g->pinned)
            goto oom;
        for (size_t r = 0; r < g->group->count; r++)
            g->diverged[r] = -1;
        for (int p = 0; p < g->group->n_pinned; p++)
            g->pinned[g->group->pinned[p]] = 1;
        if (build_kernel_group(b, g) != 0)
            goto oom;
        if (g->group->particles > max_capacity)
            max_capacity = g->group->particles;
    }
    b->work_first = malloc((size_t)(s->n_groups + 1) * sizeof *b->work_first);
    if (!b->work_first)
        goto oom;
    b->work_first[0] = 0;
    for (int i = 0; i < s->n_groups; i++)
        b->work_first[i + 1] = b->work_first[i] + b->groups[i].n_packs;
    /* a pack is the unit of work: more threads than packs would only wait (the summary says what ran) */
    if ((size_t)b->threads > b->work_first[s->n_groups])
        b->threads = b->work_first[s->n_groups] > 0 ? (int)b->work_first[s->n_groups] : 1;
    b->stage_force = aligned_zeroed((size_t)max_capacity * 3 * (size_t)b->width);
    size_t max_state = 1, max_param = 1;
    for (int i = 0; i < s->n_groups; i++) {
        max_state = b->groups[i].state_len > max_state ? b->groups[i].state_len : max_state;
        max_param = b->groups[i].param_len > max_param ? b->groups[i].param_len : max_param;
    }
    b->view_param = aligned_zeroed(max_param);
    b->view_state = aligned_zeroed(max_state);
    b->diag_cache->diag = aligned_zeroed((size_t)SK_D_COUNT * (size_t)b->width);
    b->diag_cache->tension = aligned_zeroed((size_t)max_capacity * (size_t)b->width);
    b->scratch_bytes = ((uint64_t)max_capacity * 4 + SK_D_COUNT) * (uint64_t)b->width * sizeof(sk_real) +
                       (max_state + max_param) * sizeof(sk_real);
    if (!b->stage_force || !b->view_param || !b->view_state || !b->diag_cache->diag || !b->diag_cache->tension)
        goto oom;

    return b;

oom:
    sk_batch_destroy(b);
    sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory for the batch engine", s->source);
    return NULL;
}

void sk_batch_destroy(sk_batch *b)
{
    if (!b)
        return;
    for (int i = 0; b->groups && i < b->n_groups; i++) {
        batch_group *g = &b->groups[i];
        free(g->param);
        free(g->state);
        for (size_t r = 0; g->held && r < g->group->count; r++)
            free(g->held[r]);
        free(g->held);
        free(g->resumed_print);
        free(g->start);
        free(g->pinned);
        free(g->diverged);
        free(g->frozen);
        free(g->extremes);
        free(g->checked_extremes);
    }
    free(b->groups);
    free(b->work_first);
    free(b->stage_force);
    free(b->view_param);
    free(b->view_state);
    if (b->diag_cache) {
        free(b->diag_cache->diag);
        free(b->diag_cache->tension);
        free(b->diag_cache);
    }
    free(b);
}

void sk_batch_lane_get(const batch_group *g, int width, const sk_real *param, const sk_real *state, int lane,
                       sk_real *out)
{
    const size_t W = (size_t)width, l = (size_t)lane;
    for (size_t i = 0; i < g->lane_len; i++)
        out[i] = state[i * W + l];
    out[g->lane_len] = param[SK_P_N * W + l];
    out[g->lane_len + 1] = param[SK_P_S * W + l];
}

void sk_batch_lane_put(const batch_group *g, int width, sk_real *param, sk_real *state, int lane,
                       const sk_real *in)
{
    const size_t W = (size_t)width, l = (size_t)lane;
    for (size_t i = 0; i < g->lane_len; i++)
        state[i * W + l] = in[i];
    param[SK_P_N * W + l] = in[g->lane_len];
    param[SK_P_S * W + l] = in[g->lane_len + 1];
}

uint64_t sk_batch_lane_print(const batch_group *g, int width, const sk_real *param, const sk_real *state, int lane)
{
    const size_t W = (size_t)width, l = (size_t)lane;
    uint64_t h = SK_FINGERPRINT_START; /* the reals in sk_batch_lane_get's order */
    for (size_t i = 0; i < g->lane_len; i++)
        h = sk_fingerprint(h, &state[i * W + l], sizeof(sk_real));
    h = sk_fingerprint(h, &param[SK_P_N * W + l], sizeof(sk_real));
    return sk_fingerprint(h, &param[SK_P_S * W + l], sizeof(sk_real));
}

bool sk_batch_hold(batch_group *g, size_t rope)
{
    SK_ASSERT(rope < g->group->count);
    if (!g->held[rope])
        g->held[rope] = malloc((g->lane_len + 2) * sizeof(sk_real));
    return g->held[rope] != NULL;
}

batch_where sk_batch_locate(const sk_batch *b, size_t rope)
{
    batch_where w = {0};
    size_t local = 0;
    int gi = sk_scenario_find_rope(b->scenario, rope, &local);
    SK_ASSERT(gi >= 0); /* a rope of the scenario */
    w.g = &b->groups[gi];
    w.local = local;
    w.pack = local / (size_t)b->width;
    w.lane = (int)(local % (size_t)b->width);
    return w;
}

long sk_batch_step(const sk_batch *b) { return b->step; }

const char *sk_batch_isa(const sk_batch *b) { return b->kernels->isa; }

const char *sk_batch_group_isa(const sk_batch *b, int group)
{
    (void)group; /* every group runs the kernels */
    return b->kernels->isa;
}

int sk_batch_width(const sk_batch *b) { return b->width; }

int sk_batch_threads(const sk_batch *b) { return b->threads; }

/* The memory check counts these whole (model/pack_size.h). */
_Static_assert(sizeof(sk_batch) <= SK_PACK_BATCH_BYTES, "the batch's own structure as the memory check counts it");
_Static_assert(sizeof(batch_group) <= SK_PACK_GROUP_BYTES, "a group's own structure as the memory check counts it");
_Static_assert(sizeof(long) + sizeof(long) + sizeof(sk_real *) + sizeof(uint64_t) == SK_PACK_ROPE_MARK_BYTES,
               "a rope's marks (diverged, frozen, held, resumed_print) as the memory check counts them");

uint64_t sk_batch_bytes(const sk_batch *b)
{
    uint64_t bytes = sizeof *b + (uint64_t)b->n_groups * sizeof *b->groups;
    for (int i = 0; i < b->n_groups; i++) {
        const batch_group *g = &b->groups[i];
        bytes += g->group->count * (sizeof *g->diverged + sizeof *g->frozen + sizeof *g->held) +
                 (uint64_t)g->group->particles;
        for (size_t r = 0; r < g->group->count; r++)
            bytes += g->held[r] ? (g->lane_len + 2) * sizeof(sk_real) : 0;
        bytes += g->resumed_print ? g->group->count * sizeof *g->resumed_print : 0;
        bytes += g->start ? g->group->count * (g->lane_len + 2) * sizeof(sk_real) : 0;
        bytes += (uint64_t)g->n_packs * (g->param_len + g->state_len) * sizeof(sk_real);
    }
    return bytes + b->scratch_bytes;
}
