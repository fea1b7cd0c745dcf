/* Physics: a deploying line given by EA (docs/model.md section 7.1). Its anchored segment is a piece of line
 * of rest length s, so of stiffness EA / max(s, s_min), s_min = L / 4: held at rest, it stretches by
 * W max(s, s_min) / EA under the weight W it holds; paid out slowly, the anchor holds the weight of the line
 * out. The implicit integrator takes the same stiffness into its anchor block: one step of it is the closed
 * form of a linearly implicit step, and far above the explicit stability limit it pays a line out as the
 * explicit integrator does at a small step. */
#include <string.h>

#include "scenario/scenario.h"
#include "physics_util.h"
#include "reference/rope_impl.h"

#define DT 0.0009765625 /* 2^-10 s */
#define G 9.81

/* One segment of 2 m (capacity one particle, the tip, of half a segment's mass: 2 kg at 2 kg/m) paid out at
 * 0.5 m/s from s0 = 0.125 m to max_length, then held and damped to rest, by INTEGRATOR at a step of dt. */
static int load_segment(sk_scenario *s, const char *integrator, double dt, double max_length, long steps)
{
    return phys_load(s,
                     "{\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"%s\","
                     " \"gravity\": [0, -%.17g, 0],"
                     " \"groups\": [{\"count\": 1, \"start\": [0, -0.125, 0], \"end\": [0, -0.125, 0], \"damping\": 0.02,"
                     " \"line\": {\"diameter\": 0.01, \"mass_per_length\": 2, \"EA\": 200, \"length\": 2, \"segments\": 1},"
                     " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"length\": 0.125},"
                     " \"deploy\": {\"velocity\": 0.5, \"initial_particles\": 1, \"max_length\": %.17g}}]}",
                     dt, steps, integrator, G, max_length);
}

/* While it pays out (the first 4 s), the anchor's force on the tip is EA (s - |d|) / max(s, s_min) at every
 * step (the engine's force against that formula from its own state); held at max_length M (from 0.25 m, under
 * s_min = 0.5 m, to 1.5 m), the tip (2 kg) hangs at |d| = M + W max(M, s_min) / EA, W = 2 g: a constant
 * anchor stiffness would stretch the segment alike at every length. 40 s at a step of dt. */
static int held_segment_run(const char *integrator, double dt)
{
    static const double lengths[] = {0.25, 0.5, 1.0, 1.5};
    const double ea = 200, s_min = 0.5, w = 2 * G;
    const long per_second = lround(1 / dt), every = per_second / 16 > 0 ? per_second / 16 : 1;
    phys_track paying = {0}, held = {0}, force = {0};
    for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c++) {
        const double m = lengths[c];
        sk_scenario s;
        CHECK_OK(load_segment(&s, integrator, dt, m, 40 * per_second));
        CHECK(s.groups[0].particles == 1);
        sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
        CHECK(r);
        CHECK(sk_ref_rope_particle(r, 0)->w == (sk_real)0.5); /* the tip: half a 2 kg segment */
        for (long k = 0; k < s.steps; k++) {
            sk_ref_rope_step(r);
            if (k % every != 0 || k > 4 * per_second)
                continue;
            sk_rope_diagnostics d;
            sk_ref_rope_diagnose(r, &d, NULL);
            const double rest = (double)sk_ref_rope_deployed_length(r);
            const sk_vec3 p = sk_ref_rope_position(r, 0);
            const double l = sqrt((double)p.x * p.x + (double)p.y * p.y + (double)p.z * p.z);
            const double expect = ea * (rest - l) / (rest < s_min ? s_min : rest);
            PHYS_NEAR(&paying, -(double)d.anchor_force.y, -expect * (double)p.y / l, 64 * PHYS_U * ea);
        }
        CHECK(sk_ref_rope_deployed_length(r) == (sk_real)m);
        sk_rope_diagnostics d;
        sk_ref_rope_diagnose(r, &d, NULL);
        const sk_vec3 p = sk_ref_rope_position(r, 0);
        PHYS_NEAR(&held, -(double)p.y, m + w * (m > s_min ? m : s_min) / ea, 1e-6 + 64 * PHYS_U);
        PHYS_NEAR(&held, (double)p.x, 0, 1e-9);
        PHYS_NEAR(&force, (double)d.anchor_force.y, w, 1e-4 + 64 * PHYS_U * ea);
        sk_ref_rope_destroy(r);
        sk_scenario_free(&s);
    }
    char label[160];
    snprintf(label, sizeof label, "%s: anchored segment while paying out: force = EA (s - |d|) / max(s, L/4)",
             integrator);
    phys_report(label, &paying);
    snprintf(label, sizeof label, "%s: anchored segment held at 0.25, 0.5, 1, 1.5 m: |d| = s + W max(s, L/4) / EA",
             integrator);
    phys_report(label, &held);
    snprintf(label, sizeof label, "%s: anchored segment held: anchor force = the tip's weight (19.62 N)", integrator);
    phys_report(label, &force);
    return 0;
}

static int held_segment(void) { return held_segment_run("symplectic", DT); }

/* The implicit integrator at 2^-6 s: the segment follows s both ways across s_min alike. */
static int held_segment_implicit(void) { return held_segment_run("implicit", 0.015625); }

/* One implicit step of the tip alone from rest at depth l (no links; the anchor straight above it): the step's
 * deployment gives s = s0 + u h, then (m + ka h^2) dv = h (ka (l - s) - m g) along the vertical, ka = EA /
 * max(s, s_min) (the axial part of the anchor's block), v = D dv and y = -l + v h. With s = 1.5 m and l = 1.6 m
 * at h = 0.1 s, ka = 133 N/m against EA / s_min = 400 N/m: a block of constant stiffness EA / s_min would move
 * the tip little more than half as far. Each s of the list (under, at and over s_min = 0.5 m). */
static int implicit_step(void)
{
    static const double rests[] = {0.3, 0.5, 1.5};
    const double ea = 200, s_min = 0.5, mass = 2, h = 0.1, u = 0.5, l_over = 0.1;
    phys_track step = {0};
    for (size_t c = 0; c < sizeof rests / sizeof rests[0]; c++) {
        const double s1 = rests[c], s0 = s1 - u * h, l = s1 + l_over;
        sk_scenario s;
        CHECK_OK(phys_load(&s,
                           "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"implicit\","
                           " \"gravity\": [0, -%.17g, 0],"
                           " \"groups\": [{\"count\": 1, \"start\": [0, -%.17g, 0], \"end\": [0, -%.17g, 0],"
                           " \"damping\": 0.5, \"line\": {\"diameter\": 0.01, \"mass_per_length\": 2, \"EA\": 200,"
                           " \"length\": 2, \"segments\": 1},"
                           " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"length\": %.17g},"
                           " \"deploy\": {\"velocity\": %.17g, \"initial_particles\": 1}}]}",
                           h, G, l, l, s0, u));
        sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
        CHECK(r);
        sk_ref_rope_step(r);
        const double rest = (double)sk_ref_rope_deployed_length(r);
        PHYS_NEAR(&step, rest, s1, 8 * PHYS_U * s1);
        const double ka = ea / (rest > s_min ? rest : s_min);
        const double dv = h * (ka * (l - rest) - mass * G) / (mass + ka * h * h);
        const double v = pow(0.5, h) * dv, y = -l + v * h;
        const sk_vec3 p = sk_ref_rope_position(r, 0);
        PHYS_NEAR(&step, (double)p.y, y, 64 * PHYS_U);
        PHYS_NEAR(&step, (double)p.x, 0, 0);
        sk_ref_rope_destroy(r);
        sk_scenario_free(&s);
    }
    phys_report("implicit step of the tip: (m + EA / max(s, L/4) h^2) dv = h f", &step);
    return 0;
}

/* 4 m of line (1 kg/m, EA 2e4 N, 8 segments of 0.5 m) paid out at u = 0.1 m/s from one particle, moving with
 * the line from the start, the top held by the anchor at the origin: quasi-static, the anchor holds the weight
 * W of the particles out, which lump the line out but half a segment (the tip's other half), so |T - mu g l| <=
 * mu g L / 2 plus the dynamics, l the deployed length. Two terms of the dynamics are known: the group's damping
 * (v kept pow(0.5, dt) a step) takes M lambda u off the tension of a line of mass M moving at u (lambda =
 * ln 2 / s), and the frame's anchored segment has paid out the whole step while its particle moved under the
 * step's start rest length (section 7), which reads EA u dt / max(s, s_min) above. An insertion hands the new
 * anchored segment the old one's strain, not that lag, which rings after it by up to EA u dt / s_min; beyond
 * these the tension stays within 1 % of W. Held once the line is out (37.5 s), it settles to W within 0.1 %. */
#define SLOW_DT (1.0 / 8192)
static int hanging_slow(void)
{
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": %.17g, \"steps\": %d, \"integrator\": \"symplectic\","
                       " \"gravity\": [0, -%.17g, 0],"
                       " \"groups\": [{\"count\": 1, \"start\": [0, -0.25, 0], \"end\": [0, -0.25, 0], \"damping\": 0.5,"
                       " \"velocity\": [0, -0.1, 0],"
                       " \"line\": {\"diameter\": 0.02, \"mass_per_length\": 1, \"EA\": 2e4, \"length\": 4, \"segments\": 8},"
                       " \"link\": {\"type\": \"spring\", \"damping_ratio\": 1},"
                       " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"length\": 0.25},"
                       " \"deploy\": {\"velocity\": 0.1, \"initial_particles\": 1, \"insert_velocity\": \"along\"}}]}",
                       SLOW_DT, 40 * 8192, G));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    const double mu = 1, l_seg = 0.5, ea = 2e4, u = 0.1, s_min = l_seg / 4, lambda = log(2.0);
    const double ring = ea * u * SLOW_DT / s_min; /* 1.95 N */
    phys_track lumped = {0}, line = {0}, held = {0};
    double weight = 0, t = 0;
    for (long k = 1; k <= s.steps; k++) {
        sk_ref_rope_step(r);
        const double out = (double)sk_ref_rope_deployed_length(r);
        if ((k % 256 != 0 || k < 10 * 8192 || out > 3.95) && k != s.steps)
            continue;
        sk_rope_diagnostics d;
        sk_ref_rope_diagnose(r, &d, NULL);
        const int n = sk_ref_rope_count(r);
        weight = 0;
        for (int i = 0; i < n; i++)
            weight += G / (double)sk_ref_rope_particle(r, i)->w;
        t = (double)d.anchor_force.y;
        if (k == s.steps)
            break;
        const double rest = out - (n - 1) * l_seg, lag = ea * u * SLOW_DT / (rest > s_min ? rest : s_min);
        PHYS_NEAR(&lumped, t, weight + lag - weight / G * lambda * u, 0.01 * weight + ring);
        PHYS_NEAR(&line, t, mu * G * out, mu * G * l_seg / 2 + lag + 0.01 * weight + ring);
    }
    CHECK(sk_ref_rope_count(r) == 8);
    PHYS_NEAR(&held, t, weight, 1e-3 * weight);
    phys_report("line paid out at 0.1 m/s: top tension = W + EA u dt / max(s, s_min) - M lambda u", &lumped);
    phys_report("line paid out at 0.1 m/s: top tension = mu g (line out), within half a segment", &line);
    phys_report("line out and held: top tension = W (35.8 N)", &held);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* The line of hanging_slow (4 m, 1 kg/m, EA 2e4 N, 8 segments, paid out at 0.1 m/s for 37.5 s, then held)
 * by the implicit integrator at h = 2^-5 s, IMPLICIT_FACTOR times or more the explicit stability limit (the
 * loader's bound, sk_group_stable_dt), against the explicit (symplectic) run at 2^-13 s. Every 0.5 s from
 * 2.75 s (the single particle of the first 2.5 s rings in the explicit run: only the group's damping stills
 * it) while the line pays out, between insertions (at 2.5 s + 5 k s), and once held (40 s): the tip's stretch
 * (its distance from the anchor less the line its run has paid out, which a float build's sums of u dt move
 * apart by millimetres over 40 s) within TIP_TOL of the explicit run's. The anchor's tension while paying out
 * within TENSION_TOL of the weight of the line out: each run's tension is read off its frame with a known lag
 * of its step, the explicit one's EA u dt / max(s, s_min) (hanging_slow), the implicit one's -ka u h (1 - D) / D,
 * D = 0.5^h the group's damping applied after the solve, which shortens each step's move by (1 - D) u h / D;
 * both are taken off. Held: the tensions within HELD_TOL of the weight. */
#define HANG_DT (1.0 / 32)
#define IMPLICIT_FACTOR 20
#define TIP_TOL 1e-3      /* m */
#define TENSION_TOL 0.025 /* of mu g l */
#define HELD_TOL 1e-3     /* of the weight */
static int load_hanging(sk_scenario *s, const char *integrator, double dt)
{
    return phys_load(s,
                     "{\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"%s\","
                     " \"gravity\": [0, -%.17g, 0],"
                     " \"groups\": [{\"count\": 1, \"start\": [0, -0.25, 0], \"end\": [0, -0.25, 0], \"damping\": 0.5,"
                     " \"velocity\": [0, -0.1, 0],"
                     " \"line\": {\"diameter\": 0.02, \"mass_per_length\": 1, \"EA\": 2e4, \"length\": 4, \"segments\": 8},"
                     " \"link\": {\"type\": \"spring\", \"damping_ratio\": 1},"
                     " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"length\": 0.25},"
                     " \"deploy\": {\"velocity\": 0.1, \"initial_particles\": 1, \"insert_velocity\": \"along\"}}]}",
                     dt, lround(40 / dt), integrator, G);
}

/* How far the tip hangs below the line the rope has paid out: its distance from the anchor (the origin) less
 * the line out. */
static double tip_stretch(const sk_ref_rope *r)
{
    const sk_vec3 p = sk_ref_rope_position(r, 0);
    return sqrt((double)p.x * p.x + (double)p.y * p.y + (double)p.z * p.z) - (double)sk_ref_rope_deployed_length(r);
}

static int hanging_implicit(void)
{
    sk_scenario se, si;
    CHECK_OK(load_hanging(&se, "symplectic", SLOW_DT));
    CHECK_OK(load_hanging(&si, "implicit", HANG_DT));
    const double limit = sk_group_stable_dt(&se, 0);
    fprintf(stderr, "explicit stability limit %.4g s; implicit step %.4g s = %.1f times it\n", limit, HANG_DT,
            HANG_DT / limit);
    CHECK(HANG_DT >= IMPLICIT_FACTOR * limit);
    sk_ref_rope *re = sk_ref_rope_create(&se, 0, 0), *ri = sk_ref_rope_create(&si, 0, 0);
    CHECK(re && ri);
    const long ratio = lround(HANG_DT / SLOW_DT), every = lround(0.5 / HANG_DT);
    const double ea = 2e4, u = 0.1, l_seg = 0.5, s_min = l_seg / 4, keep = pow(0.5, HANG_DT);
    phys_track tip = {0}, tension = {0}, held_tip = {0}, held = {0};
    for (long k = 1; k <= si.steps; k++) {
        sk_ref_rope_step(ri);
        for (long j = 0; j < ratio; j++)
            sk_ref_rope_step(re);
        const double out = (double)sk_ref_rope_deployed_length(re);
        if ((k - every / 2) % every != 0 || k * HANG_DT < 2.5 || out > 3.95)
            continue;
        CHECK(sk_ref_rope_count(ri) == sk_ref_rope_count(re));
        PHYS_NEAR(&tip, tip_stretch(ri), tip_stretch(re), TIP_TOL);
        sk_rope_diagnostics di, de;
        sk_ref_rope_diagnose(ri, &di, NULL);
        sk_ref_rope_diagnose(re, &de, NULL);
        const double rest = out - (sk_ref_rope_count(re) - 1) * l_seg, ka = ea / (rest > s_min ? rest : s_min);
        const double lag_e = ka * u * SLOW_DT, lag_i = ka * u * HANG_DT * (1 - keep) / keep;
        PHYS_NEAR(&tension, (double)di.anchor_force.y + lag_i, (double)de.anchor_force.y - lag_e,
                  TENSION_TOL * G * out);
    }
    CHECK(sk_ref_rope_count(ri) == 8 && sk_ref_rope_count(re) == 8);
    sk_rope_diagnostics di, de;
    sk_ref_rope_diagnose(ri, &di, NULL);
    sk_ref_rope_diagnose(re, &de, NULL);
    PHYS_NEAR(&held_tip, tip_stretch(ri), tip_stretch(re), TIP_TOL);
    PHYS_NEAR(&held, (double)di.anchor_force.y, (double)de.anchor_force.y, HELD_TOL * (double)de.anchor_force.y);
    phys_report("implicit at 2^-5 s against symplectic at 2^-13 s, paying out: tip stretch (m)", &tip);
    phys_report("implicit at 2^-5 s against symplectic at 2^-13 s, paying out: anchor tension (N)", &tension);
    phys_report("implicit at 2^-5 s against symplectic at 2^-13 s, held: tip stretch (m)", &held_tip);
    phys_report("implicit at 2^-5 s against symplectic at 2^-13 s, held: anchor tension (N)", &held);
    sk_ref_rope_destroy(re);
    sk_ref_rope_destroy(ri);
    sk_scenario_free(&se);
    sk_scenario_free(&si);
    return 0;
}

/* Lines paid out fast (0.5 to 2 m/s, EA 1e5 N, 20 segments of 0.5 m) at implicit steps 2.3 to 9 times the
 * explicit limit: each insertion measures the anchored segment's strain against its rest length before the
 * step's growth (an implicit frame has no explicit frame's lag of u dt), so the new particle is placed beyond
 * the anchor point, never behind it: every line ends hanging its 10 m below the anchor (measuring against the
 * length after the growth put three of these eight lines through the anchor point at 2.5e-3 s). */
static int large_implicit_steps(void)
{
    const double steps[] = {2.5e-3, 1e-2};
    for (int k = 0; k < 2; k++) {
        sk_scenario s;
        CHECK_OK(phys_load(&s,
                           "{\"skein\": 1, \"dt\": %g, \"duration\": 25, \"integrator\": \"implicit\","
                           " \"groups\": [{\"count\": 8, \"start\": [0, -0.2, 0], \"end\": [0, -0.2, 0],"
                           " \"velocity\": [0, -0.5, 0], \"damping\": 0.5,"
                           " \"line\": {\"diameter\": 0.02, \"mass_per_length\": 0.5, \"EA\": 1e5, \"length\": 10,"
                           " \"segments\": 20}, \"link\": {\"type\": \"spring\", \"damping_ratio\": 0.5},"
                           " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"length\": 0.2},"
                           " \"deploy\": {\"velocity\": 0.5, \"initial_particles\": 1, \"insert_velocity\": \"along\"},"
                           " \"sweep\": {\"deploy.velocity\": {\"from\": 0.5, \"to\": 2},"
                           " \"velocity[1]\": {\"from\": -0.5, \"to\": -2}}}]}",
                           steps[k]));
        double highest = -1e30, lowest = 1e30;
        for (size_t r = 0; r < s.total_ropes; r++) {
            sk_ref_rope *rope = sk_ref_rope_create(&s, 0, r);
            CHECK(rope != NULL);
            sk_ref_rope_advance(rope, s.steps);
            CHECK(sk_ref_rope_count(rope) == 20);
            const double tip = (double)sk_ref_rope_position(rope, 0).y;
            highest = tip > highest ? tip : highest;
            lowest = tip < lowest ? tip : lowest;
            sk_ref_rope_destroy(rope);
        }
        fprintf(stderr, "measured: 8 lines paid out at implicit dt %g s: tips end between %.4f and %.4f m\n",
                steps[k], lowest, highest);
        CHECK(highest < -9.9 && lowest > -10.1);
        sk_scenario_free(&s);
    }
    return 0;
}

CHECK_MAIN({"large_implicit_steps", large_implicit_steps}, {"held_segment", held_segment}, {"hanging_slow", hanging_slow},
           {"held_segment_implicit", held_segment_implicit}, {"implicit_step", implicit_step},
           {"hanging_implicit", hanging_implicit})
