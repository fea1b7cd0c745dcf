/* Cyclone's contact resolver (docs/model.md section 4) in every lane of a pack at once.
 *
 * Each iteration every lane picks its own contact: the smallest key over the slots, which is the
 * reference's pick because a key is the separating velocity of a pickable contact and +inf otherwise,
 * and the scan starts, as the reference does, from the largest finite real and takes strictly smaller
 * keys, so the first index wins ties. Vector compares serve every lane at once; the slots are grouped
 * in blocks that keep their minimum, and only blocks whose keys changed are scanned again.
 *
 * Each lane then resolves its pick (velocity with restitution and the acceleration-field term, then
 * the interpenetration move) and updates the contacts that share a moved particle. Only those change:
 * every other slot keeps its cached normal, penetration and key, which are the bits the reference
 * would recompute from unchanged particles, so nothing is rescanned.
 *
 * Lanes that picked the same slot resolve it together with row operations (identical ropes, and ropes
 * that move alike, keep picking the same contacts); a lane alone on its slot resolves it in scalar
 * code on its column. Both follow the reference operation for operation (no FMA), so the bits do not
 * depend on which runs. A lane stops when nothing is left to pick or it has used its iterations (twice
 * its contacts, or the scenario's fixed count); from then on its column is left alone.
 *
 * Ground friction, where the scenario has it, follows the velocity step of each ground contact's
 * resolution in both paths, as in the reference; friction is a constant of the resolver's variants
 * (feature_mask.h), so a ground without friction pays nothing for it.
 *
 * One shortcut, exact: a link's acceleration-field term is dot(a - a, n) dt with the same finite field
 * a at both ends: zero or NaN, never negative, so it never changes the new separating velocity and is
 * not computed. */
#include <math.h>

#include "contacts.h"
#include "feature_mask.h"
#include "friction.h"
#include "model/friction.h"
#include "model/vec3.h"

/* The pack and its per-lane constants, as vectors for the row path and as reals for the lane path. */
typedef struct resolver {
    contact_scratch *cs;
    contact_slots sl;
    sk_real *state;            /* p of particle i: state + i * 6 W */
    sk_real *vel;              /* v of particle i: vel + i * vstride (the state's v, or verlet's scratch) */
    size_t vstride;
    const unsigned char *pinned;
    sk_real *impulse;          /* the state's impulse rows: link i at row i, the anchor at anchor_row */
    int anchor_row;
    skv w, dt, e_link, e_anchor, e_ground;
    skv3 acc;                  /* every particle's acceleration field, pinned ones too */
    sk_real w_l[SK_W], dt_l[SK_W], e_link_l[SK_W], e_anchor_l[SK_W], e_ground_l;
    sk_vec3 acc_l[SK_W];
    const sk_real *prof;       /* with profiles: the parameter block's rows, each particle's own w (pack.h) */
    skv mu_s, mu_k;            /* ground friction's coefficients (with friction only) */
    sk_real mu_s_l[SK_W], mu_k_l[SK_W];
} resolver;

enum { W = SK_W };

/* ---- rows of the pack and the scratch ----------------------------------------------------------- */

SK_INLINE bool is_link(const resolver *r, int s) { return s < r->sl.links; }
SK_INLINE bool is_ground(const resolver *r, int s) { return r->sl.ground >= 0 && s >= r->sl.ground; }

SK_INLINE sk_real *row_p(const resolver *r, int i) { return r->state + (size_t)i * SK_F_COUNT * W; }
SK_INLINE sk_real *row_v(const resolver *r, int i) { return r->vel + (size_t)i * r->vstride; }
SK_INLINE sk_real *row_n(const resolver *r, int s) { return r->cs->normal + (size_t)s * 3 * W; }
SK_INLINE sk_real *row_pen(const resolver *r, int s) { return r->cs->pen + (size_t)s * W; }
SK_INLINE sk_real *row_key(const resolver *r, int s) { return r->cs->key + (size_t)s * W; }
SK_INLINE sk_real *row_impulse(const resolver *r, int s)
{
    return r->impulse + (size_t)(is_link(r, s) ? s : r->anchor_row) * W;
}

/* A changed key: its block is scanned again. */
SK_INLINE void touch_block(const resolver *r, int s)
{
    const int b = r->cs->block_of_slot[s];
    r->cs->dirty[b >> 6] |= (uint64_t)1 << (b & 63);
}

/* The key of a contact (kernels/contact_generate.c): vs where pickable, +inf elsewhere. */
SK_INLINE skv key_of(skv vs, skv pen)
{
    skm pickable = skm_or(skv_lt(vs, skv_zero()), skv_gt(pen, skv_zero()));
    pickable = skm_and(pickable, skv_lt(vs, skv_set1(SK_REAL_MAX)));
    return skv_select(pickable, vs, skv_set1((sk_real)INFINITY));
}

SK_INLINE sk_real key_of_l(sk_real vs, sk_real pen)
{
    return (vs < 0 || pen > 0) && vs < SK_REAL_MAX ? vs : (sk_real)INFINITY;
}

/* ---- lanes that picked the same slot: row operations -------------------------------------------- */

SK_INLINE skv3 up3(void) { return v3_make(skv_zero(), skv_set1(1), skv_zero()); }

SK_INLINE skv w_rows(const resolver *r, int i)
{
    if (r->prof) /* a constant of the instantiation: NULL for uniform ropes */
        return r->pinned[i] ? skv_zero() : skv_load(r->prof + ((size_t)i * SK_Q_COUNT + SK_Q_W) * W);
    return r->pinned[i] ? skv_zero() : r->w;
}

/* The lanes of bits that generated contact j. */
SK_INLINE unsigned generated(const resolver *r, int j, unsigned bits) { return bits & r->cs->active[j]; }

/* Contact j of the lanes um after a resolution, by the reference's matching rules: its penetration
 * less its a end's move along its normal (sub, when that end moved), plus its b end's (add); its key
 * from its ends' velocities va and vb (vb NULL: the world). pen_old and key_old are its rows as they
 * are. Whole-row stores, so the next scan's loads are served from the store buffer. */
SK_INLINE void update_rows_from(const resolver *r, int j, skm um, skv3 n, const skv3 *sub, const skv3 *add, skv3 va,
                                const skv3 *vb, skv pen_old, skv key_old)
{
    skv pen = pen_old;
    if (sub)
        pen = skv_sub(pen, v3_dot(*sub, n));
    if (add)
        pen = skv_add(pen, v3_dot(*add, n));
    skv3 relative = va;
    if (vb)
        relative = v3_sub(relative, *vb);
    const skv vs = v3_dot(relative, n);
    skv_store(row_pen(r, j), skv_select(um, pen, pen_old));
    skv_store(row_key(r, j), skv_select(um, key_of(vs, pen), key_old));
    touch_block(r, j);
}

SK_INLINE void update_rows(const resolver *r, int j, skm um, skv3 n, const skv3 *sub, const skv3 *add, skv3 va,
                           const skv3 *vb)
{
    update_rows_from(r, j, um, n, sub, add, va, vb, skv_load(row_pen(r, j)), skv_load(row_key(r, j)));
}

/* The impulse a resolution delivered through a link or the anchor constraint, summed per step. */
SK_INLINE void add_impulse(const resolver *r, int s, skm m, skv impulse)
{
    sk_real *row = row_impulse(r, s);
    const skv old = skv_load(row);
    skv_store(row, skv_select(m, skv_add(old, impulse), old));
}

SK_INLINE void touch_particle(const resolver *r, int i, skm m)
{
    if (r->cs->touched) {
        sk_real *t = r->cs->touched + (size_t)i * W;
        skv_store(t, skv_select(m, skv_set1(1), skv_load(t)));
    }
}

/* Link k (particles k and k + 1) in the lanes of m: sk_contact_resolve, then the penetration updates
 * of the contacts sharing k or k + 1: links k - 1, k, k + 1, the anchor constraint (k = 0), the
 * ground under k and k + 1. */
SK_INLINE void resolve_link_rows(const resolver *r, int k, unsigned bits)
{
    const skm m = skm_from_bits(bits);
    const int a = k, b = k + 1;
    const skv3 n = v3_load(row_n(r, k));
    const skv vs = skv_load(row_key(r, k)); /* picked: the key is its separating velocity */
    const skv pen = skv_load(row_pen(r, k));
    const skv wa = w_rows(r, a), wb = w_rows(r, b);
    const skv total = skv_add(wa, wb);
    const skm has_mass = skm_not(skv_le(total, skv_zero()));
    sk_real *va_row = row_v(r, a), *vb_row = row_v(r, b);
    skv3 va = v3_load(va_row), vb = v3_load(vb_row);

    /* Velocity: the impulse that leaves the link separating at -vs e. */
    const skm mvel = skm_and(skm_and(m, skm_not(skv_gt(vs, skv_zero()))), has_mass);
    if (skm_any(mvel)) {
        const skv impulse = skv_div(skv_sub(skv_mul(skv_neg(vs), r->e_link), vs), total);
        const skv3 per_w = v3_scale(n, impulse);
        va = v3_select(mvel, v3_add(va, v3_scale(per_w, wa)), va);
        vb = v3_select(mvel, v3_add(vb, v3_scale(per_w, skv_neg(wb))), vb);
        v3_store(va_row, va);
        v3_store(vb_row, vb);
        add_impulse(r, k, mvel, impulse);
    }

    /* Interpenetration: both ends move along the normal in proportion to their inverse masses. */
    skv3 ma = v3_zero(), mb = v3_zero();
    const skm mpos = skm_and(skm_and(m, skm_not(skv_le(pen, skv_zero()))), has_mass);
    if (skm_any(mpos)) {
        const skv3 per_w = v3_scale(n, skv_div(pen, total));
        ma = v3_select(mpos, v3_scale(per_w, wa), v3_zero());
        mb = v3_select(mpos, v3_scale(per_w, skv_neg(wb)), v3_zero());
        sk_real *pa = row_p(r, a), *pb = row_p(r, b);
        const skv3 pa_old = v3_load(pa), pb_old = v3_load(pb);
        v3_store(pa, v3_select(mpos, v3_add(pa_old, ma), pa_old));
        v3_store(pb, v3_select(mpos, v3_add(pb_old, mb), pb_old));
    }
    touch_particle(r, a, m);
    touch_particle(r, b, m);

    /* The contacts sharing a or b. */
    if (k >= 1) { /* link k - 1: its b end is a */
        const unsigned um = generated(r, k - 1, bits);
        if (um) {
            const skv3 vp = v3_load(row_v(r, k - 1));
            update_rows(r, k - 1, skm_from_bits(um), v3_load(row_n(r, k - 1)), NULL, &ma, vp, &va);
        }
    }
    update_rows_from(r, k, m, n, &ma, &mb, va, &vb, pen, vs); /* every lane of m generated it */
    if (k + 1 < r->sl.links) { /* link k + 1: its a end is b */
        const unsigned um = generated(r, k + 1, bits);
        if (um) {
            const skv3 vn = v3_load(row_v(r, k + 2));
            update_rows(r, k + 1, skm_from_bits(um), v3_load(row_n(r, k + 1)), &mb, NULL, vb, &vn);
        }
    }
    if (r->sl.anchor >= 0 && a == 0) {
        const unsigned um = generated(r, r->sl.anchor, bits);
        if (um)
            update_rows(r, r->sl.anchor, skm_from_bits(um), v3_load(row_n(r, r->sl.anchor)), &ma, NULL, va, NULL);
    }
    if (r->sl.ground >= 0) {
        unsigned um = generated(r, r->sl.ground + a, bits);
        if (um)
            update_rows(r, r->sl.ground + a, skm_from_bits(um), up3(), &ma, NULL, va, NULL);
        um = generated(r, r->sl.ground + b, bits);
        if (um)
            update_rows(r, r->sl.ground + b, skm_from_bits(um), up3(), &mb, NULL, vb, NULL);
    }
}

/* A contact with the world (the anchor constraint or the ground) on particle i, in the lanes of m;
 * then links i - 1 and i, the anchor constraint (i = 0), the ground under i. friction: a constant of the
 * caller's instantiation (the ground's contacts have friction). */
SK_INLINE void resolve_world_rows(const resolver *r, int s, int i, unsigned bits, const bool friction)
{
    const skm m = skm_from_bits(bits);
    const bool anchor = s == r->sl.anchor;
    const skv3 n = anchor ? v3_load(row_n(r, s)) : up3();
    const skv vs = skv_load(row_key(r, s));
    const skv pen = skv_load(row_pen(r, s));
    const skv wa = w_rows(r, i);
    const skm has_mass = skm_not(skv_le(wa, skv_zero()));
    sk_real *va_row = row_v(r, i);
    skv3 va = v3_load(va_row);

    /* Velocity, less the closing velocity the acceleration field built up in this step. */
    const skm mvel = skm_and(skm_and(m, skm_not(skv_gt(vs, skv_zero()))), has_mass);
    if (skm_any(mvel)) {
        const skv e = anchor ? r->e_anchor : r->e_ground;
        skv new_separating = skv_mul(skv_neg(vs), e);
        const skv acc_separating = skv_mul(v3_dot(r->acc, n), r->dt);
        skv raised = skv_add(new_separating, skv_mul(e, acc_separating));
        raised = skv_select(skv_lt(raised, skv_zero()), skv_zero(), raised);
        new_separating = skv_select(skv_lt(acc_separating, skv_zero()), raised, new_separating);
        const skv impulse = skv_div(skv_sub(new_separating, vs), wa);
        va = v3_select(mvel, v3_add(va, v3_scale(v3_scale(n, impulse), wa)), va);
        if (friction && !anchor) /* the normal velocity change is the y component just added */
            va = v3_select(mvel, k_friction(va, r->mu_s, r->mu_k, skv_mul(impulse, wa)), va);
        v3_store(va_row, va);
        if (anchor)
            add_impulse(r, s, mvel, impulse);
    }

    skv3 ma = v3_zero();
    const skm mpos = skm_and(skm_and(m, skm_not(skv_le(pen, skv_zero()))), has_mass);
    if (skm_any(mpos)) {
        ma = v3_select(mpos, v3_scale(v3_scale(n, skv_div(pen, wa)), wa), v3_zero());
        sk_real *pa = row_p(r, i);
        const skv3 pa_old = v3_load(pa);
        v3_store(pa, v3_select(mpos, v3_add(pa_old, ma), pa_old));
    }
    touch_particle(r, i, m);

    if (i >= 1 && i - 1 < r->sl.links) { /* link i - 1: its b end is i */
        const unsigned um = generated(r, i - 1, bits);
        if (um) {
            const skv3 vp = v3_load(row_v(r, i - 1));
            update_rows(r, i - 1, skm_from_bits(um), v3_load(row_n(r, i - 1)), NULL, &ma, vp, &va);
        }
    }
    if (i < r->sl.links) { /* link i: its a end is i */
        const unsigned um = generated(r, i, bits);
        if (um) {
            const skv3 vn = v3_load(row_v(r, i + 1));
            update_rows(r, i, skm_from_bits(um), v3_load(row_n(r, i)), &ma, NULL, va, &vn);
        }
    }
    if (r->sl.anchor >= 0 && i == 0) {
        const unsigned um = anchor ? bits : generated(r, r->sl.anchor, bits);
        if (um)
            update_rows(r, r->sl.anchor, skm_from_bits(um), anchor ? n : v3_load(row_n(r, r->sl.anchor)), &ma, NULL, va, NULL);
    }
    if (r->sl.ground >= 0) {
        const unsigned um = anchor ? generated(r, r->sl.ground + i, bits) : bits;
        if (um)
            update_rows(r, r->sl.ground + i, skm_from_bits(um), up3(), &ma, NULL, va, NULL);
    }
}

/* ---- a lane alone on its slot: its column in scalar code ---------------------------------------- */

SK_INLINE sk_vec3 get3(const sk_real *row, int l) { return sk_vec3_make(row[l], row[W + l], row[2 * W + l]); }

SK_INLINE void put3(sk_real *row, int l, sk_vec3 a)
{
    row[l] = a.x;
    row[W + l] = a.y;
    row[2 * W + l] = a.z;
}

/* One lane's key written as a whole-row blend: the scan reads these rows with vector loads, which a
 * narrower store before them would stall. */
SK_INLINE void put_key(const resolver *r, int j, int l, sk_real value)
{
    sk_real *row = row_key(r, j);
    skv_store(row, skv_select(skm_from_bits(1u << l), skv_set1(value), skv_load(row)));
    touch_block(r, j);
}

SK_INLINE sk_vec3 normal_lane(const resolver *r, int s, int l)
{
    return is_ground(r, s) ? sk_vec3_make(0, 1, 0) : get3(row_n(r, s), l);
}

SK_INLINE sk_real w_lane(const resolver *r, int i, int l)
{
    if (r->prof)
        return r->pinned[i] ? 0 : r->prof[((size_t)i * SK_Q_COUNT + SK_Q_W) * W + (size_t)l];
    return r->pinned[i] ? 0 : r->w_l[l];
}

typedef struct moves_l {
    int a, b;
    sk_vec3 ma, mb;
} moves_l;

/* update_rows for one lane, with the reference's matching rules written out. */
static void update_lane(const resolver *r, int j, const moves_l *mv, int l)
{
    if (!((r->cs->active[j] >> l) & 1u))
        return;
    int ja, jb;
    contact_slot_particles(&r->sl, j, &ja, &jb);
    const sk_vec3 n = normal_lane(r, j, l);
    sk_real pen = row_pen(r, j)[l];
    if (ja == mv->a)
        pen = pen - sk_vec3_dot(mv->ma, n);
    else if (mv->b >= 0 && ja == mv->b)
        pen = pen - sk_vec3_dot(mv->mb, n);
    if (jb >= 0) {
        if (jb == mv->a)
            pen = pen + sk_vec3_dot(mv->ma, n);
        else if (mv->b >= 0 && jb == mv->b)
            pen = pen + sk_vec3_dot(mv->mb, n);
    }
    sk_vec3 relative = get3(row_v(r, ja), l);
    if (jb >= 0)
        relative = sk_vec3_sub(relative, get3(row_v(r, jb), l));
    row_pen(r, j)[l] = pen;
    put_key(r, j, l, key_of_l(sk_vec3_dot(relative, n), pen));
}

/* A lane's update of contact j after a resolution: its penetration less its a end's move along its
 * normal (sub) plus its b end's (add), its key from its ends' velocities (vb NULL: the world). */
SK_INLINE void update_lane_with(const resolver *r, int j, int l, sk_vec3 n, const sk_vec3 *sub, const sk_vec3 *add,
                                sk_vec3 va, const sk_vec3 *vb)
{
    sk_real pen = row_pen(r, j)[l];
    if (sub)
        pen = pen - sk_vec3_dot(*sub, n);
    if (add)
        pen = pen + sk_vec3_dot(*add, n);
    sk_vec3 relative = va;
    if (vb)
        relative = sk_vec3_sub(relative, *vb);
    row_pen(r, j)[l] = pen;
    put_key(r, j, l, key_of_l(sk_vec3_dot(relative, n), pen));
}

SK_INLINE bool generated_lane(const resolver *r, int j, int l) { return (r->cs->active[j] >> l) & 1u; }

/* resolve_link_rows for one lane: link k, particles k and k + 1. Inlined into each instantiation of the
 * resolver, as it was into the one resolver before there were two. */
SK_INLINE void resolve_link_lane(const resolver *r, int k, int l)
{
    const int a = k, b = k + 1;
    const sk_vec3 n = get3(row_n(r, k), l);
    const sk_real vs = row_key(r, k)[l], pen = row_pen(r, k)[l];
    const sk_real wa = w_lane(r, a, l), wb = w_lane(r, b, l);
    const sk_real total = wa + wb;
    sk_real *va_row = row_v(r, a), *vb_row = row_v(r, b);
    sk_vec3 va = get3(va_row, l), vb = get3(vb_row, l);
    if (!(vs > 0) && !(total <= 0)) {
        const sk_real impulse = (-vs * r->e_link_l[l] - vs) / total;
        const sk_vec3 per_w = sk_vec3_scale(n, impulse);
        va = sk_vec3_add(va, sk_vec3_scale(per_w, wa));
        vb = sk_vec3_add(vb, sk_vec3_scale(per_w, -wb));
        put3(va_row, l, va);
        put3(vb_row, l, vb);
        sk_real *row = row_impulse(r, k);
        row[l] = row[l] + impulse;
    }
    sk_vec3 ma = sk_vec3_zero(), mb = sk_vec3_zero();
    if (!(pen <= 0) && !(total <= 0)) {
        const sk_vec3 per_w = sk_vec3_scale(n, pen / total);
        ma = sk_vec3_scale(per_w, wa);
        mb = sk_vec3_scale(per_w, -wb);
        sk_real *pa = row_p(r, a), *pb = row_p(r, b);
        put3(pa, l, sk_vec3_add(get3(pa, l), ma));
        put3(pb, l, sk_vec3_add(get3(pb, l), mb));
    }
    if (r->cs->touched) {
        r->cs->touched[(size_t)a * W + l] = 1;
        r->cs->touched[(size_t)b * W + l] = 1;
    }
    if (k >= 1 && generated_lane(r, k - 1, l)) { /* link k - 1: its b end is a */
        const sk_vec3 vp = get3(row_v(r, k - 1), l);
        update_lane_with(r, k - 1, l, get3(row_n(r, k - 1), l), NULL, &ma, vp, &va);
    }
    update_lane_with(r, k, l, n, &ma, &mb, va, &vb);
    if (k + 1 < r->sl.links && generated_lane(r, k + 1, l)) { /* link k + 1: its a end is b */
        const sk_vec3 vn = get3(row_v(r, k + 2), l);
        update_lane_with(r, k + 1, l, get3(row_n(r, k + 1), l), &mb, NULL, vb, &vn);
    }
    if (r->sl.anchor >= 0 && a == 0 && generated_lane(r, r->sl.anchor, l))
        update_lane_with(r, r->sl.anchor, l, get3(row_n(r, r->sl.anchor), l), &ma, NULL, va, NULL);
    if (r->sl.ground >= 0) {
        const sk_vec3 up = sk_vec3_make(0, 1, 0);
        if (generated_lane(r, r->sl.ground + a, l))
            update_lane_with(r, r->sl.ground + a, l, up, &ma, NULL, va, NULL);
        if (generated_lane(r, r->sl.ground + b, l))
            update_lane_with(r, r->sl.ground + b, l, up, &mb, NULL, vb, NULL);
    }
}

/* The rows' resolution for one lane (friction as for resolve_world_rows). */
SK_INLINE void resolve_lane(const resolver *r, int s, int l, const bool friction)
{
    moves_l mv = {0, -1, sk_vec3_zero(), sk_vec3_zero()};
    contact_slot_particles(&r->sl, s, &mv.a, &mv.b);
    const int a = mv.a, b = mv.b;
    const sk_vec3 n = normal_lane(r, s, l);
    const sk_real vs = row_key(r, s)[l];
    const sk_real wa = w_lane(r, a, l), wb = b >= 0 ? w_lane(r, b, l) : 0;
    sk_real total = wa;
    if (b >= 0)
        total = total + wb;

    if (!(vs > 0) && !(total <= 0)) {
        const sk_real e = is_link(r, s) ? r->e_link_l[l] : s == r->sl.anchor ? r->e_anchor_l[l] : r->e_ground_l;
        sk_real new_separating = -vs * e;
        if (b < 0) {
            sk_real acc_separating = sk_vec3_dot(r->acc_l[l], n) * r->dt_l[l];
            if (acc_separating < 0) {
                new_separating = new_separating + e * acc_separating;
                if (new_separating < 0)
                    new_separating = 0;
            }
        }
        const sk_real impulse = (new_separating - vs) / total;
        const sk_vec3 per_w = sk_vec3_scale(n, impulse);
        sk_real *va = row_v(r, a);
        put3(va, l, sk_vec3_add(get3(va, l), sk_vec3_scale(per_w, wa)));
        if (friction && is_ground(r, s))
            sk_friction_apply(&va[l], &va[2 * W + l], r->mu_s_l[l], r->mu_k_l[l], impulse * wa);
        if (b >= 0) {
            sk_real *vb = row_v(r, b);
            put3(vb, l, sk_vec3_add(get3(vb, l), sk_vec3_scale(per_w, -wb)));
        }
        if (!is_ground(r, s)) {
            sk_real *row = row_impulse(r, s);
            row[l] = row[l] + impulse;
        }
    }

    const sk_real pen = row_pen(r, s)[l];
    if (!(pen <= 0) && !(total <= 0)) {
        const sk_vec3 per_w = sk_vec3_scale(n, pen / total);
        mv.ma = sk_vec3_scale(per_w, wa);
        sk_real *pa = row_p(r, a);
        put3(pa, l, sk_vec3_add(get3(pa, l), mv.ma));
        if (b >= 0) {
            mv.mb = sk_vec3_scale(per_w, -wb);
            sk_real *pb = row_p(r, b);
            put3(pb, l, sk_vec3_add(get3(pb, l), mv.mb));
        }
    }

    if (r->cs->touched) {
        r->cs->touched[(size_t)a * W + l] = 1;
        if (b >= 0)
            r->cs->touched[(size_t)b * W + l] = 1;
    }
    /* the contacts sharing a or b, each once: links a - 1, a and b, the anchor, the ground */
    const contact_slots *sl = &r->sl;
    if (a >= 1 && a - 1 < sl->links)
        update_lane(r, a - 1, &mv, l);
    if (a < sl->links)
        update_lane(r, a, &mv, l);
    if (b >= 0 && b < sl->links)
        update_lane(r, b, &mv, l);
    if (sl->anchor >= 0 && (a == 0 || b == 0))
        update_lane(r, sl->anchor, &mv, l);
    if (sl->ground >= 0) {
        update_lane(r, sl->ground + a, &mv, l);
        if (b >= 0)
            update_lane(r, sl->ground + b, &mv, l);
    }
}

/* ---- the scan ----------------------------------------------------------------------------------- */

/* A tournament over 8 (key, pick) pairs: each match keeps the right one only where its key is strictly
 * smaller, so the left (earlier) one wins ties and the winner is the first smallest. Three rounds deep
 * instead of a chain of 8 compares each waiting on the one before; written out so that it stays in
 * registers. */
#define SK_MATCH(k0, p0, k1, p1)                   \
    do {                                           \
        const skm right_ = skv_lt(k1, k0);         \
        k0 = skv_select(right_, k1, k0);           \
        p0 = skv_select(right_, p1, p0);           \
    } while (0)

SK_INLINE void tournament8(skv k0, skv k1, skv k2, skv k3, skv k4, skv k5, skv k6, skv k7, skv p0, skv p1, skv p2,
                           skv p3, skv p4, skv p5, skv p6, skv p7, skv *key, skv *pick)
{
    SK_MATCH(k0, p0, k1, p1);
    SK_MATCH(k2, p2, k3, p3);
    SK_MATCH(k4, p4, k5, p5);
    SK_MATCH(k6, p6, k7, p7);
    SK_MATCH(k0, p0, k2, p2);
    SK_MATCH(k4, p4, k6, p6);
    SK_MATCH(k0, p0, k4, p4);
    *key = k0;
    *pick = p0;
}

/* Every lane's smallest key and its first slot over block i (slots of no lane's contacts hold +inf):
 * the tournament runs on positions 0..7, the block's first slot is added once. */
SK_INLINE void scan_block(contact_scratch *cs, int i)
{
    const int first = cs->block_slot[i];
    const sk_real *k = cs->key + (size_t)first * W;
    skv key, pick;
    tournament8(skv_load(k), skv_load(k + W), skv_load(k + 2 * W), skv_load(k + 3 * W), skv_load(k + 4 * W),
                skv_load(k + 5 * W), skv_load(k + 6 * W), skv_load(k + 7 * W), skv_set1(0), skv_set1(1), skv_set1(2),
                skv_set1(3), skv_set1(4), skv_set1(5), skv_set1(6), skv_set1(7), &key, &pick);
    skv_store(cs->block_min + (size_t)i * W, key);
    skv_store(cs->block_pick + (size_t)i * W, skv_add(pick, skv_set1((sk_real)first)));
}

/* The blocks' minima in order, eight at a time by tournament (the arrays hold +inf past the last block),
 * the groups chained: a later group wins only on a strictly smaller key, so the first index still wins
 * ties. Keys start from the reference's best, the largest finite real: nothing at or above it is
 * picked. */
SK_INLINE void scan(contact_scratch *cs, skv *best, skv *pick)
{
    const int nb = cs->n_blocks;
    for (int w = 0; w < (nb + 63) / 64; w++) {
        for (uint64_t d = cs->dirty[w]; d; d &= d - 1)
            scan_block(cs, w * 64 + __builtin_ctzll(d));
        cs->dirty[w] = 0;
    }
    const sk_real *bk = cs->block_min, *bp = cs->block_pick;
    if (nb <= 4) { /* the usual rope of up to 16 particles, or one in the air: a tournament of four */
        skv k0 = skv_load(bk), k1 = skv_load(bk + W), k2 = skv_load(bk + 2 * W), k3 = skv_load(bk + 3 * W);
        skv p0 = skv_load(bp), p1 = skv_load(bp + W), p2 = skv_load(bp + 2 * W), p3 = skv_load(bp + 3 * W);
        SK_MATCH(k0, p0, k1, p1);
        SK_MATCH(k2, p2, k3, p3);
        SK_MATCH(k0, p0, k2, p2);
        *best = k0;
        *pick = p0;
        return;
    }
    skv b = skv_set1(SK_REAL_MAX), p = skv_set1(-1);
    for (int g = 0; g < nb; g += 8, bk += 8 * W, bp += 8 * W) {
        skv key, q;
        tournament8(skv_load(bk), skv_load(bk + W), skv_load(bk + 2 * W), skv_load(bk + 3 * W), skv_load(bk + 4 * W),
                    skv_load(bk + 5 * W), skv_load(bk + 6 * W), skv_load(bk + 7 * W), skv_load(bp), skv_load(bp + W),
                    skv_load(bp + 2 * W), skv_load(bp + 3 * W), skv_load(bp + 4 * W), skv_load(bp + 5 * W),
                    skv_load(bp + 6 * W), skv_load(bp + 7 * W), &key, &q);
        const skm later = skv_lt(key, b);
        b = skv_select(later, key, b);
        p = skv_select(later, q, p);
    }
    *best = b;
    *pick = p;
}

/* Every lane of `lanes` picked `slot`. */
SK_INLINE bool picked_by_all(skv pick, int slot, unsigned lanes)
{
    return ((unsigned)skm_bits(skv_eq(pick, skv_set1((sk_real)slot))) & lanes) == lanes;
}

/* ---- the resolver ------------------------------------------------------------------------------- */

/* The resolver of a pack; friction and profiles are constants in each of its variants (feature_mask.h), so
 * that a ground without friction and uniform ropes (one inverse mass) pay for neither. */
SK_INLINE void resolve_pack(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, contact_scratch *cs,
                            const sk_real *counts, const bool friction, const bool profiles)
{
    sk_real *rows = sk_pack_contact_rows(cfg, state, SK_W);
    sk_real *contacts_row = rows + (size_t)(cfg->capacity + SK_C_CONTACTS) * W;
    sk_real *iterations_row = rows + (size_t)(cfg->capacity + SK_C_ITERATIONS) * W;
    for (size_t i = 0; i < (size_t)cfg->capacity * W; i++)
        rows[i] = 0;

    const bool verlet = cfg->integrator == SK_INTEGRATOR_VERLET;
    resolver r = {
        .cs = cs,
        .sl = cs->slots,
        .state = state,
        .vel = verlet ? cs->vel : state + 3 * W,
        .vstride = verlet ? 3 * W : (size_t)SK_F_COUNT * W,
        .pinned = cfg->pinned,
        .impulse = rows,
        .anchor_row = cfg->capacity - 1,
        .w = kp_get(param, SK_P_W),
        .dt = kp_get(param, SK_P_DT),
        .e_link = cfg->link == SK_LINK_CABLE ? kp_get(param, SK_P_LINK_E) : skv_zero(),
        .e_anchor = cfg->anchor == SK_ANCHOR_CABLE ? kp_get(param, SK_P_ANCHOR_E) : skv_zero(),
        .e_ground = skv_set1(cfg->ground_restitution),
        .acc = v3_load(param + (size_t)SK_P_ACC * W),
        .e_ground_l = cfg->ground_restitution,
        .prof = profiles ? sk_pack_profile_rows(param, W) : NULL,
    };
    if (friction) {
        r.mu_s = kp_get(param, SK_P_MU_S);
        r.mu_k = kp_get(param, SK_P_MU_K);
        skv_store(r.mu_s_l, r.mu_s);
        skv_store(r.mu_k_l, r.mu_k);
    }
    skv_store(r.w_l, r.w);
    skv_store(r.dt_l, r.dt);
    skv_store(r.e_link_l, r.e_link);
    skv_store(r.e_anchor_l, r.e_anchor);
    for (int l = 0; l < W; l++)
        r.acc_l[l] = sk_vec3_make(param[(size_t)SK_P_ACC * W + (size_t)l], param[(size_t)SK_P_ACC_Y * W + (size_t)l],
                                  param[(size_t)SK_P_ACC_Z * W + (size_t)l]);

    /* Per lane, as reals (exact integers): the iterations it may use (the reference's budget: none
     * without contacts) and those used. */
    const skv count = skv_load(counts);
    const skv budget = skv_select(skv_eq(count, skv_zero()), skv_zero(),
                                  cfg->iterations > 0 ? skv_set1((sk_real)cfg->iterations) : skv_add(count, count));
    skv used = skv_zero();
    unsigned live = (unsigned)skm_bits(skv_lt(skv_zero(), budget));

    _Alignas(64) sk_real pick_l[W];
    int last = -1; /* the slot every live lane picked in the last iteration, or -1 */
    while (live) {
        skv best, pick;
        scan(cs, &best, &pick);
        /* lanes with nothing closing or overlapping are done */
        const unsigned before = live;
        live &= (unsigned)skm_bits(skv_lt(best, skv_set1(SK_REAL_MAX)));
        if (!live)
            break;
        /* Every live lane picked the same slot, and it is the one the resolver's sweep along the chain
         * makes likely: the link next to the last pick, the anchor constraint, link 0 after the anchor.
         * Each guess is checked with one compare of the picks against it, and taken as a predicted
         * branch whose slot and lanes come from the last iteration (or are constants), not from the
         * scan, so the processor starts the resolution while the scan that confirms it is still
         * running; the empty asm keeps the compiler from using the scan's values in their place. */
        const bool all = live == before;
        if (all && last >= 0 && last + 1 < r.sl.links && picked_by_all(pick, last + 1, before)) {
            int k = last + 1;
            unsigned lanes = before;
            __asm__("" : "+r"(k), "+r"(lanes));
            resolve_link_rows(&r, k, lanes);
            last = k;
            live = lanes;
        } else if (all && last >= 1 && last - 1 < r.sl.links && picked_by_all(pick, last - 1, before)) {
            int k = last - 1;
            unsigned lanes = before;
            __asm__("" : "+r"(k), "+r"(lanes));
            resolve_link_rows(&r, k, lanes);
            last = k;
            live = lanes;
        } else if (all && r.sl.anchor >= 0 && picked_by_all(pick, r.sl.anchor, before)) {
            unsigned lanes = before;
            __asm__("" : "+r"(lanes));
            resolve_world_rows(&r, r.sl.anchor, 0, lanes, friction);
            last = r.sl.anchor;
            live = lanes;
        } else if (all && last >= 0 && last == r.sl.anchor && r.sl.links > 0 && picked_by_all(pick, 0, before)) {
            unsigned lanes = before;
            __asm__("" : "+r"(lanes));
            resolve_link_rows(&r, 0, lanes);
            last = 0;
            live = lanes;
        } else {
            skv_store(pick_l, pick);
            const int s0 = (int)pick_l[__builtin_ctz(live)];
            const unsigned same0 = live & (unsigned)skm_bits(skv_eq(pick, skv_set1((sk_real)s0)));
            for (unsigned left = live; left;) {
                const int l = __builtin_ctz(left);
                const int s = (int)pick_l[l];
                const unsigned same = left & (unsigned)skm_bits(skv_eq(pick, skv_set1(pick_l[l])));
                if (same & (same - 1)) {
                    int a, b;
                    contact_slot_particles(&r.sl, s, &a, &b);
                    if (b >= 0)
                        resolve_link_rows(&r, s, same);
                    else
                        resolve_world_rows(&r, s, a, same, friction);
                } else if (s < r.sl.links) {
                    resolve_link_lane(&r, s, l);
                } else {
                    resolve_lane(&r, s, l, friction);
                }
                left &= ~same;
            }
            last = same0 == live ? s0 : -1;
        }
        const skm was_live = skm_from_bits(live);
        used = skv_select(was_live, skv_add(used, skv_set1(1)), used);
        live &= (unsigned)skm_bits(skv_lt(used, budget));
    }

    /* A rod that pushed (too short) reports its impulse negative: a tension below zero. */
    const int normal_slots = contact_normal_slots(&r.sl);
    for (int s = 0; s < normal_slots; s++)
        if (cs->pushes[s]) {
            sk_real *row = row_impulse(&r, s);
            const skv impulse = skv_load(row);
            skv_store(row, skv_select(skm_from_bits(cs->pushes[s]), skv_neg(impulse), impulse));
        }

    /* Verlet: q = p - v dt for the particles of contacts picked at least once; the others keep their
     * q bits. */
    if (verlet) {
        const int present = kp_max_count(param);
        for (int i = 0; i < present; i++) {
            sk_real *row = state + (size_t)i * SK_F_COUNT * W;
            const skv3 p = v3_load(row), q = v3_load(row + 3 * W);
            const skv3 v = v3_load(cs->vel + (size_t)i * 3 * W);
            const skm touched = skv_ne(skv_load(cs->touched + (size_t)i * W), skv_zero());
            v3_store(row + 3 * W, v3_select(touched, v3_sub(p, v3_scale(v, r.dt)), q));
        }
    }
    skv_store(contacts_row, count);
    skv_store(iterations_row, used);
}

#define RESOLVE_VARIANTS(X) K_EACH2(X, resolve, K_FRICTION, K_PROFILES)
#define K_VARIANT_RUN(ft) resolve_pack(cfg, param, state, cs, counts, (ft).friction, (ft).profiles)

void SK_KNAME(sk_contact_resolve)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state,
                                  contact_scratch *cs, const sk_real *counts)
{
    K_VARIANTS_INLINE(k_cfg_mask(cfg), RESOLVE_VARIANTS);
}
