/* One kernel of the batch engine alone (batch.h's sk_batch_run_stage) on the calling thread: the fused
 * step, the same step unfused, the force kernel, each integrator, deployment, and W2's contact
 * generation and contact phase (generation with Cyclone's resolver); items are the particle-steps the
 * kernel covered. */
#include <stdio.h>

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
    static kernel_case cases[N_KERNELS * 3];
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
}
