/* Helpers for the reference engine's tests: a tolerance that suits the build's real type, vector
 * checks, particles built in one line. */
#ifndef SKEIN_TESTS_REFERENCE_CHECK_H
#define SKEIN_TESTS_REFERENCE_CHECK_H

#include "check.h"
#include "reference/reference.h"
#include "skein/scenario.h"
#include "model/vec3.h"

/* Hand values are compared within a few units in the last place of the build's type. */
#ifdef SKEIN_REAL_FLOAT
#define TOL 1e-5
#else
#define TOL 1e-12
#endif

#define CHECK_VEC_NEAR(v, ex, ey, ez, tol)    \
    do {                                      \
        sk_vec3 check_v_ = (v);               \
        CHECK_NEAR(check_v_.x, (ex), (tol));  \
        CHECK_NEAR(check_v_.y, (ey), (tol));  \
        CHECK_NEAR(check_v_.z, (ez), (tol));  \
    } while (0)

/* Exact equality of every component (for values exact in binary). */
#define CHECK_VEC_EQ(v, ex, ey, ez)                                                   \
    do {                                                                              \
        sk_vec3 check_v_ = (v);                                                       \
        CHECK(check_v_.x == (sk_real)(ex) && check_v_.y == (sk_real)(ey) &&          \
              check_v_.z == (sk_real)(ez));                                           \
    } while (0)

#define CHECK_VEC_SAME_BITS(a, b)             \
    do {                                      \
        sk_vec3 check_a_ = (a), check_b_ = (b); \
        CHECK_SAME_BITS(check_a_.x, check_b_.x); \
        CHECK_SAME_BITS(check_a_.y, check_b_.y); \
        CHECK_SAME_BITS(check_a_.z, check_b_.z); \
    } while (0)

/* A particle at p with velocity v and inverse mass w, no field, no force; q = p. */
static inline sk_particle test_particle(sk_real px, sk_real py, sk_real pz, sk_real vx, sk_real vy, sk_real vz,
                                        sk_real w)
{
    sk_particle p = {0};
    p.p = sk_vec3_make(px, py, pz);
    p.q = p.p;
    p.v = sk_vec3_make(vx, vy, vz);
    p.w = w;
    return p;
}

/* Loads a scenario from JSON text; on error prints the loader's message and returns non-zero. */
static inline int test_load(const char *json, sk_scenario *s)
{
    sk_error err = {0};
    int rc = sk_scenario_load_string(json, "<test>", NULL, s, &err);
    if (rc)
        fprintf(stderr, "scenario rejected: %s\n", err.message);
    return rc;
}

#endif
