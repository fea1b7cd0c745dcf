/* Frame checks through the engine seam: advancing and checking in one pass (what the run driver does at
 * every frame) gives exactly what advancing then checking gives, in every engine and ISA, and the run
 * driver reports the divergence the engine found. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch/batch.h"
#include "test_batch_common.h"
#include "skein/output.h"
#include "engine/engine_state.h"

/* Ropes that blow up at different frames among tame ones, in packs of every width; a deploying group too.
 * %s: top-level keys (the ground, far below, makes every group a contact group). */
static const char exploding[] =
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1000, \"integrator\": \"symplectic\", %s \"groups\": ["
    " {\"count\": 13, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [0.5, 10, 0], \"mass\": 0.01, \"pinned\": [0],"
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 10},"
    "  \"sweep\": {\"link.stiffness\": {\"values\": [5, 6, 7, 1e6, 5, 6, 7, 5, 6, 7, 2e5, 5, 6]}}},"
    " {\"count\": 9, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
    "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 30, \"length\": 0.05},"
    "  \"deploy\": {\"velocity\": 1, \"initial_particles\": 2},"
    "  \"sweep\": {\"link.stiffness\": {\"values\": [30, 40, 3e6, 30, 40, 30, 5e5, 40, 30]}}}]}";

/* The same diverged marks and the same diagnostics, bit for bit, for every rope. */
static int same_marks(const sk_scenario *s, const sk_engine *a, const sk_engine *b)
{
    sk_real ta[16], tb[16];
    for (size_t r = 0; r < s->total_ropes; r++) {
        CHECK(sk_engine_rope_diverged(a, r) == sk_engine_rope_diverged(b, r));
        sk_rope_diagnostics da, db;
        sk_engine_rope_diagnostics(a, r, &da, ta);
        sk_engine_rope_diagnostics(b, r, &db, tb);
        CHECK_SAME_BITS(da.kinetic, db.kinetic);
        CHECK_SAME_BITS(da.gravity, db.gravity);
        CHECK_SAME_BITS(da.elastic, db.elastic);
        CHECK(isfinite(da.kinetic) && isfinite(da.gravity) && isfinite(da.elastic));
        const int n = sk_engine_rope_particles(a, r);
        CHECK(n <= 16 && memcmp(ta, tb, (size_t)(n > 0 ? n - 1 : 0) * sizeof(sk_real)) == 0);
    }
    return 0;
}

/* One engine advanced then checked, the other advanced and checked in one call: the same at every frame. */
static int fused_with(const char *top, const char *engine, const char *isa)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, exploding, top));
    sk_engine *a = tb_engine(&s, engine, isa, 2), *b = tb_engine(&s, engine, isa, 1);
    CHECK(a && b);
    CHECK(sk_engine_check_frame(a) == 0 && sk_engine_check_frame(b) == 0);
    size_t last = 0;
    for (long step = 50; step <= 1000; step += 50) {
        uint64_t da = sk_engine_advance(a, 50);
        size_t na = sk_engine_check_frame(a), nb = 99;
        uint64_t db = sk_engine_advance_checked(b, 50, &nb);
        CHECK(da == db && na == nb && na >= last);
        CHECK(sk_engine_step(a) == step && sk_engine_step(b) == step);
        CHECK_OK(tb_same_state(&s, a, b, "advance + check against advance_checked"));
        CHECK_OK(same_marks(&s, a, b));
        last = na;
    }
    CHECK(last == 4); /* the four wild ropes, and no other */
    sk_engine_destroy(a);
    sk_engine_destroy(b);
    sk_scenario_free(&s);
    return 0;
}

static int fused_equals_separate(void)
{
    const char *isas[4];
    int n = tb_isas(isas, 4);
    for (int i = 0; i < n; i++)
        CHECK_OK(fused_with("", "batch", isas[i]));
    CHECK_OK(fused_with("", "reference", NULL));
    return 0;
}

/* Contact groups (the ground, far below): the same, their contact rows put back with their state. */
static int fused_reference_groups(void)
{
    const char *ground = "\"ground\": {\"height\": -1000, \"restitution\": 0},";
    CHECK_OK(fused_with(ground, "batch", NULL));
    CHECK_OK(fused_with(ground, "reference", NULL));
    return 0;
}

static void stop_never(void *ctx, long step, long steps, uint64_t particle_steps, double elapsed)
{
    (void)ctx, (void)step, (void)steps, (void)particle_steps, (void)elapsed;
}

/* sk_run reports the divergence the engine found, and chunking (a progress callback) changes nothing:
 * the same marks and state as the engine advanced frame by frame by hand. */
static int run_reports(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, exploding, ""));
    sk_engine *plain = tb_engine(&s, "batch", NULL, 2), *chunked = tb_engine(&s, "batch", NULL, 2),
              *by_hand = tb_engine(&s, "batch", NULL, 2);
    CHECK(plain && chunked && by_hand);
    sk_run_stats st1, st2;
    sk_error err = {0};
    CHECK_OK(sk_run(plain, &(sk_run_options){.steps = 1000, .every = 50}, &st1, &err));
    CHECK_OK(sk_run(chunked, &(sk_run_options){.steps = 1000, .every = 50, .progress = stop_never}, &st2, &err));
    CHECK(st1.diverged == 4 && st2.diverged == 4 && st1.frames == 21 && st2.frames == 21);
    sk_engine_check_frame(by_hand);
    for (int f = 0; f < 20; f++) {
        sk_engine_advance(by_hand, 50);
        sk_engine_check_frame(by_hand);
    }
    CHECK_OK(tb_same_state(&s, plain, by_hand, "sk_run against frames by hand"));
    CHECK_OK(tb_same_state(&s, chunked, by_hand, "chunked sk_run against frames by hand"));
    CHECK_OK(same_marks(&s, plain, by_hand));
    CHECK_OK(same_marks(&s, chunked, by_hand));
    sk_engine_destroy(plain);
    sk_engine_destroy(chunked);
    sk_engine_destroy(by_hand);
    sk_scenario_free(&s);
    return 0;
}

/* A particle whose start value q = p - v dt overflows while p and v are finite (near the largest real, a step
 * so long that v dt is of that size): both engines step it until p itself overflows, and mark it at the
 * same frame. Positions: 1, 1 - 1.3, 1 - 2.6, ... times the largest power of ten below the type's maximum. */
static int start_value_overflow(void)
{
    const bool f = sizeof(sk_real) == sizeof(float);
    const double big = f ? 3e38 : 1e308, dt = f ? 1.3e19 : 1.3e154;
    sk_scenario s;
    CHECK_OK(tb_load(&s,
                     "{\"skein\": 1, \"dt\": %.17g, \"steps\": 6, \"gravity\": [0, 0, 0], \"output\": {\"every\": 1},"
                     " \"divergence\": {\"max_speed\": %.17g},"
                     " \"groups\": [{\"count\": 3, \"particles\": 1, \"start\": [%.17g, 0, 0], \"end\": [0, 0, 0],"
                     " \"velocity\": [%.17g, 0, 0]}]}",
                     dt, dt, big, -dt));
    long marks[2];
    const char *engines[2] = {"reference", "batch"};
    for (int k = 0; k < 2; k++) {
        sk_engine *e = tb_engine(&s, engines[k], NULL, 1);
        CHECK(e);
        sk_run_stats st;
        sk_error err = {0};
        CHECK_OK(sk_run(e, &(sk_run_options){.steps = 6, .every = 1}, &st, &err));
        marks[k] = sk_engine_rope_diverged(e, 0);
        sk_engine_destroy(e);
    }
    if (marks[0] != marks[1] || marks[0] != (f ? 4 : 2)) {
        fprintf(stderr, "diverged at step %ld (reference) and %ld (batch)\n", marks[0], marks[1]);
        return 1;
    }
    sk_scenario_free(&s);
    return 0;
}

/* The divergence bounds: a rope thrown faster than max_speed is marked at the first frame; hanging ropes whose
 * soft springs stretch beyond (1 + max_strain) rest lengths are marked at the frame where they first are, the
 * stiffer ones never; every engine and ISA marks the same ropes at the same steps, and a rope far from both
 * bounds (kinetic energy 2e292 J was "not diverged" before there were bounds) is caught. */
static const char bounded[] =
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 600, \"output\": {\"every\": 20},"
    " \"divergence\": {\"max_speed\": 50, \"max_strain\": 0.5}, \"groups\": ["
    " {\"count\": 5, \"particles\": 3, \"start\": [0, 0, 0], \"end\": [0.2, 0, 0], \"mass\": 0.1,"
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 100},"
    "  \"sweep\": {\"velocity[0]\": {\"values\": [1, 49, 51, %s, -2]}}},"
    " {\"count\": 4, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [0.1, 0, 0], \"mass\": 1, \"pinned\": [0],"
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 10},"
    "  \"sweep\": {\"link.stiffness\": {\"values\": [5, 10, 1000, 5000]}}}]}";

static int bounds_with(const char *engine, const char *isa, long marks[9])
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, bounded, sizeof(sk_real) == sizeof(float) ? "1e18" : "1e146"));
    sk_engine *e = tb_engine(&s, engine, isa, 2);
    CHECK(e);
    sk_run_stats st;
    sk_error err = {0};
    CHECK_OK(sk_run(e, &(sk_run_options){.steps = 600, .every = 4}, &st, &err));
    for (size_t r = 0; r < 9; r++)
        marks[r] = sk_engine_rope_diverged(e, r);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

static int divergence_bounds(void)
{
    long want[9];
    CHECK_OK(bounds_with("reference", NULL, want));
    /* thrown at 51 m/s and at 1e146 m/s: over 50 at the first frame; 49 m/s never (springs slow it) */
    CHECK(want[0] == -1 && want[1] == -1 && want[2] == 0 && want[3] == 0 && want[4] == -1);
    /* hanging 1 kg on 5 and 10 N/m: 1.96 m and 0.98 m of stretch at rest, past 0.05 m before that; 1000 and
     * 5000 N/m: 1 cm and 2 mm (twice that at the first swing), within the bound */
    if (!(want[5] > 0 && want[6] > 0 && want[7] == -1 && want[8] == -1)) {
        fprintf(stderr, "marks %ld %ld %ld %ld\n", want[5], want[6], want[7], want[8]);
        return 1;
    }
    const char *isas[4];
    int n = tb_isas(isas, 4);
    for (int i = 0; i < n; i++) {
        long got[9];
        CHECK_OK(bounds_with("batch", isas[i], got));
        for (int r = 0; r < 9; r++)
            if (got[r] != want[r]) {
                fprintf(stderr, "%s: rope %d marked at %ld, the reference at %ld\n", isas[i], r, got[r], want[r]);
                return 1;
            }
    }
    return 0;
}

/* Frame checks copy nothing: the batch's memory is the packs' at every frame, plus, once a rope diverges, the
 * one rope's state it holds (its lane's reals, then n and s) and no more. */
static int checks_copy_nothing(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, exploding, ""));
    const char *isas[4];
    const int n = tb_isas(isas, 4);
    for (int i = 0; i < n; i++) {
        sk_error err = {0};
        sk_batch *b = sk_batch_create(&s, &(sk_batch_options){.isa = isas[i], .threads = 2}, &err);
        CHECK(b);
        const uint64_t packs = sk_batch_bytes(b);
        size_t diverged = 0;
        sk_batch_advance_checked(b, 1, &diverged); /* the stiff ropes have not yet left */
        CHECK(diverged == 0 && sk_batch_bytes(b) == packs);
        for (int f = 0; f < 20; f++)
            sk_batch_advance_checked(b, 50, &diverged);
        CHECK(diverged == 4); /* the four wild ropes (two of each group) */
        /* a held rope: 6 reals per particle (p, v), contact rows none, then n and s */
        const uint64_t held = 2 * (6 * 6 + 2) * sizeof(sk_real) + 2 * (10 * 6 + 2) * sizeof(sk_real);
        if (sk_batch_bytes(b) != packs + held) {
            fprintf(stderr, "%s: %llu bytes after the checks, %llu + %llu expected\n", isas[i],
                    (unsigned long long)sk_batch_bytes(b), (unsigned long long)packs, (unsigned long long)held);
            return 1;
        }
        sk_batch_destroy(b);
    }
    sk_scenario_free(&s);
    return 0;
}

/* A rope's state copied out of one engine into another (every field, for 16 particles at most). */
typedef struct rope_copy {
    sk_real p[48], v[48], q[48], impulse[16];
    sk_rope_state st;
} rope_copy;

static void copy_rope(const sk_engine *from, size_t rope, rope_copy *c)
{
    memset(c, 0, sizeof *c);
    c->st = (sk_rope_state){.p = c->p, .v = c->v, .q = c->q, .impulse = c->impulse};
    sk_engine_export_rope(from, rope, &c->st);
}

/* A run resumed at step 1 from another engine's state (each engine its own): a rope diverging later is stepped again from step 0 and
 * meets the state it was resumed with, so it goes back to the frame before, as in the run that never stopped.
 * One whose resumed state was changed by hand cannot be found again that way: it stays where it was found. */
static int resume_replays(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, exploding, ""));
    const char *isas[5] = {"reference"};
    const int n = 1 + tb_isas(isas + 1, 4);
    for (int i = 0; i < n; i++) {
        const char *engine = i == 0 ? "reference" : "batch", *isa = i == 0 ? NULL : isas[i];
        sk_engine *run = tb_engine(&s, engine, isa, 2), *resumed = tb_engine(&s, engine, isa, 2),
                  *changed = tb_engine(&s, engine, isa, 1);
        CHECK(run && resumed && changed);
        size_t diverged = 0;
        sk_engine_advance_checked(run, 1, &diverged);
        CHECK(diverged == 0);
        for (size_t r = 0; r < s.total_ropes; r++) {
            rope_copy c;
            copy_rope(run, r, &c);
            CHECK(sk_engine_import_rope(resumed, r, &c.st));
            if (r == 3) /* a wild rope, nudged by a millimetre (a change float holds too) */
                c.p[3 * 2] += (sk_real)1e-3;
            CHECK(sk_engine_import_rope(changed, r, &c.st));
        }
        CHECK(sk_engine_resume_at(resumed, 1) && sk_engine_resume_at(changed, 1));
        for (int f = 0; f < 20; f++) {
            size_t a = 0, b = 0, c = 0;
            sk_engine_advance_checked(run, 50, &a);
            sk_engine_advance_checked(resumed, 50, &b);
            sk_engine_advance_checked(changed, 50, &c);
            CHECK(a == b && b == c);
        }
        CHECK_OK(same_marks(&s, run, resumed));
        CHECK_OK(tb_same_state(&s, run, resumed, "a run resumed at step 1 against the run"));
        for (size_t r = 0; r < s.total_ropes; r++) {
            rope_copy a, b;
            copy_rope(run, r, &a);
            copy_rope(changed, r, &b);
            CHECK(a.st.diverged == b.st.diverged);
            if (r == 3) { /* back to step 1 in the run; where it was found in the changed one */
                CHECK(a.st.diverged > 1 && a.st.steps == 1 && b.st.steps == b.st.diverged);
                CHECK(memcmp(a.p, b.p, sizeof a.p) != 0);
            } else {
                CHECK(a.st.steps == b.st.steps && memcmp(a.p, b.p, sizeof a.p) == 0);
            }
        }
        sk_engine_destroy(run);
        sk_engine_destroy(resumed);
        sk_engine_destroy(changed);
    }
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"fused_equals_separate", fused_equals_separate}, {"fused_reference_groups", fused_reference_groups},
           {"run_reports", run_reports}, {"start_value_overflow", start_value_overflow},
           {"divergence_bounds", divergence_bounds}, {"checks_copy_nothing", checks_copy_nothing},
           {"resume_replays", resume_replays})
