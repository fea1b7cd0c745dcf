/* Physics: a deploying line given by EA (docs/model.md section 7.1). Its anchored segment is a piece of line
 * of rest length s, so of stiffness EA / max(s, s_min), s_min = L / 4: held at rest, it stretches by
 * W max(s, s_min) / EA under the weight W it holds; paid out slowly, the anchor holds the weight of the line
 * out. */
#include <string.h>

#include "physics_util.h"
#include "reference/rope_impl.h"

#define DT 0.0009765625 /* 2^-10 s */
#define G 9.81

/* One segment of 2 m (capacity one particle, the tip, of half a segment's mass: 2 kg at 2 kg/m) paid out at
 * 0.5 m/s from s0 = 0.125 m to max_length, then held and damped to rest. */
static int load_segment(sk_scenario *s, double max_length, long steps)
{
    return phys_load(s,
                     "{\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"symplectic\","
                     " \"gravity\": [0, -%.17g, 0],"
                     " \"groups\": [{\"count\": 1, \"start\": [0, -0.125, 0], \"end\": [0, -0.125, 0], \"damping\": 0.02,"
                     " \"line\": {\"diameter\": 0.01, \"mass_per_length\": 2, \"EA\": 200, \"length\": 2, \"segments\": 1},"
                     " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"length\": 0.125},"
                     " \"deploy\": {\"velocity\": 0.5, \"initial_particles\": 1, \"max_length\": %.17g}}]}",
                     DT, steps, G, max_length);
}

/* While it pays out, the anchor's force on the tip is EA (s - |d|) / max(s, s_min) at every step (the
 * engine's force against that formula from its own state); held at max_length M (from 0.25 m, under s_min =
 * 0.5 m, to 1.5 m), the tip (2 kg) hangs at |d| = M + W max(M, s_min) / EA, W = 2 g: a constant anchor
 * stiffness would stretch the segment alike at every length. */
static int held_segment(void)
{
    static const double lengths[] = {0.25, 0.5, 1.0, 1.5};
    const double ea = 200, s_min = 0.5, w = 2 * G;
    phys_track paying = {0}, held = {0}, force = {0};
    for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c++) {
        const double m = lengths[c];
        sk_scenario s;
        CHECK_OK(load_segment(&s, m, 40 * 1024));
        CHECK(s.groups[0].particles == 1);
        sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
        CHECK(r);
        CHECK(sk_ref_rope_particle(r, 0)->w == (sk_real)0.5); /* the tip: half a 2 kg segment */
        for (long k = 0; k < s.steps; k++) {
            sk_ref_rope_step(r);
            if (k % 64 != 0 || k > 4 * 1024)
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
    phys_report("anchored segment while paying out: force = EA (s - |d|) / max(s, L/4)", &paying);
    phys_report("anchored segment held at 0.25, 0.5, 1, 1.5 m: |d| = s + W max(s, L/4) / EA", &held);
    phys_report("anchored segment held: anchor force = the tip's weight (19.62 N)", &force);
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

CHECK_MAIN({"held_segment", held_segment}, {"hanging_slow", hanging_slow})
