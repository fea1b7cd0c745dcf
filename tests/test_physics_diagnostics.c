/* Physics: the reference engine's diagnostics (docs/model.md section 10.1) on their own, not only bit for bit
 * against the batch engine's: energies, tensions, anchor force and length of states worked out by hand (every
 * anchor type, a pinned held particle, slack bungees, a deploying rope), the fake spring's force against the
 * exact solution of its oscillator, and the total energy kinetic + gravity + elastic conserved by symplectic
 * Euler (to its O(w dt) swing) on spring and bungee chains with a mass profile, and lost, never gained, by a
 * ball whose cable goes slack and snaps taut again under Cyclone's resolver; a rod pushing up a weight reports
 * the negative tension -m g under both resolvers. */
#include <math.h>
#include <string.h>

#include "scenario/scenario.h"
#include "physics_util.h"

#ifdef SKEIN_REAL_FLOAT
#define TOL 1e-5
#else
#define TOL 1e-12
#endif

/* The diagnostics of the reference rope `rope` of group `group` after `steps` steps. */
static int diagnose(const sk_scenario *s, int group, size_t rope, long steps, sk_rope_diagnostics *d, sk_real *tension)
{
    sk_ref_rope *r = sk_ref_rope_create(s, group, rope);
    CHECK(r);
    for (long n = 0; n < steps; n++)
        sk_ref_rope_step(r);
    sk_ref_rope_diagnose(r, d, tension);
    sk_ref_rope_destroy(r);
    return 0;
}

/* Three particles of 2 kg 1 m apart at height 3, moving at (1, 2, 2) (|v|^2 = 9), links of rest 0.5; every
 * number is exact in binary. Group 0: springs k = 100 (stretched 0.5), an anchored spring k = 10, rest 0.5,
 * from (-1, 3, 0) to particle 0 (1 m away). Group 1: particle 0 pinned, bungees of rest 1.5 (slack), an
 * anchored bungee stretched 0.5. Group 2: bungees of rest 0.75 (stretched 0.25), an anchored bungee of rest 2
 * (slack). Group 3: a rod anchor. gravity_as force: the energy reads the key gravity all the same. */
static const char by_hand[] =
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"gravity\": [0, -10, 0], \"gravity_as\": \"force\", \"groups\": ["
    " {\"count\": 1, \"particles\": 3, \"start\": [0, 3, 0], \"end\": [2, 3, 0], \"mass\": 2,"
    "  \"velocity\": [1, 2, 2], \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 0.5},"
    "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [-1, 3, 0], \"stiffness\": 10, \"length\": 0.5}},"
    " {\"count\": 1, \"particles\": 3, \"start\": [0, 3, 0], \"end\": [2, 3, 0], \"mass\": 2, \"pinned\": [0],"
    "  \"velocity\": [1, 2, 2], \"link\": {\"type\": \"bungee\", \"stiffness\": 100, \"length\": 1.5},"
    "  \"anchor\": {\"type\": \"anchored_bungee\", \"point\": [-1, 3, 0], \"stiffness\": 10, \"length\": 0.5}},"
    " {\"count\": 1, \"particles\": 3, \"start\": [0, 3, 0], \"end\": [2, 3, 0], \"mass\": 2,"
    "  \"velocity\": [1, 2, 2], \"link\": {\"type\": \"bungee\", \"stiffness\": 100, \"length\": 0.75},"
    "  \"anchor\": {\"type\": \"anchored_bungee\", \"point\": [-1, 3, 0], \"stiffness\": 10, \"length\": 2}},"
    " {\"count\": 1, \"particles\": 3, \"start\": [0, 3, 0], \"end\": [2, 3, 0], \"mass\": 2,"
    "  \"velocity\": [1, 2, 2], \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 1},"
    "  \"anchor\": {\"type\": \"rod\", \"point\": [-1, 3, 0], \"length\": 1}}]}";

static int hand_values(void)
{
    sk_scenario s;
    CHECK_OK(phys_load(&s, "%s", by_hand));
    sk_rope_diagnostics d;
    sk_real t[2];

    CHECK_OK(diagnose(&s, 0, 0, 0, &d, t));
    CHECK(d.finite);
    CHECK(d.kinetic == 27);    /* 3 * 2 * 9 / 2 */
    CHECK(d.gravity == 180);   /* -3 * 2 * (-10 * 3) */
    CHECK(d.elastic == 26.25); /* 2 * 100 * 0.5^2 / 2 + 10 * 0.5^2 / 2 */
    CHECK(t[0] == 50 && t[1] == 50);
    CHECK(d.anchor_force.x == -5 && d.anchor_force.y == 0 && d.anchor_force.z == 0); /* (0.5 - 1) * 10 along +x */
    CHECK(d.length == 1);

    /* the pinned particle 0 has no energy of its own and feels no anchor force; its stretched anchor's energy
     * counts all the same */
    CHECK_OK(diagnose(&s, 1, 0, 0, &d, t));
    CHECK(d.kinetic == 18 && d.gravity == 120);
    CHECK(d.elastic == 1.25);
    CHECK(t[0] == 0 && t[1] == 0);
    CHECK(d.anchor_force.x == 0 && d.anchor_force.y == 0 && d.anchor_force.z == 0);
    CHECK(d.length == 3);

    /* stretched bungees pull like springs; the slack anchored bungee holds nothing */
    CHECK_OK(diagnose(&s, 2, 0, 0, &d, t));
    CHECK(d.kinetic == 27 && d.gravity == 180);
    CHECK(d.elastic == 6.25); /* 2 * 100 * 0.25^2 / 2 */
    CHECK(t[0] == 25 && t[1] == 25);
    CHECK(d.anchor_force.x == 0 && d.anchor_force.y == 0 && d.anchor_force.z == 0);
    CHECK(d.length == 1.5);

    /* a rod anchor is a contact, not a force: no anchor force, no anchor energy; springs at rest length */
    CHECK_OK(diagnose(&s, 3, 0, 0, &d, t));
    CHECK(d.elastic == 0 && t[0] == 0 && t[1] == 0);
    CHECK(d.anchor_force.x == 0 && d.anchor_force.y == 0 && d.anchor_force.z == 0);
    CHECK(d.length == 2);
    sk_scenario_free(&s);
    fprintf(stderr, "measured: diagnostics of four ropes by hand: every value exact, %s\n", SK_REAL_NAME);
    return 0;
}

/* An anchored spring and an anchored bungee holding particle 0 at (3, 4, 0) from the origin (l = 5), rest 2,
 * k = 10: force (2 - 5) * 10 * (0.6, 0.8, 0) = (-18, -24, 0), energy 10 * 3^2 / 2 = 45. */
static int anchor_off_axis(void)
{
    static const char *const types[] = {"anchored_spring", "anchored_bungee"};
    for (int k = 0; k < 2; k++) {
        sk_scenario s;
        CHECK_OK(phys_load(&s,
                           "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"gravity\": [0, 0, 0], \"groups\": ["
                           " {\"count\": 1, \"particles\": 1, \"start\": [3, 4, 0], \"end\": [3, 4, 0], \"mass\": 1,"
                           "  \"anchor\": {\"type\": \"%s\", \"point\": [0, 0, 0], \"stiffness\": 10, \"length\": 2}}]}",
                           types[k]));
        sk_rope_diagnostics d;
        CHECK_OK(diagnose(&s, 0, 0, 0, &d, NULL));
        CHECK_NEAR(d.anchor_force.x, -18, 18 * TOL);
        CHECK_NEAR(d.anchor_force.y, -24, 24 * TOL);
        CHECK(d.anchor_force.z == 0);
        CHECK_NEAR(d.elastic, 45, 45 * TOL);
        CHECK(d.kinetic == 0 && d.gravity == 0 && d.length == 0);
        sk_scenario_free(&s);
    }
    return 0;
}

/* A fake spring (k = 500 1/s^2, c = 1 1/s per unit mass) holding a 2 kg particle at r = (0.6, 0, 0) moving at
 * v = (0, 0.5, 0.25): its force is m ((target - r) / dt^2 - v / dt), target the exact solution of
 * r'' = -k r - c r' after dt, here in long double. As the constant acceleration that carries r + v dt + acc dt^2
 * to the target it is half the oscillator's, -m (k r + c v) / 2, to O(dt). Its energy is k |r|^2 / 2 (per unit
 * mass). With 4 k <= c^2 (k = 1, c = 3) it is not active: no force, no energy. */
static int fake_spring(void)
{
    const long double k = 500, c = 1, dt = 1.0L / 1024, m = 2;
    const long double r[3] = {0.6L, 0, 0}, v[3] = {0, 0.5L, 0.25L};
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 0.0009765625, \"steps\": 1, \"gravity\": [0, 0, 0], \"groups\": ["
                       " {\"count\": 1, \"particles\": 1, \"start\": [0.6, 0, 0], \"end\": [0.6, 0, 0], \"mass\": 2,"
                       "  \"velocity\": [0, 0.5, 0.25],"
                       "  \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 0, 0], \"stiffness\": 500, \"damping\": 1}},"
                       " {\"count\": 1, \"particles\": 1, \"start\": [0.6, 0, 0], \"end\": [0.6, 0, 0], \"mass\": 2,"
                       "  \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 0, 0], \"stiffness\": 1, \"damping\": 3}}]}"));
    sk_rope_diagnostics d;
    CHECK_OK(diagnose(&s, 0, 0, 0, &d, NULL));
    const long double gamma = 0.5L * sqrtl(4 * k - c * c), e = expl(-0.5L * c * dt);
    const double got[3] = {(double)d.anchor_force.x, (double)d.anchor_force.y, (double)d.anchor_force.z};
    /* (target - r) / dt^2 cancels r's digits: |r| u / dt^2, times m, is the engine's rounding */
    const double tol = 64 * PHYS_U * (0.6 / (double)(dt * dt) + 0.5 / (double)dt) * (double)m;
    double worst = 0;
    for (int i = 0; i < 3; i++) {
        long double target =
            e * (r[i] * cosl(gamma * dt) + (c * r[i] / (2 * gamma) + v[i] / gamma) * sinl(gamma * dt));
        long double exact = m * ((target - r[i]) / (dt * dt) - v[i] / dt);
        CHECK_NEAR(got[i], (double)exact, tol);
        worst = fmax(worst, fabs(got[i] - (double)exact));
        /* half the oscillator's force, to the step's first order: m (k |r| + k |v| dt) dt bounds the next term */
        long double ode = -m * (k * r[i] + c * v[i]) / 2;
        CHECK_NEAR(got[i], (double)ode, (double)(m * (k * 0.6L + k * 0.5L * dt) * dt));
    }
    CHECK_NEAR(d.elastic, 90, 90 * TOL); /* 500 * 0.36 / 2 */
    CHECK(d.kinetic == (sk_real)(2 * 0.3125 / 2));
    CHECK_OK(diagnose(&s, 1, 0, 0, &d, NULL));
    CHECK(d.elastic == 0 && d.anchor_force.x == 0 && d.anchor_force.y == 0 && d.anchor_force.z == 0);
    sk_scenario_free(&s);
    fprintf(stderr, "measured: fake spring force: off the exact oscillator's by %.3g N (tolerance %.3g N), %s\n", worst, tol,
            SK_REAL_NAME);
    return 0;
}

/* A deploying rope: length (n - 1) L + s, and the anchored spring holds the last particle present. Two
 * particles 0.1 apart (the link's rest length: no tension), the held particle 1 at (0.1, 10, 0), 0.1 from
 * the point, rest s = 0.05: pulled toward +x by 300 * 0.05 = 15 N. After 8 steps at 1 m/s (dt 2^-10) s has
 * grown by 8 dt. */
static int deploying(void)
{
    sk_scenario s;
    CHECK_OK(phys_load(&s, "{\"skein\": 1, \"dt\": 0.0009765625, \"steps\": 8, \"gravity\": [0, 0, 0], \"groups\": ["
                           " {\"count\": 1, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
                           "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
                           "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300,"
                           "   \"length\": 0.05},"
                           "  \"deploy\": {\"velocity\": 1, \"initial_particles\": 2}}]}"));
    sk_rope_diagnostics d;
    sk_real t[7];
    CHECK_OK(diagnose(&s, 0, 0, 0, &d, t));
    CHECK_NEAR(d.length, 0.15, TOL);
    CHECK_NEAR(t[0], 0, 300 * TOL);
    CHECK_NEAR(d.anchor_force.x, 15, 300 * TOL);
    CHECK_NEAR(d.elastic, 300 * 0.05 * 0.05 / 2, TOL);
    CHECK_OK(diagnose(&s, 0, 0, 8, &d, t));
    CHECK_NEAR(d.length, 0.15 + 8 * 0.0009765625, TOL);
    sk_scenario_free(&s);
    return 0;
}

/* A chain hanging from an anchored spring (or bungee) released from a straight, stretched line, moving: no damping, no
 * contacts, so kinetic + gravity + elastic energy is conserved, up to symplectic Euler's swing of relative
 * size O(w dt) (w up to sqrt(4 k / m) = 80 rad/s here, dt = 1e-4: 1e-2 at most; measured well below). The
 * mass profile makes every particle's own mass count. Bungees go slack and taut as the chain swings: their
 * energy is continuous at the rest length, so the sum is still conserved. */
static int conserved(const char *link, const char *anchor)
{
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-4, \"steps\": 20000, \"integrator\": \"symplectic\","
                       " \"gravity\": [0.5, -9.81, 0.25], \"groups\": [{\"count\": 1, \"particles\": 5,"
                       " \"start\": [0.1, -0.2, 0.05], \"end\": [1.4, -0.9, 0.3], \"mass\": {\"from\": 0.2, \"to\": 0.05},"
                       " \"velocity\": [0.3, 0.4, -0.7],"
                       " \"link\": {\"type\": \"%s\", \"stiffness\": 80, \"length\": 0.3},"
                       " \"anchor\": {\"type\": \"%s\", \"point\": [0, 0, 0], \"stiffness\": 60, \"length\": 0.2}}]}",
                       link, anchor));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(r, &d, NULL);
    const double e0 = (double)d.kinetic + (double)d.gravity + (double)d.elastic;
    /* the scale of the energy exchanged: what the springs store at the start */
    const double scale = (double)d.elastic + (double)d.kinetic;
    CHECK(scale > 1);
    double worst = 0, lo = INFINITY, hi = -INFINITY;
    long slack = 0;
    for (long n = 0; n < s.steps; n++) {
        sk_ref_rope_step(r);
        sk_real tension[4];
        sk_ref_rope_diagnose(r, &d, tension);
        slack += tension[0] == 0 || tension[1] == 0 || tension[2] == 0 || tension[3] == 0;
        const double e = (double)d.kinetic + (double)d.gravity + (double)d.elastic;
        worst = fmax(worst, fabs(e - e0));
        lo = fmin(lo, (double)d.elastic);
        hi = fmax(hi, (double)d.elastic);
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    fprintf(stderr, "measured: %s chain on an %s, 2 s of symplectic Euler: |E - E0| up to %.3g J of %.3g J exchanged"
            " (elastic %.3g .. %.3g J, a link slack in %ld steps), %s\n", link, anchor, worst, scale, lo, hi, slack,
            SK_REAL_NAME);
    CHECK(strcmp(link, "bungee") != 0 || slack > 0);
    /* the energy really moves between its terms: a wrong sign or a lost term would show */
    CHECK(hi - lo > 0.2 * scale);
    CHECK(worst <= 1e-2 * scale);
    return 0;
}

static int conserved_springs(void) { return conserved("spring", "anchored_spring"); }
static int conserved_bungees(void) { return conserved("bungee", "anchored_bungee"); }

/* A 1 kg ball on a cable anchor of length 1 (restitution 0) under Cyclone's resolver, the reference engine's
 * counterpart of batch_contacts_physics.cable_*: started at the bottom at 6 m/s sideways (above sqrt(2 g L),
 * below sqrt(5 g L)) it rises past the horizontal, the cable goes slack, the ball falls inside the circle and
 * the cable snaps taut, taking the velocity along it away. E = kinetic + gravity never rises above its start
 * by more than what the integrator itself adds in free flight (cyclone: m g^2 dt^2 / 2 a step; symplectic
 * nothing), and the snaps cost energy. */
static int cable_snap(const char *integrator, bool gains)
{
    const double dt = 1e-3, g = 9.81;
    const long steps = 4000;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"%s\", \"gravity\": [0, -9.81, 0],"
                       " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, -1, 0], \"end\": [0, -1, 0],"
                       " \"mass\": 1, \"velocity\": [6, 0, 0],"
                       " \"anchor\": {\"type\": \"cable\", \"point\": [0, 0, 0], \"length\": 1, \"restitution\": 0}}]}",
                       dt, steps, integrator));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(r, &d, NULL);
    const double e0 = (double)d.kinetic + (double)d.gravity;
    double worst = -INFINITY, e = e0, far = 0;
    int slack = 0;
    for (long n = 0; n < steps; n++) {
        sk_ref_rope_step(r);
        sk_ref_rope_diagnose(r, &d, NULL);
        e = (double)d.kinetic + (double)d.gravity;
        worst = fmax(worst, e - e0);
        const sk_vec3 p = sk_ref_rope_position(r, 0);
        const double l = sqrt((double)p.x * p.x + (double)p.y * p.y + (double)p.z * p.z);
        slack += l < 0.9; /* well inside the circle: the cable is slack */
        far = fmax(far, l);
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    const double bound = (gains ? (double)steps * g * g * dt * dt / 2 : 0) + 1e3 * PHYS_U * 20;
    fprintf(stderr, "measured: cable ball (%s, Cyclone's resolver): %d slack steps, E from %.6g to %.6g J, largest rise"
            " %.3g J (bound %.3g), farthest %.9g m, %s\n", integrator, slack, e0, e, worst, bound, far, SK_REAL_NAME);
    CHECK(slack > 10);
    CHECK(worst <= bound);
    CHECK(e < e0 - 0.01 * fabs(e0));
    /* the cable never lets the ball out past its length by more than a step's travel */
    CHECK(far <= 1 + 6 * dt);
    return 0;
}

static int cable_cyclone(void) { return cable_snap("cyclone", true); }
static int cable_symplectic(void) { return cable_snap("symplectic", false); }

/* A rod standing on end: particle 1 pinned at the origin, a 0.5 kg particle 0 on top at height 1, g = 10. Each
 * step gravity moves particle 0 down, the rod, too short, pushes it back and takes the step's velocity
 * m g dt away: the tension (impulse / dt) is -m g = -5 N, negative because the rod pushes. With Cyclone's
 * resolver and with the direct solver. */
static int rod_column(const char *resolver)
{
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 100, \"integrator\": \"symplectic\", \"resolver\": \"%s\","
                       " \"gravity\": [0, -10, 0], \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 1, 0],"
                       " \"end\": [0, 0, 0], \"mass\": 0.5, \"pinned\": [1], \"link\": {\"type\": \"rod\"}}]}",
                       resolver));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_track t = {0};
    for (long n = 0; n < s.steps; n++) {
        sk_ref_rope_step(r);
        sk_rope_diagnostics d;
        sk_real tension[1];
        sk_ref_rope_diagnose(r, &d, tension);
        PHYS_NEAR(&t, tension[0], -5, PHYS_FLOAT ? 1e-3 : 1e-9);
        PHYS_NEAR(&t, sk_ref_rope_position(r, 0).y, 1, PHYS_FLOAT ? 1e-6 : 1e-12);
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    char label[96];
    snprintf(label, sizeof label, "rod column (%s): tension -m g, height 1", resolver);
    phys_report(label, &t);
    return 0;
}

static int rod_column_cyclone(void) { return rod_column("cyclone"); }
static int rod_column_direct(void) { return rod_column("direct"); }

CHECK_MAIN({"rod_column_cyclone", rod_column_cyclone}, {"rod_column_direct", rod_column_direct}, {"hand_values", hand_values}, {"anchor_off_axis", anchor_off_axis}, {"fake_spring", fake_spring},
           {"deploying", deploying}, {"conserved_springs", conserved_springs}, {"conserved_bungees", conserved_bungees},
           {"cable_cyclone", cable_cyclone}, {"cable_symplectic", cable_symplectic})
