/* Physics: deployment speed profiles and reel-in (docs/model.md section 7). The deployed length against the
 * exact integral of the speed table, a deploy-then-reel-in cycle back to the initial count with every
 * particle's mass the rope's at every step, an absorption's momentum and rest length, and the stop at the
 * initial count. */
#include <string.h>

#include "scenario/scenario.h"
#include "physics_util.h"
#include "reference/rope_impl.h"

/* dt = 2^-10 s: every step's bounds k dt are exact in float too, so the steps tile [0, K dt] exactly and
 * the only errors are the roundings of each step's length and of s. */
#define DT 0.0009765625

/* The scenario: one rope, link length l, anchored segment s0, n0 particles of capacity n_max, hanging
 * below its anchor under gravity, deploy.velocity the table given as JSON. */
static int load(sk_scenario *s, int n_max, int n0, double l, double s0, const char *table)
{
    return phys_load(
        s,
        "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -9.81, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0, %.17g, 0], \"end\": [0, %.17g, 0],"
        " \"mass\": 0.05, \"damping\": 0.9, \"link\": {\"type\": \"spring\", \"stiffness\": 400, \"length\": %.17g},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 400, \"length\": %.17g},"
        " \"deploy\": {\"velocity\": %s, \"initial_particles\": %d}}]}",
        DT, n_max, -(s0 + (n0 - 1) * l), -s0, l, s0, table, n0);
}

/* The table's speed at t, in long double from the numbers the scenario holds: the first value up to the
 * first time, the last from the last time on, linear between. */
static long double speed(const sk_group *g, long double t)
{
    const sk_real *tt = g->speed_times, *u = g->speed_values;
    const int n = g->speed_count;
    if (t <= tt[0])
        return u[0];
    if (t >= tt[n - 1])
        return u[n - 1];
    int j = 0;
    while (!(t < tt[j + 1]))
        j++;
    return u[j] + (u[j + 1] - (long double)u[j]) * ((t - tt[j]) / (tt[j + 1] - (long double)tt[j]));
}

/* The exact integral of the table's speed from 0 to t: a trapezoid between neighbouring knots (and the
 * constant before the first), in one sweep from 0 rather than step by step. */
static long double integral(const sk_group *g, long double t)
{
    long double sum = 0, lo = 0;
    for (int j = 0; j < g->speed_count && g->speed_times[j] < t; j++)
        if (g->speed_times[j] > lo) {
            sum += (g->speed_times[j] - lo) * (speed(g, lo) + speed(g, g->speed_times[j])) / 2;
            lo = g->speed_times[j];
        }
    return sum + (t - lo) * (speed(g, lo) + speed(g, t)) / 2;
}

/* The largest |speed| of the table: a step's length is at most this times dt. */
static double max_speed(const sk_group *g)
{
    double m = 0;
    for (int j = 0; j < g->speed_count; j++)
        m = fabs((double)g->speed_values[j]) > m ? fabs((double)g->speed_values[j]) : m;
    return m;
}

/* Per step, the step's length is rounded a few times (interpolation, halves, product, sum: within 6 u of
 * delta = max |u| dt) and s + ds once (u (L + delta)); an insertion's s - L is exact, an absorption's s + L
 * one more rounding; the reported (n - 1) L + s two more of the whole length D. Doubled. */
static double tolerance(long k, double l, double delta, double d_max)
{
    return 2 * ((double)k * PHYS_U * (2 * l + 7 * delta) + 2 * PHYS_U * d_max);
}

/* Steps the rope `steps` times, checking every step: the deployed length against (n0 - 1) L + s0 + the
 * integral to k dt; the anchored segment s = D - (n - 1) L within [0, L + delta] (so the count is the one
 * the length implies); every present particle's inverse mass the rope's, so the rope's mass n m and the
 * reel's (N - n) m add up to N m. Returns the largest and the final count through *hi and *last. */
static int run_law(sk_ref_rope *r, const sk_scenario *s, long steps, const char *label, int *hi, int *last)
{
    const sk_group *g = &s->groups[0];
    const sk_rope_constants *c = sk_ref_rope_constants(r);
    const double l = (double)c->link_length, s0 = (double)g->base.anchor_length, delta = max_speed(g) * DT;
    const int n0 = g->deploy_initial, n_max = g->particles;
    const double m = (double)(1 / c->w);
    phys_track t = {0}, mass = {0};
    *hi = n0;
    for (long k = 1; k <= steps; k++) {
        sk_ref_rope_step(r);
        const int n = sk_ref_rope_count(r);
        long double expected = (n0 - 1) * (long double)l + s0 + integral(g, (long double)k * DT);
        const double d = (double)sk_ref_rope_deployed_length(r), tol = tolerance(k, l, delta, (double)expected);
        PHYS_NEAR(&t, d, expected, tol);
        double seg = d - (n - 1) * l;
        CHECK(n >= n0 && n <= n_max);
        CHECK(seg >= -tol && seg <= l + delta + tol);
        double rope_mass = 0;
        for (int i = 0; i < n; i++) {
            CHECK(sk_ref_rope_particle(r, i)->w == c->w);
            rope_mass += 1 / (double)sk_ref_rope_particle(r, i)->w;
        }
        PHYS_NEAR(&mass, rope_mass + (n_max - n) * m, n_max * m, 4 * n_max * PHYS_U * m);
        *hi = n > *hi ? n : *hi;
    }
    *last = sk_ref_rope_count(r);
    phys_report(label, &t);
    phys_report("rope + reel mass against N m", &mass);
    return 0;
}

/* Out and partly back in: held at 1 m/s before the first time 0.05 s, up to 3, down through zero to -2,
 * back up to 0.5 and held there; knots inside steps (0.3 s is not a multiple of dt). The length paid out
 * never falls below the initial count's, and never fills the capacity. */
static int length_integral(void)
{
    sk_scenario s;
    CHECK_OK(load(&s, 40, 3, 0.125, 0.1,
                  "{\"times\": [0.05, 0.3, 0.55, 0.8, 1.2], \"values\": [1, 3, -0.5, -2, 0.5]}"));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    int hi, last;
    CHECK_OK(run_law(r, &s, 1536, "deployed length against the table's integral", &hi, &last));
    /* 0.1 + 0.8625 m paid out by 0.55 s: 7 insertions of 0.125 m; 0.1 + 0.23 at the least (1.12 s): 2 */
    CHECK(hi == 10);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Seed 000's rope paid out 1.5 m at up to 2 m/s and reeled in 1.5 m at up to 2 m/s: 6 particles go in
 * (s0 + 1.5 = 1.6 = 6 L + 0.1), then come back out, and the rope ends as it started: 2 particles and the
 * anchored segment s0 = 0.1, to round-off. */
static int reel_cycle(void)
{
    sk_scenario s;
    CHECK_OK(load(&s, 12, 2, 0.25, 0.1,
                  "{\"times\": [0, 0.25, 0.75, 1, 1.25, 1.5, 2, 2.25], \"values\": [0, 2, 2, 0, 0, -2, -2, 0]}"));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    int hi, last;
    CHECK_OK(run_law(r, &s, 2560, "deploy then reel in: deployed length against the integral", &hi, &last));
    CHECK(hi == 8);
    CHECK(last == 2); /* and the length law at the last step (the integral 0) put s back at s0 */
    fprintf(stderr, "measured: after the cycle n = %d, s - s0 = %.3g, %s\n", last,
            (double)r->deploy_rest - (double)s.groups[0].base.anchor_length, SK_REAL_NAME);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* One absorption on its own (the deployment of the step that absorbs, run alone): particle n - 1 leaves
 * with its momentum m v (onto the reel), every other particle keeps its bits, so the rope's momentum drops
 * by exactly what the reel takes; s becomes s + ds + L, the anchored spring's rest length, and the anchor
 * holds particle n - 2. At a constant -2 m/s, ds = -2 dt exactly. */
static int absorb_momentum(void)
{
    sk_scenario s;
    CHECK_OK(load(&s, 12, 2, 0.25, 0.1, "{\"times\": [0, 0.5, 0.5009765625], \"values\": [2, 2, -2]}"));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    const sk_real ds = (sk_real)(-2 * DT);
    int absorbed = 0;
    for (long k = 0; k < 1000 && absorbed < 3; k++) {
        const int n = sk_ref_rope_count(r);
        if (k > 520 && r->deploy_rest + ds < 0 && n > 2) {
            sk_vec3 p[12], v[12];
            for (int i = 0; i < n; i++)
                p[i] = sk_ref_rope_particle(r, i)->p, v[i] = sk_ref_rope_particle(r, i)->v;
            const sk_real before = r->deploy_rest;
            sk_ref_rope_deploy(r);
            CHECK(sk_ref_rope_count(r) == n - 1);
            CHECK(sk_ref_rope_held(r) == n - 2);
            CHECK(r->deploy_rest == (before + ds) + r->c.link_length);
            CHECK(r->anchor_spring.rest_length == r->deploy_rest);
            for (int i = 0; i + 1 < n; i++)
                CHECK(memcmp(&sk_ref_rope_particle(r, i)->p, &p[i], sizeof p[i]) == 0 &&
                      memcmp(&sk_ref_rope_particle(r, i)->v, &v[i], sizeof v[i]) == 0);
            fprintf(stderr, "measured: absorption %d at step %ld: n %d -> %d, s %.9g -> %.9g, reel takes m v = "
                            "(%.6g, %.6g, %.6g) kg m/s, %s\n",
                    absorbed + 1, k, n, n - 1, (double)before, (double)r->deploy_rest, (double)(v[n - 1].x / r->c.w),
                    (double)(v[n - 1].y / r->c.w), (double)(v[n - 1].z / r->c.w), SK_REAL_NAME);
            absorbed++;
            /* the step would deploy again: go on from a fresh rope stepped as far */
            sk_ref_rope_destroy(r);
            r = sk_ref_rope_create(&s, 0, 0);
            CHECK(r);
            sk_ref_rope_advance(r, k + 1);
            continue;
        }
        sk_ref_rope_step(r);
    }
    CHECK(absorbed == 3);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Reeling in past the start: 0.5 m out at 1 m/s, then in at 1 m/s for 1 s. The count stops at the initial
 * 3 and the anchored segment at zero, exactly, from then on: the deployed length is 2 L to the bit. */
static int stops_at_initial(void)
{
    sk_scenario s;
    CHECK_OK(load(&s, 5, 3, 0.25, 0.1, "{\"times\": [0, 0.5, 0.5009765625], \"values\": [1, 1, -1]}"));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    int hi = 3, stopped = 0;
    for (long k = 1; k <= 1536; k++) {
        sk_ref_rope_step(r);
        const int n = sk_ref_rope_count(r);
        hi = n > hi ? n : hi;
        CHECK(n >= 3 && r->deploy_rest >= 0);
        if (n == 3 && r->deploy_rest == 0)
            stopped++;
        else
            CHECK(stopped == 0); /* once stopped, stopped for good */
    }
    CHECK(hi == 5);
    /* 5 particles and s = 0.1 at 0.5 s; back at 3 by 0.85 s, the segment at zero by 1.1 s (step 1127) */
    CHECK(stopped > 300);
    CHECK(sk_ref_rope_deployed_length(r) == 2 * (sk_real)0.25);
    fprintf(stderr, "measured: stopped at n0 = 3, s = 0 for the last %d of 1536 steps, %s\n", stopped, SK_REAL_NAME);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"length_integral", length_integral}, {"reel_cycle", reel_cycle}, {"absorb_momentum", absorb_momentum},
           {"stops_at_initial", stops_at_initial})
