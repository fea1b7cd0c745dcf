/* A tiny test harness: subtests are functions returning 0; each is registered with ctest by name. */
#ifndef SKEIN_TESTS_CHECK_H
#define SKEIN_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

/* |actual - expected| <= tol, printing both on failure. */
#define CHECK_NEAR(actual, expected, tol)                                                        \
    do {                                                                                         \
        double check_a_ = (double)(actual), check_e_ = (double)(expected), check_t_ = (tol);     \
        if (!(fabs(check_a_ - check_e_) <= check_t_)) {                                         \
            fprintf(stderr, "%s:%d: %s = %.17g, expected %s = %.17g within %g (off by %.3g)\n", \
                    __FILE__, __LINE__, #actual, check_a_, #expected, check_e_, check_t_,       \
                    fabs(check_a_ - check_e_));                                                  \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

/* Relative error |a - e| / |e| <= rel. */
#define CHECK_REL(actual, expected, rel) \
    CHECK_NEAR(actual, expected, (rel) * fabs((double)(expected)))

/* Same bits (for reals: memcmp, so -0 and +0 differ and equal NaNs match). */
#define CHECK_SAME_BITS(a, b)                                                                 \
    do {                                                                                      \
        __typeof__(a) check_x_ = (a);                                                         \
        __typeof__(a) check_y_ = (b);                                                         \
        if (memcmp(&check_x_, &check_y_, sizeof check_x_) != 0) {                             \
            fprintf(stderr, "%s:%d: %s = %.17g and %s = %.17g differ in bits\n", __FILE__,    \
                    __LINE__, #a, (double)check_x_, #b, (double)check_y_);                    \
            return 1;                                                                         \
        }                                                                                     \
    } while (0)

/* A case that cannot run in this build (a float build, a CPU with one kernel ISA) says why and returns
 * CHECK_SKIPPED: ctest reports it skipped (SKIP_RETURN_CODE), never passed. */
#define CHECK_SKIPPED 77
#define CHECK_SKIP(...)                              \
    do {                                             \
        fprintf(stderr, "skipped: " __VA_ARGS__);    \
        fprintf(stderr, "\n");                       \
        return CHECK_SKIPPED;                        \
    } while (0)

/* Runs a named subtest (or a function returning non-zero) and propagates failure. */
#define CHECK_OK(expr) CHECK((expr) == 0)

typedef struct check_case {
    const char *name;
    int (*run)(void);
} check_case;

/* main(): with no argument runs every case, with names runs those (ctest passes one). */
static inline int check_main(const check_case *cases, size_t n, int argc, char **argv)
{
    int failed = 0, ran = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        int wanted = argc < 2;
        for (int a = 1; a < argc; a++)
            wanted |= strcmp(argv[a], cases[i].name) == 0;
        if (!wanted)
            continue;
        ran++;
        int rc = cases[i].run();
        fprintf(stderr, "%s %s\n", rc == CHECK_SKIPPED ? "skip" : rc ? "FAIL" : "ok  ", cases[i].name);
        skipped += rc == CHECK_SKIPPED;
        failed += rc != 0 && rc != CHECK_SKIPPED;
    }
    if (ran == 0) {
        fprintf(stderr, "no such test\n");
        return 2;
    }
    return failed ? 1 : skipped == ran ? CHECK_SKIPPED : 0;
}

#define CHECK_MAIN(...)                                                              \
    int main(int argc, char **argv)                                                  \
    {                                                                                \
        static const check_case cases[] = {__VA_ARGS__};                             \
        return check_main(cases, sizeof cases / sizeof cases[0], argc, argv);        \
    }

#endif
