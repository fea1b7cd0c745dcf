/* Physics: a damped particle with buoyancy settles at the depth where the lift rho V s balances its
 * weight m g, s the submerged fraction (docs/model.md section 3). */
#include "scenario/scenario.h"
#include "physics_util.h"

static const char *const integrator_names[] = {"cyclone", "euler", "symplectic", "verlet"};

/* Mass 1, g = 9.81, water at h = 2 with max depth m = 0.5, density 1000; the volume is chosen so that
 * rho V = m g / fraction: the lift equals the weight when s = fraction, i.e. at
 *   y* = h + m - 2 m fraction     (y* = h at half submersion).
 * Inside the band [h - m, h + m] the lift is linear in y, rho V (h + m - y) / (2 m), so the particle is a
 * damped oscillator about y* with w^2 = rho V / (2 m_depth mass). Released at rest 0.3 above y*, it
 * stays in the band (0.3 + |y* - h| <= m) and its deviation decays as the damped modes do. */
static int settle(sk_integrator integrator, double fraction)
{
    const double mass = 1, g = 9.81, water = 2, depth = 0.5, density = 1000;
    const long steps = 12000;
    double y_star = water + depth - 2 * depth * fraction, lift = mass * g / fraction;
    sk_scenario s;
    CHECK_OK(phys_load(
        &s,
        "{\"skein\": 1, \"dt\": 1e-3, \"steps\": %ld, \"integrator\": \"%s\", \"gravity\": [0, -%.17g, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0.1, %.17g, 0.2], \"end\": [0.1, %.17g, 0.2],"
        " \"mass\": %.17g, \"damping\": 1e-3, \"verlet_damping\": 0.007,"
        " \"buoyancy\": {\"water_height\": %.17g, \"max_depth\": %.17g, \"density\": %.17g, \"volume\": %.17g}}]}",
        steps, integrator_names[integrator], g, y_star + 0.3, y_star + 0.3, mass, water, depth, density,
        lift / density));
    const sk_rope_params *in = &s.groups[0].base;
    double dt = s.dt, m = in->mass, grav = -(double)s.gravity.y;
    double h = in->buoyancy_water_height, md = in->buoyancy_max_depth;
    double rho_v = (double)in->buoyancy_density * in->buoyancy_volume;
    /* y* from the values as loaded: rho V (h + md - y) / (2 md) = m g */
    double expected = h + md - 2 * md * m * grav / rho_v;
    double w = sqrt(rho_v / (2 * md * m));
    double damp = SK_POW(in->damping, s.dt), keep = (sk_real)1 - in->verlet_damping;
    double rho = phys_step_modulus(integrator, w, dt, damp, keep);
    CHECK(rho < 1);
    CHECK(fabs(y_star + 0.3 - h) <= md && fabs(y_star - 0.3 - h) <= md);

    /* Settling: 0.3 times the bound on |M^n|. Rounding: the lift's fraction ((h + m) - y) / (2 m) is off
     * by about 2 u (h + m) / (2 m), which moves the balance by 2 u (h + m); the weight and w f by a few
     * u of g, moving it by 4 u g / w^2; and the particle stops where a step's move falls under half an
     * ulp of y, displacing it by a / w^2: the Euler schemes keep v, which builds up to a dt D / (1 - D)
     * and moves y by a dt^2 / (1 - D) a step, so a <= u |y| (1 - D) / dt^2; verlet keeps no velocity
     * (p - q is 0 once p stops), so there a dt^2 alone must pass half an ulp: a <= u |y| / dt^2. Doubled. */
    double settle_bound = 0.3 * phys_settle_factor(rho, steps, w, dt);
    double loss = integrator == SK_INTEGRATOR_VERLET ? 1 : 1 - damp;
    double round = 2 * PHYS_U * (h + md) + 4 * PHYS_U * grav / (w * w) + PHYS_U * (h + md) * loss / (dt * dt) / (w * w);
    double tol = 2 * (settle_bound + round);

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    for (long n = 0; n < steps; n++) {
        sk_ref_rope_step(r);
        sk_vec3 p = sk_ref_rope_position(r, 0);
        CHECK(p.x == in->start.x && p.z == in->start.z);
        CHECK(fabs((double)p.y - h) <= md); /* inside the band, where the lift is linear */
    }
    phys_track t = {0};
    PHYS_NEAR(&t, sk_ref_rope_position(r, 0).y, expected, tol);
    char label[96];
    snprintf(label, sizeof label, "buoyancy %s, submerged fraction %g: settled y vs rho V s = m g",
             integrator_names[integrator], fraction);
    phys_report(label, &t);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* lift = weight at half submersion: floats with its centre at the water line */
static int half_symplectic(void) { return settle(SK_INTEGRATOR_SYMPLECTIC, 0.5); }
static int half_cyclone(void) { return settle(SK_INTEGRATOR_CYCLONE, 0.5); }
static int half_verlet(void) { return settle(SK_INTEGRATOR_VERLET, 0.5); }
/* a stronger lift: balanced at s = 0.3, 0.2 above the water line */
static int partial_symplectic(void) { return settle(SK_INTEGRATOR_SYMPLECTIC, 0.3); }

CHECK_MAIN({"half_symplectic", half_symplectic}, {"half_cyclone", half_cyclone}, {"half_verlet", half_verlet},
           {"partial_symplectic", partial_symplectic})
