/* A C interface to Google Benchmark (1.7.1): register C callbacks, run the keep-running loop, report
 * items, bytes and counters, record context. The benchmarks themselves are C; only gbench_c.cc is C++. */
#ifndef SKEIN_BENCH_GBENCH_C_H
#define SKEIN_BENCH_GBENCH_C_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sk_bench sk_bench;             /* a registered benchmark (benchmark::internal::Benchmark) */
typedef struct sk_bench_state sk_bench_state; /* one run of it (benchmark::State) */

/* The benchmark body: set up, loop `while (sk_bench_keep_running(st)) { ... }`, report. */
typedef void (*sk_bench_fn)(sk_bench_state *st, void *user);

/* Registers fn under name (copied); user is passed back on every run and must outlive the run. */
sk_bench *sk_bench_register(const char *name, sk_bench_fn fn, void *user);

/* Named arguments: the names (shown as "name:value" in the run name) and one combination of values
 * per call to sk_bench_args; n at most 8. sk_bench_ranges adds every combination of the powers of
 * `multiplier` (set first with sk_bench_range_multiplier, default 8) between lo[i] and hi[i]. */
void sk_bench_arg_names(sk_bench *b, const char *const *names, int n);
void sk_bench_args(sk_bench *b, const int64_t *values, int n);
void sk_bench_range_multiplier(sk_bench *b, int multiplier);
void sk_bench_ranges(sk_bench *b, const int64_t *lo, const int64_t *hi, int n);

/* Wall-clock time instead of the main thread's CPU time: always wanted with OpenMP inside. */
void sk_bench_use_real_time(sk_bench *b);
/* Minimum seconds of timed iterations for this benchmark, instead of --benchmark_min_time. */
void sk_bench_min_time(sk_bench *b, double seconds);
/* A fixed iteration count instead of the adaptive one (then min time does not apply). */
void sk_bench_iterations(sk_bench *b, int64_t n);
/* Unit of the printed times: 'n' ns, 'u' us, 'm' ms, 's' s. */
void sk_bench_time_unit(sk_bench *b, char unit);

/* The loop: true while another iteration is wanted; the timer runs between the first call and the
 * one that returns false. */
bool sk_bench_keep_running(sk_bench_state *st);
/* Stops and restarts the timer inside the loop (costs about a microsecond: use per batch of work). */
void sk_bench_pause(sk_bench_state *st);
void sk_bench_resume(sk_bench_state *st);
/* Argument i of this run (in sk_bench_arg_names order). */
int64_t sk_bench_arg(const sk_bench_state *st, int i);
/* Iterations of this run (valid after the loop). */
int64_t sk_bench_iterations_done(const sk_bench_state *st);

/* Totals over the whole run; the library divides by the time: items_per_second, bytes_per_second. */
void sk_bench_set_items_processed(sk_bench_state *st, int64_t items);
void sk_bench_set_bytes_processed(sk_bench_state *st, int64_t bytes);

/* Custom counters. SK_BENCH_PLAIN: reported as given; SK_BENCH_RATE: divided by the run's time;
 * SK_BENCH_PER_ITERATION: divided by the iterations. */
typedef enum sk_bench_counter_kind { SK_BENCH_PLAIN, SK_BENCH_RATE, SK_BENCH_PER_ITERATION } sk_bench_counter_kind;
void sk_bench_counter(sk_bench_state *st, const char *name, double value, sk_bench_counter_kind kind);

/* A short text shown beside the result (and as "label" in JSON). */
void sk_bench_set_label(sk_bench_state *st, const char *label);
/* Marks the run failed with a message; the caller must then leave without entering the loop (or
 * break out of it). */
void sk_bench_skip_with_error(sk_bench_state *st, const char *message);

/* A key/value of the run's context (printed at the top and kept in the JSON "context"). */
void sk_bench_context(const char *key, const char *value);

/* Parses the --benchmark_* flags (removing them from argv), rejects any other argument, runs the
 * benchmarks the filter selects (or lists them). Returns 0; 1 when the filter selects none; 2 for an
 * unrecognised argument. May be called again in the same process (with benchmarks registered since). */
int sk_bench_run(int *argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
