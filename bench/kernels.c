/* One kernel of the batch engine alone (batch.h's sk_batch_run_stage) on the calling thread: the fused
 * step, the same step unfused, the force kernel, each integrator, deployment, and W2's contact
 * generation and contact phase (generation with Cyclone's resolver); items are the particle-steps the
 * kernel covered. And W3's step, implicit against symplectic on the same ropes, on 1 and 2 threads. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "batch/batch.h"

typedef struct kernel_case {
    const char *name;
    sk_batch_stage stage;
    sk_bm_workload workload;
    const char *integrator; /* NULL: the workload's */
    const char *isa;
} kernel_case;

static const char *const arg_names[] = {"ropes", "particles", "steps"};

/* W1's and W2's headline sizes; a stage runs each pack through all its steps before the next pack, so
 * the particles a kernel touches stay in cache whatever the batch size. */
enum { KERNEL_ROPES = 4096, KERNEL_PARTICLES = 64, KERNEL_W2_PARTICLES = 32, KERNEL_STEPS = 16 };

static const struct {
    const char *name;
    sk_batch_stage stage;
    sk_bm_workload workload;
    const char *integrator;
    int particles;
} kernels[] = {
    {"step", SK_BATCH_STAGE_STEP, SK_BM_W1, NULL, KERNEL_PARTICLES},
    {"step_unfused", SK_BATCH_STAGE_UNFUSED, SK_BM_W1, NULL, KERNEL_PARTICLES},
    {"forces", SK_BATCH_STAGE_FORCES, SK_BM_W1, NULL, KERNEL_PARTICLES},
    {"integrate_cyclone", SK_BATCH_STAGE_INTEGRATE, SK_BM_W1, "cyclone", KERNEL_PARTICLES},
    {"integrate_euler", SK_BATCH_STAGE_INTEGRATE, SK_BM_W1, "euler", KERNEL_PARTICLES},
    {"integrate_symplectic", SK_BATCH_STAGE_INTEGRATE, SK_BM_W1, "symplectic", KERNEL_PARTICLES},
    {"integrate_verlet", SK_BATCH_STAGE_INTEGRATE, SK_BM_W1, "verlet", KERNEL_PARTICLES},
    {"deploy", SK_BATCH_STAGE_DEPLOY, SK_BM_DEPLOY, NULL, KERNEL_PARTICLES},
    /* W2 from its initial state (the chain in the air: every rod and the anchor rod generate a contact,
     * every ground slot is tested): generation alone, and generation with the resolver (2 x contacts
     * iterations per step), without forces or integration. */
    {"contacts", SK_BATCH_STAGE_CONTACTS, SK_BM_W2, NULL, KERNEL_W2_PARTICLES},
    {"resolver", SK_BATCH_STAGE_RESOLVER, SK_BM_W2, NULL, KERNEL_W2_PARTICLES},
};
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* W3's step (the fused step, as sk_batch_advance runs it) on W3's 256 ropes of 200 particles, implicit
 * and symplectic (at its largest stable dt; dt does not change a step's work): the per-step price of the
 * implicit solve. On T threads each thread steps its own batch of about ropes / T ropes (a contiguous share
 * of the packs, as the engine hands them out), so only the kernel is timed, without the engine's pass. */
static const char *const w3_arg_names[] = {"ropes", "particles", "steps", "threads"};
enum { W3_ROPES = 256, W3_PARTICLES = 200 };
static const struct {
    const char *name;
    sk_bm_workload workload;
} w3_kernels[] = {{"w3_implicit", SK_BM_W3}, {"w3_symplectic", SK_BM_W3_EXPLICIT}};
enum { N_W3_KERNELS = sizeof w3_kernels / sizeof w3_kernels[0] };

static void run_w3(sk_bench_state *st, void *user)
{
    const kernel_case *c = user;
    int64_t ropes = sk_bench_arg(st, 0), steps = sk_bench_arg(st, 2);
    int particles = (int)sk_bench_arg(st, 1), threads = (int)sk_bench_arg(st, 3);
    if (threads < 1 || threads > ropes) {
        sk_bench_skip_with_error(st, "every thread needs a rope");
        return;
    }
    sk_scenario *s = calloc((size_t)threads, sizeof *s);
    sk_batch **b = calloc((size_t)threads, sizeof *b);
    sk_error err = {0};
    int made = 0;
    if (!s || !b)
        snprintf(err.message, sizeof err.message, "out of memory");
    for (; s && b && made < threads; made++) {
        int64_t share = ropes * (made + 1) / threads - ropes * made / threads;
        if (sk_bm_load(c->workload, share, particles, NULL, &s[made], &err))
            break;
        b[made] = sk_batch_create(&s[made], &(sk_batch_options){.isa = c->isa, .threads = 1}, &err);
        if (!b[made]) {
            sk_scenario_free(&s[made]);
            break;
        }
    }
    if (made == threads) {
        uint64_t done = 0;
        while (sk_bench_keep_running(st)) {
            uint64_t sum = 0;
#pragma omp parallel for num_threads(threads) schedule(static, 1) reduction(+ : sum)
            for (int t = 0; t < threads; t++)
                sum += sk_batch_run_stage(b[t], SK_BATCH_STAGE_STEP, (long)steps);
            done += sum;
        }
        sk_bench_set_items_processed(st, (int64_t)done);
        sk_bench_set_label(st, sk_batch_isa(b[0]));
    } else {
        sk_bench_skip_with_error(st, err.message);
    }
    for (int t = 0; t < made; t++) {
        sk_batch_destroy(b[t]);
        sk_scenario_free(&s[t]);
    }
    free(b);
    free(s);
}

static void run(sk_bench_state *st, void *user)
{
    const kernel_case *c = user;
    int64_t ropes = sk_bench_arg(st, 0), steps = sk_bench_arg(st, 2);
    int particles = (int)sk_bench_arg(st, 1);
    sk_scenario s;
    sk_error err = {0};
    if (sk_bm_load(c->workload, ropes, particles, c->integrator, &s, &err)) {
        sk_bench_skip_with_error(st, err.message);
        return;
    }
    sk_batch *b = sk_batch_create(&s, &(sk_batch_options){.isa = c->isa, .threads = 1}, &err);
    if (!b) {
        sk_bench_skip_with_error(st, err.message);
        sk_scenario_free(&s);
        return;
    }
    /* The integrators read the force array: fill it as a step would. */
    if (c->stage == SK_BATCH_STAGE_INTEGRATE)
        sk_batch_run_stage(b, SK_BATCH_STAGE_FORCES, 1);

    uint64_t done = 0;
    while (sk_bench_keep_running(st))
        done += sk_batch_run_stage(b, c->stage, (long)steps);

    sk_bench_set_items_processed(st, (int64_t)done);
    if (c->stage == SK_BATCH_STAGE_RESOLVER) {
        /* what the ropes' last contact phase did, as kernel/resolver/reference reports it */
        double contacts = 0, iterations = 0;
        for (size_t r = 0; r < s.total_ropes; r++) {
            int rc, ri;
            sk_batch_rope_contacts(b, r, &rc, &ri);
            contacts += rc;
            iterations += ri;
        }
        sk_bench_counter(st, "contacts_per_rope", contacts / (double)s.total_ropes, SK_BENCH_PLAIN);
        sk_bench_counter(st, "iterations_per_rope", iterations / (double)s.total_ropes, SK_BENCH_PLAIN);
    }
    sk_bench_set_label(st, sk_batch_isa(b));
    sk_batch_destroy(b);
    sk_scenario_free(&s);
}

void sk_bm_register_kernels(void)
{
    const char *isas[3];
    int n_isas = sk_bm_usable_isas(isas, 3);
    static kernel_case cases[(N_KERNELS + N_W3_KERNELS) * 3];
    int n = 0;
    for (int k = 0; k < N_KERNELS; k++)
        for (int i = 0; i < n_isas; i++) {
            kernel_case *c = &cases[n++];
            *c = (kernel_case){kernels[k].name, kernels[k].stage, kernels[k].workload, kernels[k].integrator,
                               isas[i]};
            char name[96];
            snprintf(name, sizeof name, "kernel/%s/%s", c->name, c->isa);
            sk_bench *b = sk_bench_register(name, run, c);
            sk_bench_arg_names(b, arg_names, 3);
            sk_bench_args(b, (int64_t[]){KERNEL_ROPES, kernels[k].particles, KERNEL_STEPS}, 3);
            sk_bench_use_real_time(b);
            sk_bench_time_unit(b, 'm');
        }

    int threads[3];
    int n_threads = sk_bm_thread_counts(threads);
    for (int k = 0; k < N_W3_KERNELS; k++)
        for (int i = 0; i < n_isas; i++) {
            kernel_case *c = &cases[n++];
            *c = (kernel_case){w3_kernels[k].name, SK_BATCH_STAGE_STEP, w3_kernels[k].workload, NULL, isas[i]};
            char name[96];
            snprintf(name, sizeof name, "kernel/%s/%s", c->name, c->isa);
            sk_bench *b = sk_bench_register(name, run_w3, c);
            sk_bench_arg_names(b, w3_arg_names, 4);
            for (int t = 0; t < n_threads; t++)
                sk_bench_args(b, (int64_t[]){W3_ROPES, W3_PARTICLES, KERNEL_STEPS, threads[t]}, 4);
            sk_bench_use_real_time(b);
            sk_bench_time_unit(b, 'm');
        }
}
