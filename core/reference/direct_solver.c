/* Reference engine: the direct chain solver (docs/model.md section 4.4). Every rod, cable, rod or cable anchor
 * and ground contact of a rope is a row of one banded system A = J W J^T, solved exactly by a banded LDL^T
 * elimination along the rope: first for the impulses that set the rows' velocities, then for the moves that
 * put the positions back on the constraints (Newton iterations). Plain scalar loops, the operation order the
 * document writes. */
#include <stdlib.h>

#include "model/ground.h"
#include "model/direct_rows.h"
#include "model/profile.h"
#include "model/real_math.h"
#include "model/vec3.h"
#include "reference/rope_impl.h"

bool sk_ref_direct_init(sk_ref_direct *d, int capacity)
{
    size_t slots = (size_t)sk_direct_slots(capacity);
    d->normal = calloc(slots, sizeof *d->normal);
    d->scale = calloc(slots, sizeof *d->scale);
    d->gap = calloc(slots, sizeof *d->gap);
    d->taut = calloc(slots, sizeof *d->taut);
    d->held = calloc(slots, sizeof *d->held);
    d->rhs = calloc(slots, sizeof *d->rhs);
    d->lambda = calloc(slots, sizeof *d->lambda);
    d->impulse = calloc(slots, sizeof *d->impulse);
    d->a0 = calloc(slots, sizeof *d->a0);
    d->a1 = calloc(slots, sizeof *d->a1);
    d->a2 = calloc(slots, sizeof *d->a2);
    d->inv = calloc(slots, sizeof *d->inv);
    d->l1 = calloc(slots, sizeof *d->l1);
    d->l2 = calloc(slots, sizeof *d->l2);
    d->kind = calloc(slots, sizeof *d->kind);
    d->dropped = calloc(slots, sizeof *d->dropped);
    d->active = calloc(slots, sizeof *d->active);
    d->touched = calloc((size_t)(capacity > 0 ? capacity : 1), sizeof *d->touched);
    if (!d->normal || !d->scale || !d->gap || !d->taut || !d->held || !d->rhs || !d->lambda || !d->impulse || !d->a0 || !d->a1 || !d->a2 || !d->inv ||
        !d->l1 || !d->l2 || !d->kind || !d->dropped || !d->active || !d->touched) {
        sk_ref_direct_free(d);
        return false;
    }
    return true;
}

void sk_ref_direct_free(sk_ref_direct *d)
{
    free(d->normal);
    free(d->scale);
    free(d->gap);
    free(d->taut);
    free(d->held);
    free(d->rhs);
    free(d->lambda);
    free(d->impulse);
    free(d->a0);
    free(d->a1);
    free(d->a2);
    free(d->inv);
    free(d->l1);
    free(d->l2);
    free(d->kind);
    free(d->dropped);
    free(d->active);
    free(d->touched);
    *d = (sk_ref_direct){0};
}

/* The particles of slot s's row: a, and b for a link (-1 for none). */
static int slot_a(int s) { return s == 0 ? 0 : (s - 1) / 2; }
static int slot_b(int s) { return s > 0 && s % 2 == 0 ? s / 2 : -1; }

static bool is_equality(unsigned char kind) { return kind == SK_ROW_ROD || kind == SK_ROW_ANCHOR_ROD; }

/* Which rows the rope has this step (kind per slot; none where every particle of the row is pinned), from
 * its link, anchor and ground types. */
static void set_kinds(sk_ref_rope *r)
{
    sk_ref_direct *d = &r->direct;
    const sk_group *g = r->group;
    const sk_particle *ps = r->world.particles;
    int n = r->world.count, slots = 2 * n;
    unsigned char link = g->link == SK_LINK_ROD ? SK_ROW_ROD : g->link == SK_LINK_CABLE ? SK_ROW_CABLE : SK_ROW_NONE;
    unsigned char anchor = g->anchor == SK_ANCHOR_ROD     ? SK_ROW_ANCHOR_ROD
                           : g->anchor == SK_ANCHOR_CABLE ? SK_ROW_ANCHOR_CABLE
                                                          : SK_ROW_NONE;
    for (int s = 0; s < slots; s++)
        d->kind[s] = SK_ROW_NONE;
    for (int i = 0; i < n; i++) {
        if (sk_scenario_rigid_ground(r->scenario) && ps[i].w != 0)
            d->kind[2 * i + 1] = SK_ROW_GROUND;
        if (i + 1 < n && (ps[i].w != 0 || ps[i + 1].w != 0))
            d->kind[2 * i + 2] = link;
    }
    /* Rod and cable anchors are for ropes that do not deploy: they hold particle 0. */
    if (ps[0].w != 0)
        d->kind[0] = anchor;
}

/* The length L of a link row (its own with a length profile) or of the anchor row s. */
static sk_real row_length(const sk_ref_rope *r, int s)
{
    if (s == 0)
        return r->group->deploys ? r->deploy_rest : r->params.anchor_length;
    return r->group->has_profiles ? sk_rope_link_length(r->group, &r->params, &r->c, slot_a(s)) : r->c.link_length;
}

/* A link row's or the anchor row's e: p_b - p_a, or x - p_0. */
static sk_vec3 row_vector(const sk_ref_rope *r, int s)
{
    const sk_particle *ps = r->world.particles;
    return s == 0 ? sk_vec3_sub(r->anchor, ps[0].p) : sk_vec3_sub(ps[slot_b(s)].p, ps[slot_a(s)].p);
}

/* Each row's normal, scale and gap g at the current positions: g = 0 is the constraint (rods), g >= 0 the
 * inequality (cables, ground). A link's or anchor's normal is e * (1/L): its unit direction times the scale
 * c = |e| * (1/L), which spares the division 1/|e| per row and evaluation; the right-hand sides are scaled by
 * the same c, so the solves give c times the unit rows' lambda and the same moves. The row's velocity J v is
 * c times the rate of g. */
static void evaluate_rows(sk_ref_rope *r)
{
    sk_ref_direct *d = &r->direct;
    const sk_particle *ps = r->world.particles;
    int n = r->world.count, slots = 2 * n;
    for (int s = 0; s < slots; s++) {
        switch (d->kind[s]) {
        case SK_ROW_ROD:
        case SK_ROW_CABLE:
        case SK_ROW_ANCHOR_ROD:
        case SK_ROW_ANCHOR_CABLE: {
            sk_vec3 e = row_vector(r, s);
            sk_real l = sk_vec3_length(e);
            const sk_real L = row_length(r, s), inv_L = 1 / L;
            d->normal[s] = sk_vec3_scale(e, inv_L);
            d->scale[s] = l * inv_L;
            d->gap[s] = L - l;
            d->taut[s] = (sk_real)SK_DIRECT_TAUT * L;
            break;
        }
        case SK_ROW_GROUND:
            d->normal[s] = sk_vec3_make(0, 1, 0);
            d->scale[s] = 1;
            d->gap[s] = ps[slot_a(s)].p.y - r->scenario->ground_height;
            d->taut[s] = 0;
            break;
        default:
            d->normal[s] = sk_vec3_zero();
            d->scale[s] = 1;
            d->gap[s] = 0;
            d->taut[s] = 0;
        }
    }
}

/* The row's velocity J v: c times the rate of its gap. */
static sk_real row_velocity(const sk_ref_rope *r, int s)
{
    const sk_particle *ps = r->world.particles;
    int b = slot_b(s);
    sk_vec3 v = ps[slot_a(s)].v;
    if (b >= 0)
        v = sk_vec3_sub(v, ps[b].v);
    return sk_vec3_dot(v, r->direct.normal[s]);
}

/* A = J W J^T over the active rows as a symmetric band: a0 the diagonal, a1 the coupling of slot s to s + 1,
 * a2 of s to s + 2. An inactive row is an identity row with no couplings. */
static void assemble(sk_ref_rope *r)
{
    sk_ref_direct *d = &r->direct;
    const sk_particle *ps = r->world.particles;
    int n = r->world.count, slots = 2 * n;
    const sk_vec3 *nr = d->normal;
    for (int s = 0; s < slots; s++) {
        d->a1[s] = 0;
        d->a2[s] = 0;
        if (!d->active[s]) {
            d->a0[s] = 1;
            continue;
        }
        int a = slot_a(s), b = slot_b(s);
        /* the ground's normal is a unit vector: w_a * 1 is w_a */
        d->a0[s] = (b >= 0 ? ps[a].w + ps[b].w : ps[a].w) * sk_vec3_dot(nr[s], nr[s]);
    }
    for (int s = 0; s + 1 < slots; s++) {
        if (!d->active[s] || !d->active[s + 1])
            continue;
        /* s and s + 1 share one particle: a ground row and a link or anchor row beside it. */
        if (s % 2 == 0) /* link s (or the anchor), then the ground row of its b (the anchor: its particle) */
            d->a1[s] = s == 0 ? ps[0].w * nr[0].y : ps[s / 2].w * (-nr[s].y);
        else /* the ground row of particle (s - 1) / 2, then its link */
            d->a1[s] = ps[(s - 1) / 2].w * nr[s + 1].y;
    }
    for (int s = 0; s + 2 < slots; s += 2) {
        if (!d->active[s] || !d->active[s + 2])
            continue;
        /* Two links (or an anchor and a link) meeting at particle s / 2: b of the first, a of the second;
         * the slot-0 anchor and link 0 both hold particle 0 as a. */
        int p = s / 2;
        sk_real dot = sk_vec3_dot(nr[s], nr[s + 2]);
        d->a2[s] = s == 0 ? ps[0].w * dot : ps[p].w * (-dot);
    }
}

/* Banded LDL^T of the active rows and the solve A lambda = rhs; inactive rows are skipped (lambda 0): a
 * row's elimination reads only its active neighbours. Pivots are kept as reciprocals, so each row costs one
 * division. A pivot that is not positive beyond round-off marks a row that depends on the rows before it
 * (redundant constraints): it leaves the system (inactive, lambda 0). */
void sk_ref_direct_solve(sk_ref_direct *d, int slots)
{
    const sk_real tiny = (sk_real)SK_DIRECT_PIVOT_EPSILON;
    for (int k = 0; k < slots; k++) {
        d->dropped[k] = false;
        d->lambda[k] = 0;
        if (!d->active[k])
            continue;
        /* Rows two slots apart share a particle only where both are links (or the anchor and link 0). */
        const bool near = k >= 1 && d->active[k - 1], far = k >= 2 && k % 2 == 0 && d->active[k - 2];
        sk_real t2 = 0, l2 = 0, t1 = 0, l1 = 0, pivot = d->a0[k], y = d->rhs[k];
        if (far) {
            t2 = d->a2[k - 2];
            l2 = t2 * d->inv[k - 2];
        }
        if (near) {
            t1 = d->a1[k - 1];
            if (far)
                t1 = t1 - t2 * d->l1[k - 1];
            l1 = t1 * d->inv[k - 1];
            pivot = pivot - t1 * l1;
            y = y - l1 * d->lambda[k - 1];
        }
        if (far) {
            pivot = pivot - t2 * l2;
            y = y - l2 * d->lambda[k - 2];
        }
        if (!(pivot > tiny * d->a0[k])) {
            d->dropped[k] = true;
            d->active[k] = false;
            continue;
        }
        d->inv[k] = 1 / pivot;
        d->l1[k] = l1;
        d->l2[k] = l2;
        d->lambda[k] = y;
    }
    for (int k = slots - 1; k >= 0; k--) {
        if (!d->active[k])
            continue;
        sk_real x = d->lambda[k] * d->inv[k];
        if (k + 1 < slots && d->active[k + 1])
            x = x - d->l1[k + 1] * d->lambda[k + 1];
        if (k + 2 < slots && k % 2 == 0 && d->active[k + 2])
            x = x - d->l2[k + 2] * d->lambda[k + 2];
        d->lambda[k] = x;
    }
}

/* W J^T lambda for particle i: the rows that hold it in slot order, each its direction times lambda, the
 * sum times w_i. */
static sk_vec3 particle_change(const sk_ref_rope *r, int i)
{
    const sk_ref_direct *d = &r->direct;
    sk_vec3 sum = sk_vec3_zero();
    if (i == 0 && d->active[0])
        sum = sk_vec3_add(sum, sk_vec3_scale(d->normal[0], d->lambda[0]));
    if (i >= 1 && d->active[2 * i])
        sum = sk_vec3_sub(sum, sk_vec3_scale(d->normal[2 * i], d->lambda[2 * i]));
    if (d->active[2 * i + 1])
        sum = sk_vec3_add(sum, sk_vec3_scale(d->normal[2 * i + 1], d->lambda[2 * i + 1]));
    if (i + 1 < r->world.count && d->active[2 * i + 2])
        sum = sk_vec3_add(sum, sk_vec3_scale(d->normal[2 * i + 2], d->lambda[2 * i + 2]));
    return sk_vec3_scale(sum, r->world.particles[i].w);
}

static void mark_touched(sk_ref_rope *r)
{
    sk_ref_direct *d = &r->direct;
    int n = r->world.count;
    for (int s = 0; s < 2 * n; s++)
        if (d->active[s]) {
            d->touched[slot_a(s)] = true;
            if (slot_b(s) >= 0)
                d->touched[slot_b(s)] = true;
        }
}

/* Solves the active rows, releasing each inequality whose lambda comes out negative (it would push a cable
 * or pull the ground) beyond round-off, and solving again, at most SK_DIRECT_PASSES solves; a negative
 * lambda left after the last is set to 0. Round-off: a change of the row's rate (velocities, per = dt) or gap
 * (positions, per = 1) within its taut band times per. Returns the solves made. */
static int solve_with_releases(sk_ref_rope *r, sk_real per)
{
    sk_ref_direct *d = &r->direct;
    int slots = 2 * r->world.count, pass = 0;
    for (bool released = true; released && pass < SK_DIRECT_PASSES;) {
        assemble(r);
        sk_ref_direct_solve(d, slots);
        pass++;
        released = false;
        for (int s = 0; s < slots; s++)
            if (d->active[s] && !is_equality(d->kind[s]) && d->lambda[s] * d->a0[s] < -(d->taut[s] * per) * d->scale[s]) {
                d->active[s] = false;
                released = true;
            }
    }
    for (int s = 0; s < slots; s++)
        if (!d->active[s])
            d->lambda[s] = 0;
    return pass;
}

/* Ground friction, once per step after the velocity solve: each particle whose ground row is active gets
 * Cyclone's rule (section 4.2) with its row's normal velocity change dvn = lambda w. Only (x, z) change, so
 * the ground rows keep their velocities; the links' may drift off 0 by the tangential change, which the
 * position stage's lengths absorb. */
static void apply_friction(sk_ref_rope *r)
{
    const sk_ref_direct *d = &r->direct;
    sk_particle *ps = r->world.particles;
    for (int i = 0; i < r->world.count; i++)
        if (d->active[2 * i + 1])
            sk_contact_friction(&ps[i], &r->friction, d->lambda[2 * i + 1] * ps[i].w);
}

/* Velocities: the impulses that give every active row its target velocity, rods 0, closing cables and
 * ground contacts what restitution asks (docs/model.md section 4.2's rule), separating ones 0 unless
 * released. Rows: every rod, each taut cable, the ground under a particle. */
static int resolve_velocities(sk_ref_rope *r)
{
    sk_ref_direct *d = &r->direct;
    sk_particle *ps = r->world.particles;
    int n = r->world.count, slots = 2 * n;
    int contacts = 0;
    for (int s = 0; s < slots; s++) {
        unsigned char kind = d->kind[s];
        /* A rod is a row whenever it exists: at length, it still holds its rate at 0. A cable counts as taut
         * within the round-off its last projection left (SK_DIRECT_TAUT of its length): one just put back at
         * length must stop the stretching the next step starts, or its neighbours' moves stretch it. */
        bool generated = is_equality(kind) ||
                         ((kind == SK_ROW_CABLE || kind == SK_ROW_ANCHOR_CABLE) && d->gap[s] <= d->taut[s]) ||
                         (kind == SK_ROW_GROUND && d->gap[s] < 0);
        sk_real vs = generated ? row_velocity(r, s) : 0;
        /* Every generated row starts active, a separating one too: the others' impulses may close it.
         * Whichever then needs to push (a cable) or pull (the ground) is released by the solve. */
        d->active[s] = generated;
        contacts += generated;
        d->rhs[s] = 0;
        if (!d->active[s])
            continue;
        sk_real target = 0;
        if (!is_equality(kind) && !(vs > 0)) { /* closing: what restitution gives back; separating: >= 0 */
            sk_real e = kind == SK_ROW_CABLE          ? r->params.link_restitution
                        : kind == SK_ROW_ANCHOR_CABLE ? r->params.anchor_restitution
                                                      : r->scenario->ground_restitution;
            target = (-vs) * e;
            if (kind != SK_ROW_CABLE) { /* the world's rows: the field's own closing velocity is not bounced */
                sk_real va = sk_vec3_dot(ps[slot_a(s)].a, d->normal[s]) * r->c.dt;
                if (va < 0) {
                    target = target + e * va;
                    if (target < 0)
                        target = 0;
                }
            }
        }
        d->rhs[s] = target - vs;
    }
    d->passes = solve_with_releases(r, r->c.inv_dt);
    for (int s = 0; s < slots; s++)
        d->held[s] = d->active[s];
    mark_touched(r);
    for (int i = 0; i < n; i++)
        ps[i].v = sk_vec3_add(ps[i].v, particle_change(r, i));
    if (r->scenario->has_friction)
        apply_friction(r);
    /* c lambda: the unit row's impulse */
    for (int s = 0; s < slots; s++)
        d->impulse[s] = d->lambda[s] * d->scale[s];
    return contacts;
}

/* Whether every row is within the tolerance tol at the current positions: a rod or rod anchor, and a cable
 * held by the velocity stage, with |e.e - L^2| <= 2 tol L^2 (its length within about tol L of L); any other
 * cable with e.e - L^2 <= 2 tol L^2; the ground under a particle held by the velocity stage with |y - h| <= tol
 * (m), any other with y - h >= -tol. Squared lengths: no square root for a test. */
static bool within_tolerance(const sk_ref_rope *r)
{
    const sk_ref_direct *d = &r->direct;
    const sk_particle *ps = r->world.particles;
    const sk_real tol = r->scenario->direct_tolerance, twice = 2 * tol;
    int slots = 2 * r->world.count;
    for (int s = 0; s < slots; s++) {
        unsigned char kind = d->kind[s];
        bool ok = true;
        if (kind == SK_ROW_NONE)
            continue;
        if (kind == SK_ROW_GROUND) {
            sk_real g = ps[slot_a(s)].p.y - r->scenario->ground_height;
            ok = d->held[s] ? SK_FABS(g) <= tol : g >= -tol;
        } else {
            sk_vec3 e = row_vector(r, s);
            sk_real L = row_length(r, s);
            sk_real LL = L * L, band = twice * LL, off = sk_vec3_dot(e, e) - LL;
            ok = is_equality(kind) || d->held[s] ? SK_FABS(off) <= band : off <= band;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* Positions: Newton iterations on the gaps, each a solve of A lambda = -g with A at the current positions,
 * moving the particles by W J^T lambda (velocities untouched, as Cyclone's interpenetration step), at most
 * direct.iterations of them: from the second on, a rope whose rows are all within the tolerance stops. Rods
 * are always rows; a cable or the ground only while violated (g < 0). Returns the iterations made. */
static int project_positions(sk_ref_rope *r)
{
    sk_ref_direct *d = &r->direct;
    sk_particle *ps = r->world.particles;
    int n = r->world.count, slots = 2 * n, it;
    for (it = 0; it < r->scenario->direct_iterations; it++) {
        if (it > 0) {
            if (within_tolerance(r))
                break;
            evaluate_rows(r);
        }
        for (int s = 0; s < slots; s++) {
            unsigned char kind = d->kind[s];
            /* The rows the velocities were solved with stay: moving the others' particles must not pull a
             * taut cable or a resting contact off its constraint. */
            d->active[s] = kind != SK_ROW_NONE && (is_equality(kind) || d->held[s] || d->gap[s] <= d->taut[s]);
            d->rhs[s] = d->active[s] ? (-d->gap[s]) * d->scale[s] : 0;
        }
        solve_with_releases(r, 1);
        mark_touched(r);
        for (int i = 0; i < n; i++)
            ps[i].p = sk_vec3_add(ps[i].p, particle_change(r, i));
    }
    return it;
}

void sk_ref_rope_direct_resolve(sk_ref_rope *r)
{
    sk_ref_direct *d = &r->direct;
    sk_world *w = &r->world;
    int n = w->count;
    sk_world_refresh_velocities(w); /* verlet: v = (p - q) / dt */
    for (int i = 0; i < n; i++)
        d->touched[i] = false;
    set_kinds(r);
    evaluate_rows(r);
    d->contacts = resolve_velocities(r);
    d->iterations = d->passes + project_positions(r);
    if (w->integrator == SK_INTEGRATOR_VERLET) {
        /* As after Cyclone's resolver: only the particles a row touched get a new q. */
        for (int i = 0; i < n; i++)
            if (d->touched[i])
                w->particles[i].q = sk_vec3_sub(w->particles[i].p, sk_vec3_scale(w->particles[i].v, w->dt));
        sk_world_refresh_velocities(w);
    }
}

void sk_ref_direct_system(sk_ref_rope *r)
{
    sk_ref_direct *d = &r->direct;
    set_kinds(r);
    evaluate_rows(r);
    for (int s = 0; s < 2 * r->world.count; s++)
        d->active[s] = d->kind[s] != SK_ROW_NONE;
    assemble(r);
}
