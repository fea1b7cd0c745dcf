/* The benchmark suite's own helpers (prefix sk_bm_), shared by the suite's C files: workloads as
 * scenarios, the registration of each family of benchmarks, the run's context. */
#ifndef SKEIN_BENCH_BENCH_H
#define SKEIN_BENCH_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario/scenario.h"
#include "gbench_c.h"
#include "skein/types.h"
#include "skein/scenario.h"

/* ---- workloads (workload.c) ------------------------------------------------------------------- */

typedef enum sk_bm_workload {
    SK_BM_W1,    /* scenarios/w1_springs.json: spring ropes, first particle pinned, symplectic */
    SK_BM_W2,    /* scenarios/w2_rods.json: rod chains on a rod constraint, ground, cyclone */
    SK_BM_W2_SWEPT, /* W2 with each rope's damping drawn at random in [0.95, 0.999] (a Monte Carlo
                     * batch): the ropes of a pack soon pick different contacts, one lane at a time */
    SK_BM_DEPLOY, /* W1's ropes deploying from an anchored spring (the deployment kernel's load) */
    SK_BM_W3,     /* scenarios/w3_stiff_tether.json: stiff spring tethers, top pinned, implicit at dt 1e-2 */
    SK_BM_W3_EXPLICIT, /* W3 with symplectic Euler at SK_BM_W3_EXPLICIT_DT, the largest stable dt */
    SK_BM_W2_DIRECT,       /* W2 with "resolver": "direct" */
    SK_BM_W2_SWEPT_DIRECT, /* W2 swept with "resolver": "direct" */
    SK_BM_CHAIN,           /* W2's rod chains at other lengths (the particles argument), Cyclone's resolver */
    SK_BM_CHAIN_DIRECT,    /* the same with the direct solver: its cost is linear in the chain's length */
    SK_BM_W4               /* scenarios/w4_jumpers.json: 1024 Lowe and Langley jumpers in water, their top
                            * ends swung by sines of swept amplitude, symplectic, 100 s */
} sk_bm_workload;

/* The largest dt at which symplectic Euler runs W3's 10 s with no rope diverged, bisected with the CLI
 * (bench/README.md): 1.00003e-4 completes, 1.00005e-4 diverges (2 / w_max of the chain, w_max ~ 2
 * sqrt(k/m) = 2e4 /s); 1e-4 is 3 steps of 100,000 from that edge. */
#define SK_BM_W3_EXPLICIT_DT 1e-4

/* Loads workload w resized to `ropes` ropes of `particles` particles (the rope keeps its link spacing:
 * `end` moves with the count; W4's line keeps its length and ends, and takes particles - 1 segments), with
 * the integrator replaced when integrator is not NULL (W3_EXPLICIT: symplectic at SK_BM_W3_EXPLICIT_DT unless
 * replaced; its steps are then the full 10 s at that dt). Only rope 0 is selected for output. Returns 0, or
 * err's status (an invalid size, or a batch too big for this machine's memory). */
int sk_bm_load(sk_bm_workload w, int64_t ropes, int particles, const char *integrator, sk_scenario *out,
               sk_error *err);

/* W3 with "implicit": {"scheme": "bdf2"} (its defaults) at dt, resized as sk_bm_load resizes it; its steps are
 * the whole 10 s at that dt. */
int sk_bm_load_w3_bdf2(int64_t ropes, int particles, double dt, sk_scenario *out, sk_error *err);

/* Takes skein-bench's own `--set KEY=VALUE` (or `--set=KEY=VALUE`) out of argv, each an override every
 * workload gets after its own (`direct.tolerance=0`, say); returns 0, or 2 after a one-line error for
 * `--set` without a value or more than SK_BM_MAX_SETS of them. The sets are recorded in the context. */
#define SK_BM_MAX_SETS 16
int sk_bm_take_sets(int *argc, char **argv);

/* Steps per benchmark iteration for a batch of ropes x particles: about 4 M particle-steps, at least
 * 32 steps so that every pack stays in cache for 32 steps as in a real output interval (the batch
 * engine's cache blocking), at most 1024. */
int64_t sk_bm_w1_steps(int64_t ropes, int particles);

/* The kernel ISAs this build compiled and this CPU runs, widest first; returns how many (at most 3). */
int sk_bm_usable_isas(const char **names, int max);

/* Thread counts to measure: 1, 2 and the processor count when larger; returns how many (at most 3). */
int sk_bm_thread_counts(int *out);

/* ---- families (one file each) ----------------------------------------------------------------- */

void sk_bm_register_roofline(void);   /* roofline.c: FMA, sqrt, division, triad bandwidth */
void sk_bm_register_end_to_end(void); /* end_to_end.c: W1 sweep, W2 and W3, every engine */
void sk_bm_register_handtuned(void);  /* handtuned.c: the hand-tuned W1 kernel, the yardstick */
void sk_bm_register_kernels(void);    /* kernels.c: one batch kernel alone (batch.h stages) */
void sk_bm_register_contacts(void);   /* contacts.c: the reference's contact generation and resolver */
void sk_bm_register_concurrent(void); /* concurrent.c: many small skein runs side by side */

/* The context recorded with the results (context.c): commit, real type, ISAs, compiler, flags. */
void sk_bm_record_context(void);

#endif
