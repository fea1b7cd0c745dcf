/* Physics: a ball dropped on the ground with restitution e rebounds to e^2 of its height within a bound
 * derived from the cyclone scheme, to the exact discrete apex, and a ball at rest neither sinks nor
 * creeps. */
#include "scenario/scenario.h"
#include "physics_util.h"

/* One ball of mass 0.2 over the ground at height 0.25 (restitution e), released at rest h0 above it. */
static int load_ball(sk_scenario *s, const char *gravity_as, double h0, double e, double dt, long steps)
{
    return phys_load(
        s,
        "{\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"cyclone\", \"gravity\": [0, -9.81, 0],"
        " \"gravity_as\": \"%s\", \"ground\": {\"height\": 0.25, \"restitution\": %.17g},"
        " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0.7, %.17g, -0.2], \"end\": [0.7, %.17g, -0.2],"
        " \"mass\": 0.2}]}",
        dt, steps, gravity_as, e, 0.25 + h0, 0.25 + h0);
}

/* The cyclone scheme from rest at height h0 (above the ground): p_n = h0 - g dt^2 n(n-1)/2,
 * v_n = -n g dt. The contact comes after the first step n with p_n < 0; it reverses vs = v_n to
 * -e v_n and, with gravity as acceleration, takes back the e g dt this step's gravity added:
 *   V = e (n - 1) g dt   (acceleration)      V = e n g dt   (force: the particle's field is 0)
 * and sets p to the ground. The rise from there is p_j = V j dt - g dt^2 j(j-1)/2, whose maximum over
 * real j is V^2/(2g) + V dt/2 + g dt^2/8, over integer j up to g dt^2/8 less.
 * Against the continuous e^2: with U = (n - 1) g dt, n's definition gives
 * h0 in [U^2/(2g) - U dt/2, U^2/(2g) + U dt/2), so
 *   |h1 - e^2 h0| <= e^2 |(V/e)^2 - U^2| / (2g) + e^2 U dt/2 + V dt/2 + g dt^2/8. */
static int bounce(const char *gravity_as)
{
    /* h0 = 1.002 sits mid-way between the drops of 452 and 453 steps (0.99988 and 1.00432), so the
     * contact step is certain even under float's rounding bound. */
    const double h0 = 1.002, e = 0.5, dt = 1e-3;
    bool force = strcmp(gravity_as, "force") == 0;
    sk_scenario s;
    CHECK_OK(load_ball(&s, gravity_as, h0, e, dt, 1000));
    double g = -(double)s.gravity.y, h = s.dt, ground = s.ground_height;
    double height0 = (double)s.groups[0].base.start.y - ground;
    double restitution = s.ground_restitution;

    long n = 1;
    while (height0 - g * h * h * (double)n * (double)(n - 1) / 2 >= 0)
        n++;
    double u_fall = (double)(n - 1) * g * h;
    double v_up = restitution * (force ? (double)n * g * h : u_fall);
    double apex = 0;
    long j_apex = 0;
    for (long j = 1; (double)j * g * h <= v_up + g * h; j++) {
        double p = v_up * (double)j * h - g * h * h * (double)j * (double)(j - 1) / 2;
        if (p > apex) {
            apex = p;
            j_apex = j;
        }
    }
    /* Rounding of the simulated path (the free-fall bound of test_physics_free_fall.c over the
     * n + j_apex steps, |p| <= |p0| and |v| <= sqrt(2 g h0) + g dt, plus 4 u of V at the bounce carried
     * over j_apex steps). The contact step must be clear of that rounding for n to be certain. */
    double steps = (double)(n + j_apex), p_max = fabs((double)s.groups[0].base.start.y) + 1;
    double v_max = sqrt(2 * g * height0) + 2 * g * h;
    double tol = 2 * (steps * PHYS_U * (p_max + v_max * h) + 3 * steps * steps * PHYS_U * v_max * h) +
                 4 * PHYS_U * v_up * (double)j_apex * h;
    CHECK(height0 - g * h * h * (double)(n - 1) * (double)(n - 2) / 2 > tol);
    CHECK(height0 - g * h * h * (double)n * (double)(n - 1) / 2 < -tol);

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    double top = 0;
    bool bounced = false;
    for (long k = 1; k <= n + j_apex + 50; k++) {
        sk_ref_rope_step(r);
        sk_vec3 p = sk_ref_rope_position(r, 0);
        CHECK(p.x == s.groups[0].base.start.x && p.z == s.groups[0].base.start.z);
        if (!bounced && sk_ref_rope_contacts(r) == 1) {
            bounced = true;
            CHECK_NEAR(sk_ref_rope_velocity(r, 0).y, v_up, 4 * PHYS_U * v_up + tol / h);
        }
        CHECK(bounced == (k >= n)); /* the contact is generated at step n exactly */
        if (bounced)
            top = fmax(top, (double)p.y - ground);
    }
    phys_track t = {0};
    PHYS_NEAR(&t, top, apex, tol);
    char label[96];
    snprintf(label, sizeof label, "bounce gravity as %s, apex vs the discrete closed form", gravity_as);
    phys_report(label, &t);

    double big_v = v_up / restitution;
    double bound = restitution * restitution * fabs(big_v * big_v - u_fall * u_fall) / (2 * g) +
                   restitution * restitution * u_fall * h / 2 + v_up * h / 2 + g * h * h / 8;
    snprintf(label, sizeof label, "bounce gravity as %s, h1 / h0 vs e^2", gravity_as);
    int rc = phys_compare(label, top / height0, restitution * restitution,
                          (bound + tol) / height0 / (restitution * restitution));
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    CHECK(rc == 0);
    return 0;
}

/* A ball placed on the ground at rest. From the contact rule above, a flight that starts on the ground
 * with V = x g dt ends at the first step i with V i < g dt i(i-1)/2, i - 1 = floor(2x) + 1, and the
 * next flight starts with x' = e (floor(2x) + 1 - x) <= e (x + 1) (acceleration; with gravity as force
 * the bounce also keeps this step's g dt: x' <= e (x + 2)). From x = 0 this never exceeds
 * x_max = e / (1 - e) (force: 2e / (1 - e)), so the ball stays below g dt^2 (x^2/2 + x/2 + 1/8) above
 * the ground; and each contact puts it back on the ground, so it never ends a step below it by more
 * than the rounding of that move (4 u (|h| + penetration)). Along the ground nothing acts: x and z keep
 * their bits. */
static int rest(const char *gravity_as)
{
    const double e = 0.5, dt = 1e-3;
    const long steps = 4000;
    bool force = strcmp(gravity_as, "force") == 0;
    sk_scenario s;
    CHECK_OK(load_ball(&s, gravity_as, 0, e, dt, steps));
    double g = -(double)s.gravity.y, h = s.dt, ground = s.ground_height;
    CHECK(s.groups[0].base.start.y == s.ground_height);
    double x_max = (force ? 2 * e : e) / (1 - e);
    double ceiling = g * h * h * (x_max * x_max / 2 + x_max / 2 + 0.125);
    double depth = g * h * h * (x_max + 2); /* the deepest a step can end before its contact: |v| dt */
    double sink = 4 * PHYS_U * (fabs(ground) + depth);
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    double low = 0, high = 0;
    for (long k = 1; k <= steps; k++) {
        sk_ref_rope_step(r);
        sk_vec3 p = sk_ref_rope_position(r, 0);
        CHECK(p.x == s.groups[0].base.start.x && p.z == s.groups[0].base.start.z);
        double y = (double)p.y - ground;
        low = fmin(low, y);
        high = fmax(high, y);
        if (!(y >= -sink && y <= ceiling + sink)) {
            fprintf(stderr, "step %ld: %.17g above the ground, allowed [%.3g, %.3g]\n", k, y, -sink, ceiling + sink);
            return 1;
        }
    }
    fprintf(stderr,
            "measured: resting ball, gravity as %s: height above the ground in [%.3g, %.3g] m over %ld steps, "
            "allowed [%.3g, %.3g], %s\n",
            gravity_as, low, high, steps, -sink, ceiling + sink, SK_REAL_NAME);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int bounce_acceleration(void) { return bounce("acceleration"); }
static int bounce_force(void) { return bounce("force"); }
static int rest_acceleration(void) { return rest("acceleration"); }
static int rest_force(void) { return rest("force"); }

CHECK_MAIN({"bounce_acceleration", bounce_acceleration}, {"bounce_force", bounce_force},
           {"rest_acceleration", rest_acceleration}, {"rest_force", rest_force})
