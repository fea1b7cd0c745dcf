/* Physics: a bungee pulls only when stretched: slack, a particle flies the exact free-flight closed form;
 * the first step past the rest length adds exactly Hooke's pull; hanging, it stretches by m g / k. */
#include "scenario/scenario.h"
#include "physics_util.h"

/* Symplectic free flight under a constant field g from (p0, v0): p_n = p0 + n v0 dt + g dt^2 n(n+1)/2
 * (test_physics_free_fall.c derives it). With dt = 2^-8, g = (0.5, -8, -0.25), p0 and v0 dyadic, every
 * p_n is a multiple of 2^-18 below 8 and no operation rounds, in float as in double. */
static long double flight(long n, long double p0, long double v0, long double g, long double dt)
{
    long double nn = (long double)n;
    return p0 + nn * v0 * dt + g * dt * dt * nn * (nn + 1) / 2;
}

static const char flight_scenario[] =
    "{\"skein\": 1, \"dt\": 0.00390625, \"steps\": 400, \"integrator\": \"symplectic\", \"gravity\": [0.5, -8, -0.25],"
    " \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0.5, 0.25, -0.25], \"end\": [%s],"
    " \"mass\": 0.25, \"velocity\": [1.5, 2, -0.75], %s}]}";

/* One particle on an anchored bungee of rest length 2 at the origin, starting 0.61 from it and flying
 * outwards: exact free flight while |p_n| <= 2 (the force of step n + 1 reads p_n); at the first step
 * after |p_n| > 2 the bungee adds (k/m) (l - |p_n|) p_n^ dt^2 to the free-flight position. */
static int anchored_slack(void)
{
    sk_scenario s;
    CHECK_OK(phys_load(
        &s, flight_scenario, 1, "0.5, 0.25, -0.25",
        "\"anchor\": {\"type\": \"anchored_bungee\", \"point\": [0, 0, 0], \"stiffness\": 50, \"length\": 2}"));
    const sk_rope_params *in = &s.groups[0].base;
    long double dt = s.dt, l = in->anchor_length, k = in->anchor_stiffness, m = in->mass;
    long double p0[3] = {in->start.x, in->start.y, in->start.z},
                v0[3] = {in->velocity.x, in->velocity.y, in->velocity.z};
    long double g[3] = {s.gravity.x, s.gravity.y, s.gravity.z};

    /* the first n with |p_n| > l, from the closed form (squares of these dyadics are exact in long double) */
    long cross = 0;
    long double r2 = 0;
    for (long n = 0; cross == 0 && n < 400; n++) {
        r2 = 0;
        for (int c = 0; c < 3; c++)
            r2 += flight(n, p0[c], v0[c], g[c], dt) * flight(n, p0[c], v0[c], g[c], dt);
        if (r2 > l * l)
            cross = n;
    }
    CHECK(cross > 0);
    /* |p| is computed with a rounded sqrt: the crossing must be clear of a few u. */
    CHECK(sqrtl(r2) - l > 8 * PHYS_U * l);

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_track t = {0};
    for (long n = 1; n <= cross; n++) {
        sk_ref_rope_step(r);
        sk_vec3 p = sk_ref_rope_position(r, 0);
        sk_real pc[3] = {p.x, p.y, p.z};
        for (int c = 0; c < 3; c++)
            PHYS_NEAR(&t, pc[c], flight(n, p0[c], v0[c], g[c], dt), 0);
    }
    phys_report("slack anchored bungee, free flight to the bit", &t);

    /* step cross + 1: the pull of Hooke's law on top of the free flight. Its rounding: |d| and d^ a few u,
     * (l - |d|) k w dt dt a few u of the pull, then the sums u of |v| dt and |p|: 8 u of it all. */
    long double len = sqrtl(r2), pull = k / m * (l - len) * dt * dt;
    sk_ref_rope_step(r);
    sk_vec3 p = sk_ref_rope_position(r, 0);
    sk_real pc[3] = {p.x, p.y, p.z};
    phys_track hooke = {0};
    for (int c = 0; c < 3; c++) {
        long double pn = flight(cross, p0[c], v0[c], g[c], dt);
        long double expected = flight(cross + 1, p0[c], v0[c], g[c], dt) + pull * pn / len;
        PHYS_NEAR(&hooke, pc[c], expected, 8 * PHYS_U * (double)(fabsl(expected) + fabsl(pull) + 4 * dt));
    }
    CHECK(fabsl(pull) > 10 * hooke.worst_tol); /* the pull is seen, even in float */
    phys_report("anchored bungee, first stretched step vs free flight + (k/m)(l - |d|) d^ dt^2", &hooke);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Two particles 0.5 apart on a bungee link of rest length 1, thrown together: a spring would push them
 * apart (compressed), a bungee must do nothing, so both fly the exact closed form for all 400 steps. */
static int link_slack(void)
{
    sk_scenario s;
    CHECK_OK(phys_load(&s, flight_scenario, 2, "1, 0.25, -0.25",
                       "\"link\": {\"type\": \"bungee\", \"stiffness\": 50, \"length\": 1}"));
    const sk_rope_params *in = &s.groups[0].base;
    long double dt = s.dt;
    long double v0[3] = {in->velocity.x, in->velocity.y, in->velocity.z},
                g[3] = {s.gravity.x, s.gravity.y, s.gravity.z};
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_track t = {0};
    for (long n = 1; n <= s.steps; n++) {
        sk_ref_rope_step(r);
        for (int i = 0; i < 2; i++) {
            sk_vec3 p = sk_ref_rope_position(r, i), start = i ? in->end : in->start;
            sk_real pc[3] = {p.x, p.y, p.z};
            long double p0[3] = {start.x, start.y, start.z};
            for (int c = 0; c < 3; c++)
                PHYS_NEAR(&t, pc[c], flight(n, p0[c], v0[c], g[c], dt), 0);
        }
    }
    phys_report("slack bungee link, both ends in free flight to the bit", &t);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* A particle hanging from an anchored bungee (k = 40, l = 0.5, mass 0.2) with damping settles where the
 * pull balances the weight, |d| = l + m g / k below the anchor. Released at rest at the rest length
 * (slack, then stretched): the motion is the damped oscillator about the balance as long as the bungee
 * stays stretched, which it does (the first swing returns to |d| = l at rest, then less).
 * Tolerance as in test_physics_chain.c for one particle: the start's offset m g / k times the bound on
 * |M^n| (phys_settle_factor), plus the stopping rounding u |p| (1 - D) / dt^2 / w^2 (|p| <= 2) and the
 * force rounding 8 u (k |d| / m + g) / w^2, doubled. */
static int hanging(void)
{
    const long steps = 12000;
    sk_scenario s;
    CHECK_OK(phys_load(
        &s,
        "{\"skein\": 1, \"dt\": 1e-3, \"steps\": %ld, \"integrator\": \"symplectic\", \"gravity\": [0, -9.81, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0.1, 1.5, 0.2], \"end\": [0.1, 1.5, 0.2],"
        " \"mass\": 0.2, \"damping\": 1e-4, \"anchor\": {\"type\": \"anchored_bungee\", \"point\": [0.1, 2, 0.2],"
        " \"stiffness\": 40, \"length\": 0.5}}]}",
        steps));
    const sk_rope_params *in = &s.groups[0].base;
    double m = in->mass, k = in->anchor_stiffness, l = in->anchor_length, g = -(double)s.gravity.y, dt = s.dt;
    double expected = (double)in->anchor_point.y - (l + m * g / k);
    double w = sqrt(k / m), damp = SK_POW(in->damping, s.dt);
    double rho = phys_step_modulus(SK_INTEGRATOR_SYMPLECTIC, w, dt, damp, 1);
    double settle = (m * g / k) * phys_settle_factor(rho, steps, w, dt);
    double round = PHYS_U * 2 * (1 - damp) / (dt * dt) / (w * w) + 8 * PHYS_U * (k / m * (l + m * g / k) + g) / (w * w);
    double tol = 2 * (settle + round);
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    for (long n = 0; n < steps; n++) {
        sk_ref_rope_step(r);
        sk_vec3 p = sk_ref_rope_position(r, 0);
        CHECK(p.x == in->start.x && p.z == in->start.z);
    }
    phys_track t = {0};
    PHYS_NEAR(&t, sk_ref_rope_position(r, 0).y, expected, tol);
    phys_report("hanging anchored bungee, settled at l + m g / k", &t);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"anchored_slack", anchored_slack}, {"link_slack", link_slack}, {"hanging", hanging})
