/* The direct chain solver on lanes (docs/model.md section 4.4): the reference's algorithm (reference/direct.c)
 * with every slot of every lane computed at once. Slots are the reference's; which rows a lane has is a mask
 * per slot, so lanes never branch apart: a pack of different ropes runs the instructions a pack of identical
 * ones runs. The only loop whose length depends on the lanes is the releases' re-solve, which runs while any
 * lane released a row (at most SK_DIRECT_PASSES solves); a lane that released nothing re-solves the same
 * system to the same bits. */
#include <math.h>

#include "anchor.h"
#include "contacts.h"
#include "integrate.h"
#include "model/direct.h"

enum { W = SK_W };

static size_t blocks(size_t bytes) { return (bytes + 63) / 64 * 64; }

static size_t layout(direct_scratch *ds, const sk_kernel_cfg *cfg, unsigned char *base)
{
    const size_t S = (size_t)sk_direct_slots(cfg->capacity), C = (size_t)cfg->capacity, r = sizeof(sk_real);
    size_t at = 0;
#define TAKE(field, type, bytes)                                     \
    do {                                                             \
        ds->field = base ? (type *)(void *)(base + at) : NULL;       \
        at += blocks(bytes);                                         \
    } while (0)
    TAKE(normal, sk_real, S * 3 * W * r);
    TAKE(gap, sk_real, S * W * r);
    TAKE(taut, sk_real, S * W * r);
    TAKE(rhs, sk_real, S * W * r);
    TAKE(lambda, sk_real, S * W * r);
    TAKE(impulse, sk_real, S * W * r);
    TAKE(a0, sk_real, S * W * r);
    TAKE(a1, sk_real, S * W * r);
    TAKE(a2, sk_real, S * W * r);
    TAKE(inv, sk_real, S * W * r);
    TAKE(l1, sk_real, S * W * r);
    TAKE(l2, sk_real, S * W * r);
    TAKE(kind, unsigned char, S);
    TAKE(exists, unsigned, S * sizeof(unsigned));
    TAKE(active, unsigned, S * sizeof(unsigned));
    TAKE(held, unsigned, S * sizeof(unsigned));
    TAKE(vel, sk_real, C * 3 * W * r);
    TAKE(touched, unsigned, C * sizeof(unsigned));
#undef TAKE
    return at;
}

size_t SK_KNAME(sk_direct_scratch_bytes)(const sk_kernel_cfg *cfg)
{
    direct_scratch counted;
    return layout(&counted, cfg, NULL);
}

void SK_KNAME(sk_direct_scratch_init)(direct_scratch *ds, const sk_kernel_cfg *cfg, void *memory)
{
    layout(ds, cfg, memory);
}

/* The particles of slot s: a, and b for a link (-1 for none); model/direct.h's order. */
SK_INLINE int slot_a(int s) { return s == 0 ? 0 : (s - 1) / 2; }
SK_INLINE int slot_b(int s) { return s > 0 && s % 2 == 0 ? s / 2 : -1; }

SK_INLINE bool is_equality(unsigned char kind) { return kind == SK_ROW_ROD || kind == SK_ROW_ANCHOR_ROD; }

SK_INLINE skm mask_of(unsigned bits) { return skm_from_bits(bits); }

/* What one call works on: the pack, its parameters as vectors, the scratch. */
typedef struct direct_pack {
    const sk_kernel_cfg *cfg;
    const sk_real *param;
    sk_real *state;
    direct_scratch *ds;
    kparams k;
    skv3 x;          /* the anchor point of the step */
    int slots;       /* 2 * rows: the slots every lane may have */
    int rows;        /* the largest particle count among the lanes */
    skv n;           /* each lane's particle count */
    sk_real *vel;    /* velocities: the state's v, or verlet's (p - q) / dt in the scratch */
    size_t vstride;
} direct_pack;

SK_INLINE skv3 position(const direct_pack *d, int i) { return v3_load(d->state + (size_t)i * SK_F_COUNT * W); }
SK_INLINE void set_position(direct_pack *d, int i, skv3 p) { v3_store(d->state + (size_t)i * SK_F_COUNT * W, p); }
SK_INLINE skv3 velocity(const direct_pack *d, int i) { return v3_load(d->vel + (size_t)i * d->vstride); }
SK_INLINE void set_velocity(direct_pack *d, int i, skv3 v) { v3_store(d->vel + (size_t)i * d->vstride, v); }
SK_INLINE skv inverse_mass(const direct_pack *d, int i) { return d->cfg->pinned[i] ? skv_zero() : d->k.w; }
SK_INLINE skv3 normal(const direct_pack *d, int s) { return v3_load(d->ds->normal + (size_t)s * 3 * W); }
SK_INLINE skv ld(const sk_real *a, int s) { return skv_load(a + (size_t)s * W); }
SK_INLINE void st(sk_real *a, int s, skv v) { skv_store(a + (size_t)s * W, v); }

/* Which rows each slot holds (uniform across lanes but for the ground under particles a lane lacks). */
static void set_kinds(direct_pack *d)
{
    const sk_kernel_cfg *cfg = d->cfg;
    direct_scratch *ds = d->ds;
    const unsigned char *pinned = cfg->pinned;
    const unsigned char link = cfg->link == SK_LINK_ROD ? SK_ROW_ROD : cfg->link == SK_LINK_CABLE ? SK_ROW_CABLE : SK_ROW_NONE;
    const unsigned char anchor = cfg->anchor == SK_ANCHOR_ROD     ? SK_ROW_ANCHOR_ROD
                                 : cfg->anchor == SK_ANCHOR_CABLE ? SK_ROW_ANCHOR_CABLE
                                                                  : SK_ROW_NONE;
    const unsigned all = skm_bits(skv_eq(skv_zero(), skv_zero()));
    for (int s = 0; s < d->slots; s++) {
        ds->kind[s] = SK_ROW_NONE;
        ds->exists[s] = 0;
    }
    for (int i = 0; i < d->rows; i++) {
        const unsigned present = skm_bits(skv_lt(skv_set1((sk_real)i), d->n));
        if (cfg->ground && !pinned[i]) {
            ds->kind[2 * i + 1] = SK_ROW_GROUND;
            ds->exists[2 * i + 1] = present;
        }
        /* links only in ropes that do not deploy: every lane has them all */
        if (i + 1 < d->rows && link != SK_ROW_NONE && (!pinned[i] || !pinned[i + 1])) {
            ds->kind[2 * i + 2] = link;
            ds->exists[2 * i + 2] = all;
        }
    }
    if (anchor != SK_ROW_NONE && !pinned[0]) {
        ds->kind[0] = anchor;
        ds->exists[0] = all;
    }
}

/* Normals, gaps and taut bands at the current positions (reference: evaluate_rows). */
static void evaluate_rows(direct_pack *d)
{
    direct_scratch *ds = d->ds;
    const skv3 up = v3_make(skv_zero(), skv_set1(1), skv_zero());
    const skv taut = skv_set1((sk_real)SK_DIRECT_TAUT);
    for (int s = 0; s < d->slots; s++) {
        skv3 n = v3_zero();
        skv gap = skv_zero(), band = skv_zero();
        switch (ds->kind[s]) {
        case SK_ROW_ROD:
        case SK_ROW_CABLE: {
            const skv3 e = v3_sub(position(d, slot_b(s)), position(d, slot_a(s)));
            n = v3_unit(e);
            gap = skv_sub(d->k.link_l, v3_length(e));
            band = skv_mul(taut, d->k.link_l);
            break;
        }
        case SK_ROW_ANCHOR_ROD:
        case SK_ROW_ANCHOR_CABLE: {
            const skv3 e = v3_sub(d->x, position(d, 0));
            n = v3_unit(e);
            gap = skv_sub(d->k.s, v3_length(e));
            band = skv_mul(taut, d->k.s);
            break;
        }
        case SK_ROW_GROUND:
            n = up;
            gap = skv_sub(position(d, slot_a(s)).y, skv_set1(d->cfg->ground_height));
            break;
        default:
            break;
        }
        v3_store(ds->normal + (size_t)s * 3 * W, n);
        st(ds->gap, s, gap);
        st(ds->taut, s, band);
    }
}

SK_INLINE skv row_velocity(const direct_pack *d, int s)
{
    skv3 v = velocity(d, slot_a(s));
    const int b = slot_b(s);
    if (b >= 0)
        v = v3_sub(v, velocity(d, b));
    return v3_dot(v, normal(d, s));
}

/* The band of A over the active rows (reference: assemble). */
static void assemble(direct_pack *d)
{
    direct_scratch *ds = d->ds;
    for (int s = 0; s < d->slots; s++) {
        const skm active = mask_of(ds->active[s]);
        const int a = slot_a(s), b = slot_b(s);
        skv a0 = inverse_mass(d, a);
        if (b >= 0)
            a0 = skv_add(a0, inverse_mass(d, b));
        st(ds->a0, s, skv_select(active, a0, skv_set1(1)));
        st(ds->a1, s, skv_zero());
        st(ds->a2, s, skv_zero());
    }
    for (int s = 0; s + 1 < d->slots; s++) {
        const skm both = mask_of(ds->active[s] & ds->active[s + 1]);
        if (!skm_any(both))
            continue;
        skv c;
        if (s % 2 == 0)
            c = s == 0 ? skv_mul(inverse_mass(d, 0), normal(d, 0).y)
                       : skv_mul(inverse_mass(d, s / 2), skv_neg(normal(d, s).y));
        else
            c = skv_mul(inverse_mass(d, (s - 1) / 2), normal(d, s + 1).y);
        st(ds->a1, s, skv_keep(both, c));
    }
    for (int s = 0; s + 2 < d->slots; s += 2) {
        const skm both = mask_of(ds->active[s] & ds->active[s + 2]);
        if (!skm_any(both))
            continue;
        const skv dot = v3_dot(normal(d, s), normal(d, s + 2));
        const skv c = s == 0 ? skv_mul(inverse_mass(d, 0), dot) : skv_mul(inverse_mass(d, s / 2), skv_neg(dot));
        st(ds->a2, s, skv_keep(both, c));
    }
}

/* Banded LDL^T over each lane's active rows and the solve (reference: sk_ref_direct_solve), a select where
 * the reference skips a row; a slot no lane has is skipped outright. */
static void solve(direct_pack *d)
{
    direct_scratch *ds = d->ds;
    const skv tiny = skv_set1((sk_real)SK_DIRECT_PIVOT_EPSILON), one = skv_set1(1);
    for (int k = 0; k < d->slots; k++) {
        if (!ds->active[k]) {
            st(ds->lambda, k, skv_zero());
            continue;
        }
        const unsigned near_bits = k >= 1 ? ds->active[k - 1] : 0, far_bits = k >= 2 ? ds->active[k - 2] : 0;
        const skm near = mask_of(near_bits), far = mask_of(far_bits);
        const skv a0 = ld(ds->a0, k);
        skv t2 = skv_zero(), l2 = skv_zero(), l1 = skv_zero(), pivot = a0, y = ld(ds->rhs, k);
        if (far_bits) {
            t2 = ld(ds->a2, k - 2);
            l2 = skv_mul(t2, ld(ds->inv, k - 2));
        }
        if (near_bits) {
            skv t1 = ld(ds->a1, k - 1);
            if (far_bits)
                t1 = skv_select(far, skv_sub(t1, skv_mul(t2, ld(ds->l1, k - 1))), t1);
            l1 = skv_mul(t1, ld(ds->inv, k - 1));
            pivot = skv_select(near, skv_sub(pivot, skv_mul(t1, l1)), pivot);
            y = skv_select(near, skv_sub(y, skv_mul(l1, ld(ds->lambda, k - 1))), y);
        }
        if (far_bits) {
            pivot = skv_select(far, skv_sub(pivot, skv_mul(t2, l2)), pivot);
            y = skv_select(far, skv_sub(y, skv_mul(l2, ld(ds->lambda, k - 2))), y);
        }
        const unsigned dropped = ds->active[k] & skm_bits(skm_not(skv_gt(pivot, skv_mul(tiny, a0))));
        ds->active[k] &= ~dropped;
        st(ds->inv, k, skv_div(one, pivot));
        st(ds->l1, k, l1);
        st(ds->l2, k, l2);
        st(ds->lambda, k, skv_keep(mask_of(ds->active[k]), y));
    }
    for (int k = d->slots - 1; k >= 0; k--) {
        if (!ds->active[k])
            continue;
        skv x = skv_mul(ld(ds->lambda, k), ld(ds->inv, k));
        if (k + 1 < d->slots && ds->active[k + 1])
            x = skv_select(mask_of(ds->active[k + 1]), skv_sub(x, skv_mul(ld(ds->l1, k + 1), ld(ds->lambda, k + 1))), x);
        if (k + 2 < d->slots && ds->active[k + 2])
            x = skv_select(mask_of(ds->active[k + 2]), skv_sub(x, skv_mul(ld(ds->l2, k + 2), ld(ds->lambda, k + 2))), x);
        st(ds->lambda, k, skv_keep(mask_of(ds->active[k]), x));
    }
}

/* Solves, releasing inequalities whose lambda pulls the wrong way beyond the taut band times per, while any
 * lane released one (at most SK_DIRECT_PASSES solves); lambda 0 where a row ends inactive. Adds to passes the
 * solves each lane needed. */
static void solve_with_releases(direct_pack *d, skv per, skv *passes)
{
    direct_scratch *ds = d->ds;
    unsigned live = skm_bits(skv_eq(skv_zero(), skv_zero()));
    for (int pass = 0; live && pass < SK_DIRECT_PASSES; pass++) {
        assemble(d);
        solve(d);
        *passes = skv_select(mask_of(live), skv_add(*passes, skv_set1(1)), *passes);
        unsigned released = 0;
        for (int s = 0; s < d->slots; s++) {
            if (is_equality(ds->kind[s]) || !ds->active[s])
                continue;
            const skm wrong = skv_lt(skv_mul(ld(ds->lambda, s), ld(ds->a0, s)), skv_neg(skv_mul(ld(ds->taut, s), per)));
            const unsigned off = ds->active[s] & skm_bits(wrong);
            ds->active[s] &= ~off;
            released |= off;
        }
        live = released;
    }
    for (int s = 0; s < d->slots; s++)
        st(ds->lambda, s, skv_keep(mask_of(ds->active[s]), ld(ds->lambda, s)));
}

/* W J^T lambda for particle i (reference: particle_change): the active rows that hold it in slot order. */
SK_INLINE skv3 particle_change(const direct_pack *d, int i)
{
    const direct_scratch *ds = d->ds;
    skv3 sum = v3_zero();
    if (i == 0 && ds->active[0])
        sum = v3_select(mask_of(ds->active[0]), v3_add(sum, v3_scale(normal(d, 0), ld(ds->lambda, 0))), sum);
    if (i >= 1 && ds->active[2 * i])
        sum = v3_select(mask_of(ds->active[2 * i]), v3_sub(sum, v3_scale(normal(d, 2 * i), ld(ds->lambda, 2 * i))), sum);
    if (ds->active[2 * i + 1])
        sum = v3_select(mask_of(ds->active[2 * i + 1]),
                        v3_add(sum, v3_scale(normal(d, 2 * i + 1), ld(ds->lambda, 2 * i + 1))), sum);
    if (i + 1 < d->rows && ds->active[2 * i + 2])
        sum = v3_select(mask_of(ds->active[2 * i + 2]),
                        v3_add(sum, v3_scale(normal(d, 2 * i + 2), ld(ds->lambda, 2 * i + 2))), sum);
    return v3_scale(sum, inverse_mass(d, i));
}

static void mark_touched(direct_pack *d)
{
    direct_scratch *ds = d->ds;
    for (int s = 0; s < d->slots; s++)
        if (ds->active[s]) {
            ds->touched[slot_a(s)] |= ds->active[s];
            if (slot_b(s) >= 0)
                ds->touched[slot_b(s)] |= ds->active[s];
        }
}

/* The particles present in each lane: particle i < n. */
SK_INLINE skm present(const direct_pack *d, int i) { return skv_lt(skv_set1((sk_real)i), d->n); }

static skv resolve_velocities(direct_pack *d, skv *passes)
{
    direct_scratch *ds = d->ds;
    const skv e_link = d->cfg->link == SK_LINK_CABLE ? d->k.link_restitution : skv_zero();
    const skv e_anchor = d->cfg->anchor == SK_ANCHOR_CABLE ? d->k.anchor_restitution : skv_zero();
    const skv e_ground = skv_set1(d->cfg->ground_restitution);
    skv contacts = skv_zero();
    for (int s = 0; s < d->slots; s++) {
        const unsigned char kind = ds->kind[s];
        st(ds->rhs, s, skv_zero());
        ds->active[s] = 0;
        if (kind == SK_ROW_NONE || !ds->exists[s])
            continue;
        const skv gap = ld(ds->gap, s);
        skm generated = mask_of(ds->exists[s]);
        if (kind == SK_ROW_CABLE || kind == SK_ROW_ANCHOR_CABLE)
            generated = skm_and(generated, skv_le(gap, ld(ds->taut, s)));
        else if (kind == SK_ROW_GROUND)
            generated = skm_and(generated, skv_lt(gap, skv_zero()));
        ds->active[s] = skm_bits(generated);
        contacts = skv_add(contacts, skv_select(generated, skv_set1(1), skv_zero()));
        if (!ds->active[s])
            continue;
        const skv vs = row_velocity(d, s);
        skv target = skv_zero();
        if (!is_equality(kind)) {
            const skm closing = skm_not(skv_gt(vs, skv_zero()));
            const skv e = kind == SK_ROW_CABLE ? e_link : kind == SK_ROW_ANCHOR_CABLE ? e_anchor : e_ground;
            skv t = skv_mul(skv_neg(vs), e);
            if (kind != SK_ROW_CABLE) {
                const skv va = skv_mul(v3_dot(d->k.acc, normal(d, s)), d->k.dt);
                const skm pulled = skv_lt(va, skv_zero());
                skv raised = skv_add(t, skv_mul(e, va));
                raised = skv_select(skv_lt(raised, skv_zero()), skv_zero(), raised);
                t = skv_select(pulled, raised, t);
            }
            target = skv_select(closing, t, skv_zero());
        }
        st(ds->rhs, s, skv_keep(generated, skv_sub(target, vs)));
    }
    solve_with_releases(d, d->k.inv_dt, passes);
    for (int s = 0; s < d->slots; s++)
        ds->held[s] = ds->active[s];
    mark_touched(d);
    for (int i = 0; i < d->rows; i++) {
        const skv3 v = velocity(d, i);
        set_velocity(d, i, v3_select(present(d, i), v3_add(v, particle_change(d, i)), v));
    }
    for (int s = 0; s < d->slots; s++)
        st(ds->impulse, s, ld(ds->lambda, s));
    return contacts;
}

static void project_positions(direct_pack *d)
{
    direct_scratch *ds = d->ds;
    skv ignored = skv_zero();
    for (int it = 0; it < d->cfg->direct_iterations; it++) {
        if (it > 0)
            evaluate_rows(d);
        for (int s = 0; s < d->slots; s++) {
            const unsigned char kind = ds->kind[s];
            skm active = mask_of(ds->exists[s]);
            if (kind != SK_ROW_NONE && !is_equality(kind))
                active = skm_and(active, skm_or(mask_of(ds->held[s]), skv_le(ld(ds->gap, s), ld(ds->taut, s))));
            ds->active[s] = kind == SK_ROW_NONE ? 0 : skm_bits(active);
            st(ds->rhs, s, skv_keep(active, skv_neg(ld(ds->gap, s))));
        }
        solve_with_releases(d, skv_set1(1), &ignored);
        mark_touched(d);
        for (int i = 0; i < d->rows; i++) {
            const skv3 p = position(d, i);
            set_position(d, i, v3_select(present(d, i), v3_add(p, particle_change(d, i)), p));
        }
    }
}

void SK_KNAME(sk_contact_direct)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, skv3 x,
                                 direct_scratch *ds)
{
    const bool verlet = cfg->integrator == SK_INTEGRATOR_VERLET;
    direct_pack d = {
        .cfg = cfg,
        .param = param,
        .state = state,
        .ds = ds,
        .k = kp_load(param),
        .x = x,
        .rows = kp_max_count(param),
        .vel = verlet ? ds->vel : state + 3 * W,
        .vstride = verlet ? 3 * W : (size_t)SK_F_COUNT * W,
    };
    d.slots = 2 * d.rows;
    d.n = kp_get(param, SK_P_N);
    if (verlet)
        for (int i = 0; i < d.rows; i++) {
            const sk_real *row = state + (size_t)i * SK_F_COUNT * W;
            v3_store(ds->vel + (size_t)i * 3 * W, k_velocity(&d.k, SK_INTEGRATOR_VERLET, v3_load(row), v3_load(row + 3 * W)));
        }
    for (int i = 0; i < cfg->capacity; i++)
        ds->touched[i] = 0;

    set_kinds(&d);
    evaluate_rows(&d);
    skv passes = skv_zero();
    const skv contacts = resolve_velocities(&d, &passes);
    project_positions(&d);

    if (verlet)
        for (int i = 0; i < d.rows; i++) {
            sk_real *row = state + (size_t)i * SK_F_COUNT * W;
            const skv3 p = v3_load(row), q = v3_load(row + 3 * W), v = v3_load(ds->vel + (size_t)i * 3 * W);
            v3_store(row + 3 * W, v3_select(mask_of(ds->touched[i]), v3_sub(p, v3_scale(v, d.k.dt)), q));
        }

    /* The contact rows: each link's impulse, the anchor's, the rows generated, the solves made. */
    sk_real *rows = sk_pack_contact_rows(cfg, state, W);
    for (int i = 0; i < cfg->capacity; i++)
        st(rows, i, skv_zero());
    for (int i = 0; i + 1 < d.rows; i++)
        if (ds->kind[2 * i + 2] != SK_ROW_NONE)
            st(rows, i, ld(ds->impulse, 2 * i + 2));
    if (ds->kind[0] != SK_ROW_NONE)
        st(rows, cfg->capacity - 1, ld(ds->impulse, 0));
    st(rows, cfg->capacity + SK_C_CONTACTS, contacts);
    st(rows, cfg->capacity + SK_C_ITERATIONS, skv_add(passes, skv_set1((sk_real)cfg->direct_iterations)));
}
