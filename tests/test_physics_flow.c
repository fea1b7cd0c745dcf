/* Physics of drag in a flow (docs/model.md section 3.1): a particle relaxes to the fluid's velocity with
 * the closed form of the scheme and the exponential of the ODE; in a sheared flow it relaxes to the
 * fluid's velocity at its own height; a hanging rope in a uniform current settles straight, at the angle
 * where drag balances weight. */
#include "scenario/scenario.h"
#include "model/vec3.h"
#include "physics_util.h"

/* Linear drag only, no gravity, symplectic, from rest at height y0 in u(y) = U + G y (G along x, so y stays
 * y0): the relative velocity r = v - u(y0) obeys r' = (1 - b) r, b = k1 dt / m, each step; the ODE's
 * r(t) = r0 exp(-k1 t / m). The engine is checked against the first to round-off and the second to the
 * scheme's first-order error. */
static int relax(double gx, const char *label)
{
    const double k1 = 0.4, m = 0.5, y0 = 3, dt = 1e-2;
    const long steps = 400;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": %g, \"steps\": %ld, \"integrator\": \"symplectic\", \"gravity\": [0, 0, 0],"
                       " \"flow\": {\"velocity\": [2, 0, -1], \"gradient\": [%g, 0, 0]},"
                       " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, %g, 0], \"end\": [0, %g, 0],"
                       " \"mass\": %g, \"drag\": {\"k1\": %g}}]}",
                       dt, steps, gx, y0, y0, m, k1));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    const double w = (double)sk_ref_rope_constants(r)->w, b = k1 * dt * w;
    const double u[3] = {2 + gx * y0, 0, -1};
    phys_track scheme = {0}, ode = {0};
    double rel[3] = {-u[0], -u[1], -u[2]};
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        sk_vec3 v = sk_ref_rope_velocity(r, 0);
        const double got[3] = {(double)v.x, (double)v.y, (double)v.z};
        const double decay = exp(-k1 * w * (double)n * dt);
        for (int c = 0; c < 3; c++) {
            rel[c] = (1 - b) * rel[c];
            /* a few roundings a step, forgotten at the rate b */
            PHYS_NEAR(&scheme, got[c], u[c] + rel[c], 8 * PHYS_U * (fabs(u[c]) + 1) / b);
            /* one step's first-order error, b^2 / 2 of r, summed with the decay: n b^2 / 2 |r0| (1 - b)^(n-1) */
            PHYS_NEAR(&ode, got[c], u[c] - u[c] * decay, (double)n * b * b * fabs(u[c]) + 8 * PHYS_U / b);
        }
        CHECK(sk_ref_rope_position(r, 0).y == (sk_real)y0);
    }
    phys_report(label, &scheme);
    phys_report("  against the ODE's exponential", &ode);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int uniform_relaxation(void) { return relax(0, "drag in a uniform flow: relaxes to u, closed form of the scheme"); }

/* The same in a shear: the particle at y0 = 3 relaxes to u(3) = 2 + 0.5 * 3. */
static int sheared_relaxation(void) { return relax(0.5, "drag in a sheared flow: relaxes to u(y0)"); }

/* A rope of 12 particles hangs from its pinned top in a uniform current U along x, with linear and
 * quadratic drag and gravity, damped until it rests: each unpinned particle carries the same drag
 * D = k1 U + k2 U^2 along x and weight m g down, so every link carries the sum of the loads below it and
 * points along (D, -m g): the rope is straight at tan(theta) = D / (m g) from the vertical. */
static int current_angle(void)
{
    const double k1 = 0.05, k2 = 0.1, U = 1.5, m = 0.02, g = 9.81;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -%g, 0],"
                       " \"flow\": {\"velocity\": [%g, 0, 0]},"
                       " \"groups\": [{\"count\": 1, \"particles\": 12, \"start\": [0, 0, 0], \"end\": [0, -1.1, 0],"
                       " \"mass\": %g, \"damping\": 0.01, \"pinned\": [0], \"drag\": {\"k1\": %g, \"k2\": %g},"
                       " \"link\": {\"type\": \"spring\", \"stiffness\": 2000, \"length\": 0.1}}]}",
                       g, U, m, k1, k2));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_advance(r, 40000); /* 40 s, damped to rest */
    const double mass = (double)sk_ref_rope_constants(r)->mass_back;
    const double expected = atan((k1 * U + k2 * U * U) / (mass * g));
    phys_track t = {0};
    for (int i = 0; i + 1 < 12; i++) {
        sk_vec3 d = sk_vec3_sub(sk_ref_rope_position(r, i + 1), sk_ref_rope_position(r, i));
        CHECK(fabs((double)d.z) < 1e-12);
        /* settled to round-off: a link of 0.1 m holds its direction to about u / 0.1 of its coordinates */
        PHYS_NEAR(&t, atan2((double)d.x, -(double)d.y), expected, PHYS_FLOAT ? 2e-5 : 1e-9);
    }
    fprintf(stderr, "measured: rope in a current: theta = %.6f rad expected (tan = D / (m g) = %.4f)\n", expected,
            tan(expected));
    phys_report("hanging rope in a uniform current, every link at the balance angle", &t);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"uniform_relaxation", uniform_relaxation}, {"sheared_relaxation", sheared_relaxation},
           {"current_angle", current_angle})
