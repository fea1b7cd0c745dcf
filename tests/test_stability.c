/* The explicit stability limit (sk_group_stable_dt, docs/model.md section 2.2) against chains whose highest
 * frequency is known, and the energy check that flags a rope stepped above it (sk_engine_rope_energy_excess). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenario/scenario.h"
#include "check.h"
#include "skein/skein.h"

static int load(const char *json, sk_scenario *s)
{
    sk_error err = {0};
    if (sk_scenario_load_string(json, "stability", NULL, s, &err) != SK_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    return 0;
}

/* The largest eigenvalue of the symmetric tridiagonal matrix (diag a, off-diagonal b), by Sturm bisection. */
static double largest_eigenvalue(const double *a, const double *b, int n)
{
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++)
        hi = fmax(hi, fabs(a[i]) + (i ? fabs(b[i - 1]) : 0) + (i + 1 < n ? fabs(b[i]) : 0));
    for (int it = 0; it < 200; it++) {
        const double x = 0.5 * (lo + hi);
        int above = 0; /* eigenvalues above x: sign changes of the Sturm sequence */
        double q = 1;
        for (int i = 0; i < n; i++) {
            q = a[i] - x - (i ? b[i - 1] * b[i - 1] / q : 0);
            if (q == 0)
                q = 1e-300;
            above += q < 0 ? 0 : 1;
        }
        if (above > 0)
            lo = x;
        else
            hi = x;
    }
    return hi;
}

/* A chain of 64 particles pinned at particle 0, with linear mass and stiffness profiles: the limit is at most
 * the exact 2 / omega_max of its mass-scaled stiffness and within a few percent of it. */
static int spring_chain(void)
{
    sk_scenario s;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 1e-4, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, 0, 0],"
                  " \"groups\": [{\"count\": 1, \"particles\": 64, \"start\": [0, 0, 0], \"end\": [63, 0, 0],"
                  " \"pinned\": [0], \"mass\": 0.003, \"link\": {\"type\": \"spring\", \"stiffness\": 3e5,"
                  " \"length\": 1}}]}",
                  &s));
    enum { N = 63 }; /* the unpinned particles */
    /* uniform: omega_j^2 = 4 k/m sin^2((2j - 1) pi / (2 (2N + 1))), the largest at j = N */
    const double k = 3e5, m = 0.003, pi = acos(-1.0);
    const double exact = 2 / sqrt(4 * k / m * pow(sin((2.0 * N - 1) * pi / (2 * (2.0 * N + 1))), 2));
    const double limit = sk_group_stable_dt(&s, 0);
    CHECK(limit <= exact);
    CHECK_REL(limit, 2 / sqrt(4 * k / m), 1e-6); /* Gershgorin's bound of this chain: 4 k / m */
    CHECK_REL(limit, exact, 1e-3);
    sk_scenario_free(&s);

    CHECK_OK(load("{\"skein\": 1, \"dt\": 1e-4, \"steps\": 1, \"integrator\": \"verlet\", \"gravity\": [0, 0, 0],"
                  " \"groups\": [{\"count\": 1, \"particles\": 64, \"start\": [0, 0, 0], \"end\": [63, 0, 0],"
                  " \"pinned\": [0], \"mass\": {\"from\": 0.001, \"to\": 0.01},"
                  " \"link\": {\"type\": \"spring\", \"stiffness\": {\"from\": 1e5, \"to\": 4e5}, \"length\": 1}}]}",
                  &s));
    double a[N], b[N];
    for (int i = 0; i < N; i++) {
        const int p = i + 1; /* particle p; link p - 1 joins p - 1 and p */
        const double mp = 0.001 + (0.01 - 0.001) * p / 63.0, kl = 1e5 + 3e5 * (p - 1) / 62.0;
        const double kr = p + 1 < 64 ? 1e5 + 3e5 * p / 62.0 : 0;
        a[i] = (kl + kr) / mp;
        if (p + 1 < 64)
            b[i] = -kr / sqrt(mp * (0.001 + (0.01 - 0.001) * (p + 1) / 63.0));
    }
    const double tapered = 2 / sqrt(largest_eigenvalue(a, b, N));
    const double estimate = sk_group_stable_dt(&s, 0);
    CHECK(estimate <= tapered * (1 + 1e-6));
    CHECK(estimate >= 0.9 * tapered);
    sk_scenario_free(&s);
    return 0;
}

/* One particle on an anchored spring: omega^2 = k / m exactly. */
static int anchor(void)
{
    sk_scenario s;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"gravity\": [0, 0, 0], \"groups\": [{\"count\": 1,"
                  " \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0], \"mass\": 2,"
                  " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 1, 0], \"stiffness\": 50, \"length\": 1}}]}",
                  &s));
    CHECK_REL(sk_group_stable_dt(&s, 0), 2 * sqrt(2.0 / 50.0), 1e-6);
    sk_scenario_free(&s);
    return 0;
}

/* One damped link to a pinned particle: omega^2 = k / m, zeta = c / (2 sqrt(k m)) with c = damping / L, the limit
 * 2 / omega (sqrt(1 + zeta^2) - zeta); the implicit integrator has none. */
static int link_damping(void)
{
    sk_scenario s;
    const char *fmt = "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
                      " \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [0.5, 0, 0],"
                      " \"pinned\": [0], \"mass\": 2, \"link\": {\"type\": \"spring\", \"stiffness\": 50, \"damping\": 6}}]}";
    char json[1024];
    snprintf(json, sizeof json, fmt, "symplectic");
    CHECK_OK(load(json, &s));
    const double omega = 5, zeta = (6 / 0.5) / (2 * sqrt(50.0 * 2));
    CHECK_REL(sk_group_stable_dt(&s, 0), 2 / omega * (sqrt(1 + zeta * zeta) - zeta), 1e-6);
    CHECK(sk_group_stable_dt(&s, 0) < 2 / omega * 0.6); /* zeta = 0.6 takes off half the undamped limit */
    sk_scenario_free(&s);
    snprintf(json, sizeof json, fmt, "implicit");
    CHECK_OK(load(json, &s));
    CHECK(isinf(sk_group_stable_dt(&s, 0)));
    sk_scenario_free(&s);
    return 0;
}

/* Bending alone: 16 EI / (m L^3), the documented highest bending frequency 4 sqrt(EI / mu) / L^2 squared; the
 * implicit integrator keeps bending's limit and drops the springs'. */
static int bending(void)
{
    sk_scenario s;
    const char *fmt = "{\"skein\": 1, \"dt\": 1e-4, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
                      " \"groups\": [{\"count\": 1, \"particles\": 21, \"start\": [0, 0, 0], \"end\": [2, 0, 0],"
                      " \"pinned\": [0, 1], \"mass\": 0.01, \"link\": %s,"
                      " \"bending\": {\"stiffness\": 0.5}}]}";
    char json[1024];
    snprintf(json, sizeof json, fmt, "symplectic", "{\"type\": \"rod\"}");
    CHECK_OK(load(json, &s));
    const double bend = 2 / sqrt(16 * 0.5 / (0.01 * 0.1 * 0.1 * 0.1));
    CHECK_REL(sk_group_stable_dt(&s, 0), bend, 1e-5);
    sk_scenario_free(&s);
    snprintf(json, sizeof json, fmt, "implicit", "{\"type\": \"spring\", \"stiffness\": 1e3}");
    CHECK_OK(load(json, &s));
    CHECK_REL(sk_group_stable_dt(&s, 0), bend, 1e-5);
    sk_scenario_free(&s);
    snprintf(json, sizeof json, fmt, "symplectic", "{\"type\": \"spring\", \"stiffness\": 1e3}");
    CHECK_OK(load(json, &s));
    CHECK_REL(sk_group_stable_dt(&s, 0), 2 / sqrt(4 * 1e3 / 0.01 + 16 * 0.5 / (0.01 * 0.1 * 0.1 * 0.1)), 1e-5);
    sk_scenario_free(&s);
    return 0;
}

/* A stiffness sweep: the stiffest rope sets the group's limit; rods and a fake spring set none. */
static int sweep_and_none(void)
{
    sk_scenario s;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 1e-4, \"steps\": 1, \"gravity\": [0, 0, 0], \"integrator\": \"symplectic\","
                  " \"groups\": [{\"count\": 5, \"particles\": 8, \"start\": [0, 0, 0], \"end\": [7, 0, 0],"
                  " \"mass\": 1, \"link\": {\"type\": \"spring\", \"stiffness\": 1}, \"sweep\": {\"link.stiffness\":"
                  " {\"values\": [100, 900, 400, 1, 2]}}},"
                  " {\"count\": 2, \"particles\": 8, \"start\": [0, 0, 0], \"end\": [7, 0, 0], \"mass\": 1,"
                  " \"link\": {\"type\": \"rod\"}, \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 0, 0],"
                  " \"stiffness\": 1e6, \"damping\": 1}}]}",
                  &s));
    CHECK_REL(sk_group_stable_dt(&s, 0), 2 / sqrt(4 * 900.0), 1e-6);
    CHECK(isinf(sk_group_stable_dt(&s, 1)));
    sk_scenario_free(&s);
    return 0;
}

/* Stepped 2% above the limit the chain gains energy nothing gives it and is flagged; 2% below it is not. */
static int energy_excess(void)
{
    for (int above = 0; above <= 1; above++) {
        sk_scenario s;
        CHECK_OK(load("{\"skein\": 1, \"dt\": 1e-4, \"steps\": 1, \"integrator\": \"symplectic\","
                      " \"gravity\": [0, -9.81, 0], \"groups\": [{\"count\": 1, \"particles\": 40, \"start\": [0, 0, 0],"
                      " \"end\": [39, 0, 0], \"pinned\": [0], \"mass\": 0.003, \"link\": {\"type\": \"spring\","
                      " \"stiffness\": 3e5, \"length\": 1}}]}",
                      &s));
        s.dt = (sk_real)(sk_group_stable_dt(&s, 0) * (above ? 1.02 : 0.98));
        sk_error err = {0};
        const sk_engine_options eo = {.engine = "reference"};
        sk_engine *e = sk_engine_create(&s, &eo, &err);
        CHECK(e != NULL);
        sk_rope_diagnostics start;
        sk_engine_rope_diagnostics(e, 0, &start, NULL);
        double gain = 0;
        CHECK(!sk_engine_rope_energy_excess(e, 0, &start, &gain));
        sk_engine_advance(e, 400);
        const bool flagged = sk_engine_rope_energy_excess(e, 0, &start, &gain);
        fprintf(stderr, "dt %s the limit: energy gained %g J\n", above ? "above" : "below", gain);
        CHECK(flagged == (above == 1));
        sk_engine_destroy(e);
        sk_scenario_free(&s);
    }
    return 0;
}

/* A line lighter than water rises 20 m from where it was released: the water gave it the energy (buoyancy is
 * no term of the diagnostics' energy), so it is not flagged, though its gain is ten times what the check allows
 * a passive rope. */
static int energy_line_in_water(void)
{
    sk_scenario s;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"symplectic\","
                  " \"gravity\": [0, -9.81, 0], \"water\": {\"density\": 1025},"
                  " \"groups\": [{\"count\": 1, \"start\": [0, -20, 0], \"end\": [2, -20, 0],"
                  " \"line\": {\"diameter\": 0.1, \"mass_per_length\": 2, \"EA\": 1e6, \"length\": 2, \"segments\": 4,"
                  " \"drag\": {\"normal\": 1.2}}}]}",
                  &s));
    sk_error err = {0};
    const sk_engine_options eo = {.engine = "reference"};
    sk_engine *e = sk_engine_create(&s, &eo, &err);
    CHECK(e != NULL);
    sk_rope_diagnostics start;
    sk_engine_rope_diagnostics(e, 0, &start, NULL);
    sk_engine_advance(e, 60000);
    sk_rope_diagnostics now;
    sk_engine_rope_diagnostics(e, 0, &now, NULL);
    double gain = 0;
    const double gained = ((double)now.kinetic + now.gravity + now.elastic) -
                          ((double)start.kinetic + start.gravity + start.elastic);
    fprintf(stderr, "line risen through the water: energy gained %g J (a passive rope is allowed %g)\n", gained,
            2 * 2 * 9.81 * 2);
    CHECK(gained > 10 * (2 * 2 * 9.81 * 2));
    CHECK(!sk_engine_rope_energy_excess(e, 0, &start, &gain));
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"energy_line_in_water", energy_line_in_water}, {"spring_chain", spring_chain}, {"anchor", anchor}, {"link_damping", link_damping}, {"bending", bending},
           {"sweep_and_none", sweep_and_none}, {"energy_excess", energy_excess})
