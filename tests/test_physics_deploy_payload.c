/* Physics: a deploying tether with a mass profile and a tip payload (docs/model.md section 7). Paid out from
 * its reel and damped to rest, it hangs from the anchor with every link carrying the weight below it (the tip,
 * particle 0, is the lowest) and the anchor holding the total weight, payload included; over a deploy,
 * reel-in and deploy-again cycle every particle present has its index's mass, so the rope and the reel
 * together keep the capacity's mass, and each absorption hands the reel the particle's own momentum. */
#include <string.h>

#include "scenario/scenario.h"
#include "physics_util.h"
#include "reference/rope_impl.h"

#define CAP 11
#define DT 0.0009765625 /* 2^-10 s */

/* CAP particles of 0.2 kg at the tip to 0.1 kg at the anchor's end (a linear profile over the capacity), a
 * tip payload of 2 kg and 0.3 kg at index 3 (inserted by deployment); 2 particles to start, hanging below the
 * anchor at the origin; deploy.velocity and steps filled in. */
static int load(sk_scenario *s, const char *integrator, const char *velocity, long steps)
{
    return phys_load(
        s,
        "{\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"%s\", \"gravity\": [0, -9.81, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0, -0.35, 0], \"end\": [0, -0.1, 0],"
        " \"mass\": {\"from\": 0.2, \"to\": 0.1}, \"payloads\": [{\"index\": 0, \"mass\": 2}, {\"index\": 3, \"mass\": 0.3}],"
        " \"damping\": 1e-4, \"verlet_damping\": 0.01,"
        " \"link\": {\"type\": \"spring\", \"stiffness\": 2000, \"length\": 0.25},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 2000, \"length\": 0.1},"
        " \"deploy\": {\"velocity\": %s, \"initial_particles\": 2}}]}",
        DT, steps, integrator, CAP, velocity);
}

/* Particle i's mass from the scenario's numbers, in long double: the profile's value plus its payloads. */
static long double mass_of(const sk_group *g, int i)
{
    const sk_rope_params *p = &g->base;
    long double m = (long double)p->mass + ((long double)p->mass_to - p->mass) * i / (CAP - 1);
    for (int k = 0; k < g->n_payloads; k++)
        if (g->payload_index[k] == i)
            m += p->payload_mass[k];
    return m;
}

/* Paid out at 0.5 m/s to the capacity (2.5 m of links in 5 s), then 10 s at rest. Link i (between particles
 * i and i + 1) carries g times the masses of particles 0 .. i; the anchor holds g times all of them. In float
 * the positions (up to about 2.7 m) round to 2.4e-7 m: the balance is held to 32 such units times the
 * stiffness, beside rel of the weight. Verlet in float also stops wherever a particle's (A dt) dt, a force over
 * its mass times dt^2, rounds away against its position (under 4 m: 8 rounding units): each particle may keep
 * a force up to m 8 u / dt^2 (0.5 m/s^2 times m) unbalanced, which the tolerance adds for the masses each
 * force carries (measured 0.17 N against 1.8 N). */
static int hanging(const char *integrator, double rel)
{
    sk_scenario s;
    CHECK_OK(load(&s, integrator, "0.5", 15360));
    const sk_group *g = &s.groups[0];
    CHECK(g->has_profiles);
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    for (long k = 0; k < s.steps; k++)
        sk_ref_rope_step(r);
    CHECK(sk_ref_rope_count(r) == CAP);
    sk_real tension[CAP - 1];
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(r, &d, tension);
    const double gravity = 9.81, position_ulps = PHYS_FLOAT ? 32 * 4 * PHYS_U : 0;
    const double deadband = PHYS_FLOAT && strcmp(integrator, "verlet") == 0 ? 8 * PHYS_U / (DT * DT) : 0;
    phys_track t = {0}, a = {0};
    long double below = 0;
    for (int i = 0; i + 1 < CAP; i++) {
        below += mass_of(g, i) * gravity;
        PHYS_NEAR(&t, tension[i], below, (rel + deadband / gravity) * (double)below + 2000 * position_ulps);
    }
    below += mass_of(g, CAP - 1) * gravity;
    const double tol = (rel + deadband / gravity) * (double)below + 2000 * position_ulps;
    PHYS_NEAR(&a, d.anchor_force.y, below, tol);
    PHYS_NEAR(&a, d.anchor_force.x, 0, tol);
    char what[160];
    snprintf(what, sizeof what, "deployed tether at rest (%s): link i's tension = weight of particles 0 .. i",
             integrator);
    phys_report(what, &t);
    snprintf(what, sizeof what, "deployed tether at rest (%s): anchor force = total weight incl. payloads (%.4g N)",
             integrator, (double)below);
    phys_report(what, &a);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int hanging_symplectic(void) { return hanging("symplectic", 1e-9); }
static int hanging_verlet(void) { return hanging("verlet", 1e-9); }
static int hanging_implicit(void) { return hanging("implicit", 1e-9); }

/* Out at 1 m/s for 1.5 s (s0 + 1.5 = 1.6 m: 6 insertions, the payload at index 3 among them), in at 1 m/s
 * for 1.5 s (6 absorptions, back to 2), out again for 1 s (4 insertions, index 3 again): at every step each particle present has its index's mass (1 / w against the closed
 * form, to 4 rounding units), so the rope's mass is the first n masses and the reel holds the rest of the
 * capacity's. Every absorption takes particle n - 1's own momentum m_(n-1) v out of the rope: the others
 * keep their bits, so the rope's momentum drops by exactly that. */
static int mass_cycle(void)
{
    sk_scenario s;
    CHECK_OK(load(&s, "symplectic", "{\"times\": [0, 1.5, 1.5009765625, 3, 3.0009765625], \"values\": [1, 1, -1, -1, 1]}",
                  4096));
    const sk_group *g = &s.groups[0];
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    long double capacity_mass = 0;
    for (int i = 0; i < CAP; i++)
        capacity_mass += mass_of(g, i);
    phys_track m = {0}, total = {0}, mom = {0};
    int hi = 0, absorbed = 0, inserted_again = 0, prev = sk_ref_rope_count(r);
    for (long k = 0; k < s.steps; k++) {
        const int n = sk_ref_rope_count(r);
        long double p_before[3] = {0, 0, 0}, taken[3] = {0, 0, 0};
        for (int i = 0; i < n; i++) {
            const sk_particle *q = sk_ref_rope_particle(r, i);
            const long double mi = 1.0L / q->w;
            p_before[0] += mi * q->v.x, p_before[1] += mi * q->v.y, p_before[2] += mi * q->v.z;
            if (i == n - 1)
                taken[0] = mi * q->v.x, taken[1] = mi * q->v.y, taken[2] = mi * q->v.z;
        }
        /* a step whose deployment absorbs (ds = -dt exactly while reeling in): that deployment on its own, then
         * on from a fresh rope stepped as far (as physics_deploy_profile.absorb_momentum does) */
        const bool reeling = k >= 1537 && k < 3072;
        if (!(reeling && r->deploy_rest + (sk_real)(-DT) < 0 && n > 2)) {
            sk_ref_rope_step(r);
            goto check_masses;
        }
        sk_ref_rope_deploy(r);
        const int after = sk_ref_rope_count(r);
        if (after < n) {
            long double p_after[3] = {0, 0, 0};
            for (int i = 0; i < after; i++) {
                const sk_particle *q = sk_ref_rope_particle(r, i);
                const long double mi = 1.0L / q->w;
                p_after[0] += mi * q->v.x, p_after[1] += mi * q->v.y, p_after[2] += mi * q->v.z;
            }
            for (int c = 0; c < 3; c++)
                PHYS_NEAR(&mom, p_before[c] - p_after[c], taken[c], 1e-12 * fabs((double)taken[c]) + 1e-15);
            absorbed++;
        }
        sk_ref_rope_destroy(r);
        r = sk_ref_rope_create(&s, 0, 0);
        CHECK(r);
        sk_ref_rope_advance(r, k + 1);
    check_masses:;
        const int now = sk_ref_rope_count(r);
        inserted_again += absorbed > 0 && now > prev;
        prev = now;
        hi = now > hi ? now : hi;
        long double rope_mass = 0;
        for (int i = 0; i < now; i++) {
            const long double mi = 1.0L / sk_ref_rope_particle(r, i)->w;
            PHYS_NEAR(&m, mi, mass_of(g, i), 4 * PHYS_U * (double)mass_of(g, i));
            rope_mass += mi;
        }
        long double reel_mass = 0;
        for (int i = now; i < CAP; i++)
            reel_mass += mass_of(g, i);
        PHYS_NEAR(&total, rope_mass + reel_mass, capacity_mass, 16 * PHYS_U * (double)capacity_mass);
    }
    CHECK(hi == 8 && absorbed == 6 && inserted_again == 4);
    phys_report("deploy/reel-in cycle: each particle's mass 1/w = its index's (profile + payload)", &m);
    phys_report("deploy/reel-in cycle: rope mass + reel's share = the capacity's mass", &total);
    phys_report("reel-in: the rope's momentum drops by the absorbed particle's own m v", &mom);
    fprintf(stderr, "measured: up to n = %d, %d absorptions, %d insertions after reeling in, %s\n", hi, absorbed,
            inserted_again, SK_REAL_NAME);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"hanging_symplectic", hanging_symplectic}, {"hanging_verlet", hanging_verlet},
           {"hanging_implicit", hanging_implicit}, {"mass_cycle", mass_cycle})
