/* Contact generation on lanes (docs/model.md section 4): every slot of every lane computed at once, row by
 * row, with the reference generators' conditions and operations, so a lane's active slots are the
 * reference's contact list for that rope, bit for bit. */
#include <math.h>

#include "anchor.h"
#include "contacts.h"
#include "feature_mask.h"
#include "integrate.h"

/* Bytes rounded up to whole 64-byte lines: every array starts on one. */
static size_t blocks(size_t bytes) { return (bytes + 63) / 64 * 64; }

/* The scratch's arrays laid out from `base` (NULL: only counted); returns the bytes they take. One
 * function for both, so the size and the layout cannot disagree. */
static size_t layout(contact_scratch *cs, const sk_kernel_cfg *cfg, unsigned char *base)
{
    const contact_slots c = contact_slots_of(cfg);
    const size_t S = (size_t)c.count, N = (size_t)contact_normal_slots(&c), C = (size_t)cfg->capacity, W = SK_W,
                 r = sizeof(sk_real), B = (S + CONTACT_BLOCK - 1) / CONTACT_BLOCK;
    const bool verlet = cfg->integrator == SK_INTEGRATOR_VERLET;
    size_t at = 0;
#define TAKE(field, type, bytes)                                     \
    do {                                                             \
        cs->field = base ? (type *)(void *)(base + at) : NULL;       \
        at += blocks(bytes);                                         \
    } while (0)
    TAKE(normal, sk_real, N * 3 * W * r);
    TAKE(pen, sk_real, S * W * r);
    TAKE(key, sk_real, B * CONTACT_BLOCK * W * r); /* +inf up to a whole block */
    TAKE(active, unsigned, S * sizeof(unsigned));
    TAKE(pushes, unsigned, N * sizeof(unsigned));
    cs->vel = cs->touched = NULL;
    if (verlet) {
        TAKE(vel, sk_real, C * 3 * W * r);
        TAKE(touched, sk_real, C * W * r);
    }
    TAKE(candidates, int, S * sizeof(int));
    TAKE(block_of_slot, int, S * sizeof(int));
    TAKE(block_slot, int, B * sizeof(int));
    TAKE(dirty, uint64_t, (B + 63) / 64 * sizeof(uint64_t));
    TAKE(block_min, sk_real, (B + CONTACT_BLOCK) * W * r); /* +inf up to a whole group of blocks */
    TAKE(block_pick, sk_real, (B + CONTACT_BLOCK) * W * r);
#undef TAKE
    cs->slots = c;
    cs->n_candidates = cs->n_blocks = 0;
    return at;
}

size_t SK_KNAME(sk_contact_scratch_bytes)(const sk_kernel_cfg *cfg)
{
    contact_scratch counted;
    if (!cfg->contacts)
        return 0;
    return cfg->resolver == SK_RESOLVER_DIRECT ? SK_KNAME(sk_direct_scratch_bytes)(cfg) : layout(&counted, cfg, NULL);
}

void SK_KNAME(sk_contact_scratch_init)(contact_scratch *cs, const sk_kernel_cfg *cfg, void *memory)
{
    if (cfg->resolver == SK_RESOLVER_DIRECT) {
        *cs = (contact_scratch){.slots = contact_slots_of(cfg)};
        SK_KNAME(sk_direct_scratch_init)(&cs->direct, cfg, memory);
    } else {
        layout(cs, cfg, memory);
    }
}

/* The key of a slot: vs where the resolver may pick it (generated, vs < 0 or pen > 0, and vs below the
 * reference's starting best, the largest finite real), +inf elsewhere, NaN included: keys are never
 * NaN, so minima and tournaments over them order them as the reference's strict < scan does. */
SK_INLINE skv contact_key(skm active, skv vs, skv pen)
{
    skm pickable = skm_and(active, skm_or(skv_lt(vs, skv_zero()), skv_gt(pen, skv_zero())));
    pickable = skm_and(pickable, skv_lt(vs, skv_set1(SK_REAL_MAX)));
    return skv_select(pickable, vs, skv_set1((sk_real)INFINITY));
}

/* Writes slot s; counts the generated contacts per lane; lists the slot as a candidate if any lane has
 * it. Inactive lanes get a zero normal and penetration (never read) and an unpickable key. */
SK_INLINE void put_slot(contact_scratch *cs, int s, skm active, skv3 n, skv pen, skv vs, skv *count)
{
    const size_t W = SK_W;
    if (s < contact_normal_slots(&cs->slots))
        v3_store(cs->normal + (size_t)s * 3 * W, v3_select(active, n, v3_zero()));
    skv_store(cs->pen + (size_t)s * W, skv_select(active, pen, skv_zero()));
    skv_store(cs->key + (size_t)s * W, contact_key(active, vs, pen));
    cs->active[s] = (unsigned)skm_bits(active);
    *count = skv_add(*count, skv_select(active, skv_set1(1), skv_zero()));
    if (skm_any(active)) {
        cs->candidates[cs->n_candidates++] = s;
    }
}

SK_INLINE void put_inactive(contact_scratch *cs, int s)
{
    skv none = skv_zero();
    put_slot(cs, s, skv_lt(skv_zero(), skv_zero()), v3_zero(), skv_zero(), skv_zero(), &none);
}

/* The velocity the contacts see: v, or verlet's (p - q) / dt from the scratch. */
SK_INLINE skv3 contact_velocity(const contact_scratch *cs, const sk_real *state, int i)
{
    const size_t W = SK_W;
    if (cs->vel)
        return v3_load(cs->vel + (size_t)i * 3 * W);
    return v3_load(state + (size_t)i * SK_F_COUNT * W + 3 * W);
}

/* A rod or cable between a and b, or to the world (b_world): l = |p_a - p_b| with p_b the anchor for
 * the world; n = (p_b - p_a)^ from that same length. A rod is generated when l != L (NaN included),
 * its normal negated and pen = L - l when it is not too long; a cable when !(l < L), pen = l - L. */
SK_INLINE void rod_or_cable(bool rod, skv3 pa, skv3 pb, skv L, skm *active, skv3 *n, skv *pen, skm *pushes)
{
    skv l = v3_length(v3_sub(pa, pb));
    *n = v3_unit_given(v3_sub(pb, pa), l);
    if (rod) {
        *active = skv_ne(l, L);
        skm stretched = skv_gt(l, L);
        *n = v3_select(stretched, *n, v3_scale(*n, skv_set1(-1)));
        *pen = skv_select(stretched, skv_sub(l, L), skv_sub(L, l));
        *pushes = skm_and(*active, skm_not(stretched));
    } else {
        *active = skm_not(skv_lt(l, L));
        *pen = skv_sub(l, L);
        *pushes = skv_lt(skv_zero(), skv_zero());
    }
}

/* The links' contacts, segment by segment; prof (with profiles: the parameter block's rows, pack.h) gives each
 * link its own length, NULL the rope's (a constant of each call site). */
SK_INLINE void generate_links(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *state, contact_scratch *cs,
                              const contact_slots *c, const sk_real *prof, skv *count)
{
    const size_t W = SK_W, stride = (size_t)SK_F_COUNT * W;
    const unsigned char *pinned = cfg->pinned;
    const bool rod = cfg->link == SK_LINK_ROD;
    for (int i = 0; i < c->links; i++) {
        cs->pushes[i] = 0;
        if (pinned[i] && pinned[i + 1]) {
            put_inactive(cs, i);
            continue;
        }
        skv3 pa = v3_load(state + (size_t)i * stride), pb = v3_load(state + (size_t)(i + 1) * stride);
        skm active, pushes;
        skv3 n;
        skv pen;
        const skv L = prof ? skv_load(prof + ((size_t)i * SK_Q_COUNT + SK_Q_LINK_L) * W) : k->link_l;
        rod_or_cable(rod, pa, pb, L, &active, &n, &pen, &pushes);
        cs->pushes[i] = (unsigned)skm_bits(pushes);
        skv vs = v3_dot(v3_sub(contact_velocity(cs, state, i), contact_velocity(cs, state, i + 1)), n);
        put_slot(cs, i, active, n, pen, vs, count);
    }
}

/* The links' pass in its variants (feature_mask.h): with profiles or without, constant. */
#define GENERATE_VARIANTS(X) K_EACH1(X, generate_links_profiles, K_PROFILES)
#define K_VARIANT_RUN(ft) \
    generate_links(cfg, k, state, cs, c, (ft).profiles ? sk_pack_profile_rows(param, SK_W) : NULL, count)
SK_INLINE void generate_links_variant(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param,
                                      const sk_real *state, contact_scratch *cs, const contact_slots *c, skv *count)
{
    K_VARIANTS_INLINE(k_cfg_mask(cfg), GENERATE_VARIANTS);
}

void SK_KNAME(sk_contact_generate)(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param,
                                   const sk_real *state, skv3 x, contact_scratch *cs, sk_real *counts)
{
    const size_t W = SK_W, stride = (size_t)SK_F_COUNT * W;
    const contact_slots *c = &cs->slots;
    const unsigned char *pinned = cfg->pinned;
    const skv n_present = kp_get(param, SK_P_N);
    const int rows = kp_max_count(param);
    skv count = skv_zero();
    cs->n_candidates = 0;

    /* Verlet keeps no velocity: the contacts read and write (p - q) / dt, as the reference refreshes it
     * for every particle before generating. */
    if (cs->vel) {
        for (int i = 0; i < rows; i++) {
            const sk_real *row = state + (size_t)i * stride;
            v3_store(cs->vel + (size_t)i * 3 * W, k_velocity(k, SK_INTEGRATOR_VERLET, v3_load(row), v3_load(row + 3 * W)));
        }
        for (int i = 0; i < cfg->capacity; i++)
            skv_store(cs->touched + (size_t)i * W, skv_zero());
    }

    /* Links, segment by segment (groups with rods or cables do not deploy: every lane has them all). A
     * link between two pinned particles is never generated. */
    generate_links_variant(cfg, k, param, state, cs, c, &count);

    /* The anchor constraint on particle 0 (never on a pinned one); the anchor is the world. */
    if (c->anchor >= 0) {
        cs->pushes[c->anchor] = 0;
        if (pinned[0]) {
            put_inactive(cs, c->anchor);
        } else {
            skm active, pushes;
            skv3 n;
            skv pen;
            rod_or_cable(cfg->anchor == SK_ANCHOR_ROD, v3_load(state), x, k->s, &active, &n, &pen, &pushes);
            cs->pushes[c->anchor] = (unsigned)skm_bits(pushes);
            skv vs = v3_dot(contact_velocity(cs, state, 0), n);
            put_slot(cs, c->anchor, active, n, pen, vs, &count);
        }
    }

    /* The ground, particle by particle: present, unpinned and below the plane. */
    if (c->ground >= 0) {
        const skv height = skv_set1(cfg->ground_height);
        const skv3 up = v3_make(skv_zero(), skv_set1(1), skv_zero());
        for (int i = 0; i < cfg->capacity; i++) {
            const int s = c->ground + i;
            if (pinned[i] || i >= rows) {
                put_inactive(cs, s);
                continue;
            }
            skv y = skv_load(state + (size_t)i * stride + W);
            skm active = skm_and(skv_lt(skv_set1((sk_real)i), n_present), skv_lt(y, height));
            skv vs = v3_dot(contact_velocity(cs, state, i), up);
            put_slot(cs, s, active, up, skv_sub(height, y), vs, &count);
        }
    }
    skv_store(counts, count);

    /* The scan's blocks: those holding candidates, all to be scanned; unpickable keys up to a whole
     * block. */
    for (int s = c->count; s % CONTACT_BLOCK; s++)
        skv_store(cs->key + (size_t)s * W, skv_set1((sk_real)INFINITY));
    int nb = 0;
    for (int s = 0; s < c->count; s++)
        cs->block_of_slot[s] = -1;
    for (int i = 0; i < cs->n_candidates; i++) {
        const int s = cs->candidates[i], first = s - s % CONTACT_BLOCK;
        if (nb == 0 || cs->block_slot[nb - 1] != first)
            cs->block_slot[nb++] = first;
        cs->block_of_slot[s] = nb - 1;
    }
    cs->n_blocks = nb;
    for (int w = 0; w < (nb + 63) / 64; w++)
        cs->dirty[w] = w < nb / 64 ? ~(uint64_t)0 : ((uint64_t)1 << (nb % 64)) - 1;
    for (int b = nb; b % CONTACT_BLOCK; b++) {
        skv_store(cs->block_min + (size_t)b * W, skv_set1((sk_real)INFINITY));
        skv_store(cs->block_pick + (size_t)b * W, skv_set1(-1));
    }
}
