/* The roofline measured in the same run as the kernels: FMA, sqrt and division throughput per ISA and
 * real type, and the triad's bandwidth from L1, L2 and DRAM, on 1..N threads (each thread its own
 * chains and arrays). With handtuned.c, the suite's only files with OpenMP pragmas (both measure code
 * that is not skein's, so they cannot use skein's parallel seam). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "roofline.h"

typedef uint64_t (*rl_fn)(long n);
typedef void (*rl_triad)(double *restrict a, const double *restrict b, const double *restrict c, double s,
                         size_t n);

enum { RL_FMA, RL_SQRT, RL_DIV, RL_OPS };
static const char *const rl_op_names[RL_OPS] = {"fma", "sqrt", "div"};
/* Loop trips per call and thread: a millisecond or two of work, so the fork/join is noise. */
static const long rl_trips[RL_OPS] = {1L << 18, 1L << 16, 1L << 16};

typedef struct rl_isa {
    const char *name;
    bool usable;
    rl_fn fn[RL_OPS][2]; /* [op][0 double, 1 float]; NULL where the ISA has no such unit (scalar FMA) */
    rl_triad triad;
} rl_isa;

typedef struct rl_case {
    const rl_isa *isa;
    int op, real;
} rl_case;

typedef struct triad_case {
    const rl_isa *isa;
    size_t n;   /* doubles per array and thread */
    int passes; /* sweeps per iteration */
} triad_case;

static void run_op(sk_bench_state *st, void *user)
{
    const rl_case *c = user;
    rl_fn fn = c->isa->fn[c->op][c->real];
    long trips = rl_trips[c->op];
    int threads = (int)sk_bench_arg(st, 0);
    uint64_t total = 0;
    while (sk_bench_keep_running(st)) {
        uint64_t done = 0;
#pragma omp parallel num_threads(threads) reduction(+ : done)
        done += fn(trips);
        total += done;
    }
    sk_bench_set_items_processed(st, (int64_t)total);
    if (c->op == RL_FMA)
        sk_bench_counter(st, "flops", 2.0 * (double)total, SK_BENCH_RATE);
    else
        sk_bench_counter(st, "ops", (double)total, SK_BENCH_RATE);
}

static void run_triad(sk_bench_state *st, void *user)
{
    const triad_case *c = user;
    int threads = (int)sk_bench_arg(st, 0);
    double **arrays = calloc((size_t)threads * 3, sizeof *arrays);
    double **blocks = calloc((size_t)threads * 3, sizeof *blocks);
    int failed = arrays == NULL || blocks == NULL;
    if (!failed) {
        /* Each thread allocates and first touches its own arrays. */
#pragma omp parallel num_threads(threads) reduction(+ : failed)
        {
            int t = omp_get_thread_num();
            for (int k = 0; k < 3; k++) {
                /* Array k starts k * 320 bytes into its block: arrays a multiple of 4 KiB apart would
                 * make loads wait on stores to the same 4 KiB offset (4K aliasing). */
                double *x = aligned_alloc(64, (c->n + 128) * sizeof(double));
                blocks[3 * t + k] = x;
                if (!x) {
                    failed++;
                    continue;
                }
                x += 40 * k;
                arrays[3 * t + k] = x;
                for (size_t i = 0; i < c->n; i++)
                    x[i] = k + 1.0;
            }
        }
    }
    if (failed) {
        sk_bench_skip_with_error(st, "out of memory for the triad's arrays");
    } else {
        while (sk_bench_keep_running(st)) {
#pragma omp parallel num_threads(threads)
            {
                int t = omp_get_thread_num();
                double *a = arrays[3 * t], *b = arrays[3 * t + 1], *x = arrays[3 * t + 2];
                for (int p = 0; p < c->passes; p++)
                    c->isa->triad(a, b, x, 0.5, c->n);
            }
        }
        /* STREAM's count: two arrays read, one written, per element. */
        sk_bench_set_bytes_processed(st, sk_bench_iterations_done(st) * threads * c->passes *
                                             (int64_t)(3 * c->n * sizeof(double)));
        sk_bench_counter(st, "bytes_per_thread", (double)(3 * c->n * sizeof(double)), SK_BENCH_PLAIN);
        sk_bench_set_label(st, c->isa->name);
    }
    if (blocks)
        for (int i = 0; i < 3 * threads; i++)
            free(blocks[i]);
    free(blocks);
    free(arrays);
}

/* Whether this CPU runs what roofline_isa.c was compiled with for an ISA (bench/CMakeLists.txt). */
static bool cpu_runs(const char *isa)
{
    __builtin_cpu_init();
    if (strcmp(isa, "avx512") == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl");
    if (strcmp(isa, "avx2") == 0)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return true;
}

void sk_bm_register_roofline(void)
{
    static rl_isa isas[] = {
#ifdef SK_BM_HAVE_AVX512
        {"avx512", false,
         {{sk_bm_rl_avx512_fma_d, sk_bm_rl_avx512_fma_f},
          {sk_bm_rl_avx512_sqrt_d, sk_bm_rl_avx512_sqrt_f},
          {sk_bm_rl_avx512_div_d, sk_bm_rl_avx512_div_f}},
         sk_bm_rl_avx512_triad},
#endif
#ifdef SK_BM_HAVE_AVX2
        {"avx2", false,
         {{sk_bm_rl_avx2_fma_d, sk_bm_rl_avx2_fma_f},
          {sk_bm_rl_avx2_sqrt_d, sk_bm_rl_avx2_sqrt_f},
          {sk_bm_rl_avx2_div_d, sk_bm_rl_avx2_div_f}},
         sk_bm_rl_avx2_triad},
#endif
        {"scalar", false,
         {{NULL, NULL},
          {sk_bm_rl_scalar_sqrt_d, sk_bm_rl_scalar_sqrt_f},
          {sk_bm_rl_scalar_div_d, sk_bm_rl_scalar_div_f}},
         sk_bm_rl_scalar_triad},
    };
    enum { N_ISAS = sizeof isas / sizeof isas[0] };
    for (int i = 0; i < N_ISAS; i++)
        isas[i].usable = cpu_runs(isas[i].name);

    int threads[3];
    int n_threads = sk_bm_thread_counts(threads);
    static const char *const arg_names[] = {"threads"};
    static const char *const real_names[2] = {"double", "float"};
    static rl_case cases[N_ISAS * RL_OPS * 2];
    int n_cases = 0;
    for (int op = 0; op < RL_OPS; op++)
        for (int i = 0; i < N_ISAS; i++)
            for (int r = 0; r < 2; r++) {
                if (!isas[i].usable || !isas[i].fn[op][r])
                    continue;
                rl_case *c = &cases[n_cases++];
                *c = (rl_case){&isas[i], op, r};
                char name[96];
                snprintf(name, sizeof name, "roofline/%s/%s/%s", rl_op_names[op], isas[i].name, real_names[r]);
                sk_bench *b = sk_bench_register(name, run_op, c);
                sk_bench_arg_names(b, arg_names, 1);
                for (int t = 0; t < n_threads; t++)
                    sk_bench_args(b, (int64_t[]){threads[t]}, 1);
                sk_bench_use_real_time(b);
                sk_bench_time_unit(b, 'm');
            }

    /* Bandwidth with the widest usable ISA, per thread: three arrays of 8 KiB (in L1) swept 4096 times
     * per iteration, three of 128 KiB (in L2, not in L1) swept 256 times, three of 64 MiB (far beyond
     * L3) swept once. */
    const rl_isa *widest = NULL;
    for (int i = 0; i < N_ISAS && !widest; i++)
        if (isas[i].usable)
            widest = &isas[i];
    static triad_case triads[3];
    triads[0] = (triad_case){widest, 1024, 4096};
    triads[1] = (triad_case){widest, 16384, 256};
    triads[2] = (triad_case){widest, (size_t)8 << 20, 1};
    static const char *const triad_names[3] = {"roofline/triad_l1", "roofline/triad_l2", "roofline/triad_dram"};
    for (int k = 0; k < 3; k++) {
        sk_bench *b = sk_bench_register(triad_names[k], run_triad, &triads[k]);
        sk_bench_arg_names(b, arg_names, 1);
        for (int t = 0; t < n_threads; t++)
            sk_bench_args(b, (int64_t[]){threads[t]}, 1);
        sk_bench_use_real_time(b);
        sk_bench_time_unit(b, 'm');
    }
}
