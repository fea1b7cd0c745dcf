/* Physics of the direct chain solver (docs/model.md section 4.4) in the reference engine: a rigid pendulum's
 * large-amplitude period, a double pendulum against an independent solution of its equations of motion, a
 * hanging chain of rods or cables at rest (lengths exact, each link carrying the weight below it), a chain
 * falling onto the ground (energy never rises, no penetration, rods at length, the rest state Cyclone's
 * resolver reaches), and a slack cable carrying nothing. */
#include "scenario/scenario.h"
#include "model/vec3.h"
#include "physics_util.h"

static double distance(sk_vec3 a, sk_vec3 b)
{
    double dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y, dz = (double)a.z - (double)b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Length errors the solver leaves: its Newton iterations converge quadratically, so what is left is the
 * rounding of the last move and of the length itself, a few u of the length. */
#define LENGTH_TOL(l) (32 * PHYS_U * (l))

/* One particle on a rod anchor of length 1.5, released at rest at theta0, symplectic at dt: the first full
 * period (two upward zero crossings of x); the rod's length checked after every step. */
static int swing(double theta0, double dt, double *period)
{
    const double l = 1.5;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -9.81, 0],"
                       " \"resolver\": \"direct\", \"direct\": {\"tolerance\": 0}, \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [%.17g, %.17g, 0],"
                       " \"end\": [%.17g, %.17g, 0], \"mass\": 0.7,"
                       " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0, 0], \"length\": %.17g}}]}",
                       dt, l * sin(theta0), -l * cos(theta0), l * sin(theta0), -l * cos(theta0), l));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_crossings c = {0};
    phys_track rod = {0};
    const double length = (double)s.groups[0].base.anchor_length;
    for (long n = 1; c.count < 2; n++) {
        CHECK(n < 100000);
        sk_ref_rope_step(r);
        sk_vec3 p = sk_ref_rope_position(r, 0);
        PHYS_NEAR(&rod, distance(p, sk_vec3_zero()), length, LENGTH_TOL(length));
        phys_crossings_add(&c, (double)n * dt, (double)p.x);
    }
    phys_report("direct rod pendulum: |p - x| - L after every step", &rod);
    *period = phys_crossings_period(&c);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* T = 4 sqrt(L/g) K(sin(theta0/2)). The projection is first order (each step removes the radial velocity the
 * straight step made, so the swing loses amplitude), so T(dt) = T + c dt + O(dt^2): T(dt) within 1% of T at
 * dt = 1e-3 (measured 0.59%) and 0.5% at half of it (0.30%), the error halving with dt, and Richardson's
 * 2 T(dt/2) - T(dt) within 2e-4 of T (measured 1.1e-4). */
static int pendulum_period(void)
{
    const double theta0 = 1.5, dt = 1e-3, g = 9.81, l = 1.5;
    double t1, t2;
    CHECK_OK(swing(theta0, dt, &t1));
    CHECK_OK(swing(theta0, dt / 2, &t2));
    double period = 4 * sqrt(l / g) * phys_elliptic_k(sin(theta0 / 2));
    int rc = phys_compare("direct rod pendulum theta0 1.5 dt 1e-3: period vs 4 sqrt(L/g) K", t1, period, 1e-2);
    rc |= phys_compare("direct rod pendulum theta0 1.5 dt 5e-4: period vs 4 sqrt(L/g) K", t2, period, 5e-3);
    double order = (t1 - period) / (t2 - period);
    fprintf(stderr, "measured: direct rod pendulum: (T(dt) - T) / (T(dt/2) - T) = %.4f (first order: 2 +- 0.2), %s\n",
            order, SK_REAL_NAME);
    rc |= !(fabs(order - 2) < 0.2);
    rc |= phys_compare("direct rod pendulum: Richardson 2 T(dt/2) - T(dt) vs 4 sqrt(L/g) K", 2 * t2 - t1, period,
                       PHYS_FLOAT ? 1e-3 : 2e-4);
    return rc;
}

/* The double pendulum (two equal masses m on rods of length l from a fixed point) in its angles: the
 * textbook equations of motion, integrated with classical Runge-Kutta at a step small enough to be exact
 * here. Returns the angles at time t. */
static void double_pendulum_rk4(double th1, double th2, double l, double g, double t, double *out1, double *out2)
{
    double y[4] = {th1, th2, 0, 0};
    const int n = 200000;
    const double h = t / n;
    for (int k = 0; k < n; k++) {
        double kk[4][4], tmp[4];
        for (int st = 0; st < 4; st++) {
            const double *src = y;
            if (st > 0) {
                for (int i = 0; i < 4; i++)
                    tmp[i] = y[i] + (st == 3 ? h : h / 2) * kk[st - 1][i];
                src = tmp;
            }
            double a = src[0], b = src[1], wa = src[2], wb = src[3], dl = a - b;
            double den = 3 - cos(2 * dl);
            kk[st][0] = wa;
            kk[st][1] = wb;
            kk[st][2] = (-3 * g * sin(a) - g * sin(a - 2 * b) - 2 * sin(dl) * (wb * wb * l + wa * wa * l * cos(dl))) /
                        (l * den);
            kk[st][3] = (2 * sin(dl) * (wa * wa * l * 2 + g * 2 * cos(a) + wb * wb * l * cos(dl))) / (l * den);
        }
        for (int i = 0; i < 4; i++)
            y[i] += h / 6 * (kk[0][i] + 2 * kk[1][i] + 2 * kk[2][i] + kk[3][i]);
    }
    *out1 = y[0];
    *out2 = y[1];
}

/* The same double pendulum as two particles: particle 0 on a rod anchor at the origin, particle 1 on a rod
 * link from it, symplectic at dt, for t. Returns the angles from the vertical. */
static int double_pendulum_skein(double th1, double th2, double l, double dt, double t, double *out1, double *out2)
{
    sk_scenario s;
    double x0 = l * sin(th1), y0 = -l * cos(th1), x1 = x0 + l * sin(th2), y1 = y0 - l * cos(th2);
    long steps = lround(t / dt);
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -9.81, 0],"
                       " \"resolver\": \"direct\", \"direct\": {\"tolerance\": 0}, \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [%.17g, %.17g, 0],"
                       " \"end\": [%.17g, %.17g, 0], \"mass\": 0.3, \"link\": {\"type\": \"rod\", \"length\": %.17g},"
                       " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0, 0], \"length\": %.17g}}]}",
                       dt, x0, y0, x1, y1, l, l));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_track rods = {0};
    for (long k = 0; k < steps; k++) {
        sk_ref_rope_step(r);
        sk_vec3 p0 = sk_ref_rope_position(r, 0), p1 = sk_ref_rope_position(r, 1);
        PHYS_NEAR(&rods, distance(p0, sk_vec3_zero()), l, LENGTH_TOL(l));
        PHYS_NEAR(&rods, distance(p0, p1), l, LENGTH_TOL(l));
    }
    phys_report("direct double pendulum: both rods' lengths after every step", &rods);
    sk_vec3 p0 = sk_ref_rope_position(r, 0), p1 = sk_ref_rope_position(r, 1);
    *out1 = atan2((double)p0.x, -(double)p0.y);
    *out2 = atan2((double)p1.x - (double)p0.x, -((double)p1.y - (double)p0.y));
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Released at (0.6, -0.3) rad, after 1 s: skein's angles converge to the ODE's at first order (error
 * halves with dt, ratio 2 +- 0.4) and are within 2e-2 rad at dt = 1e-3. */
static int double_pendulum(void)
{
    const double th1 = 0.6, th2 = -0.3, l = 0.8, t = 1;
    double e1, e2, a1, a2, b1, b2;
    double_pendulum_rk4(th1, th2, l, 9.81, t, &e1, &e2);
    CHECK_OK(double_pendulum_skein(th1, th2, l, 1e-3, t, &a1, &a2));
    CHECK_OK(double_pendulum_skein(th1, th2, l, 5e-4, t, &b1, &b2));
    double err1 = fmax(fabs(a1 - e1), fabs(a2 - e2)), err2 = fmax(fabs(b1 - e1), fabs(b2 - e2));
    fprintf(stderr, "measured: direct double pendulum at t = 1 s: angles (%.9f, %.9f) vs ODE (%.9f, %.9f); error %.3g at "
                    "dt 1e-3, %.3g at 5e-4 (ratio %.3f), %s\n",
            a1, a2, e1, e2, err1, err2, err1 / err2, SK_REAL_NAME);
    CHECK(err1 < 2e-2);
    CHECK(fabs(err1 / err2 - 2) < 0.4);
    return 0;
}

/* A chain of n rods (or cables) hangs from a rod anchor, released 0.3 rad off the vertical, damped until
 * it rests (symplectic, damping 0.05): every length stays exact, and at rest link i carries the weight
 * of the n - 1 - i particles below it, t_i = (n - 1 - i) m g (times the damping's factor per step). */
static int hanging(const char *link, const char *label)
{
    const int n = 12;
    const double m = 0.2, g = 9.81, l = 0.25, dt = 1e-3, theta = 0.3;
    const double span = (n - 1) * l;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -9.81, 0],"
                       " \"resolver\": \"direct\", \"direct\": {\"tolerance\": 0}, \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [%.17g, %.17g, 0],"
                       " \"end\": [%.17g, %.17g, 0], \"mass\": %.17g, \"damping\": 0.05, \"link\": {\"type\": \"%s\", \"length\": %.17g},"
                       " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0, 0], \"length\": %.17g}}]}",
                       dt, n, l * sin(theta), -l * cos(theta), (l + span) * sin(theta), -(l + span) * cos(theta), m, link,
                       l, l));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_track lengths = {0}, tensions = {0};
    for (long k = 0; k < 20000; k++) {
        sk_ref_rope_step(r);
        for (int i = 0; i + 1 < n; i++)
            PHYS_NEAR(&lengths, distance(sk_ref_rope_position(r, i), sk_ref_rope_position(r, i + 1)), l, LENGTH_TOL(l));
    }
    sk_rope_diagnostics diag;
    sk_real tension[n];
    sk_ref_rope_diagnose(r, &diag, tension);
    double speed = 0;
    for (int i = 0; i < n; i++)
        speed = fmax(speed, distance(sk_ref_rope_velocity(r, i), sk_vec3_zero()));
    CHECK(speed < (PHYS_FLOAT ? 1e-4 : 1e-9));
    /* The damping scales the step's velocity after gravity adds to it, so the impulse that stops the
     * stretching is D m g dt per particle below, D = damping^dt. */
    const double damp = (double)sk_ref_rope_constants(r)->damp;
    for (int i = 0; i + 1 < n; i++) {
        double weight = (n - 1 - i) * m * g * damp;
        PHYS_NEAR(&tensions, tension[i], weight, (PHYS_FLOAT ? 1e-4 : 1e-12) * weight);
    }
    char text[128];
    snprintf(text, sizeof text, "%s: lengths after every step", label);
    phys_report(text, &lengths);
    snprintf(text, sizeof text, "%s: tension at rest vs the weight below", label);
    phys_report(text, &tensions);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int hanging_rods(void) { return hanging("rod", "direct hanging chain of rods"); }
static int hanging_cables(void) { return hanging("cable", "direct hanging chain of cables"); }

/* A chain of 16 rods, tilted, falls from rest onto the ground with restitution 0 (symplectic, undamped:
 * in free fall it loses m (g dt)^2 / 2 a step): after every step the total energy (kinetic + gravity) is at most the step before's (the
 * impulses take energy out and the position moves never lift the chain above where its energy allows),
 * nothing is below the ground by more than 1e-9 m, and every rod is at length. It comes to rest flat on
 * the ground, as it does with Cyclone's resolver. */
static int falling_chain(const char *resolver, double *rest_y, double *rest_len)
{
    const int n = 16;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -9.81, 0],"
                       " \"ground\": {\"height\": 0, \"restitution\": 0}, \"resolver\": \"%s\", \"groups\": [{\"count\": 1,"
                       " \"particles\": %d, \"start\": [0, 0.5, 0], \"end\": [1.49, 0.1, 0.2], \"mass\": 0.1,"
                       " \"link\": {\"type\": \"rod\", \"length\": \"auto\"}}]}",
                       resolver, n));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    const double len = (double)sk_ref_rope_constants(r)->link_length;
    bool direct = s.resolver == SK_RESOLVER_DIRECT;
    phys_track rise = {0}, below = {0}, lengths = {0};
    sk_rope_diagnostics diag;
    sk_ref_rope_diagnose(r, &diag, NULL);
    double before = (double)diag.kinetic + (double)diag.gravity;
    const double scale = fabs(before); /* the problem's energy: a rise within its round-off is no rise */
    for (long k = 0; k < 3000; k++) {
        sk_ref_rope_step(r);
        sk_ref_rope_diagnose(r, &diag, NULL);
        double energy = (double)diag.kinetic + (double)diag.gravity;
        if (direct) {
            PHYS_NEAR(&rise, fmax(energy - before, 0), 0, 64 * PHYS_U * scale);
            for (int i = 0; i < n; i++)
                PHYS_NEAR(&below, fmax(-(double)sk_ref_rope_position(r, i).y, 0), 0, 1e-9);
            for (int i = 0; i + 1 < n; i++)
                PHYS_NEAR(&lengths, distance(sk_ref_rope_position(r, i), sk_ref_rope_position(r, i + 1)), len,
                          LENGTH_TOL(len));
        }
        before = energy;
    }
    if (direct) {
        phys_report("direct chain falling on the ground: energy rise per step", &rise);
        phys_report("direct chain falling on the ground: depth below the ground", &below);
        phys_report("direct chain falling on the ground: rod lengths", &lengths);
    }
    *rest_y = 0;
    *rest_len = 0;
    for (int i = 0; i < n; i++)
        *rest_y = fmax(*rest_y, fabs((double)sk_ref_rope_position(r, i).y));
    *rest_len = distance(sk_ref_rope_position(r, 0), sk_ref_rope_position(r, n - 1));
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* The two resolvers' rest states: flat on the ground (|y| within Cyclone's penetration, 2e-4 m measured
 * 1e-5) and as long end to end (within Cyclone's rod stretch, 1e-3 relative). */
static int ground_fall(void)
{
    double y_direct, y_cyclone, span_direct, span_cyclone;
    CHECK_OK(falling_chain("direct", &y_direct, &span_direct));
    CHECK_OK(falling_chain("cyclone", &y_cyclone, &span_cyclone));
    fprintf(stderr, "measured: chain at rest on the ground: max |y| direct %.3g, cyclone %.3g; end-to-end direct %.9f, "
                    "cyclone %.9f, %s\n",
            y_direct, y_cyclone, span_direct, span_cyclone, SK_REAL_NAME);
    CHECK(y_direct < 1e-9 && y_cyclone < 2e-4);
    CHECK(fabs(span_direct - span_cyclone) < 1e-3 * span_cyclone);
    return 0;
}

/* A cable chain released with its particles closer than the cable length (slack everywhere), no anchor:
 * it falls freely, every tension 0 and every particle's y exactly the free fall's, until the first
 * cable goes taut; a taut one then holds its length (the hanging case above). */
static int slack_cable(void)
{
    const int n = 6;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -9.81, 0],"
                       " \"resolver\": \"direct\", \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0, 0, 0],"
                       " \"end\": [0.5, 0, 0], \"mass\": 0.2, \"link\": {\"type\": \"cable\", \"length\": 0.2}}]}",
                       n));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    double v = 0, y = 0;
    for (long k = 0; k < 500; k++) {
        sk_ref_rope_step(r);
        v = v - 9.81 * 1e-3;
        y = y + v * 1e-3;
        sk_rope_diagnostics diag;
        sk_real tension[n];
        sk_ref_rope_diagnose(r, &diag, tension);
        for (int i = 0; i + 1 < n; i++)
            CHECK(tension[i] == 0);
        for (int i = 0; i < n; i++)
            CHECK(fabs((double)sk_ref_rope_position(r, i).y - y) <= 1e3 * PHYS_U * (fabs(y) + 1));
        CHECK(sk_ref_rope_iterations(r) >= 1);
    }
    fprintf(stderr, "measured: direct slack cable chain: 500 steps of free fall, every tension 0, %s\n", SK_REAL_NAME);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* direct.tolerance: W2's chain (31 rods of 0.1 m from a rod anchor of 0.5 m, falling onto the ground) with the
 * default tolerance 1e-12 and with 0 (every iteration). With 1e-12 every rod and the anchor is within 1e-12 of
 * its length after every step (double; a float build's round-off is above it, so it runs every iteration),
 * and the rope makes fewer solves than with 0. */
static int w2_chain(double tolerance, double *worst, long *solves, int *most)
{
    const int n = 32;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"cyclone\", \"gravity\": [0, -9.81, 0],"
                       " \"ground\": {\"height\": 0, \"restitution\": 0.2}, \"resolver\": \"direct\","
                       " \"direct\": {\"tolerance\": %.17g}, \"groups\": [{\"count\": 1, \"particles\": %d,"
                       " \"start\": [0, 2, 0], \"end\": [3.1, 2, 0], \"mass\": 0.1, \"damping\": 0.99,"
                       " \"link\": {\"type\": \"rod\", \"length\": 0.1},"
                       " \"anchor\": {\"type\": \"rod\", \"point\": [0, 2.5, 0], \"length\": 0.5}}]}",
                       tolerance, n));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    *worst = 0;
    *solves = 0;
    *most = 0;
    const sk_vec3 anchor = sk_vec3_make(0, (sk_real)2.5, 0);
    for (long k = 0; k < 1500; k++) {
        sk_ref_rope_step(r);
        double off = fabs(distance(sk_ref_rope_position(r, 0), anchor) - 0.5) / 0.5;
        for (int i = 0; i + 1 < n; i++)
            off = fmax(off, fabs(distance(sk_ref_rope_position(r, i), sk_ref_rope_position(r, i + 1)) - 0.1) / 0.1);
        *worst = fmax(*worst, off);
        *solves += sk_ref_rope_iterations(r);
        *most = sk_ref_rope_iterations(r) > *most ? sk_ref_rope_iterations(r) : *most;
    }
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int tolerance(void)
{
    double worst_tol, worst_all;
    long solves_tol, solves_all;
    int most_tol, most_all;
    CHECK_OK(w2_chain(1e-12, &worst_tol, &solves_tol, &most_tol));
    CHECK_OK(w2_chain(0, &worst_all, &solves_all, &most_all));
    fprintf(stderr, "measured: W2 chain, 1500 steps: tolerance 1e-12: largest relative length error %.3g, %ld solves"
                    " (%d at most in a step); tolerance 0: %.3g, %ld solves (%d at most), %s\n",
            worst_tol, solves_tol, most_tol, worst_all, solves_all, most_all, SK_REAL_NAME);
    /* every iteration: 4.5e-14 in double (the impact is not at round-off after 3) */
    CHECK(worst_all <= fmax(1e-13, 64 * PHYS_U));
    CHECK(worst_tol <= fmax(1e-12 + 4 * PHYS_U, 64 * PHYS_U));
    CHECK(PHYS_FLOAT ? solves_tol == solves_all : solves_tol < solves_all);
    return 0;
}

CHECK_MAIN({"pendulum_period", pendulum_period}, {"double_pendulum", double_pendulum}, {"hanging_rods", hanging_rods},
           {"hanging_cables", hanging_cables}, {"ground_fall", ground_fall}, {"slack_cable", slack_cable},
           {"tolerance", tolerance})
