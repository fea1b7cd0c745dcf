/* The implicit integrator's per-lane block-tridiagonal (Thomas) solve against a dense LAPACK solve of the same
 * system. Ropes start at rest at random 3D positions (set through sk_engine_import_rope) with damping 1, so one
 * step of the batch engine leaves v = dv of the first Newton iteration exactly. The test assembles the dense
 * 3m x 3m system A dv = b (m unpinned particles) from the model's formulas in double, independently of the
 * engine's code, solves it with LAPACKE_dgesv and holds every ISA's dv to it:
 *   max |dv_engine - dv_lapack| / max |dv_lapack| <= TOL_DIFF, and ||A dv_engine - b|| / ||b|| <= TOL_RES.
 * A = M + T + S: M = m~ I per unpinned particle, T = dt k1 I (linear drag) and the fake spring's fake_jv I on
 * the held particle, S the stiffness blocks dt^2 k ((1 - a) u u^T + a I), a = max(0, 1 - L/l), of every
 * spring, taut bungee and anchored spring; the fake spring adds fake_jx I. b = dt (f + m~ g): at v = 0 the
 * drag force is 0 and gravity counts whether it is a force or the acceleration field.
 * A float build compares at float's precision instead (TOL_* below). */
#include <lapacke.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "test_batch_common.h"
#include "engine/engine_state.h"
#include "model/sym3.h"

#ifdef SKEIN_REAL_FLOAT
/* every input is rounded to float and cond(A) reaches about 4e3: a stable float solve of these systems (banded
 * Cholesky, LAPACKE_spbsv) stays within 1e-4 of dgesv's */
#define TOL_DIFF 1e-3
#define TOL_RES 1e-5
#else
/* a stable solve (dgesv, or banded Cholesky LAPACKE_dpbsv, which is within 3e-13 of it here) leaves residuals
 * near 3e-16 */
#define TOL_DIFF 1e-12
#define TOL_RES 1e-12
#endif

#define DT 2e-3
#define MAX_GROUPS 6
#define MAX_PINNED 8

/* ---- deterministic random numbers (SplitMix64) ----------------------------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static double urand(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

static double uniform(rng *r, double lo, double hi) { return lo + (hi - lo) * urand(r); }

/* 10^U(lo, hi): ratios spread over decades */
static double log_uniform(rng *r, double lo, double hi) { return pow(10, uniform(r, log10(lo), log10(hi))); }

/* ---- what a case builds ---------------------------------------------------------------------------------- */

typedef struct group_spec {
    int n;                  /* particles; 0: random in [4, 199] */
    int count;              /* ropes */
    const char *link;       /* "spring" or "bungee" */
    const char *anchor;     /* NULL, "anchored_spring", "anchored_bungee" or "fake_spring" */
    bool drag;
    int pinned[MAX_PINNED]; /* -1 ends; -2 stands for n / 2 (a random n's middle) */
} group_spec;

typedef struct case_spec {
    const char *name;
    const char *gravity_as;
    double ratio_lo, ratio_hi; /* dt^2 k / m~ of links and anchored springs (dt^2 k of the fake spring) */
    uint64_t seed;
    double diff_scale; /* TOL_DIFF times this (0: 1): for systems whose condition makes any two stable solves
                        * differ by more (the residual's tolerance stays) */
    group_spec groups[MAX_GROUPS];
} case_spec;

#define END_PINS -1
#define MID -2

/* Appends printf text to buf. */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *len, *len < size ? size - *len : 0, fmt, ap);
    va_end(ap);
    *len += k > 0 ? (size_t)k : 0;
}

/* A sweep "key": {"values": [...]} of count values. */
static void sweep_values(char *buf, size_t size, size_t *len, const char *key, const double *v, int count)
{
    append(buf, size, len, "\"%s\": {\"values\": [", key);
    for (int r = 0; r < count; r++)
        append(buf, size, len, "%s%.17g", r ? ", " : "", v[r]);
    append(buf, size, len, "]}, ");
}

static int group_particles(const group_spec *g, rng *r) { return g->n ? g->n : 4 + (int)(urand(r) * 196); }

/* The scenario text of a case: per-rope mass, stiffness, rest lengths, anchor and drag values. */
static int case_json(const case_spec *c, char *buf, size_t size)
{
    rng r = {c->seed};
    size_t len = 0;
    append(buf, size, &len,
           "{\"skein\": 1, \"dt\": %g, \"steps\": 1, \"integrator\": \"implicit\", \"implicit\": {\"iterations\": 1},"
           " \"gravity\": [0.3, -9.81, 0.2], \"gravity_as\": \"%s\", \"groups\": [",
           DT, c->gravity_as);
    for (int gi = 0; gi < MAX_GROUPS && c->groups[gi].count; gi++) {
        const group_spec *g = &c->groups[gi];
        const int n = group_particles(g, &r), count = g->count;
        append(buf, size, &len,
               "%s{\"count\": %d, \"particles\": %d, \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"damping\": 1,"
               " \"link\": {\"type\": \"%s\", \"stiffness\": 1, \"length\": 1}, \"pinned\": [",
               gi ? ", " : "", count, n, g->link);
        for (int k = 0; k < MAX_PINNED && g->pinned[k] != END_PINS; k++)
            append(buf, size, &len, "%s%d", k ? ", " : "", g->pinned[k] == MID ? n / 2 : g->pinned[k]);
        append(buf, size, &len, "], ");
        const bool fake = g->anchor && strcmp(g->anchor, "fake_spring") == 0;
        if (g->anchor)
            append(buf, size, &len,
                   "\"anchor\": {\"type\": \"%s\", \"point\": [0.25, 1.5, -0.75], \"stiffness\": 1%s}, ", g->anchor,
                   fake ? ", \"damping\": 0" : "");
        if (g->drag) /* k2 acts only on a moving particle: at rest it must add nothing */
            append(buf, size, &len, "\"drag\": {\"k1\": 1, \"k2\": 0.5}, ");
        append(buf, size, &len, "\"sweep\": {");
        double mass[64], k[64], l[64], ak[64], al[64], ad[64], k1[64];
        if (count > 64)
            return 1;
        for (int i = 0; i < count; i++) { /* ropes 0 and 1 take the ratio range's ends: every group spans it */
            const double lo = c->ratio_lo, hi = c->ratio_hi;
            const double ratio = i == 0 ? lo : i == 1 ? hi : log_uniform(&r, lo, hi);
            const double aratio = i == 1 ? lo : i == 0 ? hi : log_uniform(&r, lo, hi);
            mass[i] = log_uniform(&r, 0.01, 10);
            k[i] = ratio * mass[i] / (DT * DT);
            l[i] = uniform(&r, 0.05, 0.5);
            ak[i] = fake ? aratio / (DT * DT) : aratio * mass[i] / (DT * DT);
            al[i] = i % 4 == 3 ? 0 : uniform(&r, 0.5, 1.5) * l[i]; /* some ropes at rest length 0 */
            ad[i] = uniform(&r, 0, 1.9) * sqrt(ak[i]);           /* 4k > c^2: the fake spring is active */
            k1[i] = log_uniform(&r, 1e-2, 10) * mass[i] / DT;    /* dt k1 / m from 1e-2 to 10 */
        }
        sweep_values(buf, size, &len, "mass", mass, count);
        sweep_values(buf, size, &len, "link.stiffness", k, count);
        if (g->anchor) {
            sweep_values(buf, size, &len, "anchor.stiffness", ak, count);
            sweep_values(buf, size, &len, fake ? "anchor.damping" : "anchor.length", fake ? ad : al, count);
        }
        if (g->drag) {
            sweep_values(buf, size, &len, "drag.k1", k1, count);
            append(buf, size, &len, "\"drag.k2\": {\"random\": {\"min\": 0.1, \"max\": 3, \"seed\": %d}}, ", gi + 1);
        }
        sweep_values(buf, size, &len, "link.length", l, count);
        len -= 2; /* the last ", " */
        append(buf, size, &len, "}}");
    }
    append(buf, size, &len, "]}");
    return len < size ? 0 : 1;
}

/* ---- the dense system ------------------------------------------------------------------------------------ */

typedef struct dense {
    int n, m;     /* particles, unknowns / 3 */
    int *row;     /* [n] first unknown of particle i (3 each), -1 when pinned */
    double *a;    /* [3m][3m] column-major */
    double *b;    /* [3m] */
    int slack[2], taut[2]; /* bungee links [0] and anchored bungees [1] seen slack and taut */
} dense;

static void add_block(dense *d, int i, int j, double s, const double blk[3][3])
{
    if (d->row[i] < 0 || d->row[j] < 0)
        return;
    const int M = 3 * d->m;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            d->a[(size_t)(d->row[j] + c) * (size_t)M + (size_t)(d->row[i] + r)] += s * blk[r][c];
}

static void add_diagonal(dense *d, int i, double s)
{
    const double id[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    add_block(d, i, i, s, id);
}

/* A spring's stiffness block times dt^2 (kdt2 ((1 - a) u u^T + a I)) and its force on end a ((L - l) k u), for
 * end a at offset dd from end b. Returns false for a slack bungee, which has neither. */
static bool spring(const double dd[3], double rest, double k, double dt, bool bungee, double blk[3][3], double f[3],
                   int *slack, int *taut)
{
    const double l = sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]);
    if (bungee) {
        *slack += !(l > rest);
        *taut += l > rest;
    }
    if (bungee && !(l > rest))
        return false;
    const double u[3] = {dd[0] / l, dd[1] / l, dd[2] / l};
    const double a = fmax(0, 1 - rest / l), kdt2 = k * dt * dt;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++)
            blk[r][c] = kdt2 * ((1 - a) * u[r] * u[c] + (r == c ? a : 0));
        f[r] = u[r] * (rest - l) * k;
    }
    return true;
}

/* A dv = b of one rope at positions x (v = 0), from the model's formulas. */
static int assemble(const sk_scenario *s, const sk_group *g, const sk_rope_params *p, int n, const sk_real *xr,
                    dense *d)
{
    d->n = n;
    d->row = malloc((size_t)n * sizeof *d->row);
    double *x = malloc((size_t)n * 3 * sizeof *x), *f = calloc((size_t)n * 3, sizeof *f);
    CHECK(d->row && x && f);
    for (int i = 0; i < 3 * n; i++)
        x[i] = (double)xr[i];
    d->m = 0;
    for (int i = 0; i < n; i++) {
        bool pinned = false;
        for (int k = 0; k < g->n_pinned; k++)
            pinned |= g->pinned[k] == i;
        d->row[i] = pinned ? -1 : 3 * d->m++;
    }
    const size_t M = 3 * (size_t)d->m;
    d->a = calloc(M * M + 1, sizeof *d->a);
    d->b = calloc(M + 1, sizeof *d->b);
    CHECK(d->a && d->b);

    const double dt = (double)s->dt, w = 1 / (double)p->mass, mass = 1 / w;
    const double gravity[3] = {(double)s->gravity.x, (double)s->gravity.y, (double)s->gravity.z};
    for (int i = 0; i < n; i++) {
        add_diagonal(d, i, mass + (g->has_drag ? (double)p->drag_k1 * dt : 0));
        for (int c = 0; c < 3; c++) /* gravity, as a force or as the acceleration field */
            f[3 * i + c] += gravity[c] * mass;
    }
    const bool bungee = g->link == SK_LINK_BUNGEE;
    for (int i = 0; i + 1 < n; i++) {
        double dd[3], blk[3][3], fl[3];
        for (int c = 0; c < 3; c++)
            dd[c] = x[3 * i + c] - x[3 * (i + 1) + c];
        if (!spring(dd, (double)p->link_length, (double)p->link_stiffness, dt, bungee, blk, fl, &d->slack[0],
                    &d->taut[0]))
            continue;
        add_block(d, i, i, 1, blk);
        add_block(d, i + 1, i + 1, 1, blk);
        add_block(d, i, i + 1, -1, blk);
        add_block(d, i + 1, i, -1, blk);
        for (int c = 0; c < 3; c++) {
            f[3 * i + c] += fl[c];
            f[3 * (i + 1) + c] -= fl[c];
        }
    }
    /* the anchor holds particle 0 (no group here deploys) */
    const double xa[3] = {(double)p->anchor_point.x, (double)p->anchor_point.y, (double)p->anchor_point.z};
    double r0[3];
    for (int c = 0; c < 3; c++)
        r0[c] = x[c] - xa[c];
    if (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE) {
        double blk[3][3], fa[3];
        const bool bungee_anchor = g->anchor == SK_ANCHOR_BUNGEE;
        if (spring(r0, (double)p->anchor_length, (double)p->anchor_stiffness, dt, bungee_anchor, blk, fa, &d->slack[1],
                   &d->taut[1])) {
            add_block(d, 0, 0, 1, blk);
            for (int c = 0; c < 3; c++)
                f[c] += fa[c];
        }
    } else if (g->anchor == SK_ANCHOR_FAKE_SPRING) {
        /* docs/model.md 3.3 at v = 0: acc = (target - r) / dt^2, target = r (cg + cr sg) ex; linear in r */
        const double k = (double)p->anchor_stiffness, damping = (double)p->anchor_damping;
        const double gamma = 0.5 * sqrt(4 * k - damping * damping);
        CHECK(isfinite(gamma) && gamma > 0); /* the cases keep it active */
        const double cr = damping / (2 * gamma), cv = 1 / gamma, cg = cos(gamma * dt), sg = sin(gamma * dt),
                     ex = exp(-0.5 * dt * damping);
        const double jx = mass * (1 - (cg + cr * sg) * ex), jv = mass * (1 - cv * sg * ex / dt);
        add_diagonal(d, 0, jx + jv);
        for (int c = 0; c < 3; c++)
            f[c] += ((r0[c] * (cg + cr * sg)) * ex - r0[c]) / (dt * dt) * mass;
    }
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3 && d->row[i] >= 0; c++)
            d->b[d->row[i] + c] = dt * f[3 * i + c];
    free(x);
    free(f);
    return 0;
}

static void dense_free(dense *d)
{
    free(d->row);
    free(d->a);
    free(d->b);
}

/* dv of every particle (0 for pinned ones) from LAPACK's dense LU with partial pivoting. */
static int dense_solve(const dense *d, double *dv)
{
    const size_t M = 3 * (size_t)d->m;
    double *a = malloc((M * M + 1) * sizeof *a), *b = malloc((M + 1) * sizeof *b);
    lapack_int *ipiv = malloc((M + 1) * sizeof *ipiv);
    CHECK(a && b && ipiv);
    memcpy(a, d->a, M * M * sizeof *a);
    memcpy(b, d->b, M * sizeof *b);
    const lapack_int lm = (lapack_int)M;
    lapack_int info = M ? LAPACKE_dgesv(LAPACK_COL_MAJOR, lm, 1, a, lm, ipiv, b, lm) : 0;
    if (info != 0)
        fprintf(stderr, "LAPACKE_dgesv: info %d\n", (int)info);
    for (int i = 0; i < d->n; i++)
        for (int c = 0; c < 3; c++)
            dv[3 * i + c] = d->row[i] < 0 ? 0 : b[d->row[i] + c];
    free(a);
    free(b);
    free(ipiv);
    return info == 0 ? 0 : 1;
}

/* ||A v - b||_2 / ||b||_2: how well v (the engine's dv, or LAPACK's rounded to sk_real) solves the system. */
static double residual(const dense *d, const sk_real *v)
{
    const size_t M = 3 * (size_t)d->m;
    double num = 0, den = 0;
    for (size_t r = 0; r < M; r++) {
        double acc = -d->b[r];
        for (int i = 0; i < d->n; i++)
            for (int c = 0; c < 3 && d->row[i] >= 0; c++)
                acc += d->a[(size_t)(d->row[i] + c) * M + r] * (double)v[3 * i + c];
        num += acc * acc;
        den += d->b[r] * d->b[r];
    }
    return sqrt(num) / sqrt(den);
}

/* ---- one case -------------------------------------------------------------------------------------------- */

/* Random positions of rope `rope`: particle 0 around the anchor point, each link a random direction and a
 * length from 0.5 to 1.5 rest lengths (bungees about half slack, springs half compressed). */
static void random_chain(const case_spec *c, const sk_rope_params *p, int n, size_t rope, sk_real *x)
{
    rng r = {c->seed * 1000003u + rope + 1};
    double at[3] = {(double)p->anchor_point.x, (double)p->anchor_point.y, (double)p->anchor_point.z};
    double step = p->anchor_length > 0 ? (double)p->anchor_length : (double)p->link_length;
    for (int i = 0; i < n; i++) {
        double u[3], len;
        do { /* uniform on the sphere */
            for (int k = 0; k < 3; k++)
                u[k] = uniform(&r, -1, 1);
            len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        } while (len > 1 || len < 1e-3);
        const double l = step * uniform(&r, 0.5, 1.5);
        for (int k = 0; k < 3; k++) {
            at[k] += u[k] / len * l;
            x[3 * i + k] = (sk_real)at[k];
        }
        step = (double)p->link_length;
    }
}

/* The largest differences of a group or a case, and of LAPACK's own solution (its residual, for scale). */
typedef struct worst {
    double diff, res, lapack_res;
} worst;

static void worst_add(worst *w, const worst *v)
{
    w->diff = fmax(w->diff, v->diff);
    w->res = fmax(w->res, v->res);
    w->lapack_res = fmax(w->lapack_res, v->lapack_res);
}

static const char *anchor_name(sk_anchor_type a)
{
    return a == SK_ANCHOR_SPRING ? "anchored_spring" : a == SK_ANCHOR_BUNGEE ? "anchored_bungee"
           : a == SK_ANCHOR_FAKE_SPRING ? "fake_spring" : "no anchor";
}

/* Every rope of every group compared in every ISA; each group's largest differences are printed, and the
 * first rope of a group beyond the tolerances, before the case fails. */
static int run_case(const case_spec *c)
{
    const double tol_diff = TOL_DIFF * (c->diff_scale > 0 ? c->diff_scale : 1);
    static char json[1 << 16];
    CHECK_OK(case_json(c, json, sizeof json));
    sk_scenario s;
    sk_error err = {0};
    if (sk_scenario_load_string(json, c->name, NULL, &s, &err)) {
        fprintf(stderr, "scenario rejected: %s\n", err.message);
        return 1;
    }
    const char *isas[4];
    const int n_isas = tb_isas(isas, 4);
    CHECK(n_isas >= 1);
    sk_engine *e[4];
    for (int k = 0; k < n_isas; k++)
        CHECK((e[k] = tb_engine(&s, "batch", isas[k], 1)) != NULL);

    /* every rope at rest at its random positions, in every engine */
    int most = 0;
    for (int gi = 0; gi < s.n_groups; gi++)
        most = s.groups[gi].particles > most ? s.groups[gi].particles : most;
    const size_t N3 = 3 * (size_t)most;
    sk_real *x = calloc(N3, sizeof *x), *v0 = calloc(N3, sizeof *v0), *q = calloc(N3, sizeof *q),
            *p1 = calloc(N3, sizeof *p1), *v1 = calloc(N3, sizeof *v1);
    double *dv = calloc(N3, sizeof *dv);
    CHECK(x && v0 && q && p1 && v1 && dv);
    for (int gi = 0; gi < s.n_groups; gi++) {
        const sk_group *g = &s.groups[gi];
        for (size_t r = 0; r < g->count; r++) {
            sk_rope_params p;
            sk_group_rope_params(g, r, &p);
            random_chain(c, &p, g->particles, g->first_rope + r, x);
            for (int k = 0; k < n_isas; k++) {
                sk_rope_state st = {.p = p1, .v = v1, .q = q};
                CHECK(sk_engine_export_rope(e[k], g->first_rope + r, &st));
                st.p = x;
                st.v = v0;
                CHECK(sk_engine_import_rope(e[k], g->first_rope + r, &st));
            }
        }
    }
    for (int k = 0; k < n_isas; k++)
        sk_engine_advance(e[k], 1);

    worst all = {0, 0, 0};
    int failed = 0;
    for (int gi = 0; gi < s.n_groups; gi++) {
        const sk_group *g = &s.groups[gi];
        const int n = g->particles;
        worst gw = {0, 0, 0};
        bool said = false;
        int slack[2] = {0, 0}, taut[2] = {0, 0};
        for (size_t r = 0; r < g->count; r++) {
            const size_t rope = g->first_rope + r;
            sk_rope_params p;
            sk_group_rope_params(g, r, &p);
            random_chain(c, &p, n, rope, x);
            dense d = {0};
            CHECK_OK(assemble(&s, g, &p, n, x, &d));
            CHECK_OK(dense_solve(&d, dv));
            for (int k = 0; k < 2; k++) {
                slack[k] += d.slack[k];
                taut[k] += d.taut[k];
            }
            double scale = 0;
            for (int i = 0; i < 3 * n; i++) {
                scale = fmax(scale, fabs(dv[i]));
                v1[i] = (sk_real)dv[i];
            }
            CHECK(scale > 0 && isfinite(scale));
            gw.lapack_res = fmax(gw.lapack_res, residual(&d, v1));
            for (int k = 0; k < n_isas; k++) {
                CHECK(sk_engine_rope_particles(e[k], rope) == n);
                sk_engine_read_rope(e[k], rope, p1, v1);
                double diff = 0;
                for (int i = 0; i < 3 * n; i++) {
                    diff = fmax(diff, fabs((double)v1[i] - dv[i]));
                    /* the step ends where that velocity takes the particle; a pinned one stays, at rest */
                    const bool pinned = d.row[i / 3] < 0;
                    const sk_real want = pinned ? x[i] : x[i] + v1[i] * s.dt;
                    CHECK_SAME_BITS(p1[i], want);
                    CHECK(!pinned || v1[i] == 0);
                }
                const worst w = {diff / scale, residual(&d, v1), 0};
                if (!(w.diff <= tol_diff) || !(w.res <= TOL_RES)) {
                    if (!said)
                        fprintf(stderr,
                                "%s: group %d (%d particles) rope %zu, %s: max |dv - dv_lapack| / max |dv_lapack| = "
                                "%.3g (tolerance %.1g), ||A dv - b|| / ||b|| = %.3g (tolerance %.1g)\n",
                                c->name, gi, n, r, isas[k], w.diff, tol_diff, w.res, TOL_RES);
                    said = true;
                    failed = 1;
                }
                worst_add(&gw, &w);
            }
            dense_free(&d);
        }
        /* the bungees were both slack and taut (the anchored one: in some ropes each), or the case tests less */
        CHECK(g->link != SK_LINK_BUNGEE || (slack[0] > 0 && taut[0] > 0));
        CHECK(g->anchor != SK_ANCHOR_BUNGEE || (slack[1] > 0 && taut[1] > 0));
        fprintf(stderr,
                "measured: %s: group %d, %s links, %s, %d particles (%d pinned), %zu ropes: max rel diff %.3g, "
                "max rel residual %.3g (dgesv's own %.3g)\n",
                c->name, gi, g->link == SK_LINK_BUNGEE ? "bungee" : "spring", anchor_name(g->anchor), n, g->n_pinned,
                g->count, gw.diff, gw.res, gw.lapack_res);
        worst_add(&all, &gw);
    }
    fprintf(stderr,
            "measured: %s, %d ISA(s) from %s, %s: max rel diff %.3g (tolerance %.1g), max rel residual %.3g "
            "(tolerance %.1g; dgesv's own %.3g)\n",
            c->name, n_isas, isas[0], SK_REAL_NAME, all.diff, tol_diff, all.res, TOL_RES, all.lapack_res);
    for (int k = 0; k < n_isas; k++)
        sk_engine_destroy(e[k]);
    free(x), free(v0), free(q), free(p1), free(v1), free(dv);
    sk_scenario_free(&s);
    return failed;
}

/* ---- the cases ------------------------------------------------------------------------------------------- */

/* Chains of 2, 3, 17, 200 and a random number of particles; the pinned sets take the first, interior ones
 * (two side by side) and the last. */
#define PINS(...) {__VA_ARGS__, END_PINS}
#define NO_PINS {END_PINS}
#define CHAINS(LINK, ANCHOR, DRAG)                                             \
    {2, 19, LINK, ANCHOR, DRAG, PINS(0)}, {3, 19, LINK, ANCHOR, DRAG, PINS(1)}, \
    {17, 19, LINK, ANCHOR, DRAG, PINS(0, 5, 6, 12)},                           \
    {200, 9, LINK, ANCHOR, DRAG, PINS(0, 50, 51, 120, 199)}, {0, 19, LINK, ANCHOR, DRAG, PINS(0, MID)}
/* The same with particle 0 free for the anchor to hold, and one group where it is pinned (no anchor force). */
#define ANCHORED_CHAINS(LINK, ANCHOR, DRAG)                                                         \
    {2, 19, LINK, ANCHOR, DRAG, NO_PINS}, {3, 19, LINK, ANCHOR, DRAG, PINS(2)},                       \
    {17, 19, LINK, ANCHOR, DRAG, PINS(5, 6, 12)}, {200, 9, LINK, ANCHOR, DRAG, PINS(50, 51, 120, 199)}, \
    {0, 19, LINK, ANCHOR, DRAG, PINS(MID)}, {17, 19, LINK, ANCHOR, DRAG, PINS(0, 9)}

static const case_spec cases[] = {
    {"spring_free", "force", 1e-2, 1e3, 11, 0,
     {{2, 19, "spring", NULL, false, NO_PINS}, {3, 19, "spring", NULL, false, NO_PINS},
      {17, 19, "spring", NULL, false, NO_PINS}, {200, 9, "spring", NULL, false, NO_PINS},
      {0, 19, "spring", NULL, false, NO_PINS}}},
    {"spring_pinned", "force", 1e-2, 1e3, 12, 0, {CHAINS("spring", NULL, false)}},
    {"bungee_pinned", "force", 1e-2, 1e3, 13, 0, {CHAINS("bungee", NULL, false)}},
    {"drag", "force", 1e-2, 1e3, 14, 0, {CHAINS("spring", NULL, true)}},
    {"anchored_spring", "force", 1e-2, 1e3, 15, 0, {ANCHORED_CHAINS("spring", "anchored_spring", false)}},
    {"anchored_bungee", "force", 1e-2, 1e3, 16, 0, {ANCHORED_CHAINS("bungee", "anchored_bungee", false)}},
    {"fake_spring", "force", 1e-2, 1e3, 17, 0, {ANCHORED_CHAINS("spring", "fake_spring", true)}},
    /* gravity in the acceleration field must enter b as the force m~ g it is */
    {"gravity_acceleration", "acceleration", 1e-2, 1e3, 18, 0, {ANCHORED_CHAINS("spring", "anchored_spring", true)}},
    /* the stiffest systems (cond(A) about 4e3), where the residual says most about the solve */
    {"residual_stiff", "force", 1e2, 1e3, 19, 0,
     {{200, 9, "spring", NULL, false, NO_PINS}, {200, 9, "bungee", NULL, true, PINS(0, 100)},
      {200, 9, "spring", "anchored_spring", false, PINS(199)}, {200, 9, "spring", "fake_spring", true, NO_PINS}}},
    /* stiff tethers at large steps, dt^2 k / m from 1e3 to 1e6 (W3: 1e4) */
    /* cond(A) reaches 1e9 there: dgesv and banded Cholesky (dpbsv) themselves differ by 3e-10; the residual
     * shows the solve as stable as theirs */
    {"very_stiff", "acceleration", 1e3, 1e6, 20, 1e3,
     {{200, 9, "spring", NULL, false, PINS(0)}, {17, 19, "spring", NULL, false, NO_PINS},
      {200, 9, "spring", "anchored_spring", true, NO_PINS}, {0, 19, "bungee", NULL, false, PINS(0, MID)}}},
};

static int by_name(const char *name)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(cases[i].name, name) == 0)
            return run_case(&cases[i]);
    fprintf(stderr, "no case %s\n", name);
    return 1;
}

/* BDF2's row elimination (model/sym3.h: sk_ldl3_factor's minor pivot, sk_ldl3_eliminate) against LAPACK in double on
 * the blocks a row meets: D = E + S with E the diagonal plus what a stiff link above hands on and S a stretched
 * link's block, stiffness over mass from 1 to 1e6. D^-1 S, S D^-1 E and S D^-1 y agree within the round-off of
 * the build's real times the block's condition (dt^2 k / m), as the LDL^T order's do (measured beside them). */
static double rel_err(const double *got, const double *want, int n)
{
    double num = 0, den = 0;
    for (int i = 0; i < n; i++)
        num += (got[i] - want[i]) * (got[i] - want[i]), den += want[i] * want[i];
    return sqrt(num / (den > 0 ? den : 1));
}

static int bdf2_blocks(void)
{
    rng r = {0x5EED5EEDu};
    const double u = (double)SK_REAL_EPSILON / 2;
    for (double ratio = 1; ratio <= 1e6; ratio *= 10) {
        double worst = 0, worst_ldl = 0;
        for (int n = 0; n < 2000; n++) {
            const double m = 0.003, c = m * ratio, share = 0.3 * urand(&r);
            double a[3], b[3];
            for (int k = 0; k < 3; k++)
                a[k] = urand(&r) - 0.5, b[k] = urand(&r) - 0.5;
            const double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
            const sk_vec3 ua = {(sk_real)(a[0] / la), (sk_real)(a[1] / la), (sk_real)(a[2] / la)};
            const sk_vec3 ub = {(sk_real)(b[0] / lb), (sk_real)(b[1] / lb), (sk_real)(b[2] / lb)};
            /* E: the mass plus half a stiff link's block along ua, as a Schur complement hands on; S along ub */
            const sk_sym3 e = sk_sym3_add(sk_sym3_diagonal((sk_real)m), sk_spring_block_share(ua, 1, 0, (sk_real)(c / 2)));
            const sk_sym3 sl = sk_spring_block_share(ub, 1, (sk_real)share, (sk_real)c);
            const sk_vec3 y = {(sk_real)(urand(&r) - 0.5), (sk_real)(urand(&r) - 0.5), (sk_real)(urand(&r) - 0.5)};
            const sk_sym3 d = sk_sym3_add(e, sl);
            const sk_ldl3 f = sk_ldl3_factor(d, true);
            sk_mat3 h;
            sk_sym3 sde;
            sk_vec3 sdy;
            sk_ldl3_eliminate(&f, sl, e, y, &h, &sde, &sdy);
            /* the LDL^T order's, for the same quantities */
            const sk_ldl3 g = sk_ldl3_factor(d, false);
            const sk_mat3 hg = sk_ldl3_solve_block(&g, sl);
            const sk_sym3 sdeg = sk_mat3_transpose_mul_symmetric(&hg, e);
            const sk_vec3 sdyg = sk_mat3_transpose_apply(&hg, y);
            /* LAPACK: D^-1 [S | y] in double, then S D^-1 E and S D^-1 y */
            const sk_sym3 blocks[3] = {d, sl, e};
            double dd[3][9];
            for (int k = 0; k < 3; k++) {
                const sk_sym3 q = blocks[k];
                const double rows[9] = {q.xx, q.xy, q.xz, q.xy, q.yy, q.yz, q.xz, q.yz, q.zz};
                memcpy(dd[k], rows, sizeof rows);
            }
            double rhs[12]; /* row-major 3 x 4: S's columns and y */
            for (int i = 0; i < 3; i++) {
                for (int k = 0; k < 3; k++)
                    rhs[i * 4 + k] = dd[1][i * 3 + k];
                rhs[i * 4 + 3] = i == 0 ? (double)y.x : i == 1 ? (double)y.y : (double)y.z;
            }
            lapack_int ipiv[3];
            double dm[9];
            memcpy(dm, dd[0], sizeof dm);
            CHECK(LAPACKE_dgesv(LAPACK_ROW_MAJOR, 3, 4, dm, 3, ipiv, rhs, 4) == 0);
            double want[9 + 6 + 3], got[9 + 6 + 3], ldl[9 + 6 + 3];
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++)
                    want[i * 3 + k] = rhs[i * 4 + k], got[i * 3 + k] = h.m[i][k], ldl[i * 3 + k] = hg.m[i][k];
            /* S D^-1 E = (D^-1 S)^T E, its upper triangle xx yy zz xy xz yz; S D^-1 y = (D^-1 S)^T y */
            const int jj[6] = {0, 1, 2, 0, 0, 1}, kk[6] = {0, 1, 2, 1, 2, 2};
            for (int t = 0; t < 6; t++) {
                double v = 0;
                for (int i = 0; i < 3; i++)
                    v += want[i * 3 + jj[t]] * dd[2][i * 3 + kk[t]];
                want[9 + t] = v;
            }
            const double sg[6] = {sde.xx, sde.yy, sde.zz, sde.xy, sde.xz, sde.yz};
            const double sgl[6] = {sdeg.xx, sdeg.yy, sdeg.zz, sdeg.xy, sdeg.xz, sdeg.yz};
            for (int t = 0; t < 6; t++)
                got[9 + t] = sg[t], ldl[9 + t] = sgl[t];
            const double yv[3] = {y.x, y.y, y.z}, gy[3] = {sdy.x, sdy.y, sdy.z}, ly[3] = {sdyg.x, sdyg.y, sdyg.z};
            for (int j = 0; j < 3; j++) {
                double v = 0;
                for (int i = 0; i < 3; i++)
                    v += want[i * 3 + j] * yv[i];
                want[15 + j] = v, got[15 + j] = gy[j], ldl[15 + j] = ly[j];
            }
            const double errs[2] = {fmax(fmax(rel_err(got, want, 9), rel_err(got + 9, want + 9, 6)), rel_err(got + 15, want + 15, 3)),
                                    fmax(fmax(rel_err(ldl, want, 9), rel_err(ldl + 9, want + 9, 6)), rel_err(ldl + 15, want + 15, 3))};
            worst = fmax(worst, errs[0]), worst_ldl = fmax(worst_ldl, errs[1]);
        }
        printf("bdf2 blocks, dt^2 k / m = %.0e: largest relative error %.2e (LDL^T order %.2e), bound %.2e\n", ratio,
               worst, worst_ldl, 256 * u * (1 + ratio));
        CHECK(worst <= 256 * u * (1 + ratio));
        CHECK(worst <= 4 * worst_ldl + 64 * u); /* as accurate as the LDL^T order (cofactors are not: (dt^2 k / m)^2) */
    }
    return 0;
}

static int spring_free(void) { return by_name("spring_free"); }
static int spring_pinned(void) { return by_name("spring_pinned"); }
static int bungee_pinned(void) { return by_name("bungee_pinned"); }
static int drag(void) { return by_name("drag"); }
static int anchored_spring(void) { return by_name("anchored_spring"); }
static int anchored_bungee(void) { return by_name("anchored_bungee"); }
static int fake_spring(void) { return by_name("fake_spring"); }
static int gravity_acceleration(void) { return by_name("gravity_acceleration"); }
static int residual_stiff(void) { return by_name("residual_stiff"); }
static int very_stiff(void) { return by_name("very_stiff"); }

CHECK_MAIN({"spring_free", spring_free}, {"spring_pinned", spring_pinned}, {"bungee_pinned", bungee_pinned},
           {"drag", drag}, {"anchored_spring", anchored_spring}, {"anchored_bungee", anchored_bungee},
           {"fake_spring", fake_spring}, {"gravity_acceleration", gravity_acceleration},
           {"residual_stiff", residual_stiff}, {"very_stiff", very_stiff}, {"bdf2_blocks", bdf2_blocks})
