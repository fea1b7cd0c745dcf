/* Physics: the energy of an undamped spring oscillator under explicit Euler grows by exactly
 * (1 + w^2 dt^2) per step, and symplectic Euler conserves its modified energy v^2 + w^2 x^2 - w^2 dt x v. */
#include "scenario/scenario.h"
#include "physics_util.h"

/* One particle of mass 0.5 on an anchored spring k = 50 (w = 10 rad/s), rest length l = 1 from the
 * origin, displaced by A along x and released at rest, no gravity: x = p.x - l obeys x'' = -w^2 x
 * exactly as long as the amplitude stays below l (d = p - x stays positive, so |d| - l = x). */
static int load_oscillator(sk_scenario *s, const char *integrator, double dt, long steps, double amplitude)
{
    return phys_load(s,
                     "{\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
                     " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [%.17g, 0, 0], \"end\": [%.17g, 0, 0],"
                     " \"mass\": 0.5, \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0],"
                     " \"stiffness\": 50, \"length\": 1}}]}",
                     dt, steps, integrator, 1 + amplitude, 1 + amplitude);
}

/* Rounding per step, relative to the energy: the position p = l + x is rounded by u |p| <= u (l + A),
 * which moves x^2 by 2 u (l + A) |x| <= 2 u (l + A) / A of E; the velocity update (l - |d|, k, 1/m, the
 * unit vector, dt, the sum) by about 6 u of |v| / (w A), 12 u of E. Doubled: 4 u ((l + A) / A + 6). */
static double rounding_per_step(double l, double amplitude) { return 4 * PHYS_U * ((l + amplitude) / amplitude + 6); }

/* Explicit Euler: x' = x + v dt, v' = v - w^2 x dt gives
 *   x'^2 + v'^2 / w^2 = x^2 + 2 x v dt + v^2 dt^2 + v^2 / w^2 - 2 x v dt + w^2 x^2 dt^2
 *                     = (1 + w^2 dt^2) (x^2 + v^2 / w^2)   exactly, every step. */
static int growth(const char *integrator)
{
    const double dt = 1e-3;
    /* (1 + 1e-4)^10000 = e^0.99995: the energy grows 2.7 times, the amplitude 1.65 times, from 0.5 to
     * 0.82 < l. The rounding bound holds with the initial amplitude: (l + A) / A only falls as A grows. */
    const long steps = 10000;
    sk_scenario s;
    CHECK_OK(load_oscillator(&s, integrator, dt, steps, 0.5));
    const sk_rope_params *in = &s.groups[0].base;
    double l = in->anchor_length, amplitude = (double)in->start.x - l;
    double w2 = (double)in->anchor_stiffness / in->mass, h = s.dt;
    double factor = 1 + w2 * h * h;
    double per_step = rounding_per_step(l, amplitude);

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    double e0 = amplitude * amplitude, e = e0;
    phys_track t = {0};
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        double x = (double)sk_ref_rope_position(r, 0).x - l, v = sk_ref_rope_velocity(r, 0).x;
        double next = x * x + v * v / w2;
        /* each step on its own: the ratio is 1 + w^2 dt^2 to rounding */
        PHYS_NEAR(&t, next / e, factor, per_step);
        e = next;
    }
    phys_report("explicit euler energy ratio per step vs 1 + w^2 dt^2", &t);
    /* over all steps: the per-step errors add up, N of them */
    int rc = phys_compare("explicit euler energy ratio over 1e4 steps vs (1 + w^2 dt^2)^N", e / e0,
                          pow(factor, (double)steps), (double)steps * per_step);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    CHECK(rc == 0);
    return 0;
}

/* Symplectic Euler: v' = v - w^2 x dt, x' = x + v' dt. With Q = v^2 + w^2 x^2 - w^2 dt x v, expanding
 * x' = x (1 - w^2 dt^2) + v dt and v' = v - w^2 dt x:
 *   v'^2          = v^2 - 2 w^2 dt x v + w^4 dt^2 x^2
 *   w^2 x'^2      = w^2 x^2 (1 - w^2 dt^2)^2 + 2 w^2 dt x v (1 - w^2 dt^2) + w^2 dt^2 v^2
 *   w^2 dt x' v'  = w^2 dt x v (1 - 2 w^2 dt^2) - w^4 dt^2 x^2 (1 - w^2 dt^2) + w^2 dt^2 v^2
 * and Q' collects to v^2 + w^2 x^2 - w^2 dt x v = Q: the scheme conserves Q exactly, while the plain
 * energy E = v^2 + w^2 x^2 = Q + w^2 dt x v swings by about +-(w dt / 2) Q. */
static int modified_energy(void)
{
    /* w dt = 0.2, so E swings by +-10%. 1e5 steps in double; in float 1e4: the rounding bound below
     * grows with N, and at 1e5 float steps it would be as large as E's own swing. */
    const double dt = 0.02;
    const long steps = PHYS_FLOAT ? 10000 : 100000;
    sk_scenario s;
    CHECK_OK(load_oscillator(&s, "symplectic", dt, steps, 0.9));
    const sk_rope_params *in = &s.groups[0].base;
    double l = in->anchor_length, amplitude = (double)in->start.x - l;
    double w2 = (double)in->anchor_stiffness / in->mass, h = s.dt;

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    double q0 = w2 * amplitude * amplitude; /* at rest: Q = E = w^2 A^2 */
    double e_min = q0, e_max = q0;
    double tol = (double)steps * rounding_per_step(l, amplitude);
    phys_track t = {0};
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        double x = (double)sk_ref_rope_position(r, 0).x - l, v = sk_ref_rope_velocity(r, 0).x;
        double e = v * v + w2 * x * x;
        double q = e - w2 * h * x * v;
        PHYS_NEAR(&t, q / q0, 1, tol);
        e_min = fmin(e_min, e);
        e_max = fmax(e_max, e);
    }
    phys_report("symplectic euler modified energy Q / Q0 vs 1", &t);
    double swing = (e_max - e_min) / q0;
    fprintf(stderr, "measured: plain energy swing (max - min) / Q0 = %.4g; w dt = %.3g\n", swing, sqrt(w2) * h);
    /* E = Q (1 + (w dt / 2) sin(2 phase)) to first order: its swing is w dt; Q's is rounding only. */
    CHECK(swing > 0.9 * sqrt(w2) * h);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int euler_growth(void) { return growth("euler"); }
static int cyclone_growth(void) { return growth("cyclone"); }

CHECK_MAIN({"euler_growth", euler_growth}, {"cyclone_growth", cyclone_growth}, {"symplectic_modified", modified_energy})
