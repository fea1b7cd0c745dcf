/* The yardstick W1 is measured against: a hand-tuned kernel for exactly W1's ropes (handtuned_isa.c), run
 * over the same batch as w1/ISA (same ropes, steps per iteration and threads), its packs split among the
 * threads in contiguous blocks. Counter `same_bits`: 1 when its positions and velocities after the first
 * iteration are skein's batch engine's to the bit (the comparison is of speed for the same arithmetic). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "batch/batch.h"
#include "handtuned.h"

typedef int (*ht_width_fn)(void);
typedef void (*ht_advance_fn)(sk_real *, size_t, int, long, size_t, const sk_bm_ht_constants *);

typedef struct ht_isa {
    const char *name;
    ht_width_fn width;
    ht_advance_fn advance;
} ht_isa;

static const ht_isa ht_isas[] = {
#ifdef SK_BM_HAVE_AVX512
    {"avx512", sk_bm_ht_avx512_width, sk_bm_ht_avx512_advance},
#endif
#ifdef SK_BM_HAVE_AVX2
    {"avx2", sk_bm_ht_avx2_width, sk_bm_ht_avx2_advance},
#endif
};
enum { HT_ISAS = sizeof ht_isas / sizeof ht_isas[0] };

/* Ropes per block, stepped through all of an iteration's steps before the next block: 64 (eight packs of
 * 64-particle double ropes, 200 KiB, in L2). Blocks of one pack to 32 measured the same. */
enum { HT_BLOCK_ROPES = 64 };

static const char *const arg_names[] = {"ropes", "particles", "steps", "threads"};

/* W1 as the kernel knows it, or a message when the scenario is not that. */
static const char *constants_of(const sk_scenario *s, sk_bm_ht_constants *c)
{
    const sk_group *g = &s->groups[0];
    sk_rope_params rp;
    sk_group_rope_params(g, 0, &rp);
    if (s->n_groups != 1 || s->integrator != SK_INTEGRATOR_SYMPLECTIC || g->link != SK_LINK_SPRING ||
        g->link_length_auto || g->anchor != SK_ANCHOR_NONE || g->n_pinned != 1 || g->pinned[0] != 0 ||
        g->deploys || g->n_sweeps || rp.damping != 1 || s->gravity_as != SK_GRAVITY_ACCELERATION || g->has_drag ||
        g->has_buoyancy || g->force_objects)
        return "the hand-tuned kernel steps W1's ropes only";
    *c = (sk_bm_ht_constants){.rest = rp.link_length,
                              .stiffness = rp.link_stiffness,
                              .inverse_mass = (sk_real)1 / rp.mass,
                              .dt = s->dt,
                              .g = {s->gravity.x, s->gravity.y, s->gravity.z}};
    return NULL;
}

/* Every rope's p and v from the batch into its lane (padding lanes: the last rope). */
static void lay_packs(const sk_batch *b, size_t ropes, int n, int width, sk_real *packs, size_t n_packs)
{
    sk_real *p = malloc((size_t)n * 3 * sizeof *p), *v = malloc((size_t)n * 3 * sizeof *v);
    for (size_t k = 0; p && v && k < n_packs; k++)
        for (int l = 0; l < width; l++) {
            size_t rope = k * (size_t)width + (size_t)l;
            sk_batch_read_rope(b, rope < ropes ? rope : ropes - 1, p, v);
            sk_real *pack = packs + k * (size_t)n * 6 * (size_t)width;
            for (int i = 0; i < n; i++)
                for (int c = 0; c < 3; c++) {
                    pack[((size_t)i * 6 + (size_t)c) * (size_t)width + (size_t)l] = p[3 * i + c];
                    pack[((size_t)i * 6 + 3 + (size_t)c) * (size_t)width + (size_t)l] = v[3 * i + c];
                }
        }
    free(p);
    free(v);
}

/* Whether every rope's p and v in the packs are the batch's, bit for bit. */
static bool same_as_batch(const sk_batch *b, size_t ropes, int n, int width, const sk_real *packs)
{
    sk_real *p = malloc((size_t)n * 3 * sizeof *p), *v = malloc((size_t)n * 3 * sizeof *v);
    bool same = p && v;
    for (size_t rope = 0; same && rope < ropes; rope++) {
        sk_batch_read_rope(b, rope, p, v);
        const sk_real *pack = packs + rope / (size_t)width * (size_t)n * 6 * (size_t)width;
        const size_t l = rope % (size_t)width;
        for (int i = 0; same && i < n; i++)
            for (int c = 0; c < 3; c++)
                same = same && memcmp(&pack[((size_t)i * 6 + (size_t)c) * (size_t)width + l], &p[3 * i + c],
                                      sizeof(sk_real)) == 0 &&
                       memcmp(&pack[((size_t)i * 6 + 3 + (size_t)c) * (size_t)width + l], &v[3 * i + c],
                              sizeof(sk_real)) == 0;
    }
    free(p);
    free(v);
    return same;
}

/* `steps` steps of every pack, the packs split into `threads` contiguous shares of whole blocks. */
static void advance_all(const ht_isa *isa, sk_real *packs, size_t n_packs, int n, long steps, int threads,
                        const sk_bm_ht_constants *c, int width)
{
    const size_t pack_len = (size_t)n * 6 * (size_t)width;
    const size_t block = HT_BLOCK_ROPES / (size_t)width > 0 ? HT_BLOCK_ROPES / (size_t)width : 1;
    const size_t blocks = (n_packs + block - 1) / block;
#pragma omp parallel num_threads(threads)
    {
        const size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
        const size_t k0 = blocks * t / nt * block, k1 = blocks * (t + 1) / nt * block;
        const size_t end = k1 < n_packs ? k1 : n_packs;
        if (end > k0)
            isa->advance(packs + k0 * pack_len, end - k0, n, steps, block, c);
    }
}

static void run(sk_bench_state *st, void *user)
{
    const ht_isa *isa = user;
    const int64_t ropes = sk_bench_arg(st, 0), steps = sk_bench_arg(st, 2);
    const int n = (int)sk_bench_arg(st, 1), threads = (int)sk_bench_arg(st, 3);
    sk_scenario s;
    sk_error err = {0};
    if (sk_bm_load(SK_BM_W1, ropes, n, NULL, &s, &err)) {
        sk_bench_skip_with_error(st, err.message);
        return;
    }
    sk_bm_ht_constants c;
    const char *why = constants_of(&s, &c);
    sk_batch *b = why ? NULL : sk_batch_create(&s, &(sk_batch_options){.isa = isa->name, .threads = threads}, &err);
    const int width = isa->width();
    const size_t n_packs = ((size_t)ropes + (size_t)width - 1) / (size_t)width;
    const size_t pack_bytes = (size_t)n * 6 * (size_t)width * sizeof(sk_real);
    sk_real *packs = b ? aligned_alloc(64, n_packs * pack_bytes) : NULL;
    const bool ready = packs != NULL;
    if (!ready) {
        sk_bench_skip_with_error(st, why ? why : b ? "out of memory for the hand-tuned kernel's packs" : err.message);
    } else {
        lay_packs(b, (size_t)ropes, n, width, packs, n_packs);
        /* the first iteration's steps, checked against the batch engine's */
        advance_all(isa, packs, n_packs, n, steps, threads, &c, width);
        sk_batch_advance(b, steps);
        const bool same = same_as_batch(b, (size_t)ropes, n, width, packs);
        int64_t iterations = 0;
        while (sk_bench_keep_running(st)) {
            advance_all(isa, packs, n_packs, n, steps, threads, &c, width);
            iterations++;
        }
        sk_bench_set_items_processed(st, iterations * ropes * n * steps);
        sk_bench_counter(st, "same_bits", same ? 1 : 0, SK_BENCH_PLAIN);
        sk_bench_set_label(st, isa->name);
    }
    free(packs);
    if (b)
        sk_batch_destroy(b);
    sk_scenario_free(&s);
}

void sk_bm_register_handtuned(void)
{
    const char *usable[4];
    const int n_usable = sk_bm_usable_isas(usable, 4);
    int threads[3];
    const int n_threads = sk_bm_thread_counts(threads);
    for (int i = 0; i < HT_ISAS; i++) {
        bool runs = false;
        for (int u = 0; u < n_usable; u++)
            runs = runs || strcmp(usable[u], ht_isas[i].name) == 0;
        if (!runs)
            continue;
        char name[64];
        snprintf(name, sizeof name, "handtuned/%s", ht_isas[i].name);
        sk_bench *bench = sk_bench_register(name, run, (void *)&ht_isas[i]);
        sk_bench_arg_names(bench, arg_names, 4);
        sk_bench_use_real_time(bench);
        sk_bench_time_unit(bench, 'm');
        /* W1 at the size the targets are stated for, 4096 ropes of 64, the largest, 1,048,576 of 32, and the
         * smallest, 64 of 64 (the smoke test's) */
        const int64_t sizes[][2] = {{64, 64}, {4096, 64}, {1048576, 32}};
        for (int z = 0; z < 3; z++)
            for (int t = 0; t < n_threads; t++) {
                const int64_t args[4] = {sizes[z][0], sizes[z][1], sk_bm_w1_steps(sizes[z][0], (int)sizes[z][1]),
                                         threads[t]};
                sk_bench_args(bench, args, 4);
            }
    }
}
