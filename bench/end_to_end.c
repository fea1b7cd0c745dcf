/* End-to-end benchmarks: W1 over a sweep of batch sizes, W2, W3 and W4, for the reference engine and the batch
 * engine on every usable ISA and thread count; items are particle-steps. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "batch/batch.h"
#include "skein/engine.h"

typedef struct e2e_case {
    sk_bm_workload workload;
    const char *engine; /* "reference", or the batch engine's ISA */
} e2e_case;

/* Arguments, in order. */
static const char *const arg_names[] = {"ropes", "particles", "steps", "threads"};

/* W1's batch sizes: 64 particles up to 262,144 ropes, and the 1,048,576-rope point with 32 particles
 * (33.5 M particles) so that it fits in memory. */
static const int64_t w1_sizes[][2] = {{64, 64},    {256, 64},    {1024, 64},   {4096, 64},
                                      {16384, 64}, {65536, 64}, {262144, 64}, {1048576, 32}};
/* The reference steps rope after rope, so its rate does not depend on the batch size; beyond this it
 * would only cost memory and minutes. */
static const int64_t reference_max_ropes = 16384;

/* W2 is timed in one iteration over a fixed window of steps, the same for every engine and repetition:
 * the work of a rod chain changes as it swings down and reaches the ground, so a window that depended
 * on the engine's speed would compare different work. Three windows: the first 32 steps on 64 and on
 * 4096 ropes, and the whole scenario (its `steps`, swinging down onto the ground) on 64 ropes. */
enum { W2_PARTICLES = 32, W2_SMALL_ROPES = 64, W2_LARGE_ROPES = 4096, W2_WINDOW_STEPS = 32 };

/* W3 as written (256 ropes of 200 particles), implicit at its dt and symplectic at the largest stable dt,
 * each timed over windows of one output interval (the file's output.every, 100 steps) from step 0, as
 * many as the minimum time takes. A spring rope's step costs the same whatever its state (the implicit
 * integrator does a fixed number of Newton iterations), so the time to solution of the whole 10 s is the
 * time per step times the run's steps (1000 implicit, 100,000 symplectic): the explicit run would take
 * seconds per repetition on one thread. */
enum { W3_ROPES = 256, W3_PARTICLES = 200, W3_WINDOW_STEPS = 100 };

/* W4 as written (1024 jumpers of 69 particles, 100 s at dt 5e-4: 200,000 steps), timed as W3 is, over windows
 * of 100 steps from step 0, its time to solution extrapolated from them: a line's step costs the same
 * whatever its state (drag, added mass, buoyancy and the seabed are computed for every particle, touching or
 * not), and the whole run would take minutes per repetition. */
enum { W4_ROPES = 1024, W4_PARTICLES = 69, W4_WINDOW_STEPS = 100 };

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void run(sk_bench_state *st, void *user)
{
    const e2e_case *c = user;
    int64_t ropes = sk_bench_arg(st, 0), steps = sk_bench_arg(st, 2);
    int particles = (int)sk_bench_arg(st, 1), threads = (int)sk_bench_arg(st, 3);
    sk_scenario s;
    sk_error err = {0};
    if (sk_bm_load(c->workload, ropes, particles, NULL, &s, &err)) {
        sk_bench_skip_with_error(st, err.message);
        return;
    }
    bool reference = strcmp(c->engine, "reference") == 0;
    sk_engine *e = NULL;
    sk_batch *b = NULL;
    if (reference)
        e = sk_engine_create(&s, &(sk_engine_options){.engine = "reference", .threads = threads}, &err);
    else
        b = sk_batch_create(&s, &(sk_batch_options){.isa = c->engine, .threads = threads}, &err);
    if (!e && !b) {
        sk_bench_skip_with_error(st, err.message);
        sk_scenario_free(&s);
        return;
    }

    uint64_t done = 0;
    double start = now_seconds();
    while (sk_bench_keep_running(st))
        done += reference ? sk_engine_advance(e, steps) : sk_batch_advance(b, steps);
    double seconds = now_seconds() - start;

    sk_bench_set_items_processed(st, (int64_t)done);
    if (c->workload == SK_BM_W3 || c->workload == SK_BM_W3_EXPLICIT || c->workload == SK_BM_W4) {
        /* The whole run extrapolated from the steps timed, and what it is: its steps at its dt. A diverged
         * rope would make the explicit figure meaningless (its dt must be stable), so it is counted. */
        double timed_steps = (double)sk_bench_iterations_done(st) * (double)steps;
        sk_bench_counter(st, "time_to_solution", seconds / timed_steps * (double)s.steps, SK_BENCH_PLAIN);
        sk_bench_counter(st, "steps_to_solution", (double)s.steps, SK_BENCH_PLAIN);
        sk_bench_counter(st, "dt", (double)s.dt, SK_BENCH_PLAIN);
        size_t diverged = reference ? sk_engine_check_frame(e) : sk_batch_check_frame(b);
        sk_bench_counter(st, "diverged_ropes", (double)diverged, SK_BENCH_PLAIN);
    }
    double particles_total = (double)ropes * particles;
    if (b) {
        sk_bench_counter(st, "bytes_per_particle", (double)sk_batch_bytes(b) / particles_total, SK_BENCH_PLAIN);
        /* What really ran: the kernels' ISA. */
        sk_bench_set_label(st, sk_batch_isa(b));
        sk_batch_destroy(b);
    } else {
        sk_bench_set_label(st, sk_engine_isa(e));
        sk_engine_destroy(e);
    }
    sk_scenario_free(&s);
}

/* W3 with BDF2 at dt = dt_us microseconds: Newton's solves per step change with the motion, so the whole 10 s is
 * timed, one run per iteration (the batch built outside the timing). Counters: time_to_solution, dt,
 * steps_to_solution, solves_per_step (rope 0's, every rope of W3 being the same rope, summed step by step in a
 * one-rope batch outside the timing), not_converged_steps (rope 0's), diverged_ropes. */
static const char *const bdf2_arg_names[] = {"ropes", "particles", "dt_us", "threads"};
static const int64_t bdf2_dt_us[] = {10000, 25000, 50000, 62500};

static void run_w3_bdf2(sk_bench_state *st, void *user)
{
    const e2e_case *c = user;
    const int64_t ropes = sk_bench_arg(st, 0);
    const int particles = (int)sk_bench_arg(st, 1), threads = (int)sk_bench_arg(st, 3);
    const double dt = (double)sk_bench_arg(st, 2) * 1e-6;
    sk_scenario s, one;
    sk_error err = {0};
    if (sk_bm_load_w3_bdf2(ropes, particles, dt, &s, &err)) {
        sk_bench_skip_with_error(st, err.message);
        return;
    }
    if (sk_bm_load_w3_bdf2(1, particles, dt, &one, &err)) {
        sk_bench_skip_with_error(st, err.message);
        sk_scenario_free(&s);
        return;
    }
    double seconds = 0;
    uint64_t done = 0;
    size_t diverged = 0;
    int solves;
    long not_converged = 0;
    while (sk_bench_keep_running(st)) {
        sk_bench_pause(st);
        sk_batch *b = sk_batch_create(&s, &(sk_batch_options){.isa = c->engine, .threads = threads}, &err);
        sk_bench_resume(st);
        if (!b) {
            sk_bench_skip_with_error(st, err.message);
            break;
        }
        const double start = now_seconds();
        done += sk_batch_advance(b, s.steps);
        seconds += now_seconds() - start;
        sk_bench_pause(st);
        diverged = sk_batch_check_frame(b);
        sk_batch_rope_newton(b, 0, &solves, &not_converged);
        sk_bench_set_label(st, sk_batch_isa(b));
        sk_batch_destroy(b);
        sk_bench_resume(st);
    }
    long total = 0;
    sk_batch *b1 = sk_batch_create(&one, &(sk_batch_options){.isa = c->engine, .threads = 1}, &err);
    for (long k = 0; b1 && k < one.steps; k++) {
        sk_batch_advance(b1, 1);
        long unused;
        sk_batch_rope_newton(b1, 0, &solves, &unused);
        total += solves;
    }
    sk_batch_destroy(b1);
    const double runs = (double)sk_bench_iterations_done(st);
    sk_bench_set_items_processed(st, (int64_t)done);
    sk_bench_counter(st, "time_to_solution", runs > 0 ? seconds / runs : 0, SK_BENCH_PLAIN);
    sk_bench_counter(st, "steps_to_solution", (double)s.steps, SK_BENCH_PLAIN);
    sk_bench_counter(st, "dt", (double)s.dt, SK_BENCH_PLAIN);
    sk_bench_counter(st, "solves_per_step", (double)total / (double)(one.steps > 0 ? one.steps : 1), SK_BENCH_PLAIN);
    sk_bench_counter(st, "not_converged_steps", (double)not_converged, SK_BENCH_PLAIN);
    sk_bench_counter(st, "diverged_ropes", (double)diverged, SK_BENCH_PLAIN);
    sk_scenario_free(&one);
    sk_scenario_free(&s);
}

static sk_bench *register_case(const char *workload, e2e_case *c)
{
    char name[64];
    snprintf(name, sizeof name, "%s/%s", workload, c->engine);
    sk_bench *b = sk_bench_register(name, run, c);
    sk_bench_arg_names(b, arg_names, 4);
    sk_bench_use_real_time(b);
    sk_bench_time_unit(b, 'm');
    return b;
}

void sk_bm_register_end_to_end(void)
{
    const char *isas[3];
    int n_isas = sk_bm_usable_isas(isas, 3);
    int threads[3];
    int n_threads = sk_bm_thread_counts(threads);
    enum { N_W1 = sizeof w1_sizes / sizeof w1_sizes[0] };

    enum { N_WORKLOADS = 10 };
    static const sk_bm_workload workloads[N_WORKLOADS] = {
        SK_BM_W1,        SK_BM_W2,        SK_BM_W2_SWEPT,        SK_BM_W3,    SK_BM_W3_EXPLICIT,
        SK_BM_W2_DIRECT, SK_BM_W2_SWEPT_DIRECT, SK_BM_CHAIN, SK_BM_CHAIN_DIRECT, SK_BM_W4};
    static e2e_case cases[N_WORKLOADS][4];
    for (int w = 0; w < N_WORKLOADS; w++) {
        cases[w][0] = (e2e_case){workloads[w], "reference"};
        for (int i = 0; i < n_isas; i++)
            cases[w][i + 1] = (e2e_case){workloads[w], isas[i]};
    }

    for (int k = 0; k <= n_isas; k++) {
        bool reference = k == 0;
        sk_bench *b = register_case("w1", &cases[0][k]);
        for (int i = 0; i < N_W1; i++) {
            int64_t ropes = w1_sizes[i][0], particles = w1_sizes[i][1];
            if (reference && ropes > reference_max_ropes)
                continue;
            int64_t steps = sk_bm_w1_steps(ropes, (int)particles);
            /* The reference runs on one thread whatever it is given. */
            for (int t = 0; t < (reference ? 1 : n_threads); t++)
                sk_bench_args(b, (int64_t[]){ropes, particles, steps, threads[t]}, 4);
        }
    }

    sk_scenario w2;
    sk_error err;
    int64_t w2_steps = W2_WINDOW_STEPS;
    if (sk_bm_load(SK_BM_W2, W2_SMALL_ROPES, W2_PARTICLES, NULL, &w2, &err) == 0) {
        w2_steps = w2.steps;
        sk_scenario_free(&w2);
    }
    const int64_t w2_windows[3][2] = {
        {W2_SMALL_ROPES, W2_WINDOW_STEPS}, {W2_LARGE_ROPES, W2_WINDOW_STEPS}, {W2_SMALL_ROPES, w2_steps}};
    /* W2 as written (identical ropes), then swept (every rope its own damping); each with Cyclone's resolver
     * and with the direct solver */
    static const int w2_cases[4] = {1, 2, 5, 6};
    static const char *const w2_names[4] = {"w2", "w2swept", "w2direct", "w2sweptdirect"};
    for (int c = 0; c < 4; c++)
        for (int k = 0; k <= n_isas; k++) {
            const int w = w2_cases[c];
            bool reference = k == 0;
            sk_bench *b = register_case(w2_names[c], &cases[w][k]);
            sk_bench_iterations(b, 1);
            for (int i = 0; i < 3; i++)
                for (int t = 0; t < (reference ? 1 : n_threads); t++)
                    sk_bench_args(b, (int64_t[]){w2_windows[i][0], W2_PARTICLES, w2_windows[i][1], threads[t]},
                                  4);
        }

    /* Rod chains of 32 to 1001 particles (1000 rods) on W2's geometry, W2's first window on 64 ropes, with
     * each resolver: the direct solver's cost per particle should not grow with the length; Cyclone's, which
     * scans the rope's contacts at each of its 2 x contacts iterations, grows with it. The widest ISA. */
    static const int64_t chain_lengths[] = {32, 128, 512, 1001};
    for (int w = 7; w < 9 && n_isas > 0; w++) {
        sk_bench *b = register_case(w == 7 ? "chain" : "chaindirect", &cases[w][1]);
        sk_bench_iterations(b, 1);
        for (size_t i = 0; i < sizeof chain_lengths / sizeof chain_lengths[0]; i++)
            for (int t = 0; t < n_threads; t++)
                sk_bench_args(b, (int64_t[]){W2_SMALL_ROPES, chain_lengths[i], W2_WINDOW_STEPS, threads[t]}, 4);
    }

    /* W3: implicit at the file's dt, then symplectic at the largest stable dt, the same window */
    for (int w = 3; w < 5; w++)
        for (int k = 0; k <= n_isas; k++) {
            bool reference = k == 0;
            sk_bench *b = register_case(w == 3 ? "w3" : "w3explicit", &cases[w][k]);
            for (int t = 0; t < (reference ? 1 : n_threads); t++)
                sk_bench_args(b, (int64_t[]){W3_ROPES, W3_PARTICLES, W3_WINDOW_STEPS, threads[t]}, 4);
        }

    /* W4: the jumpers in water, symplectic at the file's dt */
    for (int k = 0; k <= n_isas; k++) {
        bool reference = k == 0;
        sk_bench *b = register_case("w4", &cases[9][k]);
        for (int t = 0; t < (reference ? 1 : n_threads); t++)
            sk_bench_args(b, (int64_t[]){W4_ROPES, W4_PARTICLES, W4_WINDOW_STEPS, threads[t]}, 4);
    }

    /* W3 with BDF2 at four steps (6.25e-2 s the largest with the tip within 1%), the batch engine (the whole run each time) */
    for (int k = 1; k <= n_isas; k++) {
        char name[64];
        snprintf(name, sizeof name, "w3bdf2/%s", cases[3][k].engine);
        sk_bench *b = sk_bench_register(name, run_w3_bdf2, &cases[3][k]);
        sk_bench_arg_names(b, bdf2_arg_names, 4);
        sk_bench_use_real_time(b);
        sk_bench_time_unit(b, 'm');
        sk_bench_iterations(b, 1);
        for (size_t d = 0; d < sizeof bdf2_dt_us / sizeof bdf2_dt_us[0]; d++)
            for (int t = 0; t < n_threads; t++)
                sk_bench_args(b, (int64_t[]){W3_ROPES, W3_PARTICLES, bdf2_dt_us[d], threads[t]}, 4);
    }
}
