/* Physics: the links' axial damping (docs/model.md section 3) on one link from a pinned particle at the origin
 * to a free one of mass m on the x axis, no gravity: x'' m = -k x - c x' with x the link's extension and c the
 * damping per rate of length. Checked against each scheme's exact recurrence and the damping ratio's meaning. */
#include "scenario/scenario.h"
#include "physics_util.h"

/* The rope: k = 100 N/m, L = 1 m, m = 1 kg, stretched by 0.2 m at rest; DAMPING the link's key and value. */
static sk_ref_rope *one_link(sk_scenario *s, const char *integrator, double dt, const char *damping)
{
    if (phys_load(s,
                  "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
                  " \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [1.2, 0, 0],"
                  " \"mass\": 1, \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 1, %s}}]}",
                  dt, integrator, damping))
        return NULL;
    return sk_ref_rope_create(s, 0, 0);
}

/* The tolerance of a comparison with a recurrence in double: the engine's rounding in sk_real. */
static double tolerance(void) { return sizeof(sk_real) == sizeof(double) ? 1e-12 : 2e-5; }

/* Symplectic Euler, link.damping 3 N s over L = 1 m (c = 3 N s/m): v += dt/m (-k x - c v); x += dt v, every
 * step against the recurrence (the engine's operations differ, so to rounding). */
static int symplectic_recurrence(void)
{
    sk_scenario s;
    const double dt = 1e-3, k = 100, c = 3, m = 1;
    sk_ref_rope *r = one_link(&s, "symplectic", dt, "\"damping\": 3");
    CHECK(r);
    double x = 0.2, v = 0, worst = 0;
    for (int n = 1; n <= 3000; n++) {
        sk_ref_rope_step(r);
        v = v + dt / m * (-k * x - c * v);
        x = x + dt * v;
        worst = fmax(worst, fabs((double)sk_ref_rope_position(r, 1).x - 1 - x));
    }
    printf("symplectic: largest |x - recurrence| %.3g m over 3 s (x now %.3g m)\n", worst, x);
    CHECK(worst < tolerance());
    CHECK(fabs(x) < 0.2 * exp(-1.5 * 3) * 1.2); /* it decays as e^(-c t / 2m) */
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Backward Euler (the implicit integrator, one iteration): the force is linear along the axis, so its step
 * is exactly (m + c dt + k dt^2) v1 = m v0 - dt k x0, x1 = x0 + dt v1 (docs/model.md section 2.1). */
static int implicit_closed_form(void)
{
    sk_scenario s;
    const double dt = 1e-2, k = 100, c = 3, m = 1;
    sk_ref_rope *r = one_link(&s, "implicit", dt, "\"damping\": 3");
    CHECK(r);
    double x = 0.2, v = 0, worst = 0;
    for (int n = 1; n <= 300; n++) {
        sk_ref_rope_step(r);
        v = (m * v - dt * k * x) / (m + c * dt + k * dt * dt);
        x = x + dt * v;
        worst = fmax(worst, fabs((double)sk_ref_rope_position(r, 1).x - 1 - x));
    }
    printf("implicit: largest |x - backward Euler| %.3g m over 3 s\n", worst);
    CHECK(worst < tolerance());
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* The smallest extension over 2 s from rest at 0.2 m with link.damping_ratio zeta, symplectic, dt = 1e-5. */
static int lowest(double zeta, double *out)
{
    sk_scenario s;
    char key[64];
    snprintf(key, sizeof key, "\"damping_ratio\": %.17g", zeta);
    sk_ref_rope *r = one_link(&s, "symplectic", 1e-5, key);
    CHECK(r);
    double low = 1;
    for (int n = 1; n <= 200000; n++) {
        sk_ref_rope_step(r);
        low = fmin(low, (double)sk_ref_rope_position(r, 1).x - 1);
    }
    *out = low;
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* link.damping_ratio is MoorDyn's: c = zeta sqrt(k m), which damps the highest axial mode of a long uniform
 * line at zeta. One free particle on a link to a pinned one has c / (2 sqrt(k m)) = zeta / 2 of its critical
 * damping: zeta = 2 returns without overshoot, zeta = 1.8 (0.9 of critical) overshoots by e^(-pi 0.9 /
 * sqrt(1 - 0.81)) = 1.5e-3 of the start. */
static int ratio_critical(void)
{
    double critical, under;
    CHECK_OK(lowest(2, &critical));
    CHECK_OK(lowest(1.8, &under));
    const double expected = -0.2 * exp(-PHYS_PI * 0.9 / sqrt(1 - 0.81));
    printf("ratio 2: lowest extension %.3g m; ratio 1.8: %.4g m (closed form %.4g m)\n", critical, under, expected);
    CHECK(critical > -1e-9);
    /* float: the 0.3 mm swing rides on coordinates of about 1 m, whose rounding over the run moves it by 9 % */
    CHECK(fabs(under - expected) < (PHYS_FLOAT ? 0.15 : 0.01) * fabs(expected));
    return 0;
}

CHECK_MAIN({"symplectic_recurrence", symplectic_recurrence}, {"implicit_closed_form", implicit_closed_form},
           {"ratio_critical", ratio_critical})
