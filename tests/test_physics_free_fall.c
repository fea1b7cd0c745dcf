/* Physics: free fall under each integrator against the closed forms of the discrete schemes
 * (not only the continuous parabola), undamped and damped, gravity as acceleration and as force, and a wind
 * (a force object: the same force F on every particle) in place of gravity, whose acceleration is F / m. */
#include <string.h>

#include "scenario/scenario.h"
#include "physics_util.h"

/* After n steps from (p0, v0) under constant acceleration a (one component), by summing each scheme:
 *   cyclone/euler: v_n = v0 + n a dt,  p_n = p0 + n v0 dt + a dt^2 n(n-1)/2   (p moves with the old v)
 *   symplectic:    v_n = v0 + n a dt,  p_n = p0 + n v0 dt + a dt^2 n(n+1)/2   (p moves with the new v)
 *   verlet, k = 0: the step D_j = p_j - p_(j-1) obeys D_(j+1) = D_j + a dt^2 with D_0 = p0 - q0 = v0 dt,
 *                  so D_j = v0 dt + j a dt^2 and p_n = p0 + sum_(j=1..n) D_j = p0 + n v0 dt + a dt^2 n(n+1)/2;
 *                  the reported velocity is D_n / dt = v0 + n a dt.
 * With damping (D = d^dt < 1), v_(j+1) = (v_j + a dt) D gives v_n = D^n v0 + a dt D G_n with
 * G_n = (1 - D^n) / (1 - D); summing v_0..v_(n-1) (cyclone) or v_1..v_n (symplectic):
 *   cyclone:    p_n = p0 + dt (v0 G_n + a dt D / (1 - D) (n - G_n))
 *   symplectic: p_n = p0 + dt (v0 D G_n + a dt D / (1 - D) (n - D G_n))
 * Verlet with K = 1 - k < 1: D_(j+1) = K D_j + c (c = a dt^2), D_n = K^n D_0 + c H_n with
 * H_n = (1 - K^n) / (1 - K), p_n = p0 + D_0 K H_n + c / (1 - K) (n - K H_n). */
static void closed_form(sk_integrator integrator, long n, long double p0, long double v0, long double a, long double dt,
                        long double damp, long double keep, long double *p, long double *v)
{
    long double nn = (long double)n;
    if (integrator == SK_INTEGRATOR_VERLET) {
        long double d0 = v0 * dt, c = a * dt * dt;
        if (keep == 1) {
            *p = p0 + nn * d0 + c * nn * (nn + 1) / 2;
            *v = (d0 + nn * c) / dt;
        } else {
            long double kn = powl(keep, nn), h = (1 - kn) / (1 - keep);
            *p = p0 + d0 * keep * h + c / (1 - keep) * (nn - keep * h);
            *v = (kn * d0 + c * h) / dt;
        }
        return;
    }
    bool symplectic = integrator == SK_INTEGRATOR_SYMPLECTIC;
    if (damp == 1) {
        *v = v0 + nn * a * dt;
        *p = p0 + nn * v0 * dt + a * dt * dt * (symplectic ? nn * (nn + 1) : nn * (nn - 1)) / 2;
        return;
    }
    long double dn = powl(damp, nn), g = (1 - dn) / (1 - damp);
    *v = dn * v0 + a * dt * damp * g;
    if (symplectic)
        *p = p0 + dt * (v0 * damp * g + a * dt * damp / (1 - damp) * (nn - damp * g));
    else
        *p = p0 + dt * (v0 * g + a * dt * damp / (1 - damp) * (nn - g));
}

static const char *const integrator_names[] = {"cyclone", "euler", "symplectic", "verlet"};

typedef struct fall {
    sk_integrator integrator;
    const char *gravity_as; /* "acceleration", "force", or "wind": no gravity, the wind's force g m instead */
    bool exact; /* every number dyadic and short: the schemes must hit the closed form to the bit */
    bool damped;
} fall;

static int run_fall(fall f)
{
    /* Exact: dt = 2^-8, 256 steps; every position is a multiple of 2^-18 below 16 and every velocity a
     * multiple of 2^-9 below 8, so no operation of any scheme rounds, in float as in double, and the
     * mass 0.25 makes gravity-as-force's g * (1/w) * w exact as well.
     * Rounded: dt = 1e-3, mass 0.3, 200 steps: nothing is exact and the bounds below apply. */
    sk_scenario s;
    const bool wind = strcmp(f.gravity_as, "wind") == 0;
    const double mass = f.exact ? 0.25 : 0.3, gx = f.exact ? 0.5 : 0.4, gy = f.exact ? -8 : -9.81,
                 gz = f.exact ? -0.25 : 0.1;
    char forces[256];
    if (wind)
        snprintf(forces, sizeof forces, "\"gravity\": [0, 0, 0], \"groups\": [{\"wind\": {\"force\": [%.17g, %.17g, %.17g]},",
                 gx * mass, gy * mass, gz * mass);
    else
        snprintf(forces, sizeof forces, "\"gravity\": [%.17g, %.17g, %.17g], \"gravity_as\": \"%s\", \"groups\": [{", gx,
                 gy, gz, f.gravity_as);
    if (f.exact)
        CHECK_OK(phys_load(&s,
                           "{\"skein\": 1, \"dt\": 0.00390625, \"steps\": 256, \"integrator\": \"%s\", %s \"count\": 1,"
                           " \"particles\": 1, \"start\": [0.5, 10, -1], \"end\": [0.5, 10, -1], \"mass\": 0.25,"
                           " \"velocity\": [1.5, 2, -0.75]}]}",
                           integrator_names[f.integrator], forces));
    else
        CHECK_OK(phys_load(&s,
                           "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 200, \"integrator\": \"%s\", %s \"count\": 1,"
                           " \"particles\": 1, \"start\": [0.1, 0.2, -0.3], \"end\": [0.1, 0.2, -0.3], \"mass\": 0.3,"
                           " \"damping\": %s, \"verlet_damping\": %s, \"velocity\": [0.3, 1.7, -0.2]}]}",
                           integrator_names[f.integrator], forces, f.damped ? "0.5" : "1", f.damped ? "0.01" : "0"));
    const sk_rope_params *in = &s.groups[0].base;
    sk_real dt = s.dt;
    /* The scheme's own constants as docs/model.md defines them: d^dt with libm, 1 - k. */
    long double damp = SK_POW(in->damping, dt), keep = (sk_real)1 - in->verlet_damping;
    long double p0[3] = {in->start.x, in->start.y, in->start.z};
    long double v0[3] = {in->velocity.x, in->velocity.y, in->velocity.z};
    /* the wind's acceleration F / m, as the scheme takes it: F w, w = 1 / m (exact for the dyadic mass) */
    long double g[3] = {s.gravity.x, s.gravity.y, s.gravity.z};
    if (wind) {
        const sk_vec3 fw = in->wind_force;
        const long double w = (long double)(1 / (sk_real)in->mass);
        g[0] = fw.x * w, g[1] = fw.y * w, g[2] = fw.z * w;
    }
    long n = s.steps;

    /* Rounding bounds (u the unit roundoff; P the largest |p| and V the largest |v| + |g| dt along the
     * closed-form path). Euler family: each step rounds v by at most 3uV (A dt, the sum, the damping
     * product) plus 3u|g| dt when gravity is a force (1/w, g m and w f each round once), so |dv_n| <= 6nuV;
     * p rounds by u(P + V dt) per step and integrates dv: |dp_n| <= nu(P + V dt) + 3n^2 u V dt.
     * Verlet is a second difference: a rounding r_j of p_j reappears in every later step, so
     * |dp_n| <= sum_j (n - j) r_j <= n^2/2 * 4u(P + V dt), and its first difference, the reported
     * velocity, is off by at most n * 4u(P + V dt) / dt + uV. Both doubled for margin. */
    double P = 0, V = 0;
    for (long k = 0; k <= n; k++)
        for (int c = 0; c < 3; c++) {
            long double p, v;
            closed_form(f.integrator, k, p0[c], v0[c], g[c], dt, damp, keep, &p, &v);
            P = fmax(P, fabs((double)p));
            V = fmax(V, fabs((double)v) + fabs((double)g[c]) * dt);
        }
    double u = PHYS_U, nd = (double)n, tol_p, tol_v;
    if (f.integrator == SK_INTEGRATOR_VERLET) {
        tol_p = 2 * (2 * nd * nd * u * (P + V * dt));
        tol_v = 2 * (nd * 4 * u * (P + V * dt) / dt + u * V);
    } else {
        tol_p = 2 * (nd * u * (P + V * dt) + 3 * nd * nd * u * V * dt);
        tol_v = 2 * (6 * nd * u * V);
    }
    if (f.exact)
        tol_p = tol_v = 0;

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_track tp = {0}, tv = {0};
    for (long k = 1; k <= n; k++) {
        sk_ref_rope_step(r);
        sk_vec3 p = sk_ref_rope_position(r, 0), v = sk_ref_rope_velocity(r, 0);
        sk_real pc[3] = {p.x, p.y, p.z}, vc[3] = {v.x, v.y, v.z};
        for (int c = 0; c < 3; c++) {
            long double ep, ev;
            closed_form(f.integrator, k, p0[c], v0[c], g[c], dt, damp, keep, &ep, &ev);
            if (f.exact) /* the closed form itself must be a number of the build's type */
                CHECK((long double)(sk_real)ep == ep && (long double)(sk_real)ev == ev);
            PHYS_NEAR(&tp, pc[c], ep, tol_p);
            PHYS_NEAR(&tv, vc[c], ev, tol_v);
        }
    }
    char label[128];
    snprintf(label, sizeof label, "free fall %s %s%s gravity as %s, position", integrator_names[f.integrator],
             f.exact ? "dyadic" : "rounded", f.damped ? " damped" : "", f.gravity_as);
    phys_report(label, &tp);
    snprintf(label, sizeof label, "free fall %s %s%s gravity as %s, velocity", integrator_names[f.integrator],
             f.exact ? "dyadic" : "rounded", f.damped ? " damped" : "", f.gravity_as);
    phys_report(label, &tv);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Undamped: the dyadic run exactly, the rounded run within its bound, in both gravity forms. */
static int undamped(sk_integrator integrator)
{
    for (int exact = 1; exact >= 0; exact--) {
        CHECK_OK(run_fall((fall){integrator, "acceleration", exact, false}));
        CHECK_OK(run_fall((fall){integrator, "force", exact, false}));
        CHECK_OK(run_fall((fall){integrator, "wind", exact, false}));
    }
    return 0;
}

static int damped(sk_integrator integrator)
{
    CHECK_OK(run_fall((fall){integrator, "acceleration", false, true}));
    CHECK_OK(run_fall((fall){integrator, "force", false, true}));
    CHECK_OK(run_fall((fall){integrator, "wind", false, true}));
    return 0;
}

static int cyclone(void) { return undamped(SK_INTEGRATOR_CYCLONE); }
static int euler(void) { return undamped(SK_INTEGRATOR_EULER); }
static int symplectic(void) { return undamped(SK_INTEGRATOR_SYMPLECTIC); }
static int verlet(void) { return undamped(SK_INTEGRATOR_VERLET); }
static int damped_cyclone(void) { return damped(SK_INTEGRATOR_CYCLONE); }
static int damped_euler(void) { return damped(SK_INTEGRATOR_EULER); }
static int damped_symplectic(void) { return damped(SK_INTEGRATOR_SYMPLECTIC); }
static int damped_verlet(void) { return damped(SK_INTEGRATOR_VERLET); }

CHECK_MAIN({"cyclone", cyclone}, {"euler", euler}, {"symplectic", symplectic}, {"verlet", verlet},
           {"damped_cyclone", damped_cyclone}, {"damped_euler", damped_euler}, {"damped_symplectic", damped_symplectic},
           {"damped_verlet", damped_verlet})
