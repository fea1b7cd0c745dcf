/* The largest link tension and strain of each lane, and the largest support force at each held end, folded in
 * after a step (sk_engine_track_extremes). Each
 * link's tension is the diagnostics kernel's (kernels/diagnostics.c: k (|d| - l) for springs, 0 for a slack
 * bungee, a rod's or cable's last impulse over dt) and its strain (|d| - l) / l with the link's own rest
 * length, computed with the reference's operations (core/reference/rope_extremes.c) so both keep the same bits. A
 * value replaces the maximum only when greater, so a NaN never enters it.
 *
 * A rope whose links share k and l (no profiles) takes the largest stretch (and impulse) over its links first
 * and multiplies and divides once: rounding is monotone, so k times the largest stretch, rounded, is the
 * largest of the rounded k (|d| - l), to the bit, and likewise for / l and / dt; a bungee's largest tension is
 * 0 when no link is stretched (|d| > l exactly when |d| - l > 0).
 *
 * The support forces are the diagnostics' (kernels/support.h) at the state's step, their magnitudes the
 * reference's |S|: only a group with a held end evaluates them, two rows of a force sum. */
#include "forces.h"
#include "step.h"
#include "support.h"

/* Properties along the rope: each link with its own k and l, the reference's operations link by link. */
static void per_link(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, sk_real *extremes)
{
    const kparams k_rope = kp_load(param);
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    const skv n = kp_get(param, SK_P_N);
    const int rows = kp_max_count(param);
    const bool bungee = cfg->link == SK_LINK_BUNGEE;
    const bool contact_links = cfg->link == SK_LINK_ROD || cfg->link == SK_LINK_CABLE;
    const sk_real *impulse = cfg->contacts ? state + (size_t)cfg->capacity * stride : NULL;
    const sk_real *prof = sk_pack_profile_rows(param, SK_W);
    skv max_tension = skv_load(extremes), max_strain = skv_load(extremes + SK_W);
    skv3 p = v3_load(state);
    for (int i = 0; i + 1 < rows; i++) {
        kparams k = k_rope;
        kp_profile_row(&k, prof, i);
        const skv3 next = v3_load(state + (size_t)(i + 1) * stride);
        const skm exists = skv_lt(skv_set1((sk_real)(i + 1)), n);
        const skv l = v3_length(v3_sub(p, next));
        const skv stretch = skv_sub(l, k.link_l);
        skv t;
        if (contact_links)
            t = impulse ? skv_div(skv_load(impulse + (size_t)i * SK_W), k.dt) : skv_zero();
        else if (bungee)
            t = skv_select(skv_gt(l, k.link_l), skv_mul(k.link_stiffness, stretch), skv_zero());
        else
            t = skv_mul(k.link_stiffness, stretch);
        const skv strain = skv_div(stretch, k.link_l);
        max_tension = skv_select(skm_and(exists, skv_gt(t, max_tension)), t, max_tension);
        max_strain = skv_select(skm_and(exists, skv_gt(strain, max_strain)), strain, max_strain);
        p = next;
    }
    skv_store(extremes, max_tension);
    skv_store(extremes + SK_W, max_strain);
}

static void track_links(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, sk_real *extremes)
{
    if (cfg->profiles) {
        per_link(cfg, param, state, extremes);
        return;
    }
    const kparams k = kp_load(param);
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    const skv n = kp_get(param, SK_P_N);
    const int rows = kp_max_count(param);
    const bool contact_links = cfg->link == SK_LINK_ROD || cfg->link == SK_LINK_CABLE;
    const sk_real *impulse = contact_links && cfg->contacts ? state + (size_t)cfg->capacity * stride : NULL;
    /* -inf in a lane without a link now: it replaces nothing */
    const skv none = skv_set1(-(sk_real)__builtin_inf());
    skv stretch_max = none, impulse_max = none;
    skv3 p = v3_load(state);
    for (int i = 0; i + 1 < rows; i++) {
        const skv3 next = v3_load(state + (size_t)(i + 1) * stride);
        const skm exists = skv_lt(skv_set1((sk_real)(i + 1)), n);
        const skv stretch = skv_sub(v3_length(v3_sub(p, next)), k.link_l);
        stretch_max = skv_select(skm_and(exists, skv_gt(stretch, stretch_max)), stretch, stretch_max);
        if (impulse) {
            const skv j = skv_load(impulse + (size_t)i * SK_W);
            impulse_max = skv_select(skm_and(exists, skv_gt(j, impulse_max)), j, impulse_max);
        }
        p = next;
    }
    const skm any = skv_gt(stretch_max, none);
    skv t;
    if (contact_links)
        t = impulse ? skv_div(impulse_max, k.dt) : skv_select(any, skv_zero(), none);
    else if (cfg->link == SK_LINK_BUNGEE)
        t = skv_select(skv_gt(stretch_max, skv_zero()), skv_mul(k.link_stiffness, stretch_max),
                       skv_select(any, skv_zero(), none));
    else
        t = skv_mul(k.link_stiffness, stretch_max);
    const skv strain = skv_div(stretch_max, k.link_l);
    const skv max_tension = skv_load(extremes), max_strain = skv_load(extremes + SK_W);
    skv_store(extremes, skv_select(skv_gt(t, max_tension), t, max_tension));
    skv_store(extremes + SK_W, skv_select(skv_gt(strain, max_strain), strain, max_strain));
}

/* Each held end's |S| into extremes [SK_X_SUPPORT_FIRST] and [SK_X_SUPPORT_LAST]; false when the hinges' scratch
 * cannot be had. */
static bool track_support(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, long step,
                          sk_real *extremes)
{
    const int n = cfg->capacity;
    if (cfg->deploys || !(cfg->pinned[0] || (n > 1 && cfg->pinned[n - 1])))
        return true;
    _Alignas(64) sk_real support[6 * SK_W];
    if (!k_support(cfg, param, state, step, support))
        return false;
    for (int e = 0; e < 2; e++) {
        const skv m = v3_length(v3_load(support + (size_t)e * 3 * SK_W));
        sk_real *x = extremes + (size_t)(SK_X_SUPPORT_FIRST + e) * SK_W;
        const skv max = skv_load(x);
        skv_store(x, skv_select(skv_gt(m, max), m, max));
    }
    return true;
}

bool SK_KNAME(sk_kernel_track_extremes)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state,
                                        long step, sk_real *extremes)
{
    if (cfg->link != SK_LINK_NONE)
        track_links(cfg, param, state, extremes);
    return track_support(cfg, param, state, step, extremes);
}
