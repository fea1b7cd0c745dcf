/* Physics: the period of a mass on a spring (anchored, and two bodies on one spring) measured from zero
 * crossings, against each scheme's exact discrete period and the continuous 2 pi sqrt(m/k). */
#include "scenario/scenario.h"
#include "physics_util.h"

/* A linear oscillator x'' = -w^2 x stepped with dt turns its state by a fixed angle theta per step,
 * so its samples are x_n = R rho^n cos(n theta + phi) and its period is exactly 2 pi dt / theta:
 *   symplectic: v += -w^2 x dt; x += v dt: trace 2 - w^2 dt^2, det 1: cos theta = 1 - w^2 dt^2 / 2,
 *               theta = 2 asin(w dt / 2);
 *   verlet:     x_(n+1) = 2 x_n - x_(n-1) - w^2 dt^2 x_n, the same characteristic polynomial;
 *   cyclone / explicit euler: eigenvalues 1 +- i w dt: theta = atan(w dt), rho = sqrt(1 + w^2 dt^2). */
static double discrete_angle(sk_integrator integrator, double wdt)
{
    if (integrator == SK_INTEGRATOR_CYCLONE || integrator == SK_INTEGRATOR_EULER)
        return atan(wdt);
    return 2 * asin(wdt / 2);
}

static const char *const integrator_names[] = {"cyclone", "euler", "symplectic", "verlet"};

typedef struct oscillator {
    sk_integrator integrator;
    bool two_body; /* two free particles on one spring instead of one on an anchored spring */
    double dt;
    int periods;
} oscillator;

static int run_oscillator(oscillator o)
{
    /* w = 20 rad/s: mass 0.5 on an anchored spring k = 200, or two masses 0.5 on a spring k = 100
     * (reduced mass 0.25). Rest length l = 1, amplitude A = 0.3 along x, no gravity: the motion stays on
     * the x axis, with d = p - x > 0 so the spring is exactly linear in the displacement. */
    const double l = 1, amplitude = 0.3;
    sk_scenario s;
    if (o.two_body)
        CHECK_OK(
            phys_load(&s,
                      "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
                      " \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [%.17g, 0, 0],"
                      " \"mass\": 0.5, \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": %.17g}}]}",
                      o.dt, integrator_names[o.integrator], l + amplitude, l));
    else
        CHECK_OK(
            phys_load(&s,
                      "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
                      " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [%.17g, 0, 0], \"end\": [%.17g, 0, 0],"
                      " \"mass\": 0.5, \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0],"
                      " \"stiffness\": 200, \"length\": %.17g}}]}",
                      o.dt, integrator_names[o.integrator], l + amplitude, l + amplitude, l));
    const sk_rope_params *in = &s.groups[0].base;
    double dt = s.dt, m = in->mass;
    double k = o.two_body ? in->link_stiffness : in->anchor_stiffness;
    double w = o.two_body ? sqrt(2 * k / m) : sqrt(k / m);
    double t_continuous = 2 * PHYS_PI / w;
    double theta = discrete_angle(o.integrator, w * dt);
    double t_discrete = 2 * PHYS_PI * dt / theta;
    double growth = (o.integrator == SK_INTEGRATOR_CYCLONE || o.integrator == SK_INTEGRATOR_EULER)
                        ? 0.5 * log1p(w * dt * w * dt)
                        : 0;

    long steps = (long)ceil((o.periods + 1.5) * t_discrete / dt);
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_crossings c = {0};
    double max_extent = l + amplitude, com_drift = 0;
    double com0 = o.two_body ? (double)sk_ref_rope_position(r, 0).x + sk_ref_rope_position(r, 1).x : 0;
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        sk_vec3 p0 = sk_ref_rope_position(r, 0);
        double x;
        if (o.two_body) {
            sk_vec3 p1 = sk_ref_rope_position(r, 1);
            x = (double)p1.x - p0.x - l;
            com_drift = fmax(com_drift, fabs((double)p0.x + p1.x - com0));
            max_extent = fmax(max_extent, fmax(fabs((double)p0.x), fabs((double)p1.x)));
            CHECK(p1.y == 0 && p1.z == 0);
        } else {
            x = (double)p0.x - l;
            max_extent = fmax(max_extent, fabs((double)p0.x));
        }
        CHECK(p0.y == 0 && p0.z == 0); /* nothing pushes off the axis */
        phys_crossings_add(&c, (double)n * dt, x);
    }
    CHECK(c.count >= o.periods);
    double measured = phys_crossings_period(&c);

    /* Tolerance on the period, relative:
     * - interpolation: the secant of R sin(theta s) between samples misses its zero by at most
     *   theta^2 / 24 steps, and a growing amplitude e^(beta s) (beta = ln rho) by at most beta / 4 more;
     *   the period takes two such errors over (count - 1) periods (bound doubled: theta^2 / 6 + beta / 2);
     * - rounding: each step rounds the position by u |p| and the velocity by a few u; relative to the
     *   amplitude that is at most 8 u (l + A) / A of phase per step (max_extent bounds |p|), so over N
     *   steps the last crossing is off by at most 8 N u max_extent / A / theta steps;
     * - the coefficients: w^2 dt^2 as the engine forms it (k, 1/m, the unit vector, dt) is off by a few u,
     *   theta by half that: 8 u. */
    double spans = (double)(c.count - 1);
    double amplitude_min = amplitude; /* the euler family only grows */
    double phase_per_step = 8 * PHYS_U * max_extent / amplitude_min;
    if (o.integrator == SK_INTEGRATOR_VERLET)
        phase_per_step /= theta;
    double tol = 2 * (theta * theta / 6 + growth / 2) / (spans * t_discrete / dt) +
                 (double)steps * phase_per_step / theta / (spans * t_discrete / dt) + 8 * PHYS_U;
    char label[128];
    snprintf(label, sizeof label, "%s %s period vs discrete 2 pi dt / theta", integrator_names[o.integrator],
             o.two_body ? "two-body spring" : "anchored spring");
    int rc = phys_compare(label, measured, t_discrete, tol);
    /* Against the continuous period the difference is the scheme's own: (T_discrete - T) / T, within tol. */
    snprintf(label, sizeof label, "%s %s period vs continuous 2 pi sqrt(m/k)", integrator_names[o.integrator],
             o.two_body ? "two-body spring" : "anchored spring");
    double scheme = fabs(t_discrete - t_continuous) / t_continuous;
    rc |= phys_compare(label, measured, t_continuous, scheme + tol);
    fprintf(stderr, "       scheme's own period shift (T_discrete - T) / T = %.3g\n",
            (t_discrete - t_continuous) / t_continuous);
    if (o.two_body) {
        /* The link's forces on the two ends are exact negatives, so the velocities stay opposite and
         * p_0 + p_1 moves only by the rounding of the two position sums: u (|p_0| + |p_1|) per step.
         * Verlet carries each such rounding into every later step (x_(n+1) = 2 x_n - x_(n-1) + ...), so
         * there the N steps' roundings add up to N^2 / 2 times one. Doubled for margin. */
        double per_step = PHYS_U * 2 * max_extent;
        double tol_com = 2 * (double)steps * per_step;
        if (o.integrator == SK_INTEGRATOR_VERLET)
            tol_com = 2 * (double)steps * (double)steps / 2 * per_step;
        /* In float that verlet bound exceeds the rope itself (N^2 u = 2.6): nothing to check there. */
        if (PHYS_FLOAT && o.integrator == SK_INTEGRATOR_VERLET) {
            fprintf(stderr, "two-body centre of mass: skipped in float (bound %.3g)\n", tol_com / 2);
        } else {
            fprintf(stderr, "measured: two-body centre of mass drift %.3g (tolerance %.3g)\n", com_drift / 2,
                    tol_com / 2);
            CHECK(com_drift <= tol_com);
        }
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    CHECK(rc == 0);
    return 0;
}

/* w dt = 0.02: the symplectic period is shorter than 2 pi sqrt(m/k) by (w dt)^2 / 24 = 1.7e-5. */
static int symplectic(void) { return run_oscillator((oscillator){SK_INTEGRATOR_SYMPLECTIC, false, 1e-3, 20}); }
static int verlet(void) { return run_oscillator((oscillator){SK_INTEGRATOR_VERLET, false, 1e-3, 20}); }
/* w dt = 0.01: the period is longer by (w dt)^2 / 3 = 3.3e-5, and the amplitude grows by
 * e^(N beta) = 1.9 over 20 periods, still below l. */
static int cyclone(void) { return run_oscillator((oscillator){SK_INTEGRATOR_CYCLONE, false, 5e-4, 20}); }
static int euler(void) { return run_oscillator((oscillator){SK_INTEGRATOR_EULER, false, 5e-4, 20}); }
static int two_body_symplectic(void) { return run_oscillator((oscillator){SK_INTEGRATOR_SYMPLECTIC, true, 1e-3, 20}); }
static int two_body_verlet(void) { return run_oscillator((oscillator){SK_INTEGRATOR_VERLET, true, 1e-3, 20}); }

CHECK_MAIN({"symplectic", symplectic}, {"verlet", verlet}, {"cyclone", cyclone}, {"euler", euler},
           {"two_body_symplectic", two_body_symplectic}, {"two_body_verlet", two_body_verlet})
