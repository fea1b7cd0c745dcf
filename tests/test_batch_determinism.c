/* Determinism of the batch engine (docs/model.md section 9): the same bytes for 1 and 2 threads, for every ISA,
 * however the steps are split between calls, for a rope alone and the same rope inside a large batch;
 * and a golden hash of a fixed scenario's final state, like Box2D's determinism test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "test_batch_common.h"

/* Three groups: springs with drag and a driven anchored spring, deploying ropes, bungees held by a fake
 * spring; ragged packs everywhere; parameters differ per rope. */
static const char mixed[] =
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"%s\", \"groups\": ["
    " {\"count\": 45, \"particles\": 16, \"start\": [0, 10, 0], \"end\": [1.5, 10, 0], \"mass\": 0.1,"
    "  \"damping\": 0.8, \"link\": {\"type\": \"spring\", \"stiffness\": 300}, \"drag\": {\"k1\": 0.05, \"k2\": 0.01},"
    "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 300, \"length\": 0.05,"
    "   \"motion\": {\"amplitude\": [0.1, 0.2, 0], \"omega\": 10, \"phase\": 0}},"
    "  \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 500, \"seed\": 1}},"
    "   \"anchor.motion.omega\": {\"random\": {\"min\": 1, \"max\": 40, \"seed\": 2}},"
    "   \"velocity[2]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 3}}}},"
    " {\"count\": 29, \"particles\": 20, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
    "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
    "  \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"
    "  \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 4}}}},"
    " {\"count\": 13, \"particles\": 9, \"start\": [0, 10, 0], \"end\": [0.8, 10.2, 0], \"pinned\": [8],"
    "  \"link\": {\"type\": \"bungee\", \"stiffness\": 200, \"length\": 0.09},"
    "  \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 10, 0], \"stiffness\": 500, \"damping\": 3},"
    "  \"sweep\": {\"anchor.damping\": {\"random\": {\"min\": 0, \"max\": 60, \"seed\": 5}}}}]}";

static int threads_one_and_two(void)
{
    const char *isas[4], *integ[] = {"symplectic", "verlet"};
    int n = tb_isas(isas, 4);
    CHECK(n > 0);
    for (int k = 0; k < 2; k++) {
        sk_scenario s;
        CHECK_OK(tb_load(&s, mixed, integ[k]));
        for (int i = 0; i < n; i++) {
            sk_engine *one = tb_engine(&s, "batch", isas[i], 1), *two = tb_engine(&s, "batch", isas[i], 2);
            CHECK(one && two);
            CHECK(sk_engine_threads(two) == 2);
            for (int frame = 0; frame < 4; frame++) {
                uint64_t a = sk_engine_advance(one, 150), b = sk_engine_advance(two, 150);
                CHECK(a == b);
                CHECK_OK(tb_same_state(&s, one, two, isas[i]));
            }
            sk_engine_destroy(one);
            sk_engine_destroy(two);
        }
        sk_scenario_free(&s);
    }
    return 0;
}

/* Every ISA gives the same bytes, driven anchors included (the scalar kernels call SLEEF's FMA variant,
 * which agrees with the AVX2 and AVX-512 ones). */
static int every_isa(void)
{
    const char *isas[4];
    int n = tb_isas(isas, 4);
    if (n < 2)
        CHECK_SKIP("this CPU runs one kernel ISA: nothing to compare it with");
    sk_scenario s;
    CHECK_OK(tb_load(&s, mixed, "cyclone"));
    sk_engine *first = tb_engine(&s, "batch", isas[0], 2);
    CHECK(first != NULL);
    sk_engine_advance(first, 600);
    for (int i = 1; i < n; i++) {
        sk_engine *e = tb_engine(&s, "batch", isas[i], 2);
        CHECK(e != NULL);
        sk_engine_advance(e, 600);
        CHECK_OK(tb_same_state(&s, e, first, isas[i]));
        sk_engine_destroy(e);
    }
    sk_engine_destroy(first);
    sk_scenario_free(&s);
    return 0;
}

/* 600 steps in one call, or in uneven pieces with frame checks between: the same bytes. */
static int split_steps(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, mixed, "euler"));
    sk_engine *whole = tb_engine(&s, "batch", "auto", 2), *pieces = tb_engine(&s, "batch", "auto", 2);
    CHECK(whole && pieces);
    sk_engine_advance(whole, 600);
    static const long split[] = {1, 7, 92, 250, 3, 247};
    for (size_t i = 0; i < sizeof split / sizeof split[0]; i++) {
        sk_engine_advance(pieces, split[i]);
        CHECK(sk_engine_check_frame(pieces) == 0);
    }
    CHECK(sk_engine_step(pieces) == 600);
    CHECK_OK(tb_same_state(&s, whole, pieces, "split"));
    sk_engine_destroy(whole);
    sk_engine_destroy(pieces);
    sk_scenario_free(&s);
    return 0;
}

/* A JSON list of count numbers: base + step * r, except `special` at rope `at`. */
static void values(char *out, size_t size, size_t count, double base, double step, size_t at, double special)
{
    size_t used = (size_t)snprintf(out, size, "[");
    for (size_t r = 0; r < count; r++)
        used += (size_t)snprintf(out + used, size - used, "%s%.17g", r ? ", " : "",
                                 r == at ? special : base + step * (double)r);
    snprintf(out + used, size - used, "]");
}

/* The two groups of the alone/batch test, each of `count` ropes; the rope at `at` is the one compared. */
static int load_lane_scenario(sk_scenario *s, size_t count, size_t at)
{
    static char k[8192], omega[8192], u[8192], vel[8192];
    values(k, sizeof k, count, 150, 3, at, 333.25);
    values(omega, sizeof omega, count, 2, 0.5, at, 17.5);
    values(u, sizeof u, count, 2, 0.1, at, 4.75);
    values(vel, sizeof vel, count, -1, 0.02, at, 0.625);
    return tb_load(s,
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 800, \"integrator\": \"symplectic\", \"groups\": ["
        " {\"count\": %zu, \"particles\": 16, \"start\": [0, 10, 0], \"end\": [1.5, 10, 0], \"mass\": 0.1,"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300}, \"drag\": {\"k1\": 0.05, \"k2\": 0.01},"
        "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 300, \"length\": 0.05,"
        "   \"motion\": {\"amplitude\": [0.1, 0.2, 0], \"omega\": 10, \"phase\": 0.5}},"
        "  \"sweep\": {\"link.stiffness\": {\"values\": %s}, \"anchor.motion.omega\": {\"values\": %s},"
        "   \"velocity[2]\": {\"values\": %s}}},"
        " {\"count\": %zu, \"particles\": 24, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
        "  \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"
        "  \"sweep\": {\"deploy.velocity\": {\"values\": %s}}}]}",
        count, k, omega, vel, count, u);
}

/* A rope alone (lane 0 of a pack whose other lanes copy it) and the same rope at lane 5 of pack 3 of a
 * large batch (the last lane where packs are narrower), stepped with 2 threads: the same bytes, in both
 * a fixed and a deploying group, driven anchor included. */
static int alone_and_in_batch(void)
{
    const char *isas[4];
    int n = tb_isas(isas, 4);
    for (int i = 0; i < n; i++) {
        sk_scenario alone_s, big_s;
        CHECK_OK(load_lane_scenario(&alone_s, 1, 0));
        sk_engine *alone = tb_engine(&alone_s, "batch", isas[i], 2);
        CHECK(alone != NULL);
        sk_error err = {0};
        sk_batch *probe = sk_batch_create(&alone_s, &(sk_batch_options){.isa = isas[i]}, &err);
        CHECK(probe != NULL);
        size_t w = (size_t)sk_batch_width(probe);
        sk_batch_destroy(probe);
        size_t at = 3 * w + (w > 5 ? 5 : w - 1), count = 4 * w + 3 > at + 3 ? 4 * w + 3 : at + 3;
        CHECK_OK(load_lane_scenario(&big_s, count, at));
        sk_engine *big = tb_engine(&big_s, "batch", isas[i], 2);
        CHECK(big != NULL);
        for (int frame = 0; frame < 4; frame++) {
            sk_engine_advance(alone, 200);
            sk_engine_advance(big, 200);
            for (int g = 0; g < 2; g++) {
                size_t a = (size_t)g, b = g * count + at;
                int na = sk_engine_rope_particles(alone, a);
                CHECK(na == sk_engine_rope_particles(big, b));
                sk_real pa[24 * 3], va[24 * 3], pb[24 * 3], vb[24 * 3];
                sk_engine_read_rope(alone, a, pa, va);
                sk_engine_read_rope(big, b, pb, vb);
                CHECK(memcmp(pa, pb, (size_t)na * 3 * sizeof(sk_real)) == 0);
                CHECK(memcmp(va, vb, (size_t)na * 3 * sizeof(sk_real)) == 0);
            }
        }
        /* the deploying rope did deploy */
        CHECK(sk_engine_rope_particles(alone, 1) > 2);
        sk_engine_destroy(alone);
        sk_engine_destroy(big);
        sk_scenario_free(&alone_s);
        sk_scenario_free(&big_s);
    }
    return 0;
}

/* The golden hash: FNV-1a of every rope's count and the bits of p and v after 1000 steps of a fixed
 * scenario (no driven anchor, so no vector math library is involved), the same for every ISA, thread
 * count and the reference engine. If it changes, the arithmetic changed: find out why before updating
 * it. */
#ifdef SKEIN_REAL_FLOAT
#define GOLDEN 0xf9c6819f055703a3ull
#else
#define GOLDEN 0x82e99384270b2d1bull
#endif

static const char golden_scenario[] =
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"symplectic\", \"groups\": ["
    " {\"count\": 21, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [1.2, 10, 0], \"pinned\": [0],"
    "  \"mass\": 0.1, \"damping\": 0.9, \"link\": {\"type\": \"spring\", \"stiffness\": 300},"
    "  \"drag\": {\"k1\": 0.05, \"k2\": 0.01},"
    "  \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 500, \"seed\": 7}}}},"
    " {\"count\": 11, \"particles\": 16, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
    "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
    "  \"deploy\": {\"velocity\": 2.5, \"initial_particles\": 2}},"
    " {\"count\": 7, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [0.7, 10, 0],"
    "  \"link\": {\"type\": \"bungee\", \"stiffness\": 200, \"length\": 0.09},"
    "  \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 10, 0], \"stiffness\": 400, \"damping\": 4}}]}";

static int golden_hash(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", golden_scenario));
    const char *isas[4];
    int n = tb_isas(isas, 4);
    sk_engine *ref = tb_engine(&s, "reference", NULL, 0);
    CHECK(ref != NULL);
    sk_engine_advance(ref, 1000);
    uint64_t h = tb_hash(&s, ref);
    fprintf(stderr, "golden hash: 0x%016llx (reference engine)\n", (unsigned long long)h);
    CHECK(h == GOLDEN);
    sk_engine_destroy(ref);
    for (int i = 0; i < n; i++)
        for (int threads = 1; threads <= 2; threads++) {
            sk_engine *e = tb_engine(&s, "batch", isas[i], threads);
            CHECK(e != NULL);
            sk_engine_advance(e, 1000);
            CHECK(tb_hash(&s, e) == GOLDEN);
            sk_engine_destroy(e);
        }
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"threads_one_and_two", threads_one_and_two}, {"every_isa", every_isa}, {"split_steps", split_steps},
           {"alone_and_in_batch", alone_and_in_batch}, {"golden_hash", golden_hash})
