/* Helpers for the batch engine's tests: scenarios from JSON, the ISAs this machine runs, engines side by
 * side, whole-state comparison and hashing. */
#ifndef SKEIN_TESTS_TEST_BATCH_COMMON_H
#define SKEIN_TESTS_TEST_BATCH_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "batch/batch.h"
#include "skein/engine.h"
#include "skein/scenario.h"

/* The kernel ISAs this build compiled and this CPU runs, widest first (in sanitizer builds the scalar one
 * only where no other runs); returns how many. */
int tb_isas(const char **names, int max);

/* Loads JSON text (printf-style, so tests can fill in an integrator); prints the loader's message. */
int tb_load(sk_scenario *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An engine ("batch" with isa and threads, or "reference"); prints the error and returns NULL. */
sk_engine *tb_engine(const sk_scenario *s, const char *engine, const char *isa, int threads);

/* Every rope of a and b: the same particle count and the same bits of p and v. Prints the first
 * difference (what names the comparison). Returns 0 when identical. */
int tb_same_state(const sk_scenario *s, const sk_engine *a, const sk_engine *b, const char *what);

/* The largest |a - b| over every component of p (and of v) of every rope; counts must agree (else
 * returns a negative deviation). */
void tb_max_deviation(const sk_scenario *s, const sk_engine *a, const sk_engine *b, double *dp, double *dv);

/* FNV-1a (64 bit) of every rope's particle count and the bits of p and v, in rope order. */
uint64_t tb_hash(const sk_scenario *s, const sk_engine *e);

/* What the reference's last frame held: the fewest and most particles in a rope. */
typedef struct tb_stats {
    int min_count, max_count;
} tb_stats;

/* The thread counts the bit-for-bit comparisons run with start here: 1, or 2 in sanitizer builds
 * (tests/CMakeLists.txt says why). */
#ifdef SKEIN_TEST_SANITIZED
#define TB_FIRST_THREADS 2
#else
#define TB_FIRST_THREADS 1
#endif

/* Batch (every ISA, threads TB_FIRST_THREADS to 2) against the reference: advanced `every` steps at a time up to
 * `steps`, identical bits at every frame. Fails when the reference itself ends with a non-finite number
 * (the comparison would test nothing). stats may be NULL. Returns 0 when all agree. */
int tb_against_reference(const char *json, long steps, long every, tb_stats *stats);

#endif
