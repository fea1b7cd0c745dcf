/* The largest link tension and strain and the largest support force at each held end over every step
 * (sk_engine_track_extremes): the batch engine equals the reference to the bit on every ISA with 1 and 2
 * threads, however the steps are split into chunks, diverged ropes included; against analytic values (a static
 * hanging chain, a released pendulum, its pivot's peak support); and against the tensions and support forces
 * the frames report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "model/real_math.h"
#include "model/vec3.h"
#include "skein/output.h"
#include "test_batch_common.h"
#include "engine/compare.h"

/* One frame's extremes (tension, strain, support first, support last) and divergence marks of every rope. */
typedef struct extremes_frame {
    sk_real *x; /* [ropes][4] */
    long *diverged;
} extremes_frame;

static int read4(const sk_engine *e, size_t r, sk_real x[4])
{
    CHECK(sk_engine_rope_extremes(e, r, &x[0], &x[1]));
    CHECK(sk_engine_rope_support_extremes(e, r, &x[2], &x[3]));
    return 0;
}

static int take(const sk_scenario *s, const sk_engine *e, extremes_frame *f)
{
    f->x = malloc(4 * s->total_ropes * sizeof *f->x);
    f->diverged = malloc(s->total_ropes * sizeof *f->diverged);
    CHECK(f->x && f->diverged);
    for (size_t r = 0; r < s->total_ropes; r++) {
        CHECK_OK(read4(e, r, &f->x[4 * r]));
        f->diverged[r] = sk_engine_rope_diverged(e, r);
    }
    return 0;
}

static int same(const sk_scenario *s, const extremes_frame *want, const sk_engine *e, long step, const char *what)
{
    for (size_t r = 0; r < s->total_ropes; r++) {
        sk_real x[4];
        CHECK_OK(read4(e, r, x));
        const sk_real *w = &want->x[4 * r];
        if (memcmp(x, w, sizeof x) || sk_engine_rope_diverged(e, r) != want->diverged[r]) {
            fprintf(stderr,
                    "%s, step %ld, rope %zu: max tension %.17g, max strain %.17g, max support %.17g %.17g, diverged "
                    "%ld; the reference %.17g, %.17g, %.17g %.17g, %ld\n",
                    what, step, r, (double)x[0], (double)x[1], (double)x[2], (double)x[3],
                    sk_engine_rope_diverged(e, r), (double)w[0], (double)w[1], (double)w[2], (double)w[3],
                    want->diverged[r]);
            return 1;
        }
    }
    return 0;
}

/* The reference, checked at every frame of `every` steps up to `steps`, against the batch on every ISA with 1
 * and 2 threads, each frame's interval split in two uneven chunks (the first unchecked). *diverged (may be
 * NULL) gets how many ropes the reference marked; every extreme must be finite (a rope with links), the
 * support at a held end greater than 0 and at a free end 0. */
static int against_reference(const char *json, long steps, long every, size_t *diverged)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    const long n_frames = steps / every + 1;
    extremes_frame *frames = calloc((size_t)n_frames, sizeof *frames);
    sk_engine *ref = tb_engine(&s, "reference", NULL, 0);
    CHECK(frames && ref && sk_engine_track_extremes(ref, true));
    size_t marked = 0;
    for (long f = 0; f < n_frames; f++) {
        if (f > 0)
            sk_engine_advance_checked(ref, every, &marked);
        CHECK_OK(take(&s, ref, &frames[f]));
    }
    sk_engine_destroy(ref);
    for (size_t r = 0; r < s.total_ropes; r++) {
        const sk_real *x = &frames[n_frames - 1].x[4 * r];
        CHECK(isfinite(x[0]) && isfinite(x[1]));
        size_t local;
        const sk_group *g = &s.groups[sk_scenario_find_rope(&s, r, &local)];
        for (int end = 0; end < 2; end++) {
            bool held = false;
            for (int k = 0; k < g->n_pinned; k++)
                held = held || g->pinned[k] == (end ? g->particles - 1 : 0);
            CHECK(held && !g->deploys ? x[2 + end] > 0 && isfinite(x[2 + end]) : x[2 + end] == 0);
        }
    }
    if (diverged)
        *diverged = marked;

    const char *isas[4];
    const int n_isas = tb_isas(isas, 4);
    CHECK(n_isas > 0);
    for (int i = 0; i < n_isas; i++)
        for (int threads = TB_FIRST_THREADS; threads <= 2; threads++) {
            sk_engine *bat = tb_engine(&s, "batch", isas[i], threads);
            CHECK(bat && sk_engine_track_extremes(bat, true));
            char what[64];
            snprintf(what, sizeof what, "batch %s, %d thread%s", isas[i], threads, threads > 1 ? "s" : "");
            for (long f = 0; f < n_frames; f++) {
                if (f > 0) {
                    const long first = every / 3 + f % 2; /* chunks of different lengths at each frame */
                    sk_engine_advance(bat, first);
                    size_t d;
                    sk_engine_advance_checked(bat, every - first, &d);
                }
                CHECK_OK(same(&s, &frames[f], bat, f * every, what));
            }
            sk_engine_destroy(bat);
        }
    for (long f = 0; f < n_frames; f++) {
        free(frames[f].x);
        free(frames[f].diverged);
    }
    free(frames);
    sk_scenario_free(&s);
    return 0;
}

/* Every integrator in turn (the scenario's "%s"). */
static int each_integrator(const char *fmt, long steps, long every)
{
    static const char *const integrators[] = {"cyclone", "euler", "symplectic", "verlet", "implicit"};
    for (size_t i = 0; i < sizeof integrators / sizeof *integrators; i++) {
        char json[1 << 13];
        snprintf(json, sizeof json, fmt, integrators[i]);
        if (against_reference(json, steps, every, NULL)) {
            fprintf(stderr, "integrator %s\n", integrators[i]);
            return 1;
        }
    }
    return 0;
}

/* Springs and bungees with swept stiffness, lengths along the rope and a ragged last pack. */
static int springs(void)
{
    return each_integrator(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 400, \"integrator\": \"%s\", \"groups\": ["
        " {\"count\": 19, \"particles\": 9, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
        "  \"mass\": 0.1, \"link\": {\"type\": \"spring\", \"stiffness\": 400},"
        "  \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 800, \"seed\": 1}},"
        "   \"end[1]\": {\"random\": {\"min\": 9.5, \"max\": 10.5, \"seed\": 2}}}},"
        " {\"count\": 7, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [0.5, 10, 0], \"pinned\": [0],"
        "  \"mass\": {\"from\": 0.05, \"to\": 0.2},"
        "  \"link\": {\"type\": \"bungee\", \"stiffness\": 300, \"length\": {\"from\": 0.1, \"to\": 0.14}},"
        "  \"sweep\": {\"velocity[1]\": {\"random\": {\"min\": -3, \"max\": 3, \"seed\": 3}}}}]}",
        400, 100);
}

/* Rods and cables on the ground, with the resolver RESOLVER. */
#define RODS(RESOLVER)                                                                                             \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 400, \"integrator\": \"%s\", " RESOLVER                              \
    " \"ground\": {\"height\": 9.4, \"restitution\": 0.2}, \"groups\": ["                                           \
    " {\"count\": 11, \"particles\": 7, \"start\": [0, 10, 0], \"end\": [0.8, 10, 0], \"pinned\": [0],"            \
    "  \"mass\": 0.1, \"link\": {\"type\": \"rod\"},"                                                               \
    "  \"sweep\": {\"end[1]\": {\"random\": {\"min\": 9.6, \"max\": 10.4, \"seed\": 4}}}},"                         \
    " {\"count\": 5, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [0.6, 10, 0], \"pinned\": [0],"             \
    "  \"mass\": 0.1, \"link\": {\"type\": \"cable\", \"length\": 0.13, \"restitution\": 0.3}}]}"

static int rods_cyclone(void) { return each_integrator(RODS(""), 400, 100); }
static int rods_direct(void) { return each_integrator(RODS("\"resolver\": \"direct\","), 400, 100); }

/* Deploying ropes, lanes inserting at different steps, and one reeling in. */
static int deploying(void)
{
    return each_integrator(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"%s\", \"groups\": ["
        " {\"count\": 13, \"particles\": 16, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
        "  \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"
        "  \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 31}}}}]}",
        600, 150);
}

/* Both ends held: a pin anchor towed along a path and a pinned last particle, with bending and drag, beside a
 * group held at neither end (0) and one held at its last particle only, every integrator; and the same held
 * rope as a line in water under waves (every per-particle term in the support forces; the water's flow at the
 * state's time), every explicit integrator. */
#define HELD_ENDS(WATER, LINE)                                                                                      \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 400, \"integrator\": \"%s\", " WATER " \"groups\": ["                   \
    " {\"count\": 11, \"particles\": 9, \"start\": [0, 0.5, 0], \"end\": [2, -0.5, 0], \"pinned\": [8],"               \
    "  \"mass\": 0.2, \"bending\": {\"stiffness\": 0.01}, " LINE                                                     \
    "  \"anchor\": {\"type\": \"pin\", \"point\": [0, 0.5, 0], \"motion\": {\"velocity\": [0.5, 0, 0.25],"          \
    "   \"path\": {\"times\": [0, 0.1, 0.2], \"points\": [[0, 0, 0], [0, 0.1, 0], [0, 0.1, 0.1]]}}},"                 \
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 400, \"length\": \"auto\"},"                                \
    "  \"sweep\": {\"link.stiffness\": {\"from\": 300, \"to\": 500}}},"                                              \
    " {\"count\": 3, \"particles\": 5, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"velocity\": [0, 1, 0],"          \
    "  \"mass\": 0.1, \"link\": {\"type\": \"spring\", \"stiffness\": 300}},"                                         \
    " {\"count\": 5, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [5],"                  \
    "  \"mass\": 0.1, \"link\": {\"type\": \"spring\", \"stiffness\": 300}}]}"

static int held_ends(void)
{
    CHECK_OK(each_integrator(HELD_ENDS("", "\"drag\": {\"k1\": 0.1, \"k2\": 0.05},"), 400, 100));
    static const char *const explicit[] = {"cyclone", "euler", "symplectic", "verlet"};
    for (int i = 0; i < 4; i++) {
        char json[1 << 13];
        snprintf(json, sizeof json,
                 HELD_ENDS("\"water\": {\"density\": 1025, \"surface\": 0.2, \"waves\": {\"amplitude\": 0.1,"
                           " \"period\": 2, \"heading\": 30, \"phase\": 40, \"depth\": 3, \"ramp\": 0.05}},",
                           "\"line\": {\"diameter\": 0.02, \"drag\": {\"normal\": 1.2, \"tangential\": 0.3},"
                           " \"added_mass\": {\"normal\": 1, \"tangential\": 0.2}},"),
                 explicit[i]);
        if (against_reference(json, 400, 100, NULL)) {
            fprintf(stderr, "in water, integrator %s\n", explicit[i]);
            return 1;
        }
    }
    return 0;
}

/* A pendulum of one stiff spring (as in pendulum below: k = 1e5 N/m, a 1 kg bob on L = 1 m, released at rest
 * from theta0 = 60 degrees with the spring carrying the radial weight) held at the top by a pinned particle 0
 * or a pin anchor, that particle of m0 = 0.01 kg. The pivot's support is the link's tension plus the pivot's
 * own weight, both vertical at the bottom of the swing: its peak |S| is m g (3 - 2 cos theta0) + m0 g for an
 * inextensible string; held to 1e-3 relative (1e-2 in float, for the same reasons as the peak tension). The
 * free bob's end reads 0. With a frame every 997 steps the largest |S| over the frames' support forces is
 * below the tracked one (the bottom falls between frames). */
static int support_pendulum(void)
{
    const double m = 1, m0 = 0.01, g = 9.81, k = 1e5, L = 1, theta0 = 3.14159265358979323846 / 3;
    const double r0 = L + m * g * cos(theta0) / k;
    const double peak = m * g * (3 - 2 * cos(theta0)) + m0 * g;
    static const char *const holds[] = {"\"pinned\": [0]", "\"anchor\": {\"type\": \"pin\", \"point\": [0, 0, 0]}"};
    for (int h = 0; h < 2; h++) {
        sk_scenario s;
        CHECK_OK(tb_load(&s,
                         "{\"skein\": 1, \"dt\": 1e-4, \"steps\": 12000, \"integrator\": \"symplectic\","
                         " \"gravity\": [0, -9.81, 0], \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0],"
                         " \"end\": [%.17g, %.17g, 0], \"mass\": {\"from\": 0.01, \"to\": 1}, %s,"
                         " \"link\": {\"type\": \"spring\", \"stiffness\": 1e5, \"length\": 1}}]}",
                         r0 * sin(theta0), -r0 * cos(theta0), holds[h]));
        const char *engines[] = {"reference", "batch"};
        sk_real got[2];
        for (int i = 0; i < 2; i++) {
            sk_engine *e = tb_engine(&s, engines[i], NULL, 1);
            CHECK(e && sk_engine_track_extremes(e, true));
            double frames = 0;
            for (long step = 0; step < 12000; step += 997) {
                size_t diverged;
                if (step > 0)
                    sk_engine_advance_checked(e, 997, &diverged);
                sk_rope_diagnostics d;
                sk_engine_rope_diagnostics(e, 0, &d, NULL);
                frames = fmax(frames, (double)sk_vec3_length(d.support[0]));
            }
            sk_real first, last;
            CHECK(sk_engine_rope_support_extremes(e, 0, &first, &last));
            fprintf(stderr, "%s, %s: peak support %.9g N, m g (3 - 2 cos theta0) + m0 g = %.9g N (off by %.2g "
                            "relative), the frames' largest %.9g N\n",
                    holds[h], engines[i], (double)first, peak, fabs((double)first - peak) / peak, frames);
            CHECK_REL(first, peak, sizeof(sk_real) == sizeof(float) ? 1e-2 : 1e-3);
            CHECK(last == 0);
            CHECK((double)first > frames && frames < 0.995 * peak);
            got[i] = first;
            sk_engine_destroy(e);
        }
        CHECK_SAME_BITS(got[0], got[1]);
        sk_scenario_free(&s);
    }
    return 0;
}

/* Ropes that blow up at different frames: the batch marks the same ropes at the same steps and each keeps the
 * extremes it had at the check before, whatever the threads and the chunks. */
static int diverging(void)
{
    static const char json[] =
        "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1000, \"integrator\": \"euler\", \"groups\": ["
        " {\"count\": 13, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [0.5, 10, 0], \"mass\": 0.01, \"pinned\": [0],"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 10},"
        "  \"sweep\": {\"link.stiffness\": {\"values\": [5, 6, 7, 1e6, 5, 6, 7, 5, 6, 7, 2e6, 5, 6]}}},"
        " {\"count\": 9, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 30, \"length\": 0.05},"
        "  \"deploy\": {\"velocity\": 1, \"initial_particles\": 2},"
        "  \"sweep\": {\"link.stiffness\": {\"values\": [30, 40, 3e6, 30, 40, 30, 5e6, 40, 30]}}}]}";
    size_t diverged = 0;
    CHECK_OK(against_reference(json, 1000, 100, &diverged));
    CHECK(diverged == 4);

    /* what a diverged rope reports: its extremes at the check before the one that found it unsound */
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    sk_engine *e = tb_engine(&s, "batch", NULL, 2);
    CHECK(e && sk_engine_track_extremes(e, true));
    sk_real before[22][2];
    size_t d = 0;
    int seen = 0;
    for (long step = 100; step <= 1000; step += 100) {
        for (size_t r = 0; r < s.total_ropes; r++)
            if (sk_engine_rope_diverged(e, r) < 0)
                CHECK(sk_engine_rope_extremes(e, r, &before[r][0], &before[r][1]));
        sk_engine_advance_checked(e, 100, &d);
        for (size_t r = 0; r < s.total_ropes; r++)
            if (sk_engine_rope_diverged(e, r) == step) {
                sk_real t, x;
                CHECK(sk_engine_rope_extremes(e, r, &t, &x));
                CHECK_SAME_BITS(t, before[r][0]);
                CHECK_SAME_BITS(x, before[r][1]);
                CHECK(isfinite(t) && isfinite(x));
                seen++;
            }
    }
    CHECK(seen == 4);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

/* A chain of 6 particles of m = 0.1 kg hanging from a pinned top, laid 0.3 m apart with each link's rest length
 * (a linear profile) the spacing less the stretch that carries the weight below it, (5 - j) m g / k: it starts
 * in equilibrium and stays there, so the largest tension over the run is the top link's, 5 m g, and the largest
 * strain is the top link's, 5 m g / (k l_0). The rounding of a state that never moves stays within a few
 * hundred units of the last place of the tension; held to 1e4 of them. */
static int static_chain(void)
{
    const double m = 0.1, g = 9.81, k = 50, d = 0.3, w = m * g / k;
    const double l0 = d - 5 * w, l4 = d - w;
    sk_scenario s;
    CHECK_OK(tb_load(&s,
                     "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 2000, \"integrator\": \"symplectic\","
                     " \"gravity\": [0, -9.81, 0], \"groups\": [{\"count\": 3, \"particles\": 6, \"start\": [0, 2, 0],"
                     " \"end\": [0, 0.5, 0], \"mass\": 0.1, \"pinned\": [0],"
                     " \"link\": {\"type\": \"spring\", \"stiffness\": 50, \"length\": {\"from\": %.17g, \"to\": %.17g}}}]}",
                     l0, l4));
    const double u = (double)SK_REAL_EPSILON / 2, tension = 5 * m * g, strain = 5 * w / l0;
    const char *engines[] = {"reference", "batch"};
    for (int i = 0; i < 2; i++) {
        sk_engine *e = tb_engine(&s, engines[i], NULL, 1);
        CHECK(e && sk_engine_track_extremes(e, true));
        size_t diverged;
        sk_engine_advance_checked(e, 2000, &diverged);
        for (size_t r = 0; r < s.total_ropes; r++) {
            sk_real t, x;
            CHECK(sk_engine_rope_extremes(e, r, &t, &x));
            fprintf(stderr, "%s: max tension %.17g N (5 m g = %.17g), max strain %.17g (%.17g)\n", engines[i],
                    (double)t, tension, (double)x, strain);
            CHECK_NEAR(t, tension, 1e4 * u * tension);
            CHECK_NEAR(x, strain, 1e4 * u * strain);
        }
        sk_engine_destroy(e);
    }
    sk_scenario_free(&s);
    return 0;
}

/* A pendulum of one stiff spring (k = 1e5 N/m, m = 1 kg, L = 1 m) released at rest from theta0 = 60 degrees,
 * the spring already carrying the radial weight m g cos theta0 (laid at L + m g cos theta0 / k), so that no
 * radial oscillation starts: its peak tension at the bottom is m g (3 - 2 cos theta0) = 2 m g for an
 * inextensible string. The spring's stretch (2e-4 of L at the bottom) and its radial mode, 100 times faster
 * than the swing, move that by parts in 1e4; held to 1e-3 relative (measured 1.4e-4). In float a position
 * near 1 m rounds by 6e-8 m, which the spring turns into 6e-3 N a step, kicking the undamped radial mode: the
 * peak comes out 0.6 % high (0.12 N, measured), held to 1e-2 there. The largest strain is the peak tension's
 * stretch over L. */
static int pendulum(void)
{
    const double m = 1, g = 9.81, k = 1e5, L = 1, theta0 = 3.14159265358979323846 / 3;
    const double r0 = L + m * g * cos(theta0) / k;
    sk_scenario s;
    CHECK_OK(tb_load(&s,
                     "{\"skein\": 1, \"dt\": 1e-4, \"steps\": 12000, \"integrator\": \"symplectic\","
                     " \"gravity\": [0, -9.81, 0], \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0],"
                     " \"end\": [%.17g, %.17g, 0], \"mass\": 1, \"pinned\": [0],"
                     " \"link\": {\"type\": \"spring\", \"stiffness\": 1e5, \"length\": 1}}]}",
                     r0 * sin(theta0), -r0 * cos(theta0)));
    const double peak = m * g * (3 - 2 * cos(theta0));
    const char *engines[] = {"reference", "batch"};
    for (int i = 0; i < 2; i++) {
        sk_engine *e = tb_engine(&s, engines[i], NULL, 1);
        CHECK(e && sk_engine_track_extremes(e, true));
        size_t diverged;
        sk_engine_advance_checked(e, 12000, &diverged);
        sk_real t, x;
        CHECK(sk_engine_rope_extremes(e, 0, &t, &x));
        fprintf(stderr, "%s: peak tension %.9g N, m g (3 - 2 cos theta0) = %.9g N (off by %.2g relative)\n",
                engines[i], (double)t, peak, fabs((double)t - peak) / peak);
        CHECK_REL(t, peak, sizeof(sk_real) == sizeof(float) ? 1e-2 : 1e-3);
        CHECK_REL(x, t / (k * L), 1e-9 + 1e3 * (double)SK_REAL_EPSILON);
        sk_engine_destroy(e);
    }
    sk_scenario_free(&s);
    return 0;
}

/* The tracked maximum against the tensions the frames report (sk_engine_rope_diagnostics): at least the
 * largest over frames every 50 steps, and the very same number as the largest over a frame at every step
 * (step 0 included), on a swinging spring rope and a rod chain on the ground, both engines; the held first
 * end's support |S| likewise (the very same number as the largest over a frame at every step). */
static int frames_bound(void)
{
    static const char *const jsons[] = {
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"symplectic\", \"groups\": ["
        " {\"count\": 5, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
        "  \"mass\": 0.1, \"link\": {\"type\": \"spring\", \"stiffness\": 500},"
        "  \"sweep\": {\"link.stiffness\": {\"from\": 200, \"to\": 800}}}]}",
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 600, \"integrator\": \"cyclone\","
        " \"ground\": {\"height\": 9.4, \"restitution\": 0.2}, \"groups\": ["
        " {\"count\": 5, \"particles\": 7, \"start\": [0, 10, 0], \"end\": [0.8, 10, 0], \"pinned\": [0],"
        "  \"mass\": 0.1, \"link\": {\"type\": \"rod\"}}]}"};
    for (size_t j = 0; j < 2; j++) {
        sk_scenario s;
        CHECK_OK(tb_load(&s, "%s", jsons[j]));
        for (int i = 0; i < 2; i++) {
            sk_engine *e = tb_engine(&s, i ? "batch" : "reference", NULL, 1);
            CHECK(e && sk_engine_track_extremes(e, true));
            sk_real every1[8] = {0}, every50[8] = {0}, support1[8] = {0};
            sk_real tension[8];
            for (long step = 0; step <= 600; step++) {
                if (step > 0) {
                    size_t d;
                    sk_engine_advance_checked(e, 1, &d);
                }
                for (size_t r = 0; r < s.total_ropes; r++) {
                    sk_rope_diagnostics dg;
                    sk_engine_rope_diagnostics(e, r, &dg, tension);
                    const sk_real m = sk_vec3_length(dg.support[0]);
                    if (m > support1[r])
                        support1[r] = m;
                    for (int l = 0; l + 1 < sk_engine_rope_particles(e, r); l++) {
                        if ((step == 0 && l == 0) || tension[l] > every1[r])
                            every1[r] = tension[l];
                        if (step % 50 == 0 && ((step == 0 && l == 0) || tension[l] > every50[r]))
                            every50[r] = tension[l];
                    }
                }
            }
            for (size_t r = 0; r < s.total_ropes; r++) {
                sk_real t;
                CHECK(sk_engine_rope_extremes(e, r, &t, NULL));
                CHECK(t >= every50[r]);
                CHECK_SAME_BITS(t, every1[r]);
                CHECK(t > every50[r] || j == 0); /* a rod's impulses peak between frames */
                sk_real first, last;
                CHECK(sk_engine_rope_support_extremes(e, r, &first, &last));
                CHECK(first > 0 && last == 0);
                CHECK_SAME_BITS(first, support1[r]);
            }
            sk_engine_destroy(e);
        }
        sk_scenario_free(&s);
    }
    return 0;
}

/* Tracking is asked for: off, a rope reads nothing; on only at step 0; an engine option does it at creation;
 * a rope without links reads NaN; the support at an end not held reads 0. */
static int api(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 10, \"groups\": ["
                         " {\"count\": 2, \"particles\": 3, \"start\": [0, 1, 0], \"end\": [1, 1, 0],"
                         "  \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 10}},"
                         " {\"count\": 1, \"particles\": 1, \"start\": [0, 1, 0], \"end\": [1, 1, 0]}]}"));
    const char *engines[] = {"reference", "batch"};
    for (int i = 0; i < 2; i++) {
        sk_error err = {0};
        sk_engine *e = sk_engine_create(&s, &(sk_engine_options){.engine = engines[i]}, &err);
        CHECK(e);
        sk_real t = 7, x = 7;
        CHECK(!sk_engine_tracks_extremes(e) && !sk_engine_rope_extremes(e, 0, &t, &x));
        CHECK(t == 7 && x == 7);
        sk_engine_advance(e, 3);
        CHECK(!sk_engine_track_extremes(e, true)); /* not at step 0 */
        CHECK(!sk_engine_tracks_extremes(e));
        sk_engine_destroy(e);

        e = sk_engine_create(&s, &(sk_engine_options){.engine = engines[i], .track_extremes = true}, &err);
        CHECK(e && sk_engine_tracks_extremes(e));
        sk_engine_advance(e, 10);
        CHECK(sk_engine_rope_extremes(e, 0, &t, &x));
        CHECK(isfinite(t) && t > 0 && isfinite(x) && x > 0); /* a rope that sags stretches its springs */
        CHECK(sk_engine_rope_extremes(e, 2, &t, &x));
        CHECK(isnan(t) && isnan(x));
        CHECK(sk_engine_rope_support_extremes(e, 2, &t, &x) && t == 0 && x == 0);
        CHECK(sk_engine_rope_support_extremes(e, 0, &t, &x) && t > 0 && x == 0);
        CHECK(sk_engine_track_extremes(e, false) && !sk_engine_rope_extremes(e, 0, &t, &x));
        CHECK(!sk_engine_rope_support_extremes(e, 0, &t, &x));
        sk_engine_destroy(e);
    }
    sk_scenario_free(&s);
    return 0;
}

/* sk_compare_engines judges the extremes too when both engines track them: the same bits on springs, and a
 * difference (one engine's rope stepped once more) is found. */
static int compared(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 200, \"groups\": ["
                         " {\"count\": 9, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
                         "  \"link\": {\"type\": \"spring\", \"stiffness\": 300},"
                         "  \"sweep\": {\"link.stiffness\": {\"from\": 100, \"to\": 900}}}]}"));
    size_t ropes[9];
    for (size_t r = 0; r < 9; r++)
        ropes[r] = r;
    sk_error err = {0};
    sk_group_deviation dev;
    for (int off = 0; off < 2; off++) {
        sk_engine *a = tb_engine(&s, "batch", NULL, 2), *b = tb_engine(&s, "reference", NULL, 0);
        CHECK(a && b && sk_engine_track_extremes(a, true) && sk_engine_track_extremes(b, true));
        CHECK_OK(sk_compare_engines(&s, a, b, 200, 50, ropes, 9, &dev, &err));
        CHECK(dev.extremes.compared == 5 * 9 * 4);
        CHECK(dev.extremes.differing == 0 && sk_group_deviation_within(&dev, 0));
        if (off) { /* b a step ahead: its extremes (and states) differ */
            sk_engine_advance(b, 1);
            CHECK_OK(sk_compare_engines(&s, a, b, 260, 50, ropes, 9, &dev, &err));
            CHECK(dev.extremes.differing > 0 && !sk_group_deviation_within(&dev, 0));
        }
        sk_engine_destroy(a);
        sk_engine_destroy(b);
    }
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"compared", compared}, {"springs", springs}, {"rods_cyclone", rods_cyclone}, {"rods_direct", rods_direct},
           {"deploying", deploying}, {"diverging", diverging}, {"static_chain", static_chain},
           {"pendulum", pendulum}, {"frames_bound", frames_bound}, {"api", api}, {"held_ends", held_ends},
           {"support_pendulum", support_pendulum})
