/* Diagnostics of a pack (docs/model.md section 10), lane by lane in the order core/reference/diagnostics.c sums them so
 * both give the same bits: kinetic and gravity energy over unpinned particles, elastic energy of the
 * links then the anchor, each link's tension (a rod's or cable's: its last step's impulse over dt), the anchor's force on the held particle, the deployed
 * length; and which lanes hold only finite numbers (p, v or q, and verlet's reported velocity). */
#include "anchor.h"
#include "bending.h"
#include "forces.h"
#include "integrate.h"
#include "step.h"
#include "support.h"

void SK_KNAME(sk_kernel_diagnose)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state,
                                  long step, sk_real *diag, sk_real *tension)
{
    const kparams k_rope = kp_load(param);
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    const k_rows at = k_rows_at(cfg, &k_rope, param, step);
    const skv half = skv_set1((sk_real)0.5);
    const bool springs = cfg->link == SK_LINK_SPRING || cfg->link == SK_LINK_BUNGEE;
    /* Rods and cables: the impulse their contact delivered in the last step, over dt. */
    const bool contact_links = cfg->link == SK_LINK_ROD || cfg->link == SK_LINK_CABLE;
    const sk_real *impulse = cfg->contacts ? state + (size_t)cfg->capacity * stride : NULL;

    const sk_real *prof = cfg->profiles ? sk_pack_profile_rows(param, SK_W) : NULL;

    skv kinetic = skv_zero(), gravity = skv_zero(), elastic = skv_zero(), links = skv_zero();
    skv3 anchor_force = v3_zero();
    for (int i = 0; i < at.count; i++) {
        const sk_real *row = state + (size_t)i * stride;
        kparams k = k_rope; /* with profiles: particle i's and link i's constants */
        if (prof) {
            kp_profile_row(&k, prof, i);
            if (i + 1 < at.count) /* the rest lengths summed in link order, as the reference sums them */
                links = skv_add(links, skv_select(skv_lt(skv_set1((sk_real)(i + 1)), at.n), k.link_l, skv_zero()));
        }
        skv3 p = v3_load(row), w = v3_load(row + 3 * SK_W);
        skv3 vel = k_velocity(&k, cfg->integrator, p, w);
        skm present = skv_lt(skv_set1((sk_real)i), at.n);
        if (!cfg->pinned[i]) {
            skv e = skv_mul(skv_mul(k.mass, v3_dot(vel, vel)), half);
            kinetic = skv_add(kinetic, skv_select(present, e, skv_zero()));
            skv g = skv_mul(k.mass, v3_dot(k.gravity, p));
            gravity = skv_select(present, skv_sub(gravity, g), gravity);
        }
        if (i + 1 < cfg->capacity) {
            skv t = skv_zero();
            if (springs && i + 1 < at.count) {
                skm exists = skv_lt(skv_set1((sk_real)(i + 1)), at.n);
                skv l = v3_length(v3_sub(p, v3_load(row + stride)));
                skv stretch = skv_sub(l, k.link_l);
                if (cfg->link == SK_LINK_BUNGEE)
                    exists = skm_and(exists, skv_gt(l, k.link_l));
                t = skv_select(exists, skv_mul(k.link_stiffness, stretch), skv_zero());
                elastic = skv_add(elastic, skv_select(exists, skv_mul(skv_mul(t, stretch), half), skv_zero()));
            }
            if (contact_links && impulse)
                t = skv_div(skv_load(impulse + (size_t)i * SK_W), k.dt);
            if (tension)
                skv_store(tension + (size_t)i * SK_W, t);
        }
        skm held = skv_eq(skv_set1((sk_real)i), at.held);
        if (cfg->anchor != SK_ANCHOR_NONE && skm_any(held)) {
            skv3 af = k_anchor_force(&k, cfg->anchor, p, vel, at.x, at.rest);
            if (cfg->pinned[i])
                af = v3_zero();
            anchor_force = v3_select(held, af, anchor_force);
        }
    }

    const kparams k = k_rope;
    /* The hinges' energy after the links', hinge j where particle j + 1 is present. */
    if (cfg->bending && at.count > 2) {
        skv3 a = v3_load(state), b = v3_load(state + stride);
        for (int j = 1; j + 1 < at.count; j++) {
            skv3 c = v3_load(state + (size_t)(j + 1) * stride);
            skv e = k_hinge_energy(k_hinge_kb(&k, prof, j), a, b, c);
            elastic = skv_add(elastic, skv_select(skv_lt(skv_set1((sk_real)(j + 1)), at.n), e, skv_zero()));
            a = b;
            b = c;
        }
    }

    /* The anchor's spring energy comes after the links'. */
    if (cfg->anchor != SK_ANCHOR_NONE) {
        _Alignas(64) sk_real buf[3 * SK_W];
        int count[SK_W];
        for (int l = 0; l < SK_W; l++) {
            count[l] = (int)param[(size_t)SK_P_N * SK_W + l];
            int h = cfg->deploys ? count[l] - 1 : 0;
            for (int c = 0; c < 3; c++)
                buf[c * SK_W + l] = state[(size_t)h * stride + (size_t)c * SK_W + l];
        }
        skv l = v3_length(v3_sub(v3_load(buf), at.x));
        skv e = skv_zero();
        if (cfg->anchor == SK_ANCHOR_SPRING || cfg->anchor == SK_ANCHOR_BUNGEE) {
            skv stretch = skv_sub(l, at.rest);
            e = skv_mul(skv_mul(skv_mul(k_anchor_stiffness(&k, at.rest), stretch), stretch), half);
            if (cfg->anchor == SK_ANCHOR_BUNGEE)
                e = skv_select(skv_gt(l, at.rest), e, skv_zero());
        } else if (cfg->anchor == SK_ANCHOR_FAKE_SPRING) {
            e = skv_select(k.fake_active, skv_mul(skv_mul(skv_mul(k.anchor_stiffness, l), l), half), skv_zero());
        }
        elastic = skv_add(elastic, e);
    }

    if (!prof)
        links = skv_mul(skv_sub(at.n, skv_set1(1)), k.link_l);
    skv_store(diag + (size_t)SK_D_KINETIC * SK_W, kinetic);
    skv_store(diag + (size_t)SK_D_GRAVITY * SK_W, gravity);
    skv_store(diag + (size_t)SK_D_ELASTIC * SK_W, elastic);
    v3_store(diag + (size_t)SK_D_ANCHOR_FX * SK_W, anchor_force);
    skv_store(diag + (size_t)SK_D_LENGTH * SK_W, cfg->deploys ? skv_add(links, at.rest) : links);
    sk_real *support = diag + (size_t)SK_D_SUPPORT * SK_W;
    if (!k_support(cfg, param, state, step, support)) /* out of memory: no number stands for it */
        for (int c = 0; c < 6; c++)
            skv_store(support + (size_t)c * SK_W, skv_set1((sk_real)__builtin_nan("")));
}

unsigned SK_KNAME(sk_kernel_bounded_lanes)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state)
{
    const kparams k = kp_load(param);
    const skv n = kp_get(param, SK_P_N);
    const int rows = kp_max_count(param);
    const size_t stride = (size_t)SK_F_COUNT * SK_W;
    const sk_real *prof = cfg->profiles ? sk_pack_profile_rows(param, SK_W) : NULL;
    skm out = skm_from_bits(0);
    for (int i = 0; i < rows; i++) {
        const sk_real *row = state + (size_t)i * stride;
        const skv3 p = v3_load(row);
        const skv3 vel = k_velocity(&k, cfg->integrator, p, v3_load(row + 3 * SK_W));
        const skm present = skv_lt(skv_set1((sk_real)i), n);
        out = skm_or(out, skm_and(present, skv_gt(v3_dot(vel, vel), k.max_speed2)));
        if (cfg->link != SK_LINK_NONE && i + 1 < rows) { /* the link to the next particle, when it is present */
            const skv3 d = v3_sub(v3_load(row + stride), p);
            const skm next = skv_lt(skv_set1((sk_real)(i + 1)), n);
            const skv max2 = prof ? skv_load(prof + ((size_t)i * SK_Q_COUNT + SK_Q_MAX_LINK2) * SK_W) : k.max_link2;
            out = skm_or(out, skm_and(next, skv_gt(v3_dot(d, d), max2)));
        }
    }
    unsigned bad = 0;
    for (int l = 0; l < SK_W; l++)
        if (skm_lane(out, l))
            bad |= 1u << l;
    unsigned all = SK_W >= 32 ? ~0u : (1u << SK_W) - 1u;
    return all & ~bad;
}

unsigned SK_KNAME(sk_kernel_finite_lanes)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state)
{
    const kparams k = kp_load(param);
    const skv n = kp_get(param, SK_P_N);
    const int rows = kp_max_count(param);
    unsigned bad = 0;
    for (int i = 0; i < rows; i++) {
        const sk_real *row = state + (size_t)i * SK_F_COUNT * SK_W;
        skm present = skv_lt(skv_set1((sk_real)i), n);
        skm ok = present;
        for (int f = 0; f < SK_F_COUNT; f++)
            ok = skm_and(ok, skv_finite(skv_load(row + (size_t)f * SK_W)));
        if (cfg->integrator == SK_INTEGRATOR_VERLET) {
            /* the reported velocity (p - q) / dt can overflow where p and q do not */
            skv3 vel = k_velocity(&k, cfg->integrator, v3_load(row), v3_load(row + 3 * SK_W));
            ok = skm_and(ok, skm_and(skv_finite(vel.x), skm_and(skv_finite(vel.y), skv_finite(vel.z))));
        }
        /* present and not finite */
        skm broken = skm_andnot(ok, present);
        for (int l = 0; l < SK_W; l++)
            if (skm_lane(broken, l))
                bad |= 1u << l;
    }
    unsigned all = SK_W >= 32 ? ~0u : (1u << SK_W) - 1u;
    return all & ~bad;
}
