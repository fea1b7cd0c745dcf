/* Physics: a particle on a rod constraint under gravity (the cyclone integrator with contact resolution)
 * swings with the exact large-amplitude pendulum period 4 sqrt(L/g) K(sin(theta0 / 2)). */
#include "scenario/scenario.h"
#include "physics_util.h"

static const char *const integrator_names[] = {"cyclone", "euler", "symplectic", "verlet"};

/* Swings a particle on a rod of length L = 1.5 (g = 9.81), released at rest at theta0 from the vertical,
 * with dt; sets *period to its first full period (two upward zero crossings of x) and *length to L. */
static int swing(sk_integrator integrator, double theta0, double dt, double *period, double *length)
{
    const double l = 1.5;
    sk_scenario s;
    CHECK_OK(phys_load(
        &s,
        "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, -9.81, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [%.17g, %.17g, 0], \"end\": [%.17g, %.17g, 0],"
        " \"mass\": 0.7, \"anchor\": {\"type\": \"rod\", \"point\": [0, 0, 0], \"length\": %.17g}}]}",
        dt, integrator_names[integrator], l * sin(theta0), -l * cos(theta0), l * sin(theta0), -l * cos(theta0), l));
    *length = s.groups[0].base.anchor_length;
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_crossings c = {0};
    phys_track rod = {0};
    for (long n = 1; c.count < 2; n++) {
        CHECK(n < 100000);
        sk_ref_rope_step(r);
        sk_vec3 p = sk_ref_rope_position(r, 0);
        /* The rod contact moves the particle back onto the circle along its radius by |len - L|: what
         * is left is the rounding of that move and of the length, a few u L (bound 8 u L). */
        double len = sqrt((double)p.x * p.x + (double)p.y * p.y + (double)p.z * p.z);
        PHYS_NEAR(&rod, len, *length, 8 * PHYS_U * *length);
        CHECK(p.z == 0);
        phys_crossings_add(&c, (double)n * (double)s.dt, (double)p.x);
    }
    char label[96];
    snprintf(label, sizeof label, "rod pendulum %s dt %g, |p - x| - L after every step", integrator_names[integrator],
             dt);
    phys_report(label, &rod);
    *period = phys_crossings_period(&c);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* The exact period is T = 4 sqrt(L/g) K(sin(theta0 / 2)). Every integrator here is first order with the
 * rod's projection (each step removes the radial velocity the straight step created, so the amplitude
 * decays by O(dt) per swing), so T(dt) = T + c dt + O(dt^2): the checks are
 * - T(dt) within 0.5% of T (the budget for dt = 1e-3; measured: see the lines printed);
 * - first order: (T(dt) - T) / (T(dt/2) - T) within 2 +- 0.2 (measured 1.96-1.99);
 * - Richardson's 2 T(dt/2) - T(dt), which cancels the c dt term, within 1e-4 of T (measured 3.3e-5
 *   for cyclone at theta0 = 1.5, 9.3e-6 for symplectic and verlet at 0.8). In float each period also
 *   carries the position rounding of its N steps, at most 8 u of phase per step over theta0 radians of
 *   swing: 3 N 8 u / (2 pi theta0) relative after the combination, which is added. */
static int run_pendulum(sk_integrator integrator, double theta0)
{
    const double dt = 1e-3, g = 9.81;
    double t1, t2, l;
    CHECK_OK(swing(integrator, theta0, dt, &t1, &l));
    CHECK_OK(swing(integrator, theta0, dt / 2, &t2, &l));
    double period = 4 * sqrt(l / g) * phys_elliptic_k(sin(theta0 / 2));
    double small = 2 * PHYS_PI * sqrt(l / g);
    char label[128];
    snprintf(label, sizeof label, "rod pendulum %s theta0 %g dt %g period vs 4 sqrt(L/g) K",
             integrator_names[integrator], theta0, dt);
    int rc = phys_compare(label, t1, period, 5e-3);
    snprintf(label, sizeof label, "rod pendulum %s theta0 %g dt %g period vs 4 sqrt(L/g) K",
             integrator_names[integrator], theta0, dt / 2);
    rc |= phys_compare(label, t2, period, 5e-3);
    double ratio = (t1 - period) / (t2 - period);
    fprintf(stderr, "measured: error ratio T(dt) / T(dt/2) = %.4f (first order: 2 +- 0.2)\n", ratio);
    rc |= !(fabs(ratio - 2) <= 0.2);
    double steps = 2 * (1.75 * period / dt); /* the dt/2 run: release to the second upward crossing */
    double tol_richardson = 1e-4 + 3 * steps * 8 * PHYS_U / (2 * PHYS_PI * theta0);
    snprintf(label, sizeof label, "rod pendulum %s theta0 %g Richardson 2 T(dt/2) - T(dt) vs T",
             integrator_names[integrator], theta0);
    rc |= phys_compare(label, 2 * t2 - t1, period, tol_richardson);
    /* The amplitude's effect is seen: the small-angle period 2 pi sqrt(L/g) lies outside the budget. */
    fprintf(stderr, "       small-angle period off by %.3g\n", fabs(small - period) / period);
    CHECK(fabs(small - period) / period > 2 * 5e-3);
    CHECK(rc == 0);
    return 0;
}

/* theta0 = 0.8 rad: K lengthens the period by 4.0% over 2 pi sqrt(L/g); 1.5 rad (86 degrees): 14%. */
static int cyclone_0_8(void) { return run_pendulum(SK_INTEGRATOR_CYCLONE, 0.8); }
static int cyclone_1_5(void) { return run_pendulum(SK_INTEGRATOR_CYCLONE, 1.5); }
static int symplectic_0_8(void) { return run_pendulum(SK_INTEGRATOR_SYMPLECTIC, 0.8); }
/* Verlet keeps its velocity as p - q: each step's position rounding u |p| is a velocity error u |p| / dt,
 * which in float at dt = 5e-4 is 6e-5 of the swing's phase per step, up to 0.5 rad over the 9000 steps
 * of a period: the period cannot be resolved to the 0.5% budget, nor the amplitude's effect (4%) told
 * apart, so the float build skips this case (the other integrators keep their velocity and run). */
static int verlet_0_8(void)
{
    if (PHYS_FLOAT)
        CHECK_SKIP("verlet_0_8 cannot resolve the period in float");
    return run_pendulum(SK_INTEGRATOR_VERLET, 0.8);
}

CHECK_MAIN({"cyclone_0_8", cyclone_0_8}, {"cyclone_1_5", cyclone_1_5}, {"symplectic_0_8", symplectic_0_8},
           {"verlet_0_8", verlet_0_8})
