/* The C shim over Google Benchmark (bench/gbench_c.h): C benchmarks register, run with a tiny minimum
 * time, and the JSON output (read back with jansson) holds what they reported. */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "gbench_c.h"

/* What a benchmark body saw, for the test to compare with the JSON. */
typedef struct seen {
    int64_t args[2];
    int64_t bodies; /* loop bodies of the last run */
    int calls;      /* runs of the benchmark function */
} seen;

/* Runs the registered benchmarks that `filter` selects with extra flags, writing JSON to a file named
 * after the case; returns sk_bench_run's status. */
static int run(const char *name, const char *filter, const char *extra, char *json_path, size_t len)
{
    snprintf(json_path, len, "%s/bench_shim_%s.json", SKEIN_BINARY_DIR, name);
    char f_filter[256], f_out[600];
    snprintf(f_filter, sizeof f_filter, "--benchmark_filter=%s", filter);
    snprintf(f_out, sizeof f_out, "--benchmark_out=%s", json_path);
    char *argv[] = {"test_bench_shim", f_filter, f_out, "--benchmark_out_format=json",
                    "--benchmark_min_time=0.001", (char *)extra, NULL};
    int argc = extra ? 6 : 5;
    return sk_bench_run(&argc, argv);
}

/* The benchmark entries (run_type "iteration") of a JSON output file, or NULL. */
static json_t *load(const char *path, json_t **root)
{
    json_error_t e;
    *root = json_load_file(path, 0, &e);
    if (!*root) {
        fprintf(stderr, "%s:%d: %s\n", path, e.line, e.text);
        return NULL;
    }
    return json_object_get(*root, "benchmarks");
}

static json_t *entry_named(json_t *benchmarks, const char *name)
{
    size_t i;
    json_t *b;
    json_array_foreach(benchmarks, i, b) {
        if (strcmp(json_string_value(json_object_get(b, "name")), name) == 0)
            return b;
    }
    return NULL;
}

static double number(json_t *obj, const char *key) { return json_number_value(json_object_get(obj, key)); }

/* ---- reports: items, counters, label, context, arguments ---------------------------------------- */

static void body_reports(sk_bench_state *st, void *user)
{
    seen *s = user;
    s->calls++;
    s->args[0] = sk_bench_arg(st, 0);
    s->args[1] = sk_bench_arg(st, 1);
    volatile double sum = 0;
    int64_t bodies = 0;
    while (sk_bench_keep_running(st)) {
        for (int64_t i = 0; i < s->args[0]; i++)
            sum += (double)i;
        bodies++;
    }
    s->bodies = bodies;
    sk_bench_set_items_processed(st, bodies * s->args[0]);
    sk_bench_counter(st, "plain", 42.0, SK_BENCH_PLAIN);
    sk_bench_counter(st, "twice_per_second", 2.0 * (double)bodies, SK_BENCH_RATE);
    sk_bench_counter(st, "per_iteration", 3.0 * (double)bodies, SK_BENCH_PER_ITERATION);
    sk_bench_set_label(st, "a label");
}

static int test_reports(void)
{
    static seen s;
    static const char *const names[] = {"n", "k"};
    sk_bench *b = sk_bench_register("shim/reports", body_reports, &s);
    sk_bench_arg_names(b, names, 2);
    sk_bench_args(b, (int64_t[]){1000, 3}, 2);
    sk_bench_use_real_time(b);
    sk_bench_time_unit(b, 'u');
    sk_bench_context("shim_key", "shim value");
    char path[512];
    CHECK(run("reports", "^shim/reports/", NULL, path, sizeof path) == 0);
    CHECK(s.calls >= 1);
    CHECK(s.args[0] == 1000 && s.args[1] == 3);

    json_t *root, *benchmarks = load(path, &root);
    CHECK(benchmarks);
    CHECK(strcmp(json_string_value(json_object_get(json_object_get(root, "context"), "shim_key")), "shim value") == 0);
    json_t *e = entry_named(benchmarks, "shim/reports/n:1000/k:3/real_time");
    CHECK(e);
    CHECK(strcmp(json_string_value(json_object_get(e, "time_unit")), "us") == 0);
    CHECK(strcmp(json_string_value(json_object_get(e, "label")), "a label") == 0);
    double iterations = number(e, "iterations"), real_us = number(e, "real_time");
    CHECK(iterations == (double)s.bodies && iterations >= 1);
    /* real_time is per iteration; the rates divide totals by the whole run's time. */
    double seconds = real_us * 1e-6 * iterations;
    CHECK_REL(number(e, "items_per_second"), 1000.0 * iterations / seconds, 1e-6);
    CHECK_REL(number(e, "twice_per_second"), 2.0 * iterations / seconds, 1e-6);
    CHECK(number(e, "plain") == 42.0);
    CHECK_REL(number(e, "per_iteration"), 3.0, 1e-12);
    json_decref(root);
    return 0;
}

/* ---- a fixed iteration count -------------------------------------------------------------------- */

static void body_count(sk_bench_state *st, void *user)
{
    seen *s = user;
    s->calls++;
    int64_t bodies = 0;
    while (sk_bench_keep_running(st))
        bodies++;
    s->bodies = bodies;
}

static int test_fixed_iterations(void)
{
    static seen s;
    sk_bench *b = sk_bench_register("shim/fixed", body_count, &s);
    sk_bench_iterations(b, 7);
    char path[512];
    CHECK(run("fixed_iterations", "^shim/fixed", NULL, path, sizeof path) == 0);
    CHECK(s.calls == 1);
    CHECK(s.bodies == 7);
    json_t *root, *benchmarks = load(path, &root);
    CHECK(benchmarks);
    json_t *e = entry_named(benchmarks, "shim/fixed/iterations:7");
    CHECK(e);
    CHECK(number(e, "iterations") == 7);
    json_decref(root);
    return 0;
}

/* ---- paused time is not counted ----------------------------------------------------------------- */

static void sleep_ms(long ms)
{
    struct timespec t = {0, ms * 1000000L};
    while (nanosleep(&t, &t) != 0) {
    }
}

static void body_paused(sk_bench_state *st, void *user)
{
    (void)user;
    while (sk_bench_keep_running(st)) {
        sk_bench_pause(st);
        sleep_ms(20);
        sk_bench_resume(st);
    }
}

static void body_sleeping(sk_bench_state *st, void *user)
{
    (void)user;
    while (sk_bench_keep_running(st))
        sleep_ms(20);
}

static int test_pause(void)
{
    sk_bench *paused = sk_bench_register("shim/paused", body_paused, NULL);
    sk_bench *timed = sk_bench_register("shim/sleeping", body_sleeping, NULL);
    sk_bench_iterations(paused, 3);
    sk_bench_iterations(timed, 3);
    sk_bench_use_real_time(paused);
    sk_bench_use_real_time(timed);
    sk_bench_time_unit(paused, 'm');
    sk_bench_time_unit(timed, 'm');
    char path[512];
    CHECK(run("pause", "^shim/(paused|sleeping)", NULL, path, sizeof path) == 0);
    json_t *root, *benchmarks = load(path, &root);
    CHECK(benchmarks);
    json_t *p = entry_named(benchmarks, "shim/paused/iterations:3/real_time");
    json_t *t = entry_named(benchmarks, "shim/sleeping/iterations:3/real_time");
    CHECK(p && t);
    /* 20 ms of sleep per iteration: counted in one, not in the other. Pausing costs microseconds, but on a
     * loaded machine the paused body can be preempted between resume and pause (5.9 ms measured at load 11):
     * the bound is half the counted sleep, which still tells counted from not counted. */
    CHECK(number(t, "real_time") >= 19.0);
    CHECK(number(p, "real_time") < 10.0);
    json_decref(root);
    return 0;
}

/* ---- a minimum time of its own, over the command line's ----------------------------------------- */

static void body_sleeps(sk_bench_state *st, void *user)
{
    (void)user;
    while (sk_bench_keep_running(st))
        sleep_ms(5);
}

static int test_min_time(void)
{
    sk_bench *b = sk_bench_register("shim/min_time", body_sleeps, NULL);
    sk_bench_min_time(b, 0.04);
    sk_bench_use_real_time(b);
    sk_bench_time_unit(b, 'm');
    char path[512];
    /* run() passes --benchmark_min_time=0.001: one 5 ms iteration would do for that. */
    CHECK(run("min_time", "^shim/min_time", NULL, path, sizeof path) == 0);
    json_t *root, *benchmarks = load(path, &root);
    CHECK(benchmarks);
    json_t *e = entry_named(benchmarks, "shim/min_time/min_time:0.040/real_time");
    CHECK(e);
    CHECK(number(e, "iterations") >= 2);
    CHECK(number(e, "iterations") * number(e, "real_time") >= 40.0);
    json_decref(root);
    return 0;
}

/* ---- ranges: every power of the multiplier between the bounds ----------------------------------- */

static int test_ranges(void)
{
    static seen s;
    static const char *const names[] = {"a", "b"};
    sk_bench *b = sk_bench_register("shim/ranges", body_count, &s);
    sk_bench_arg_names(b, names, 2);
    sk_bench_range_multiplier(b, 4);
    sk_bench_ranges(b, (int64_t[]){1, 10}, (int64_t[]){16, 10}, 2);
    char path[512];
    CHECK(run("ranges", "^shim/ranges", NULL, path, sizeof path) == 0);
    json_t *root, *benchmarks = load(path, &root);
    CHECK(benchmarks);
    CHECK(entry_named(benchmarks, "shim/ranges/a:1/b:10"));
    CHECK(entry_named(benchmarks, "shim/ranges/a:4/b:10"));
    CHECK(entry_named(benchmarks, "shim/ranges/a:16/b:10"));
    CHECK(json_array_size(benchmarks) == 3);
    json_decref(root);
    return 0;
}

/* ---- errors: a skipped run, an unknown flag, a filter that selects nothing ---------------------- */

static void body_fails(sk_bench_state *st, void *user)
{
    (void)user;
    sk_bench_skip_with_error(st, "no such thing");
}

static int test_skip_with_error(void)
{
    sk_bench_register("shim/fails", body_fails, NULL);
    char path[512];
    CHECK(run("skip_with_error", "^shim/fails", NULL, path, sizeof path) == 0);
    json_t *root, *benchmarks = load(path, &root);
    CHECK(benchmarks);
    json_t *e = entry_named(benchmarks, "shim/fails");
    CHECK(e);
    CHECK(json_is_true(json_object_get(e, "error_occurred")));
    CHECK(strcmp(json_string_value(json_object_get(e, "error_message")), "no such thing") == 0);
    json_decref(root);
    return 0;
}

static int test_bad_argument(void)
{
    static seen s;
    sk_bench_register("shim/never", body_count, &s);
    char path[512];
    CHECK(run("bad_argument", "^shim/never", "--no-such-flag", path, sizeof path) == 2);
    CHECK(s.calls == 0);
    return 0;
}

static int test_no_match(void)
{
    static seen s;
    sk_bench_register("shim/unselected", body_count, &s);
    char path[512];
    CHECK(run("no_match", "^nothing-is-called-this$", NULL, path, sizeof path) == 1);
    CHECK(s.calls == 0);
    return 0;
}

CHECK_MAIN({"reports", test_reports}, {"fixed_iterations", test_fixed_iterations}, {"pause", test_pause},
           {"min_time", test_min_time}, {"ranges", test_ranges}, {"skip_with_error", test_skip_with_error}, {"bad_argument", test_bad_argument},
           {"no_match", test_no_match})
