/* Physics of ground friction (docs/model.md section 4.2): a particle sliding at v0 stops after
 * v0^2 / (2 mu_k g), to the discrete scheme's closed form and to the ODE's distance within the step's
 * discretisation; a rope pulled along the ground by less than mu_s m g stays put (zero velocity after every
 * step; it creeps only by the one step's pull that integration applies before the contact phase), by more it
 * slides with acceleration pull / m - mu_k g; friction never creates energy. Each case with Cyclone's resolver
 * and with the direct chain solver (section 4.4), whose friction follows the same rule with the ground row's
 * impulse: on these contacts (a lone particle, a level rod chain) its impulses are Cyclone's, so the same
 * closed forms hold with the same tolerances (the sticking rope's positions to the bit); and a chain landing
 * sideways keeps its rods at length; and on exact ties of the stick rule the particle sticks. */
#include "scenario/scenario.h"
#include "model/vec3.h"
#include "physics_util.h"

/* The top-level key that selects the direct chain solver; "" is Cyclone's resolver. */
#define DIRECT "\"resolver\": \"direct\", "

/* The resolver of the case being run: "" or DIRECT. */
static const char *resolver = "";

/* One particle of mass 0.5 (w = 2: the interpenetration move (pen / w) w is exact) on the ground at height
 * 0, sliding at (vx, 0, vz), restitution 0. */
static int load_slider(sk_scenario *s, const char *integrator, double vx, double vz, double mu_s, double mu_k,
                       double dt, long steps)
{
    return phys_load(s,
                     "{%s\"skein\": 1, \"dt\": %.17g, \"steps\": %ld, \"integrator\": \"%s\", \"gravity\": [0, -9.81, 0],"
                     " \"ground\": {\"height\": 0, \"restitution\": 0,"
                     " \"friction\": {\"static\": %.17g, \"kinetic\": %.17g}},"
                     " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
                     " \"mass\": 0.5, \"velocity\": [%.17g, 0, %.17g]}]}",
                     resolver, dt, steps, integrator, mu_s, mu_k, vx, vz);
}

/* Symplectic, resting on the ground: each step gravity's v.y = -g dt takes the particle below the plane,
 * its contact is resolved with dvn = g dt (restitution 0, the acceleration term leaves 0), so friction
 * takes delta = mu_k g dt off the speed each step (while it exceeds mu_s g dt) after the position has
 * moved by the speed before it. The speeds are u_k = v0 - k delta, k = 0 .. K with K the first k where
 * u_k <= mu_s g dt; the step after K sticks, so the distance is
 *     D = dt sum_{k=0..K} u_k = dt ((K + 1) v0 - delta K (K + 1) / 2),
 * and from then on the particle never moves. Against the ODE's v0^2 / (2 mu_k g): with mu_s = mu_k,
 * K = ceil(v0 / delta) - 1 and D - v0^2 / (2 mu_k g) lies in [0, v0 dt / 2 + delta dt]... checked as
 * |D - v0^2 / (2 mu_k g)| <= v0 dt. Rounding: each step's speed carries at most 3 u of relative error
 * (the factor (s - slow) / s and the product), which adds up to 3 u k v0 after k steps, and the distance
 * to dt sum of those, 3 u v0 dt K^2 / 2. */
static int slide_distance(void)
{
    const double v0 = 2, mu = 0.4, dt = 1e-3;
    const long steps = 1000;
    sk_scenario s;
    CHECK_OK(load_slider(&s, "symplectic", v0, 0, mu, mu, dt, steps));
    const double g = 9.81, gdt = (double)(sk_real)((sk_real)-9.81 * (sk_real)dt), delta = mu * -gdt;
    long K = 0;
    while (v0 - (double)K * delta > mu * -gdt)
        K++;
    const double closed = dt * ((double)(K + 1) * v0 - delta * (double)K * (double)(K + 1) / 2);
    const double ode = v0 * v0 / (2 * mu * g);
    const double rounding = 3 * PHYS_U * v0 * dt * (double)K * (double)K / 2 + 8 * PHYS_U * closed;

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    phys_track speed = {0};
    long stopped = -1;
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        sk_vec3 v = sk_ref_rope_velocity(r, 0), p = sk_ref_rope_position(r, 0);
        CHECK(p.y == 0 && v.y == 0 && p.z == 0 && v.z == 0);
        if (n <= K)
            PHYS_NEAR(&speed, v.x, v0 - (double)n * delta, 3 * PHYS_U * v0 * (double)n);
        if (stopped < 0 && v.x == 0)
            stopped = n;
        if (stopped > 0)
            CHECK(v.x == 0);
    }
    CHECK(stopped == K + 1);
    const double d = (double)sk_ref_rope_position(r, 0).x;
    phys_track t = {0}, o = {0};
    PHYS_NEAR(&t, d, closed, rounding);
    PHYS_NEAR(&o, d, ode, v0 * dt);
    fprintf(stderr, "measured: slide at %g m/s, mu %g: stopped after %ld steps at %.9f m (scheme %.9f, ODE %.9f)\n",
            v0, mu, stopped, d, closed, ode);
    phys_report("sliding distance against the scheme's closed form", &t);
    phys_report("sliding distance against v0^2 / (2 mu_k g)", &o);
    phys_report("speed during the slide, v0 - n mu_k g dt", &speed);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Cyclone (position first): a particle resting on the ground is below it only every other step, where
 * the contact takes out 2 g dt, so friction takes 2 mu_k g dt every two steps: the same mean deceleration
 * mu_k g. The slide, in any direction along the ground, stops within one pair of steps' travel and the
 * discretisation's v0 dt of the ODE's distance (2 v0 dt in all), the direction of travel held to rounding. */
static int slide_cyclone(void)
{
    const double v0 = 1.5, mu_s = 0.6, mu_k = 0.3, dt = 1e-3, g = 9.81;
    const double cx = 0.6, cz = -0.8; /* the direction of travel */
    const long steps = 1000;
    sk_scenario s;
    CHECK_OK(load_slider(&s, "cyclone", v0 * cx, v0 * cz, mu_s, mu_k, dt, steps));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_advance(r, steps);
    sk_vec3 p = sk_ref_rope_position(r, 0), v = sk_ref_rope_velocity(r, 0);
    CHECK(v.x == 0 && v.z == 0);
    const double d = sqrt((double)p.x * (double)p.x + (double)p.z * (double)p.z);
    const double ode = v0 * v0 / (2 * mu_k * g);
    phys_track t = {0}, dir = {0};
    PHYS_NEAR(&t, d, ode, 2 * v0 * dt);
    /* the direction: the velocity's rounding to real, then at most one rounding of each component a step
     * (the friction factor scales both alike) */
    PHYS_NEAR(&dir, (double)p.x * cz - (double)p.z * cx, 0, PHYS_U * d * (double)(4 + steps));
    fprintf(stderr, "measured: cyclone slide at %g m/s, mu_k %g: %.9f m (ODE %.9f)\n", v0, mu_k, d, ode);
    phys_report("cyclone sliding distance against v0^2 / (2 mu_k g)", &t);
    phys_report("cyclone slide off its direction", &dir);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* A rope of 8 particles joined by rods, lying on the ground along x, pulled along x by a uniform field
 * gx on every particle (gravity (gx, -g, 0): each particle feels m gx along the ground and m g into it),
 * symplectic, restitution 0. dt = 2^-10 and gx = 2^k make the pull per step, gx dt and (gx dt) dt,
 * exact. */
static int load_pulled(sk_scenario *s, double gx, double mu_s, double mu_k, long steps)
{
    return phys_load(s,
                     "{%s\"skein\": 1, \"dt\": 0.0009765625, \"steps\": %ld, \"integrator\": \"symplectic\","
                     " \"gravity\": [%.17g, -9.81, 0],"
                     " \"ground\": {\"height\": 0, \"restitution\": 0,"
                     " \"friction\": {\"static\": %.17g, \"kinetic\": %.17g}},"
                     " \"groups\": [{\"count\": 1, \"particles\": 8, \"start\": [0, 0, 0], \"end\": [0.875, 0, 0],"
                     " \"mass\": 0.5, \"link\": {\"type\": \"rod\", \"length\": 0.125}}]}",
                     resolver, steps, gx, mu_s, mu_k);
}

/* Pulled by gx = 2 < mu_s g = 4.905: every step integration moves each particle by (gx dt) dt = 2^-19 m,
 * then the contact's friction (dvn = g dt) holds: |v_t| = gx dt <= mu_s g dt, and v_t is removed. So
 * after every step every velocity is exactly 0 and particle i sits at x_i + n 2^-19 to the bit: the
 * rope stays put but for this creep of gx dt per second of pull, which vanishes with dt (Cyclone's
 * resolver acts on velocities after the step's positions have moved). The same rope pulled by 8 > mu_s g
 * slides (next case). */
static int stick_below_mu_s(void)
{
    const long steps = 2048; /* 2 s */
    sk_scenario s;
    CHECK_OK(load_pulled(&s, 2, 0.5, 0.4, steps));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        for (int i = 0; i < 8; i++) {
            sk_vec3 p = sk_ref_rope_position(r, i), v = sk_ref_rope_velocity(r, i);
            CHECK(v.x == 0 && v.y == 0 && v.z == 0);
            CHECK(p.x == (sk_real)(0.125 * i + (double)n * 0x1p-19) && p.y == 0 && p.z == 0);
        }
    }
    fprintf(stderr, "measured: rope pulled by 0.41 mu_s m g: velocity 0 after each of %ld steps, creep %.6g m"
                    " (n gx dt^2, exact), %s\n",
            steps, (double)steps * 0x1p-19, SK_REAL_NAME);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Pulled by gx = 8 > mu_s g = 4.905 (mu_k = 0.4): each step the pull adds gx dt, the position moves by
 * that speed, then friction takes mu_k g dt: after step n the speed is u_n = n a dt, a = gx - mu_k g, and
 * x_n = dt sum_{k=1..n} (u_(k-1) + gx dt) = dt^2 (a n (n - 1) / 2 + gx n); the ODE's a t^2 / 2 is (gx - a / 2) t dt
 * below it (checked within gx t dt). Rounding: each step adds at most 4 u (u_n + gx dt) to the speed (the sum and the
 * friction factor with its product), accumulated over n steps. Every particle slides
 * alike; each step adds at most u (|p| <= 1) of rounding to a position. */
static int slip_above_mu_s(void)
{
    const long steps = 1024; /* 1 s */
    const double gx = 8, mu_k = 0.4, dt = 0x1p-10;
    sk_scenario s;
    CHECK_OK(load_pulled(&s, gx, 0.5, mu_k, steps));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    const double g = -(double)s.gravity.y, a = gx - mu_k * g;
    phys_track sv = {0}, sx = {0}, ode = {0};
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        const double u = a * (double)n * dt, x = dt * dt * (a * (double)n * (double)(n - 1) / 2 + gx * (double)n);
        const double tol_u = 4 * PHYS_U * (double)n * (u + gx * dt);
        for (int i = 0; i < 8; i++) {
            sk_vec3 p = sk_ref_rope_position(r, i), v = sk_ref_rope_velocity(r, i);
            PHYS_NEAR(&sv, v.x, u, tol_u);
            PHYS_NEAR(&sx, (double)p.x - 0.125 * i, x, tol_u * (double)n * dt + 2 * PHYS_U * (double)n * (1 + x));
        }
        const double t = (double)n * dt;
        PHYS_NEAR(&ode, (double)sk_ref_rope_position(r, 0).x, a * t * t / 2, gx * t * dt);
    }
    fprintf(stderr, "measured: rope pulled by 1.63 mu_s m g: slid %.6f m in 1 s (a = gx - mu_k g = %.4f)\n",
            (double)sk_ref_rope_position(r, 0).x, a);
    phys_report("sliding rope's speed, n (gx - mu_k g) dt", &sv);
    phys_report("sliding rope's travel, the scheme's closed form", &sx);
    phys_report("sliding rope's travel, a t^2 / 2", &ode);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Friction removes energy and never adds it: a particle sliding in an oblique direction (cyclone and
 * symplectic), and a rod chain thrown sideways onto the ground (symplectic), restitution 0, coefficients
 * from slight to sticking. The tangential speed of a particle never grows in a step where it is on the
 * ground, so the slider's kinetic energy along the ground is non-increasing at every step; the chain's
 * kinetic plus gravitational energy is compared with the same chain on a frictionless ground at each
 * step: it never exceeds it. */
static int no_energy_created(void)
{
    static const double mus[][2] = {{0.05, 0.02}, {0.3, 0.3}, {0.9, 0.5}, {2, 1.5}};
    static const char *const integrators[] = {"symplectic", "cyclone"};
    long checks = 0;
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 2; j++) {
            sk_scenario s;
            CHECK_OK(load_slider(&s, integrators[j], 1.2, -0.7, mus[k][0], mus[k][1], 1e-3, 800));
            sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
            CHECK(r);
            sk_vec3 v = sk_ref_rope_velocity(r, 0);
            double last = (double)v.x * (double)v.x + (double)v.z * (double)v.z;
            for (long n = 0; n < 800; n++) {
                sk_ref_rope_step(r);
                v = sk_ref_rope_velocity(r, 0);
                const double t2 = (double)v.x * (double)v.x + (double)v.z * (double)v.z;
                CHECK(t2 <= last);
                checks++;
                last = t2;
            }
            CHECK(last < 1.2 * 1.2 + 0.7 * 0.7);
            sk_ref_rope_destroy(r);
            sk_scenario_free(&s);
        }
    fprintf(stderr, "measured: sliding particle, tangential kinetic energy non-increasing over %ld steps\n", checks);

    /* The chain: 10 particles, rods, dropped 5 cm onto the ground moving sideways. */
    const char *chain = "{%s\"skein\": 1, \"dt\": 1e-3, \"steps\": 1500, \"integrator\": \"symplectic\","
                        " \"gravity\": [0, -9.81, 0], \"ground\": {\"height\": 0, \"restitution\": 0%s},"
                        " \"groups\": [{\"count\": 1, \"particles\": 10, \"start\": [0, 0.05, 0],"
                        " \"end\": [0.9, 0.05, 0.2], \"mass\": 0.1, \"velocity\": [0.5, 0, 1.5],"
                        " \"link\": {\"type\": \"rod\", \"length\": \"auto\"}}]}";
    sk_scenario sf, s0;
    CHECK_OK(phys_load(&sf, chain, resolver, ", \"friction\": {\"static\": 0.5, \"kinetic\": 0.4}"));
    CHECK_OK(phys_load(&s0, chain, resolver, ""));
    sk_ref_rope *rf = sk_ref_rope_create(&sf, 0, 0), *r0 = sk_ref_rope_create(&s0, 0, 0);
    CHECK(rf && r0);
    double margin = 1e300;
    for (long n = 1; n <= 1500; n++) {
        sk_ref_rope_step(rf);
        sk_ref_rope_step(r0);
        sk_rope_diagnostics df, d0;
        sk_ref_rope_diagnose(rf, &df, NULL);
        sk_ref_rope_diagnose(r0, &d0, NULL);
        const double ef = (double)df.kinetic + (double)df.gravity, e0 = (double)d0.kinetic + (double)d0.gravity;
        CHECK(ef <= e0 + 64 * PHYS_U * fabs(e0));
        margin = fmin(margin, e0 - ef);
    }
    sk_rope_diagnostics df;
    sk_ref_rope_diagnose(rf, &df, NULL);
    fprintf(stderr, "measured: rod chain sliding: energy never above the frictionless chain's (closest %.3g J),"
                    " kinetic left %.3g J\n", margin, (double)df.kinetic);
    CHECK(df.kinetic < 1e-3);
    sk_ref_rope_destroy(rf);
    sk_ref_rope_destroy(r0);
    sk_scenario_free(&sf);
    sk_scenario_free(&s0);
    return 0;
}

/* The direct solver only: a tilted chain of 16 rods lands sideways on the ground and slides to a stop
 * (symplectic, restitution 0). Friction changes the particles on the ground tangentially after the velocity
 * solve, so the rods between particles on and off the ground, or slowed differently, briefly have velocities
 * off their rows; the position stage's Newton iterations still put every rod back at length after every
 * step (to the solver's round-off, as without friction), nothing is below the ground beyond the round-off
 * of positions of about 1 m, the energy never rises, and the chain ends at rest having travelled less than on a frictionless ground. */
static double chain_distance(sk_vec3 a, sk_vec3 b)
{
    const double dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y, dz = (double)a.z - (double)b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static int direct_sliding_chain(void)
{
    const int n = 16;
    const long steps = 3000;
    const char *chain = "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"symplectic\", \"resolver\": \"direct\","
                        " \"direct\": {\"tolerance\": 0}, \"gravity\": [0, -9.81, 0], \"ground\": {\"height\": 0, \"restitution\": 0%s},"
                        " \"groups\": [{\"count\": 1, \"particles\": 16, \"start\": [0, 0.3, 0], \"end\": [1.49, 0.05, 0.2],"
                        " \"mass\": 0.1, \"velocity\": [1.5, 0, 1], \"link\": {\"type\": \"rod\", \"length\": \"auto\"}}]}";
    sk_scenario sf, s0;
    CHECK_OK(phys_load(&sf, chain, ", \"friction\": {\"static\": 0.5, \"kinetic\": 0.4}"));
    CHECK_OK(phys_load(&s0, chain, ""));
    sk_ref_rope *rf = sk_ref_rope_create(&sf, 0, 0), *r0 = sk_ref_rope_create(&s0, 0, 0);
    CHECK(rf && r0);
    const double len = (double)sk_ref_rope_constants(rf)->link_length;
    const sk_vec3 start = sk_ref_rope_position(rf, 0);
    phys_track rise = {0}, below = {0}, lengths = {0};
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(rf, &d, NULL);
    double before = (double)d.kinetic + (double)d.gravity;
    const double scale = fabs(before);
    for (long k = 0; k < steps; k++) {
        sk_ref_rope_step(rf);
        sk_ref_rope_step(r0);
        sk_ref_rope_diagnose(rf, &d, NULL);
        const double energy = (double)d.kinetic + (double)d.gravity;
        PHYS_NEAR(&rise, fmax(energy - before, 0), 0, 64 * PHYS_U * scale);
        before = energy;
        for (int i = 0; i < n; i++)
            PHYS_NEAR(&below, fmax(-(double)sk_ref_rope_position(rf, i).y, 0), 0, 8 * PHYS_U);
        for (int i = 0; i + 1 < n; i++)
            PHYS_NEAR(&lengths, chain_distance(sk_ref_rope_position(rf, i), sk_ref_rope_position(rf, i + 1)), len,
                      32 * PHYS_U * len);
    }
    const double travel_f = chain_distance(sk_ref_rope_position(rf, 0), start);
    const double travel_0 = chain_distance(sk_ref_rope_position(r0, 0), start);
    fprintf(stderr, "measured: direct chain sliding: kinetic energy left %.3g J, particle 0 travelled %.6f m (%.6f m"
                    " frictionless), %s\n",
            (double)d.kinetic, travel_f, travel_0, SK_REAL_NAME);
    phys_report("direct sliding chain: energy rise per step", &rise);
    phys_report("direct sliding chain: depth below the ground", &below);
    phys_report("direct sliding chain: rod lengths", &lengths);
    CHECK(d.kinetic < 1e-12); /* at rest (double: exactly 0; float: the rounding of v.y, 7e-19 J) */
    CHECK(travel_f < 0.5 * travel_0);
    sk_ref_rope_destroy(rf);
    sk_ref_rope_destroy(r0);
    sk_scenario_free(&sf);
    sk_scenario_free(&s0);
    return 0;
}

/* The stick rule at its tie, |v_t| = mu_s dvn exactly (docs/model.md section 4.2: stick when
 * |v_t| <= mu_s dvn). gravity 8, dt = 2^-10, mass 0.5 (w = 2), restitution 0: a particle resting on the ground
 * at height 0 gets v.y = -2^-7 from the step and the contact's dvn = 2^-7 exactly, so hold = mu_s 2^-7 is
 * exact for mu_s = 1/4, 1/2, 5/8, 5/4, and so is the speed sqrt(vx^2 + vz^2) of a tangential velocity along
 * an axis or along (3, 4) / 5 (a Pythagorean triple) of length hold. On each such tie the particle sticks:
 * v = 0 after the first step and after every one after it; a speed a relative 2^-20 above it slips to
 * speed - mu_k dvn (mu_k = mu_s / 2) along its direction, one as far below it sticks. With Cyclone's resolver
 * and with the direct solver (a lone particle's ground row gives Cyclone's impulse). */
static int load_tie(sk_scenario *s, double vx, double vz, double mu_s)
{
    return phys_load(s,
                     "{%s\"skein\": 1, \"dt\": 0.0009765625, \"steps\": 3, \"integrator\": \"symplectic\","
                     " \"gravity\": [0, -8, 0], \"ground\": {\"height\": 0, \"restitution\": 0,"
                     " \"friction\": {\"static\": %.17g, \"kinetic\": %.17g}},"
                     " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
                     " \"mass\": 0.5, \"velocity\": [%.17g, 0, %.17g]}]}",
                     resolver, mu_s, mu_s / 2, vx, vz);
}

/* The tangential velocities of length 1 on the grid: the axes, and (3, 4) / 5 turned and mirrored. */
static const double tie_directions[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0.6, 0.8}, {-0.8, 0.6}, {0.8, -0.6}, {-0.6, -0.8}};

/* Three steps from (vx, 0, vz): whether the first stopped it (*stuck, checked to hold for the next two) and
 * its tangential speed after the first (*after). */
static int run_tie(double vx, double vz, double mu_s, int *stuck, double *after)
{
    sk_scenario s;
    CHECK_OK(load_tie(&s, vx, vz, mu_s));
    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    sk_ref_rope_step(r);
    sk_vec3 v = sk_ref_rope_velocity(r, 0);
    CHECK(v.y == 0);
    *after = sqrt((double)v.x * (double)v.x + (double)v.z * (double)v.z);
    *stuck = v.x == 0 && v.z == 0;
    sk_ref_rope_step(r);
    sk_ref_rope_step(r);
    v = sk_ref_rope_velocity(r, 0);
    if (*stuck)
        CHECK(v.x == 0 && v.y == 0 && v.z == 0);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int stick_ties(void)
{
    static const double mus[] = {0.25, 0.5, 0.625, 1.25};
    int ties = 0;
    for (int k = 0; k < 4; k++) {
        const double hold = mus[k] * 0x1p-7, slow = mus[k] / 2 * 0x1p-7;
        /* (3, 4) / 5 of hold is exact only where hold is a multiple of 5 */
        const int directions = mus[k] == 0.625 || mus[k] == 1.25 ? 8 : 4;
        for (int d = 0; d < directions; d++) {
            const double ux = tie_directions[d][0], uz = tie_directions[d][1];
            int stuck;
            double after;
            CHECK_OK(run_tie(hold * ux, hold * uz, mus[k], &stuck, &after));
            if (!stuck) {
                fprintf(stderr, "mu_s %g, direction (%g, %g): |v_t| = mu_s dvn = %g slid on at %g\n", mus[k], ux, uz,
                        hold, after);
                return 1;
            }
            ties++;
            const double above = hold * (1 + 0x1p-20), below = hold * (1 - 0x1p-20);
            CHECK_OK(run_tie(above * ux, above * uz, mus[k], &stuck, &after));
            CHECK(!stuck);
            phys_track t = {0};
            PHYS_NEAR(&t, after, above - slow, 8 * PHYS_U * above);
            CHECK_OK(run_tie(below * ux, below * uz, mus[k], &stuck, &after));
            CHECK(stuck);
        }
    }
    fprintf(stderr, "measured: %d exact stick ties held (v = 0), a relative 2^-20 above each slid, below stuck, %s\n",
            ties, SK_REAL_NAME);
    return 0;
}

/* The same cases with the direct chain solver. */
#define WITH_DIRECT(name)                 \
    static int direct_##name(void)        \
    {                                     \
        resolver = DIRECT;                \
        fprintf(stderr, "direct solver\n"); \
        return name();                    \
    }
WITH_DIRECT(slide_distance)
WITH_DIRECT(slide_cyclone)
WITH_DIRECT(stick_below_mu_s)
WITH_DIRECT(slip_above_mu_s)
WITH_DIRECT(no_energy_created)
WITH_DIRECT(stick_ties)

CHECK_MAIN({"slide_distance", slide_distance}, {"slide_cyclone", slide_cyclone}, {"stick_below_mu_s", stick_below_mu_s},
           {"slip_above_mu_s", slip_above_mu_s}, {"no_energy_created", no_energy_created},
           {"direct_slide_distance", direct_slide_distance}, {"direct_slide_cyclone", direct_slide_cyclone},
           {"direct_stick_below_mu_s", direct_stick_below_mu_s}, {"direct_slip_above_mu_s", direct_slip_above_mu_s},
           {"direct_no_energy_created", direct_no_energy_created}, {"direct_sliding_chain", direct_sliding_chain},
           {"stick_ties", stick_ties}, {"direct_stick_ties", direct_stick_ties})
