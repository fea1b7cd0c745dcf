/* Physics: over one step the fake spring moves its particle onto the exact damped oscillator,
 * r(dt) = e^(-c dt/2) (r0 cos(gamma dt) + (c r0 / (2 gamma) + v0 / gamma) sin(gamma dt)). */
#include "scenario/scenario.h"
#include "physics_util.h"

/* r'' = -k r - c r' with r = p - x has, for 4k > c^2 and gamma = sqrt(4k - c^2) / 2, the solution
 * r(t) = e^(-c t/2) (r0 cos(gamma t) + (c r0 / (2 gamma) + v0 / gamma) sin(gamma t)): check r(0) = r0,
 * r'(0) = -c r0 / 2 + gamma (c r0 / (2 gamma) + v0 / gamma) = v0. The generator's force is
 * m ((target - r) / dt^2 - v / dt); the symplectic step then gives v' = v + (target - r) / dt - v and
 * p' = p + v' dt = x + target, and verlet p' = p + (p - q) + (target - r) - v dt = x + target, since its
 * v is (p - q) / dt. A gravity field adds its g dt^2 on top. */
static long double exact_r(long double r0, long double v0, long double k, long double c, long double t)
{
    long double gamma = sqrtl(4 * k - c * c) / 2;
    return expl(-c * t / 2) * (r0 * cosl(gamma * t) + (c * r0 / (2 * gamma) + v0 / gamma) * sinl(gamma * t));
}

typedef struct fake {
    const char *integrator;
    double k, c, dt;
    double gravity; /* y component of the field */
} fake;

static int one_step(fake f)
{
    sk_scenario s;
    CHECK_OK(
        phys_load(&s,
                  "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, %.17g, 0],"
                  " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [1.3, 1.8, 3.1], \"end\": [1.3, 1.8, 3.1],"
                  " \"mass\": 0.3, \"velocity\": [1, 2, -0.5], \"anchor\": {\"type\": \"fake_spring\","
                  " \"point\": [1, 2, 3], \"stiffness\": %.17g, \"damping\": %.17g}}]}",
                  f.dt, f.integrator, f.gravity, f.k, f.c));
    const sk_rope_params *in = &s.groups[0].base;
    long double k = in->anchor_stiffness, c = in->anchor_damping, dt = s.dt;
    long double x[3] = {in->anchor_point.x, in->anchor_point.y, in->anchor_point.z};
    long double p0[3] = {in->start.x, in->start.y, in->start.z};
    long double v0[3] = {in->velocity.x, in->velocity.y, in->velocity.z};
    long double g[3] = {s.gravity.x, s.gravity.y, s.gravity.z};
    CHECK(4 * k > c * c);

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_step(r);
    sk_vec3 p = sk_ref_rope_position(r, 0);
    sk_real pc[3] = {p.x, p.y, p.z};
    phys_track t = {0};
    for (int i = 0; i < 3; i++) {
        long double r0 = p0[i] - x[i], target = exact_r(r0, v0[i], k, c, dt);
        long double expected = x[i] + target + g[i] * dt * dt;
        /* Rounding: the constants (gamma, cos, sin, exp, c / (2 gamma), 1 / gamma) and target carry a few
         * u of |r0| + |v0| dt; acc = (target - r) / dt^2 - v / dt cancels, and its rounding, a few u of
         * |target - r| / dt^2 + |v| / dt, reaches p through dt^2: a few u of |target - r| + |v| dt; the
         * two sums a few u of |p|, and verlet's q = p - v dt and (p - q) / dt as much again. 16 u of all. */
        double scale = (double)(fabsl(expected) + fabsl(p0[i]) + fabsl(r0) + fabsl(v0[i]) * dt + fabsl(target - r0) +
                                fabsl(g[i]) * dt * dt);
        PHYS_NEAR(&t, pc[i], expected, 16 * PHYS_U * scale);
    }
    char label[128];
    snprintf(label, sizeof label, "fake spring %s k %g c %g dt %g g %g, one step vs the damped oscillator",
             f.integrator, f.k, f.c, f.dt, f.gravity);
    phys_report(label, &t);
    /* The check sees the spring: the free flight p0 + v0 dt lies far outside the tolerance. */
    CHECK(fabs((double)p.x - (double)(p0[0] + v0[0] * dt + g[0] * dt * dt)) > 1e3 * t.worst_tol);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* gamma dt = 0.2: a soft spring, lightly damped */
static int symplectic(void) { return one_step((fake){"symplectic", 400, 4, 1e-2, 0}); }
/* gamma dt = 1 rad in one step, a spring far too stiff for an explicit step: what the fake spring is for */
static int stiff(void) { return one_step((fake){"symplectic", 1e6, 100, 1e-3, 0}); }
/* strongly damped: c = 1.9 sqrt(k) */
static int damped(void) { return one_step((fake){"symplectic", 400, 38, 1e-2, 0}); }
static int verlet(void) { return one_step((fake){"verlet", 400, 4, 1e-2, 0}); }
static int with_gravity(void) { return one_step((fake){"symplectic", 400, 4, 1e-2, -9.81}); }

CHECK_MAIN({"symplectic", symplectic}, {"stiff", stiff}, {"damped", damped}, {"verlet", verlet},
           {"with_gravity", with_gravity})
