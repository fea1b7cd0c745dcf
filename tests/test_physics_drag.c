/* Physics: a falling particle with drag reaches the terminal velocity where drag balances gravity:
 * m g / k1 (linear), sqrt(m g / k2) (quadratic), and the root of k1 s + k2 s^2 = m g (both). */
#include "scenario/scenario.h"
#include "physics_util.h"

static const char *const integrator_names[] = {"cyclone", "euler", "symplectic", "verlet"};

/* Mass 0.5, gravity 9.81 down, dt = 1e-2, from rest (or v0) at height 0: drag's force is read from the
 * velocity at the start of the step in every Euler scheme. */
static int load_drag(sk_scenario *s, const char *integrator, double k1, double k2, const char *v0, long steps)
{
    return phys_load(
        s,
        "{\"skein\": 1, \"dt\": 1e-2, \"steps\": %ld, \"integrator\": \"%s\", \"gravity\": [0, -9.81, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0], \"mass\": 0.5,"
        " \"velocity\": %s, \"drag\": {\"k1\": %.17g, \"k2\": %.17g}}]}",
        steps, integrator, v0, k1, k2);
}

/* Linear drag is linear in the vector v: f = -k1 |v| v^ = -k1 v, so each step is
 * v' = v + (g - (k1/m) v) dt = (1 - b) v + b v*, with b = k1 dt / m and v* = m g / k1 (a vector along g):
 *   v_n = v* + (1 - b)^n (v0 - v*)   exactly, every component, with v* the exact fixed point.
 * Verlet's velocity D_n / dt (D_n = p_n - q_n) obeys the same: D' = D + (g - (k1/m) D / dt) dt^2.
 * Rounding: each step adds a few u of |v| + |g| dt and the contraction (1 - b) forgets old errors, so
 * the error stays below 4 u (|v|max + |g| dt) / b; where a step's change falls under half an ulp of v the
 * velocity stops, at most ulp(v) / (2 b) from the formula. Verlet's velocity also carries each step's
 * position rounding u |p| / dt, at most u |p|max / (dt b) in all. Doubled. */
static int linear(const char *integrator)
{
    const double k1 = 2;
    const long steps = 1000;
    sk_scenario s;
    CHECK_OK(load_drag(&s, integrator, k1, 0, "[1.2, 0.5, -0.7]", steps));
    const sk_rope_params *in = &s.groups[0].base;
    double m = in->mass, dt = s.dt, k = in->drag_k1;
    double b = k * dt / m;
    double vt[3] = {m * s.gravity.x / k, m * s.gravity.y / k, m * s.gravity.z / k};
    double v0[3] = {in->velocity.x, in->velocity.y, in->velocity.z};
    double vmax = fmax(fabs(vt[1]), 1.5);
    double tol = 2 * (4 * PHYS_U * (vmax + fabs((double)s.gravity.y) * dt) + 2 * PHYS_U * vmax) / b;
    if (strcmp(integrator, "verlet") == 0) /* |p| <= |v0| / b dt + |v*| t: under 30 m here */
        tol += 2 * PHYS_U * 30 / (dt * b);

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_track t = {0};
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        sk_vec3 v = sk_ref_rope_velocity(r, 0), p = sk_ref_rope_position(r, 0);
        CHECK(fabs((double)p.x) < 30 && fabs((double)p.y) < 30 && fabs((double)p.z) < 30);
        sk_real vc[3] = {v.x, v.y, v.z};
        double decay = pow(1 - b, (double)n);
        for (int c = 0; c < 3; c++)
            PHYS_NEAR(&t, vc[c], vt[c] + decay * (v0[c] - vt[c]), tol);
    }
    /* after 1000 steps (1 - b)^n = 2e-18: the velocity is the terminal m g / k1 */
    PHYS_NEAR(&t, sk_ref_rope_velocity(r, 0).y, -m * -(double)s.gravity.y / k, tol);
    char label[96];
    snprintf(label, sizeof label, "linear drag %s, v_n vs v* + (1 - k1 dt/m)^n (v0 - v*), v* = m g / k1", integrator);
    phys_report(label, &t);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Falling from rest with drag c(s) = k1 s + k2 s^2 along -y: s' = s + (g - c(s)/m) dt. The terminal speed
 * s* solves c(s*) = m g: s* = (sqrt(k1^2 + 4 k2 m g) - k1) / (2 k2), which is sqrt(m g / k2) for k1 = 0.
 * For s_n in [0, s*], s* - s_(n+1) = (s* - s_n)(1 - dt (k1 + k2 (s* + s_n)) / m), so the distance left
 * falls at least by the factor q = 1 - dt (k1 + k2 s*) / m each step: s* - s_n <= q^n s*, and s_n stays
 * below s* (the map is increasing while dt (k1 + 2 k2 s) / m < 1). Rounding as for linear drag, with
 * 1 - q for b. */
static int terminal(const char *integrator, double k1, double k2, const char *label_kind)
{
    const long steps = 1500;
    sk_scenario s;
    CHECK_OK(load_drag(&s, integrator, k1, k2, "[0, 0, 0]", steps));
    const sk_rope_params *in = &s.groups[0].base;
    double m = in->mass, dt = s.dt, a = in->drag_k1, b = in->drag_k2, g = -(double)s.gravity.y;
    double st = a == 0 ? sqrt(m * g / b) : (sqrt(a * a + 4 * b * m * g) - a) / (2 * b);
    double contraction = dt * (a + b * st) / m;
    CHECK(dt * (a + 2 * b * st) / m < 1);
    double round = 2 * (4 * PHYS_U * (st + g * dt) + 2 * PHYS_U * st) / contraction;
    double tol = st * pow(1 - contraction, (double)steps) + round;

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        sk_vec3 v = sk_ref_rope_velocity(r, 0);
        CHECK(v.x == 0 && v.z == 0);
        CHECK(-(double)v.y <= st + round); /* approaches from below */
        CHECK(-(double)v.y >= st - st * pow(1 - contraction, (double)n) - round);
    }
    char label[96];
    snprintf(label, sizeof label, "%s drag %s terminal speed vs %s", label_kind, integrator,
             a == 0 ? "sqrt(m g / k2)" : "root of k1 s + k2 s^2 = m g");
    int rc = phys_compare(label, -(double)sk_ref_rope_velocity(r, 0).y, st, tol / st);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    CHECK(rc == 0);
    return 0;
}

static int linear_symplectic(void) { return linear(integrator_names[SK_INTEGRATOR_SYMPLECTIC]); }
static int linear_cyclone(void) { return linear(integrator_names[SK_INTEGRATOR_CYCLONE]); }
static int linear_verlet(void) { return linear(integrator_names[SK_INTEGRATOR_VERLET]); }
/* k2 = 0.5: s* = 3.13, q = 1 - 0.031 per step, q^1500 = 1e-21. */
static int quadratic_symplectic(void)
{
    return terminal(integrator_names[SK_INTEGRATOR_SYMPLECTIC], 0, 0.5, "quadratic");
}
static int quadratic_cyclone(void) { return terminal(integrator_names[SK_INTEGRATOR_CYCLONE], 0, 0.5, "quadratic"); }
/* k1 = 0.8, k2 = 0.3: s* = 2.92. */
static int combined(void)
{
    return terminal(integrator_names[SK_INTEGRATOR_SYMPLECTIC], 0.8, 0.3, "linear + quadratic");
}

CHECK_MAIN({"linear_symplectic", linear_symplectic}, {"linear_cyclone", linear_cyclone},
           {"linear_verlet", linear_verlet}, {"quadratic_symplectic", quadratic_symplectic},
           {"quadratic_cyclone", quadratic_cyclone}, {"combined", combined})
