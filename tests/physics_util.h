/* Helpers for the analytic physics tests: scenarios from JSON text, the build's rounding unit, checks
 * that remember the largest error seen (printed on success too), and zero-crossing period timing. */
#ifndef SKEIN_TESTS_PHYSICS_UTIL_H
#define SKEIN_TESTS_PHYSICS_UTIL_H

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "check.h"
#include "model/real_math.h"
#include "reference/reference.h"
#include "skein/scenario.h"

/* Unit roundoff of the build's real: every basic operation is exact to within a relative PHYS_U. */
#define PHYS_U ((double)SK_REAL_EPSILON / 2)

#ifdef SKEIN_REAL_FLOAT
#define PHYS_FLOAT 1
#else
#define PHYS_FLOAT 0
#endif

#define PHYS_PI 3.14159265358979323846

/* Loads a scenario from printf-formatted JSON text; prints the loader's message on error. */
static inline int phys_load(sk_scenario *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int phys_load(sk_scenario *s, const char *fmt, ...)
{
    char json[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(json, sizeof json, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof json) {
        fprintf(stderr, "scenario text too long\n");
        return 1;
    }
    sk_error err = {0};
    int rc = sk_scenario_load_string(json, "<physics>", NULL, s, &err);
    if (rc)
        fprintf(stderr, "scenario rejected: %s\n", err.message);
    return rc;
}

/* The largest error seen by a series of checks, and the tolerance it was held to. */
typedef struct phys_track {
    double worst; /* largest |actual - expected| */
    double worst_tol; /* the tolerance of that check */
    long checks;
} phys_track;

static inline int phys_near_at(phys_track *t, const char *what, int line, double actual, double expected, double tol)
{
    double e = fabs(actual - expected);
    t->checks++;
    if (!(e <= tol)) {
        fprintf(stderr, "line %d: %s = %.17g, expected %.17g within %.3g (off by %.3g)\n", line, what, actual, expected,
                tol, e);
        return 1;
    }
    if (e >= t->worst) {
        t->worst = e;
        t->worst_tol = tol;
    }
    return 0;
}

/* |actual - expected| <= tol, remembered in track t; returns from the test on failure. */
#define PHYS_NEAR(t, actual, expected, tol)                                                                            \
    CHECK_OK(phys_near_at((t), #actual, __LINE__, (double)(actual), (double)(expected), (tol)))

/* Prints the measured error of a series of checks (the issue note quotes these lines). */
static inline void phys_report(const char *label, const phys_track *t)
{
    fprintf(stderr, "measured: %s: max |error| %.3g (tolerance %.3g) over %ld checks, %s\n", label, t->worst,
            t->worst_tol, t->checks, SK_REAL_NAME);
}

/* Complete elliptic integral of the first kind, K(k) = pi / (2 AGM(1, sqrt(1 - k^2))): the large-amplitude
 * pendulum's period is 4 sqrt(L/g) K(sin(theta0 / 2)). */
static inline double phys_elliptic_k(double k)
{
    double a = 1, b = sqrt(1 - k * k);
    for (int i = 0; i < 40 && fabs(a - b) > 1e-16 * a; i++) {
        double m = (a + b) / 2;
        b = sqrt(a * b);
        a = m;
    }
    return PHYS_PI / (a + b);
}

/* One measured quantity against its formula, printed whether or not it passes. */
static inline int phys_compare(const char *label, double measured, double formula, double tol_rel)
{
    double rel = fabs(measured - formula) / fabs(formula);
    fprintf(stderr, "measured: %s: %.12g, formula %.12g, relative error %.3g (tolerance %.3g), %s\n", label, measured,
            formula, rel, tol_rel, SK_REAL_NAME);
    return rel <= tol_rel ? 0 : 1;
}

/* Upward zero crossings of a sampled signal, located by linear interpolation between samples. */
typedef struct phys_crossings {
    double prev_t, prev_x;
    int have_prev;
    int count;
    double first, last; /* times of the first and the latest crossing */
} phys_crossings;

static inline void phys_crossings_add(phys_crossings *c, double t, double x)
{
    if (c->have_prev && c->prev_x < 0 && x >= 0) {
        double tc = c->prev_t + (t - c->prev_t) * (-c->prev_x / (x - c->prev_x));
        if (c->count == 0)
            c->first = tc;
        c->last = tc;
        c->count++;
    }
    c->prev_t = t;
    c->prev_x = x;
    c->have_prev = 1;
}

/* Mean period between the first and the last crossing (0 with fewer than two). */
static inline double phys_crossings_period(const phys_crossings *c)
{
    return c->count < 2 ? 0 : (c->last - c->first) / (c->count - 1);
}

/* The largest eigenvalue modulus of one step of a mode x'' = -w^2 x with the scheme's damping:
 *   symplectic on (v, x): v' = D (v - w^2 dt x), x' = x + dt v': trace 1 + D - D w^2 dt^2, det D;
 *   cyclone on (x, v):    x' = x + dt v, v' = D (v - w^2 dt x):  trace 1 + D, det D (1 + w^2 dt^2);
 *   verlet on (x_n, x_(n-1)): x' = (1 + K - w^2 dt^2) x_n - K x_(n-1): trace 1 + K - w^2 dt^2, det K. */
static inline double phys_step_modulus(sk_integrator integrator, double w, double dt, double damp, double keep)
{
    double w2 = w * w * dt * dt, tr, det;
    if (integrator == SK_INTEGRATOR_SYMPLECTIC) {
        tr = 1 + damp - damp * w2;
        det = damp;
    } else if (integrator == SK_INTEGRATOR_VERLET) {
        tr = 1 + keep - w2;
        det = keep;
    } else {
        tr = 1 + damp;
        det = damp * (1 + w2);
    }
    double disc = tr * tr - 4 * det;
    if (disc < 0)
        return sqrt(det);
    return fmax(fabs(tr + sqrt(disc)), fabs(tr - sqrt(disc))) / 2;
}

/* A bound on |M^n| for the 2x2 step matrix M of such a mode: M^n = a_n M + b_n I (Cayley-Hamilton)
 * with |a_n| <= n rho^(n-1) and |b_n| <= (n-1) rho^n, so |M^n| <= 2 n rho^(n-1) max(|M|, 1); every
 * scheme's M above has row sums below 2 + w^2 dt. */
static inline double phys_settle_factor(double rho, long n, double w_max, double dt)
{
    return 2 * (double)n * pow(rho, (double)(n - 1)) * (2 + w_max * w_max * dt);
}

#endif
