/* The direct chain solver on lanes (docs/model.md section 4.4): the reference's algorithm (reference/direct_solver.c)
 * with every slot of every lane computed at once. Slots are the reference's; which rows a lane has is a mask
 * per slot, so lanes never branch apart: a pack of different ropes runs the instructions a pack of identical
 * ones runs. The only loop whose length depends on the lanes is the releases' re-solve, which runs while any
 * lane released a row (at most SK_DIRECT_PASSES solves); a lane that released nothing re-solves the same
 * system to the same bits. */
#include <math.h>

#include "anchor.h"
#include "contacts.h"
#include "friction.h"
#include "integrate.h"
#include "model/direct_rows.h"

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
    TAKE(scale, sk_real, S * W * r);
    TAKE(rhs, sk_real, S * W * r);
    TAKE(lambda, sk_real, S * W * r);
    TAKE(a0, sk_real, S * W * r);
    TAKE(inv, sk_real, S * W * r);
    TAKE(l1, sk_real, S * W * r);
    TAKE(l2, sk_real, S * W * r);
    TAKE(kind, unsigned char, S);
    TAKE(exists, unsigned, S * sizeof(unsigned));
    TAKE(active, unsigned, S * sizeof(unsigned));
    TAKE(held, unsigned, S * sizeof(unsigned));
    TAKE(release, unsigned, S * sizeof(unsigned));
    TAKE(dropped, unsigned, S * sizeof(unsigned));
    TAKE(vel, sk_real, C * 3 * W * r);
    TAKE(w, sk_real, C * W * r);
    TAKE(inv_len, sk_real, C * W * r);
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

/* The particles of slot s: a, and b for a link (-1 for none); model/direct_rows.h's order. */
SK_INLINE int slot_a(int s) { return s == 0 ? 0 : (s - 1) / 2; }
SK_INLINE int slot_b(int s) { return s > 0 && s % 2 == 0 ? s / 2 : -1; }

SK_INLINE bool is_equality(unsigned char kind) { return kind == SK_ROW_ROD || kind == SK_ROW_ANCHOR_ROD; }

SK_INLINE skm mask_of(unsigned bits) { return skm_from_bits(bits); }

/* What one call works on: the pack, its parameters as vectors, the scratch. */
typedef struct direct_pack {
    const sk_kernel_cfg *cfg;
    sk_real *state;
    direct_scratch *ds;
    kparams k;
    skv3 x;          /* the anchor point of the step */
    int slots;       /* 2 * rows: the slots every lane may have */
    int rows;        /* the largest particle count among the lanes */
    skv n;           /* each lane's particle count */
    sk_real *vel;    /* velocities: the state's v, or verlet's (p - q) / dt in the scratch */
    size_t vstride;
    skv e_link, e_anchor, e_ground; /* restitutions of the inequalities */
    skv taut_link, taut_anchor;     /* the cables' taut bands (model/direct_rows.h) */
    skv inv_link_l, inv_anchor_l;   /* 1/L of the links (without length profiles) and of the anchor */
    unsigned live;                  /* the lanes still iterating on positions */
    const sk_real *prof; /* with profiles: the parameter block's rows (pack.h), each particle's w, each link's L */
} direct_pack;

SK_INLINE skv3 position(const direct_pack *d, int i) { return v3_load(d->state + (size_t)i * SK_F_COUNT * W); }
SK_INLINE void set_position(direct_pack *d, int i, skv3 p) { v3_store(d->state + (size_t)i * SK_F_COUNT * W, p); }
SK_INLINE skv3 velocity(const direct_pack *d, int i) { return v3_load(d->vel + (size_t)i * d->vstride); }
SK_INLINE void set_velocity(direct_pack *d, int i, skv3 v) { v3_store(d->vel + (size_t)i * d->vstride, v); }
SK_INLINE skv profile_row(const direct_pack *d, int i, int q)
{
    return skv_load(d->prof + ((size_t)i * SK_Q_COUNT + (size_t)q) * W);
}
SK_INLINE skv inverse_mass(const direct_pack *d, int i) { return skv_load(d->ds->w + (size_t)i * W); }
/* The length L of a link row (its own with a length profile) or of the anchor row k. */
SK_INLINE skv row_length(const direct_pack *d, int k)
{
    if (k == 0)
        return d->k.s;
    return d->prof ? profile_row(d, slot_a(k), SK_Q_LINK_L) : d->k.link_l;
}
/* A row's normal: the ground's (odd slots) is (0, 1, 0) in every lane, never stored. */
SK_INLINE skv3 normal(const direct_pack *d, int s)
{
    if (s % 2 == 1)
        return v3_make(skv_zero(), skv_set1(1), skv_zero());
    return v3_load(d->ds->normal + (size_t)s * 3 * W);
}

/* A row's taut band: 64 eps of the link's or the anchor's length (the rope's, computed once a call, or the
 * link's own with a length profile), 0 for the ground. */
SK_INLINE skv taut(const direct_pack *d, int s)
{
    if (s == 0)
        return d->taut_anchor;
    if (s % 2 == 1)
        return skv_zero();
    return d->prof ? skv_mul(skv_set1((sk_real)SK_DIRECT_TAUT), row_length(d, s)) : d->taut_link;
}
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
    /* what the sweeps read of the masses and lengths, once: each particle's w, each ground row's diagonal
     * entry (the links' and the anchor's follow their normals: evaluate_row), each profiled link's 1/L */
    for (int i = 0; i < d->rows; i++)
        skv_store(ds->w + (size_t)i * W, pinned[i] ? skv_zero() : d->prof ? profile_row(d, i, SK_Q_W) : d->k.w);
    for (int k = 1; k < d->slots; k += 2)
        if (ds->kind[k] == SK_ROW_GROUND)
            st(ds->a0, k, inverse_mass(d, slot_a(k)));
    if (d->prof)
        for (int i = 0; i + 1 < d->rows; i++)
            skv_store(ds->inv_len + (size_t)i * W, skv_div(skv_set1(1), profile_row(d, i, SK_Q_LINK_L)));
}


/* Row k's normal, scale and gap at the current positions (reference: evaluate_rows): a link's or the
 * anchor's normal is e * (1/L), its unit direction times the scale |e| * (1/L), and its diagonal entry is
 * set here from it (the ground's, w, once a call). */
SK_INLINE void evaluate_row(direct_pack *d, int k)
{
    direct_scratch *ds = d->ds;
    skv3 n = v3_zero();
    skv gap = skv_zero();
    switch (ds->kind[k]) {
    case SK_ROW_ROD:
    case SK_ROW_CABLE: {
        const int a = slot_a(k), b = slot_b(k);
        const skv3 e = v3_sub(position(d, b), position(d, a));
        const skv l = v3_length(e);
        const skv L = row_length(d, k);
        const skv inv_L = d->prof ? ld(ds->inv_len, a) : d->inv_link_l;
        n = v3_scale(e, inv_L);
        st(ds->scale, k, skv_mul(l, inv_L));
        gap = skv_sub(L, l);
        st(ds->a0, k, skv_mul(skv_add(inverse_mass(d, a), inverse_mass(d, b)), v3_dot(n, n)));
        break;
    }
    case SK_ROW_ANCHOR_ROD:
    case SK_ROW_ANCHOR_CABLE: {
        const skv3 e = v3_sub(d->x, position(d, 0));
        const skv l = v3_length(e);
        n = v3_scale(e, d->inv_anchor_l);
        st(ds->scale, k, skv_mul(l, d->inv_anchor_l));
        gap = skv_sub(row_length(d, 0), l);
        st(ds->a0, k, skv_mul(inverse_mass(d, 0), v3_dot(n, n)));
        break;
    }
    case SK_ROW_GROUND:
        n = v3_make(skv_zero(), skv_set1(1), skv_zero());
        gap = skv_sub(position(d, slot_a(k)).y, skv_set1(d->cfg->ground_height));
        break;
    default:
        break;
    }
    if (k % 2 == 0)
        v3_store(ds->normal + (size_t)k * 3 * W, n);
    st(ds->gap, k, gap);
}

SK_INLINE skv row_velocity(const direct_pack *d, int s)
{
    skv3 v = velocity(d, slot_a(s));
    const int b = slot_b(s);
    if (b >= 0)
        v = v3_sub(v, velocity(d, b));
    return v3_dot(v, normal(d, s));
}

/* What a forward sweep sets up before eliminating a row: the velocity stage's rows (generation, targets),
 * the position stage's (activity, -g), or nothing (a re-solve after releases keeps rows and right-hand
 * sides). */
enum { SETUP_NONE, SETUP_VELOCITY, SETUP_POSITION };

/* The velocity stage's row k (reference: resolve_velocities): generated rows active, target - vs. */
SK_INLINE void setup_velocity_row(direct_pack *d, int k, skv *contacts)
{
    direct_scratch *ds = d->ds;
    const unsigned char kind = ds->kind[k];
    const skv gap = ld(ds->gap, k);
    skm generated = mask_of(ds->exists[k]);
    if (kind == SK_ROW_CABLE || kind == SK_ROW_ANCHOR_CABLE)
        generated = skm_and(generated, skv_le(gap, taut(d, k)));
    else if (kind == SK_ROW_GROUND)
        generated = skm_and(generated, skv_lt(gap, skv_zero()));
    ds->active[k] = skm_bits(generated);
    if (!ds->active[k])
        return;
    *contacts = skv_add(*contacts, skv_select(generated, skv_set1(1), skv_zero()));
    const skv vs = row_velocity(d, k);
    skv target = skv_zero();
    if (!is_equality(kind)) {
        const skm closing = skm_not(skv_gt(vs, skv_zero()));
        const skv e = kind == SK_ROW_CABLE ? d->e_link : kind == SK_ROW_ANCHOR_CABLE ? d->e_anchor : d->e_ground;
        skv t = skv_mul(skv_neg(vs), e);
        if (kind != SK_ROW_CABLE) {
            const skv va = skv_mul(v3_dot(d->k.acc, normal(d, k)), d->k.dt);
            skv raised = skv_add(t, skv_mul(e, va));
            raised = skv_select(skv_lt(raised, skv_zero()), skv_zero(), raised);
            t = skv_select(skv_lt(va, skv_zero()), raised, t);
        }
        target = skv_select(closing, t, skv_zero());
    }
    st(ds->rhs, k, skv_keep(generated, skv_sub(target, vs)));
}

/* The position stage's row k: rods, the rows the velocities were solved with, and any within their taut
 * band; -g. */
SK_INLINE void setup_position_row(direct_pack *d, int k)
{
    direct_scratch *ds = d->ds;
    skm active = mask_of(ds->exists[k] & d->live);
    if (!is_equality(ds->kind[k]))
        active = skm_and(active, skm_or(mask_of(ds->held[k]), skv_le(ld(ds->gap, k), taut(d, k))));
    ds->active[k] = skm_bits(active);
    if (ds->active[k]) /* (-g) c; the ground's c is 1 */
        st(ds->rhs, k, skv_keep(active, k % 2 ? skv_neg(ld(ds->gap, k)) : skv_mul(skv_neg(ld(ds->gap, k)), ld(ds->scale, k))));
}

/* One forward sweep (reference: assemble, then sk_ref_direct_solve's elimination and forward
 * substitution), row by row: the row's evaluation and setup where asked, its band entries from its normals,
 * and its elimination; a slot no lane has is skipped; a row a lane lacks is skipped by select. What rows
 * k - 1 and k - 2 left (activity, reciprocal pivot, multiplier, y, the last link's normal) is carried in
 * registers from one row to the next rather than read back from the scratch. */
static unsigned forward(direct_pack *d, bool eval, int setup, skv *contacts)
{
    direct_scratch *ds = d->ds;
    sk_real *const restrict inv_out = ds->inv, *const restrict l1_out = ds->l1, *const restrict l2_out = ds->l2;
    sk_real *const restrict y_out = ds->lambda;
    const sk_real *const restrict w = ds->w, *const restrict a0s = ds->a0;
    const skv tiny = skv_set1((sk_real)SK_DIRECT_PIVOT_EPSILON), one = skv_set1(1);
    const skm none = skv_lt(skv_zero(), skv_zero());
    /* The lanes where rows k - 1 and k - 2 stayed in the system (not dropped), kept as vector masks so that
     * no scalar decision waits for a pivot: the drops reach ds->active in the back substitution. */
    skm alive1 = none, alive2 = none;
    unsigned act1 = 0, act2 = 0, drops = 0;
    skv inv1 = skv_zero(), inv2 = skv_zero(), l1_1 = skv_zero(), y1 = skv_zero(), y2 = skv_zero();
    skv3 n_even = v3_zero(); /* the normal of the last even (link or anchor) row set up */
    for (int k = 0; k < d->slots; k++) {
        ds->dropped[k] = 0;
        const skm near_alive = alive1, far_alive = alive2;
        const unsigned near_act = act1, far_act = act2;
        const skv inv_near = inv1, inv_far = inv2, l1_near = l1_1, y_near = y1, y_far = y2;
        alive2 = alive1;
        act2 = act1;
        inv2 = inv1;
        y2 = y1;
        alive1 = none;
        act1 = 0;
        if (ds->kind[k] == SK_ROW_NONE) {
            ds->active[k] = 0;
            continue;
        }
        if (eval)
            evaluate_row(d, k);
        if (setup == SETUP_VELOCITY)
            setup_velocity_row(d, k, contacts);
        else if (setup == SETUP_POSITION)
            setup_position_row(d, k);
        const unsigned bits = ds->active[k];
        if (!bits)
            continue;
        const skm act = mask_of(bits);
        const skv a0 = ld(a0s, k);
        /* scalar bits (before drops) decide what to compute; the vector masks select */
        const unsigned near_bits = k >= 1 ? bits & near_act : 0;
        const unsigned far_bits = k % 2 == 0 ? bits & far_act : 0;
        const skm near = skm_and(act, near_alive), far = skm_and(act, far_alive);
        skv t2 = skv_zero(), l2 = skv_zero(), l1 = skv_zero(), pivot = a0, y = ld(ds->rhs, k);
        skv3 n_k = v3_make(skv_zero(), skv_set1(1), skv_zero());
        if (k % 2 == 0 && (far_bits || near_bits))
            n_k = v3_load(ds->normal + (size_t)k * 3 * W);
        if (far_bits) {
            /* rows k - 2 and k share particle (k - 2) / 2: b of link k - 2 (a of the anchor) and a of link k */
            const int s = k - 2;
            const skv dot = v3_dot(n_even, n_k);
            t2 = s == 0 ? skv_mul(ld(w, 0), dot) : skv_mul(ld(w, s / 2), skv_neg(dot));
            l2 = skv_mul(t2, inv_far);
        }
        if (near_bits) {
            const int s = k - 1;
            skv t1;
            if (s % 2 == 0) /* link s (or the anchor), then the ground row of its b (the anchor: its particle) */
                t1 = s == 0 ? skv_mul(ld(w, 0), n_even.y) : skv_mul(ld(w, s / 2), skv_neg(n_even.y));
            else /* the ground row of particle (s - 1) / 2, then its link */
                t1 = skv_mul(ld(w, (s - 1) / 2), n_k.y);
            if (far_bits)
                t1 = skv_select(far, skv_sub(t1, skv_mul(t2, l1_near)), t1);
            l1 = skv_mul(t1, inv_near);
            pivot = skv_select(near, skv_sub(pivot, skv_mul(t1, l1)), pivot);
            y = skv_select(near, skv_sub(y, skv_mul(l1, y_near)), y);
        }
        if (far_bits) {
            pivot = skv_select(far, skv_sub(pivot, skv_mul(t2, l2)), pivot);
            y = skv_select(far, skv_sub(y, skv_mul(l2, y_far)), y);
        }
        if (k % 2 == 0)
            n_even = v3_load(ds->normal + (size_t)k * 3 * W);
        const skm dropped = skm_and(act, skm_not(skv_gt(pivot, skv_mul(tiny, a0))));
        alive1 = skm_andnot(dropped, act);
        act1 = bits;
        ds->dropped[k] = skm_bits(dropped);
        drops |= ds->dropped[k];
        inv1 = skv_div(one, pivot);
        l1_1 = l1;
        y1 = y;
        st(inv_out, k, inv1);
        st(l1_out, k, l1);
        st(l2_out, k, l2);
        st(y_out, k, y);
    }
    return drops;
}

/* The forward substitution alone, with the factor of the last sweep (its rows are those now active, none
 * dropped): the y of forward() for a new right-hand side, by the same operations. */
static void substitute(direct_pack *d)
{
    direct_scratch *ds = d->ds;
    for (int k = 0; k < d->slots; k++) {
        ds->dropped[k] = 0;
        if (!ds->active[k])
            continue;
        const unsigned near_bits = k >= 1 ? ds->active[k] & ds->active[k - 1] : 0;
        const unsigned far_bits = k >= 2 && k % 2 == 0 ? ds->active[k] & ds->active[k - 2] : 0;
        skv y = ld(ds->rhs, k);
        if (near_bits)
            y = skv_select(mask_of(near_bits), skv_sub(y, skv_mul(ld(ds->l1, k), ld(ds->lambda, k - 1))), y);
        if (far_bits)
            y = skv_select(mask_of(far_bits), skv_sub(y, skv_mul(ld(ds->l2, k), ld(ds->lambda, k - 2))), y);
        st(ds->lambda, k, y);
    }
}

/* The back substitution (reference: the end of sk_ref_direct_solve), and which inequalities come out
 * pulling the wrong way beyond the taut band times per (reference: solve_with_releases): released after
 * the whole sweep, as the reference decides them after its solve. Rows k + 1 and k + 2's activity and
 * lambda ride along in registers. Returns the lanes that released. */
static unsigned backward(direct_pack *d, skv per)
{
    direct_scratch *ds = d->ds;
    const sk_real *const restrict inv = ds->inv, *const restrict l1 = ds->l1, *const restrict l2 = ds->l2;
    const sk_real *const restrict a0 = ds->a0;
    sk_real *const restrict lambda = ds->lambda;
    unsigned released = 0, act1 = 0, act2 = 0;
    skv x1 = skv_zero(), x2 = skv_zero();
    for (int k = d->slots - 1; k >= 0; k--) {
        const unsigned near_act = act1, far_act = act2;
        const skv x_near = x1, x_far = x2;
        act2 = act1;
        x2 = x1;
        act1 = 0;
        ds->release[k] = 0;
        const unsigned bits = ds->active[k] & ~ds->dropped[k];
        ds->active[k] = bits;
        if (!bits)
            continue;
        skv x = skv_mul(ld(lambda, k), ld(inv, k));
        if (near_act & bits)
            x = skv_select(mask_of(near_act), skv_sub(x, skv_mul(ld(l1, k + 1), x_near)), x);
        if (k % 2 == 0 && (far_act & bits))
            x = skv_select(mask_of(far_act), skv_sub(x, skv_mul(ld(l2, k + 2), x_far)), x);
        x = skv_keep(mask_of(bits), x);
        st(lambda, k, x);
        x1 = x;
        act1 = bits;
        if (!is_equality(ds->kind[k])) {
            skv bound = skv_neg(skv_mul(taut(d, k), per));
            if (k % 2 == 0) /* the ground's c is 1 */
                bound = skv_mul(bound, ld(ds->scale, k));
            const skm wrong = skv_lt(skv_mul(x, ld(a0, k)), bound);
            ds->release[k] = bits & skm_bits(wrong);
            released |= ds->release[k];
        }
    }
    if (released)
        for (int k = 0; k < d->slots; k++)
            ds->active[k] &= ~ds->release[k];
    return released;
}

/* A stage's solve with releases (reference: solve_with_releases): the first forward sweep with its setup
 * (or, with `reuse`, the substitution alone: the rows were set up and are those of the last factor), then
 * re-solves while any lane released a row, at most SK_DIRECT_PASSES solves in all; passes (may be NULL)
 * counts each lane's. A lambda left on a row released by the last solve is never read: every reader checks
 * the row's activity. Returns whether the last factor's rows are the active rows now (nothing dropped or
 * released by the last solve), so that a later stage with those rows may reuse it. */
static bool stage_solve(direct_pack *d, bool eval, int setup, bool reuse, skv per, skv *contacts, skv *passes)
{
    unsigned live = skm_bits(skv_eq(skv_zero(), skv_zero())), drops = 0;
    for (int pass = 0; live && pass < SK_DIRECT_PASSES; pass++) {
        if (pass == 0 && reuse) {
            substitute(d);
            drops = 0;
        } else {
            drops = forward(d, pass == 0 && eval, pass == 0 ? setup : SETUP_NONE, contacts);
        }
        if (passes)
            *passes = skv_select(mask_of(live), skv_add(*passes, skv_set1(1)), *passes);
        live = backward(d, per);
    }
    return !live && !drops;
}

/* The position stage's rows at the rows of the velocity stage (its first Newton iteration): set up; whether
 * they are exactly the rows the velocity stage's last factor holds. */
static bool position_rows_match(direct_pack *d)
{
    direct_scratch *ds = d->ds;
    bool same = true;
    for (int k = 0; k < d->slots; k++) {
        if (ds->kind[k] == SK_ROW_NONE) {
            ds->active[k] = 0;
            continue;
        }
        setup_position_row(d, k);
        same = same && ds->active[k] == ds->held[k];
    }
    return same;
}

/* W J^T lambda for particle i (reference: particle_change): the active rows that hold it in slot order;
 * marks the lanes where one did. */
SK_INLINE skv3 particle_change(direct_pack *d, int i)
{
    direct_scratch *ds = d->ds;
    skv3 sum = v3_zero();
    unsigned touched = 0;
    if (i == 0 && ds->active[0]) {
        sum = v3_select(mask_of(ds->active[0]), v3_add(sum, v3_scale(normal(d, 0), ld(ds->lambda, 0))), sum);
        touched |= ds->active[0];
    }
    if (i >= 1 && ds->active[2 * i]) {
        sum = v3_select(mask_of(ds->active[2 * i]), v3_sub(sum, v3_scale(normal(d, 2 * i), ld(ds->lambda, 2 * i))), sum);
        touched |= ds->active[2 * i];
    }
    if (ds->active[2 * i + 1]) {
        sum = v3_select(mask_of(ds->active[2 * i + 1]),
                        v3_add(sum, v3_scale(normal(d, 2 * i + 1), ld(ds->lambda, 2 * i + 1))), sum);
        touched |= ds->active[2 * i + 1];
    }
    if (i + 1 < d->rows && ds->active[2 * i + 2]) {
        sum = v3_select(mask_of(ds->active[2 * i + 2]),
                        v3_add(sum, v3_scale(normal(d, 2 * i + 2), ld(ds->lambda, 2 * i + 2))), sum);
        touched |= ds->active[2 * i + 2];
    }
    ds->touched[i] |= touched;
    return v3_scale(sum, inverse_mass(d, i));
}

/* Ground friction after the velocity solve (reference: apply_friction): in the lanes where particle i's
 * ground row is active, model/friction.h's rule with dvn = lambda w; the other lanes keep their bits. */
static void apply_friction(direct_pack *d)
{
    direct_scratch *ds = d->ds;
    for (int i = 0; i < d->rows; i++) {
        const int s = 2 * i + 1;
        if (ds->kind[s] != SK_ROW_GROUND || !ds->active[s])
            continue;
        const skm on = mask_of(ds->active[s]);
        const skv dvn = skv_keep(on, skv_mul(ld(ds->lambda, s), inverse_mass(d, i)));
        const skv3 v = velocity(d, i);
        set_velocity(d, i, v3_select(on, k_friction(v, d->k.friction_static, d->k.friction_kinetic, dvn), v));
    }
}

/* The lanes whose rows are all within the tolerance at the current positions (reference: within_tolerance):
 * rods, the rod anchor and held cables with |e.e - L^2| <= 2 tol L^2, other cables with e.e - L^2 <= 2 tol L^2,
 * held ground rows with |y - h| <= tol, others with y - h >= -tol. */
static unsigned within_tolerance(const direct_pack *d)
{
    const direct_scratch *ds = d->ds;
    const skv tol = skv_set1(d->cfg->direct_tolerance), twice = skv_mul(skv_set1(2), tol);
    const skv h = skv_set1(d->cfg->ground_height);
    unsigned ok = skm_bits(skv_eq(skv_zero(), skv_zero()));
    for (int k = 0; k < d->slots && ok; k++) {
        const unsigned char kind = ds->kind[k];
        if (kind == SK_ROW_NONE)
            continue;
        const skm held = mask_of(ds->held[k]);
        skm row_ok;
        if (kind == SK_ROW_GROUND) {
            const skv g = skv_sub(position(d, slot_a(k)).y, h);
            const skm near = skm_and(skv_le(g, tol), skv_le(skv_neg(g), tol));
            row_ok = skm_or(skm_and(held, near), skm_andnot(held, skv_le(skv_neg(tol), g)));
        } else {
            const bool link = kind == SK_ROW_ROD || kind == SK_ROW_CABLE;
            const skv3 e = link ? v3_sub(position(d, slot_b(k)), position(d, slot_a(k))) : v3_sub(d->x, position(d, 0));
            const skv L = row_length(d, k);
            const skv LL = skv_mul(L, L), band = skv_mul(twice, LL), off = skv_sub(v3_dot(e, e), LL);
            const skm within = skm_and(skv_le(off, band), skv_le(skv_neg(off), band));
            const skm both = is_equality(kind) ? mask_of(ds->exists[k]) : held;
            row_ok = skm_or(skm_and(both, within), skm_andnot(both, skv_le(off, band)));
        }
        ok &= skm_bits(row_ok) | ~ds->exists[k];
    }
    return ok;
}

/* The particles present in each lane: particle i < n. */
SK_INLINE skm present(const direct_pack *d, int i) { return skv_lt(skv_set1((sk_real)i), d->n); }

void SK_KNAME(sk_contact_direct)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, skv3 x,
                                 direct_scratch *ds)
{
    const bool verlet = cfg->integrator == SK_INTEGRATOR_VERLET;
    direct_pack d = {
        .cfg = cfg,
        .state = state,
        .ds = ds,
        .k = kp_load(param),
        .x = x,
        .rows = kp_max_count(param),
        .vel = verlet ? ds->vel : state + 3 * W,
        .vstride = verlet ? 3 * W : (size_t)SK_F_COUNT * W,
        .prof = cfg->profiles ? sk_pack_profile_rows(param, W) : NULL,
    };
    d.slots = 2 * d.rows;
    d.live = skm_bits(skv_eq(skv_zero(), skv_zero()));
    d.n = kp_get(param, SK_P_N);
    d.e_link = cfg->link == SK_LINK_CABLE ? d.k.link_restitution : skv_zero();
    d.e_anchor = cfg->anchor == SK_ANCHOR_CABLE ? d.k.anchor_restitution : skv_zero();
    d.e_ground = skv_set1(cfg->ground_restitution);
    d.taut_link = skv_mul(skv_set1((sk_real)SK_DIRECT_TAUT), d.k.link_l);
    d.taut_anchor = skv_mul(skv_set1((sk_real)SK_DIRECT_TAUT), d.k.s);
    d.inv_link_l = skv_div(skv_set1(1), d.k.link_l);
    d.inv_anchor_l = skv_div(skv_set1(1), d.k.s);
    if (verlet)
        for (int i = 0; i < d.rows; i++) {
            const sk_real *row = state + (size_t)i * SK_F_COUNT * W;
            v3_store(ds->vel + (size_t)i * 3 * W, k_velocity(&d.k, SK_INTEGRATOR_VERLET, v3_load(row), v3_load(row + 3 * W)));
        }
    for (int i = 0; i < cfg->capacity; i++)
        ds->touched[i] = 0;
    set_kinds(&d);

    /* Velocities: rows at the integrated positions, generated, solved; v += W J^T lambda. */
    skv contacts = skv_zero(), passes = skv_zero();
    const bool factored = stage_solve(&d, true, SETUP_VELOCITY, false, d.k.inv_dt, &contacts, &passes);
    for (int i = 0; i < d.rows; i++) {
        const skv3 v = velocity(&d, i);
        set_velocity(&d, i, v3_select(present(&d, i), v3_add(v, particle_change(&d, i)), v));
    }
    if (cfg->friction)
        apply_friction(&d);
    /* the impulses (the tensions' source) and the rows the positions keep */
    sk_real *rows = sk_pack_contact_rows(cfg, state, W);
    for (int i = 0; i < cfg->capacity; i++)
        st(rows, i, skv_zero());
    for (int s = 0; s < d.slots; s++) {
        ds->held[s] = ds->kind[s] == SK_ROW_NONE ? 0 : ds->active[s];
        if (s % 2 == 0 && ds->kind[s] != SK_ROW_NONE)
            st(rows, s == 0 ? cfg->capacity - 1 : s / 2 - 1,
               skv_keep(mask_of(ds->held[s]), skv_mul(ld(ds->lambda, s), ld(ds->scale, s))));
    }

    /* Positions: Newton iterations; the first at the rows the velocities used, the others re-evaluated, each
     * in the lanes not yet within the tolerance (the others' rows inactive: their particles keep their bits). */
    skv iterations = skv_zero();
    for (int it = 0; it < cfg->direct_iterations; it++) {
        if (it > 0 && !(d.live &= ~within_tolerance(&d)))
            break;
        iterations = skv_add(iterations, skv_keep(mask_of(d.live), skv_set1(1)));
        /* The first at the velocity stage's rows: where they are the same rows, its factor is this one (the
         * same operations on the same numbers), and only the substitution is left to do. */
        if (it == 0) {
            const bool same_rows = position_rows_match(&d);
            stage_solve(&d, false, SETUP_NONE, factored && same_rows, skv_set1(1), NULL, NULL);
        } else {
            stage_solve(&d, true, SETUP_POSITION, false, skv_set1(1), NULL, NULL);
        }
        for (int i = 0; i < d.rows; i++) {
            const skv3 p = position(&d, i);
            set_position(&d, i, v3_select(present(&d, i), v3_add(p, particle_change(&d, i)), p));
        }
    }

    if (verlet)
        for (int i = 0; i < d.rows; i++) {
            sk_real *row = state + (size_t)i * SK_F_COUNT * W;
            const skv3 p = v3_load(row), q = v3_load(row + 3 * W), v = v3_load(ds->vel + (size_t)i * 3 * W);
            v3_store(row + 3 * W, v3_select(mask_of(ds->touched[i]), v3_sub(p, v3_scale(v, d.k.dt)), q));
        }
    st(rows, cfg->capacity + SK_C_CONTACTS, contacts);
    st(rows, cfg->capacity + SK_C_ITERATIONS, skv_add(passes, iterations));
}
