/* The direct chain solver's system (docs/model.md section 4.4) against a dense one built independently: for
 * ropes of rods or cables with anchors, ground contacts and pinned particles, in disturbed positions, the
 * band A = J W J^T the solver assembles equals the dense product of the rows' Jacobian (to the rounding of
 * its two-term sums), and its banded LDL^T solve equals LAPACKE_dgesv on the dense matrix to 1e-12. */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "model/direct_rows.h"
#include "model/vec3.h"
#include "physics_util.h"
#include "reference/rope_impl.h"

/* A deterministic pseudo-random number in [-1, 1). */
static double noise(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (double)(*state >> 8) / (double)(1u << 23) - 1;
}

/* The rows' Jacobian: for slot s, the 3n entries J_s (each row a direction on its particles, as the solver
 * applies them: +n on a, -n on b). */
static void jacobian(const sk_ref_rope *r, int slots, double *jac)
{
    const sk_ref_direct *d = &r->direct;
    int n = r->world.count;
    memset(jac, 0, sizeof *jac * (size_t)slots * 3 * (size_t)n);
    for (int s = 0; s < slots; s++) {
        if (d->kind[s] == SK_ROW_NONE)
            continue;
        int a = s == 0 ? 0 : (s - 1) / 2;
        int b = s > 0 && s % 2 == 0 ? s / 2 : -1;
        const double nr[3] = {(double)d->normal[s].x, (double)d->normal[s].y, (double)d->normal[s].z};
        for (int c = 0; c < 3; c++) {
            jac[(size_t)s * 3 * n + 3 * a + c] += nr[c];
            if (b >= 0)
                jac[(size_t)s * 3 * n + 3 * b + c] -= nr[c];
        }
    }
}

static int check_rope(const char *json_fmt, const char *label, unsigned seed, double below)
{
    sk_scenario sc;
    CHECK_OK(phys_load(&sc, json_fmt, below));
    sk_ref_rope *r = sk_ref_rope_create(&sc, 0, 0);
    CHECK(r);
    int n = r->world.count, slots = 2 * n;
    unsigned state = seed;
    for (int i = 0; i < n; i++) {
        sk_particle *p = &r->world.particles[i];
        if (p->w == 0)
            continue;
        p->p = sk_vec3_add(p->p, sk_vec3_make((sk_real)(0.03 * noise(&state)), (sk_real)(0.03 * noise(&state)),
                                              (sk_real)(0.03 * noise(&state))));
    }
    sk_ref_direct_system(r);
    sk_ref_direct *d = &r->direct;

    double *jac = malloc(sizeof *jac * (size_t)slots * 3 * (size_t)n);
    double *dense = calloc((size_t)slots * (size_t)slots, sizeof *dense);
    double *x = malloc(sizeof *x * (size_t)slots);
    lapack_int *pivots = malloc(sizeof *pivots * (size_t)slots);
    CHECK(jac && dense && x && pivots);
    jacobian(r, slots, jac);
    int rows = 0;
    for (int s = 0; s < slots; s++)
        rows += d->active[s];
    /* A = J W J^T over the active rows; an inactive row is an identity row. */
    for (int s = 0; s < slots; s++)
        for (int t = 0; t < slots; t++) {
            double sum = 0;
            if (d->active[s] && d->active[t])
                for (int k = 0; k < 3 * n; k++)
                    sum += jac[(size_t)s * 3 * n + k] * (double)r->world.particles[k / 3].w * jac[(size_t)t * 3 * n + k];
            else if (s == t)
                sum = 1;
            dense[(size_t)s * slots + t] = sum;
        }
    phys_track band = {0}, solution = {0};
    double scale = 0;
    for (int s = 0; s < slots; s++)
        scale = fmax(scale, fabs(dense[(size_t)s * slots + s]));
    for (int s = 0; s < slots; s++) {
        PHYS_NEAR(&band, d->a0[s], dense[(size_t)s * slots + s], 8 * PHYS_U * scale);
        if (s + 1 < slots)
            PHYS_NEAR(&band, d->a1[s], dense[(size_t)s * slots + s + 1], 8 * PHYS_U * scale);
        if (s + 2 < slots)
            PHYS_NEAR(&band, d->a2[s], dense[(size_t)s * slots + s + 2], 8 * PHYS_U * scale);
        for (int t = s + 3; t < slots; t++)
            CHECK(dense[(size_t)s * slots + t] == 0); /* the band holds every coupling */
    }
    for (int s = 0; s < slots; s++) {
        d->rhs[s] = d->active[s] ? (sk_real)noise(&state) : 0;
        x[s] = (double)d->rhs[s];
    }
    sk_ref_direct_solve(d, slots);
    for (int s = 0; s < slots; s++)
        CHECK(!d->dropped[s]); /* these systems are well posed */
    CHECK(LAPACKE_dgesv(LAPACK_ROW_MAJOR, slots, 1, dense, slots, pivots, x, 1) == 0);
    double largest = 0;
    for (int s = 0; s < slots; s++)
        largest = fmax(largest, fabs(x[s]));
    for (int s = 0; s < slots; s++)
        PHYS_NEAR(&solution, d->lambda[s], x[s], (PHYS_FLOAT ? 1e-4 : 1e-12) * largest);
    char text[160];
    snprintf(text, sizeof text, "%s (%d particles, %d rows): band vs dense J W J^T", label, n, rows);
    phys_report(text, &band);
    snprintf(text, sizeof text, "%s: banded LDL^T vs LAPACKE_dgesv, relative to max |lambda|", label);
    phys_report(text, &solution);
    free(jac);
    free(dense);
    free(x);
    free(pivots);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&sc);
    return 0;
}

/* Rods from a rod anchor, lying partly below the ground (height %g), particle 5 pinned. */
static int rods_ground(void)
{
    return check_rope("{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"resolver\": \"direct\", \"ground\": {\"height\": %.17g},"
                      " \"groups\": [{\"count\": 1, \"particles\": 24, \"start\": [0, 0.2, 0], \"end\": [2.3, -0.1, 0.4],"
                      " \"mass\": 0.1, \"pinned\": [5], \"link\": {\"type\": \"rod\", \"length\": \"auto\"},"
                      " \"anchor\": {\"type\": \"rod\", \"point\": [-0.1, 0.3, 0], \"length\": 0.12}}]}",
                      "rods, rod anchor, ground, a pinned particle", 7u, 0.05);
}

/* Cables with a cable anchor, every particle below the ground. */
static int cables_ground(void)
{
    return check_rope("{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"resolver\": \"direct\", \"ground\": {\"height\": %.17g},"
                      " \"groups\": [{\"count\": 1, \"particles\": 17, \"start\": [0, -0.5, 0], \"end\": [1.6, -0.4, 0],"
                      " \"mass\": 0.3, \"link\": {\"type\": \"cable\", \"length\": \"auto\"},"
                      " \"anchor\": {\"type\": \"cable\", \"point\": [0, -0.3, 0], \"length\": 0.2}}]}",
                      "cables, cable anchor, ground under all", 11u, 0.0);
}

/* Rods pinned at both ends (no anchor), some particles under the ground. */
static int pinned_ends(void)
{
    return check_rope("{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"resolver\": \"direct\", \"ground\": {\"height\": %.17g},"
                      " \"groups\": [{\"count\": 1, \"particles\": 12, \"start\": [0, 0, 0], \"end\": [1, 0.1, 0],"
                      " \"mass\": 0.2, \"pinned\": [0, 11], \"link\": {\"type\": \"rod\", \"length\": 0.1}}]}",
                      "rods pinned at both ends, ground", 5u, 0.04);
}

CHECK_MAIN({"rods_ground", rods_ground}, {"cables_ground", cables_ground}, {"pinned_ends", pinned_ends})
