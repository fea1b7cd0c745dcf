/* Physics: a line in water and on a compliant seabed (docs/model.md sections 3.6 and 3.7) in the reference
 * engine, against closed forms: Morison drag's terminal velocities, the added mass in the first step from
 * rest, the depth at which a line floats, the seabed's penetration and its friction's deceleration; under
 * the implicit integrator too (its blocks, section 2.1). */
#include "scenario/scenario.h"
#include "physics_util.h"

static const char *const integrator_names[] = {"cyclone", "euler", "symplectic", "verlet", "implicit"};

/* A line of one segment (two particles, each carrying half of it) of mass per length MU, diameter D, in
 * water of density RHO, laid from START to END with initial velocity V0; EXTRA adds keys to the scenario. */
static int load_segment(sk_scenario *s, sk_integrator integrator, double dt, long steps, double mu, double d,
                        const char *start, const char *end, const char *v0, const char *line_extra, const char *extra)
{
    return phys_load(s,
                     "{\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"%s\", \"gravity\": [0, -9.81, 0],"
                     " \"water\": {\"density\": 1025}, %s"
                     " \"groups\": [{\"count\": 1, \"start\": %s, \"end\": %s, \"velocity\": %s,"
                     " \"line\": {\"diameter\": %.17g, \"mass_per_length\": %.17g, \"EA\": 1e6, \"length\": 2,"
                     " \"segments\": 1%s}}]}",
                     dt, steps, integrator_names[integrator], extra, start, end, v0, d, mu, line_extra);
}

static double rho_a(double d) { return 1025 * (PHYS_PI * d * d / 4); }

/* Falling broadside (normal drag) or end-on (tangential drag) in deep water until the drag balances the
 * weight in water: (mu - rho A) g = 1/2 rho Cd d' v^2 per unit length, d' = d (normal) or pi d (tangential). */
static int terminal(sk_integrator integrator, bool end_on)
{
    if (PHYS_FLOAT && integrator == SK_INTEGRATOR_VERLET) /* a dt^2 step's move is below a float's ulp of y */
        CHECK_SKIP("verlet's (p - q) / dt at 20 m in float resolves the speed to 2e-3 m/s, 7 percent of it");
    const double mu = 3, d = 0.05, cd = end_on ? 0.4 : 1.2, dt = 1e-3;
    const long steps = 20000;
    sk_scenario s;
    char line_extra[160];
    snprintf(line_extra, sizeof line_extra, ", \"drag\": {\"normal\": %s, \"tangential\": %s}", end_on ? "1.2" : "1.2",
             end_on ? "0.4" : "0");
    CHECK_OK(load_segment(&s, integrator, dt, steps, mu, d, end_on ? "[0, -10, 0]" : "[0, -10, 0]",
                          end_on ? "[0, -12, 0]" : "[2, -10, 0]", "[0, 0, 0]", line_extra, ""));
    const double width = end_on ? PHYS_PI * d : d;
    const double v_t = sqrt(2 * (mu - rho_a(d)) * 9.81 / (1025 * cd * width));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_advance(r, steps);
    char label[128];
    snprintf(label, sizeof label, "line %s, %s: terminal speed vs sqrt(2 (mu - rho A) g / (rho Cd d'))",
             integrator_names[integrator], end_on ? "end-on (tangential drag)" : "broadside (normal drag)");
    for (int i = 0; i < 2; i++)
        CHECK_OK(phys_compare(label, -sk_ref_rope_velocity(r, i).y, v_t, PHYS_FLOAT ? 1e-4 : 1e-9));
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int terminal_broadside(void) { return terminal(SK_INTEGRATOR_SYMPLECTIC, false); }
static int terminal_broadside_verlet(void) { return terminal(SK_INTEGRATOR_VERLET, false); }
static int terminal_end_on(void) { return terminal(SK_INTEGRATOR_SYMPLECTIC, true); }
static int terminal_broadside_implicit(void) { return terminal(SK_INTEGRATOR_IMPLICIT, false); }
static int terminal_end_on_implicit(void) { return terminal(SK_INTEGRATOR_IMPLICIT, true); }

/* The first step from rest: symplectic Euler's v1 = a0 dt, a0 = (mu - rho A) g / (mu + rho A Ca), Ca the
 * coefficient across the line (broadside) or along it (end-on): the added mass is what makes these differ.
 * Backward Euler's first step from rest under a constant force is the same: the drag's block is zero at
 * rest and the unstressed link's block does not act on the segment's translation, so the added mass in the
 * particle's block alone gives v1. */
static int added_mass(sk_integrator integrator, bool end_on)
{
    const double mu = 3, d = 0.08, dt = 1e-3, can = 1.0, cat = 0.25;
    sk_scenario s;
    CHECK_OK(load_segment(&s, integrator, dt, 1, mu, d, "[0, -10, 0]", end_on ? "[0, -12, 0]" : "[2, -10, 0]",
                          "[0, 0, 0]", ", \"added_mass\": {\"normal\": 1.0, \"tangential\": 0.25}", ""));
    const double ca = end_on ? cat : can;
    const double a0 = (mu - rho_a(d)) * 9.81 / (mu + rho_a(d) * ca);
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_step(r);
    char label[128];
    snprintf(label, sizeof label, "line %s, %s: first velocity from rest vs (mu - rho A) g dt / (mu + rho A Ca)",
             integrator_names[integrator], end_on ? "end-on" : "broadside");
    for (int i = 0; i < 2; i++) {
        CHECK_OK(phys_compare(label, -sk_ref_rope_velocity(r, i).y, a0 * dt, 64 * PHYS_U));
        CHECK(sk_ref_rope_velocity(r, i).x == 0 && sk_ref_rope_velocity(r, i).z == 0);
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int added_mass_broadside(void) { return added_mass(SK_INTEGRATOR_SYMPLECTIC, false); }
static int added_mass_end_on(void) { return added_mass(SK_INTEGRATOR_SYMPLECTIC, true); }
static int added_mass_broadside_implicit(void) { return added_mass(SK_INTEGRATOR_IMPLICIT, false); }
static int added_mass_end_on_implicit(void) { return added_mass(SK_INTEGRATOR_IMPLICIT, true); }

/* A line lighter than water floats where the submerged part of each particle's share l lifts its weight:
 * rho A l frac = mu l, frac = (surface - y) / l + 1/2, so y = surface - l (mu / (rho A) - 1/2). Settled by
 * the integrator's damping (velocity kept per second). */
static int floating(void)
{
    const double mu = 2, d = 0.1, dt = 1e-3;
    const long steps = 60000;
    sk_scenario s;
    CHECK_OK(load_segment(&s, SK_INTEGRATOR_SYMPLECTIC, dt, steps, mu, d, "[0, -0.3, 0]", "[2, -0.3, 0]", "[0, 0, 0]",
                          ", \"drag\": {\"normal\": 1.2}", ""));
    s.groups[0].base.damping = (sk_real)0.2; /* settled by the integrator's damping, which leaves the balance */
    const double share = 1; /* each end carries half of the 2 m segment */
    const double y = 0 - share * (mu / rho_a(d) - 0.5);
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_advance(r, steps);
    for (int i = 0; i < 2; i++)
        CHECK_OK(phys_compare("floating line: height vs surface - l (mu / (rho A) - 1/2)", sk_ref_rope_position(r, i).y,
                              y, PHYS_FLOAT ? 1e-4 : 1e-9));
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* On the compliant seabed at rest: k d l pen = (mu - rho A) l g, so pen = (mu - rho A) g / (k d). The implicit
 * integrator at ten times the step, its seabed stiffness and damping in the particles' blocks. */
static int seabed_rest_with(sk_integrator integrator)
{
    const double mu = 5, d = 0.05, k = 2e4;
    const double dt = integrator == SK_INTEGRATOR_IMPLICIT ? 1e-2 : 1e-3;
    const long steps = integrator == SK_INTEGRATOR_IMPLICIT ? 3000 : 30000;
    sk_scenario s;
    CHECK_OK(load_segment(&s, integrator, dt, steps, mu, d, "[0, -19.9, 0]", "[2, -19.9, 0]", "[0, 0, 0]",
                          "", "\"ground\": {\"height\": -20, \"stiffness\": 2e4, \"damping\": 2e3},"));
    const double pen = (mu - rho_a(d)) * 9.81 / (k * d);
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_advance(r, steps);
    for (int i = 0; i < 2; i++)
        CHECK_OK(phys_compare("line on the seabed: penetration vs (mu - rho A) g / (k d)", -20 - sk_ref_rope_position(r, i).y,
                              pen, PHYS_FLOAT ? 1e-3 : 1e-9));
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int seabed_rest(void) { return seabed_rest_with(SK_INTEGRATOR_SYMPLECTIC); }
static int seabed_rest_implicit(void) { return seabed_rest_with(SK_INTEGRATOR_IMPLICIT); }

/* Sliding broadside along the seabed faster than the slip speed: Coulomb's mu_k N with N the weight in water
 * decelerates it at mu_k (mu - rho A) g / (mu + rho A Can) (the motion is across the line: normal added
 * mass), while it rests at the penetration of seabed_rest. */
static int seabed_slide(void)
{
    const double mu = 5, d = 0.05, dt = 1e-4, v0 = 2, mu_k = 0.4, can = 1;
    const double k = 2e4;
    const double pen = (mu - rho_a(d)) * 9.81 / (k * d);
    const long steps = 5000;
    char start[64], end[64];
    snprintf(start, sizeof start, "[0, %.17g, 0]", -20 - pen);
    snprintf(end, sizeof end, "[2, %.17g, 0]", -20 - pen);
    sk_scenario s;
    CHECK_OK(load_segment(&s, SK_INTEGRATOR_SYMPLECTIC, dt, steps, mu, d, start, end, "[0, 0, 2]",
                          ", \"added_mass\": {\"normal\": 1}",
                          "\"ground\": {\"height\": -20, \"stiffness\": 2e4, \"damping\": 0, \"slip_speed\": 0.01,"
                          " \"friction\": {\"static\": 0.4, \"kinetic\": 0.4}},"));
    const double decel = mu_k * (mu - rho_a(d)) * 9.81 / (mu + rho_a(d) * can);
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_advance(r, steps);
    const double t = steps * dt;
    for (int i = 0; i < 2; i++)
        CHECK_OK(phys_compare("line sliding on the seabed: speed vs v0 - mu_k (mu - rho A) g t / (mu + rho A Can)",
                              sk_ref_rope_velocity(r, i).z, v0 - decel * t, PHYS_FLOAT ? 2e-3 : 1e-6));
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"terminal_broadside", terminal_broadside}, {"terminal_broadside_verlet", terminal_broadside_verlet},
           {"terminal_end_on", terminal_end_on}, {"added_mass_broadside", added_mass_broadside},
           {"added_mass_end_on", added_mass_end_on}, {"floating", floating}, {"seabed_rest", seabed_rest},
           {"seabed_slide", seabed_slide}, {"terminal_broadside_implicit", terminal_broadside_implicit},
           {"terminal_end_on_implicit", terminal_end_on_implicit},
           {"added_mass_broadside_implicit", added_mass_broadside_implicit},
           {"added_mass_end_on_implicit", added_mass_end_on_implicit}, {"seabed_rest_implicit", seabed_rest_implicit})
