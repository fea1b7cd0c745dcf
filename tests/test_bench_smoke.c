/* The JSON of the smoke run of skein-bench (tests/bench.cmake): every family ran and reported, items are
 * the particle-steps the workload defines, and the context says what was measured. */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skein/engine.h"
#include "skein/types.h"

static json_t *root;

static json_t *benchmarks(void)
{
    if (!root) {
        json_error_t e;
        root = json_load_file(SKEIN_BINARY_DIR "/bench-smoke.json", 0, &e);
        if (!root) {
            fprintf(stderr, "bench-smoke.json:%d: %s (run the bench.smoke test first)\n", e.line, e.text);
            return NULL;
        }
    }
    return json_object_get(root, "benchmarks");
}

static double number(json_t *obj, const char *key) { return json_number_value(json_object_get(obj, key)); }
static const char *text(json_t *obj, const char *key) { return json_string_value(json_object_get(obj, key)); }

/* Value of "key:N" in a benchmark name, or -1. */
static long name_arg(const char *name, const char *key)
{
    char k[32];
    snprintf(k, sizeof k, "/%s:", key);
    const char *p = strstr(name, k);
    return p ? strtol(p + strlen(k), NULL, 10) : -1;
}

/* Successful entries whose name starts with prefix and report metric > 0. */
static int count_ok(const char *prefix, const char *metric)
{
    json_t *all = benchmarks(), *b;
    size_t i;
    int n = 0;
    json_array_foreach(all, i, b) {
        bool failed = json_is_true(json_object_get(b, "error_occurred"));
        if (strncmp(text(b, "name"), prefix, strlen(prefix)) == 0 && !failed && number(b, metric) > 0)
            n++;
    }
    return n;
}

static int test_context(void)
{
    CHECK(benchmarks());
    json_t *c = json_object_get(root, "context");
    CHECK(text(c, "skein_commit") && text(c, "skein_commit")[0]);
    CHECK(strcmp(text(c, "skein_real"), SK_REAL_NAME) == 0);
    CHECK(text(c, "skein_compiler") && strstr(text(c, "skein_c_flags"), "-ffp-contract=off"));
    CHECK(text(c, "skein_kernel_flags"));
    /* The usable ISAs, as the library lists them. */
    sk_isa_info isas[8];
    int n = sk_isa_list(isas, 8);
    for (int i = 0; i < n; i++)
        CHECK((strstr(text(c, "skein_isas_usable"), isas[i].name) != NULL) == (isas[i].compiled && isas[i].usable));
    return 0;
}

static int test_families(void)
{
    CHECK(benchmarks());
    CHECK(count_ok("roofline/fma/", "flops") >= 1);
    CHECK(count_ok("roofline/sqrt/", "ops") >= 1);
    CHECK(count_ok("roofline/div/", "ops") >= 1);
    CHECK(count_ok("roofline/triad_l1/", "bytes_per_second") == 1);
    CHECK(count_ok("roofline/triad_l2/", "bytes_per_second") == 1);
    CHECK(count_ok("roofline/triad_dram/", "bytes_per_second") == 1);
    CHECK(count_ok("w1/reference/", "items_per_second") == 1);
    CHECK(count_ok("w2/reference/", "items_per_second") == 1);
    CHECK(count_ok("w2swept/reference/", "items_per_second") == 1);
    CHECK(count_ok("kernel/contacts/reference/", "contacts_per_rope") == 1);
    CHECK(count_ok("kernel/resolver/reference/", "iterations_per_rope") == 1);
    CHECK(count_ok("concurrent/seed003x16/processes:2/", "items_per_second") == 2); /* waiting passive, spinning */
    sk_isa_info isas[8];
    int n = sk_isa_list(isas, 8);
    static const char *const kernels[] = {"step",          "step_unfused",       "forces",
                                          "integrate_cyclone", "integrate_euler", "integrate_symplectic",
                                          "integrate_verlet", "deploy"};
    for (int i = 0; i < n; i++) {
        if (!isas[i].compiled || !isas[i].usable)
            continue;
        char prefix[96];
        snprintf(prefix, sizeof prefix, "w1/%s/", isas[i].name);
        CHECK(count_ok(prefix, "items_per_second") >= 2); /* 1 and 2 threads */
        snprintf(prefix, sizeof prefix, "w2/%s/", isas[i].name);
        CHECK(count_ok(prefix, "items_per_second") >= 1);
        snprintf(prefix, sizeof prefix, "w2swept/%s/", isas[i].name);
        CHECK(count_ok(prefix, "items_per_second") >= 1);
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
            snprintf(prefix, sizeof prefix, "kernel/%s/%s/", kernels[k], isas[i].name);
            CHECK(count_ok(prefix, "items_per_second") == 1);
        }
    }
    return 0;
}

/* W1 and W2 keep their particle count (no deployment), so the items are exactly ropes x particles x
 * steps per iteration, and the batch engine ran the ISA asked for (W2's contacts included). */
static int test_particle_steps(void)
{
    json_t *all = benchmarks(), *b;
    CHECK(all);
    size_t i;
    int checked = 0;
    json_array_foreach(all, i, b) {
        const char *name = text(b, "name");
        if (strncmp(name, "w1/", 3) != 0 && strncmp(name, "w2/", 3) != 0)
            continue;
        CHECK(!json_is_true(json_object_get(b, "error_occurred")));
        CHECK(strcmp(text(b, "time_unit"), "ms") == 0);
        double iterations = number(b, "iterations");
        double seconds = number(b, "real_time") * 1e-3 * iterations;
        double expected = (double)name_arg(name, "ropes") * (double)name_arg(name, "particles") *
                          (double)name_arg(name, "steps") * iterations;
        CHECK_REL(number(b, "items_per_second") * seconds, expected, 1e-6);
        char engine[32];
        sscanf(name + 3, "%31[^/]", engine);
        CHECK(strcmp(text(b, "label"), engine) == 0);
        checked++;
    }
    CHECK(checked >= 4);
    return 0;
}

/* Cyclone's resolver uses at most twice the contacts in iterations. */
static int test_resolver_counters(void)
{
    json_t *all = benchmarks(), *b;
    CHECK(all);
    size_t i;
    json_array_foreach(all, i, b) {
        if (strncmp(text(b, "name"), "kernel/resolver/", 16) != 0)
            continue;
        double contacts = number(b, "contacts_per_rope"), iterations = number(b, "iterations_per_rope");
        CHECK(contacts >= 1);
        CHECK(iterations >= 1 && iterations <= 2 * contacts);
        return 0;
    }
    CHECK(!"no kernel/resolver entry");
    return 0;
}

/* The hand-tuned W1 kernel ran on every vector ISA this CPU runs, and its results were the batch engine's to
 * the bit (the yardstick computes the same arithmetic; only its speed is compared). */
static int test_handtuned_same_bits(void)
{
    json_t *all = benchmarks(), *b;
    CHECK(all);
    size_t i;
    int checked = 0;
    json_array_foreach(all, i, b) {
        if (strncmp(text(b, "name"), "handtuned/", 10) != 0)
            continue;
        CHECK(!json_is_true(json_object_get(b, "error_occurred")));
        CHECK(number(b, "same_bits") == 1);
        checked++;
    }
    sk_isa_info isas[8];
    int n = sk_isa_list(isas, 8), vector = 0;
    for (int k = 0; k < n; k++)
        vector += isas[k].compiled && isas[k].usable && strcmp(isas[k].name, "scalar") != 0;
    CHECK(checked >= 2 * vector); /* 1 and 2 threads per vector ISA */
    return 0;
}

/* W4 ran on every ISA this CPU runs: its items are the particle-steps of its window (1024 jumpers of 69
 * particles), its time to solution is the window's time per step times the whole 100 s at dt 5e-4 (200,000
 * steps), and no jumper diverged. */
static int test_w4(void)
{
    json_t *all = benchmarks(), *b;
    CHECK(all);
    size_t i;
    int checked = 0;
    json_array_foreach(all, i, b) {
        const char *name = text(b, "name");
        if (strncmp(name, "w4/", 3) != 0)
            continue;
        CHECK(!json_is_true(json_object_get(b, "error_occurred")));
        CHECK(name_arg(name, "ropes") == 1024 && name_arg(name, "particles") == 69);
        const double iterations = number(b, "iterations"), steps = (double)name_arg(name, "steps");
        const double seconds = number(b, "real_time") * 1e-3 * iterations;
        CHECK_REL(number(b, "items_per_second") * seconds, 1024.0 * 69.0 * steps * iterations, 1e-6);
        CHECK(number(b, "steps_to_solution") == 200000);
        CHECK_REL(number(b, "dt"), 5e-4, 1e-6);
        /* the counter divides the benchmark's own clock, real_time Google Benchmark's: the two part by whatever
         * preempts the process between their readings (0.3% seen on a loaded machine); a wrong extrapolation is
         * off by a factor (the window's steps, the dt) */
        CHECK_REL(number(b, "time_to_solution"), seconds / (steps * iterations) * 200000.0, 0.25);
        CHECK(number(b, "diverged_ropes") == 0);
        checked++;
    }
    sk_isa_info isas[8];
    int n = sk_isa_list(isas, 8), usable = 0;
    for (int k = 0; k < n; k++)
        usable += isas[k].compiled && isas[k].usable;
    CHECK(checked >= usable);
    return 0;
}

CHECK_MAIN({"context", test_context}, {"families", test_families}, {"particle_steps", test_particle_steps},
           {"resolver_counters", test_resolver_counters}, {"handtuned_same_bits", test_handtuned_same_bits},
           {"w4", test_w4})
