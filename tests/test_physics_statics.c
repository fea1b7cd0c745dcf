/* Static equilibrium ("initial": {"equilibrium": true}, docs/model.md section 2.3), both engines: a catenary of
 * springs between two pins against the lumped-mass equilibrium solved here by shooting, a hanging rope with
 * payloads whose links each carry the weight below them, a bungee chain laid out slack that comes to hang taut,
 * and a rope that stays where it is put (its state after a step is the equilibrium). */
#include <stdlib.h>
#include <string.h>

#include "physics_util.h"
#include "skein/engine.h"

/* The force left on a particle the solve stops at (N), and how near the tensions must come to the exact ones,
 * relative to the largest: a float build's forces are good to about 5e-4 N here (a tension k (l - L) of a link
 * of 1.02 m, k up to 2000 N/m, from lengths good to 1.2e-7 m). */
#define STATIC_TOLERANCE (PHYS_FLOAT ? "2e-3" : "1e-11")
#define TENSION_CLOSE (PHYS_FLOAT ? 1e-3 : 1e-9)

/* An engine of the scenario put at rest, or NULL (the message printed). */
static sk_engine *at_rest(const sk_scenario *s, const char *engine)
{
    sk_error err = {0};
    sk_engine_options opt = {.engine = engine, .threads = 1};
    sk_engine *e = sk_engine_create(s, &opt, &err);
    if (e && sk_equilibrium_start(e, &err)) {
        sk_engine_destroy(e);
        e = NULL;
    }
    if (!e)
        fprintf(stderr, "%s engine: %s\n", engine, err.message);
    return e;
}

/* Each engine's link tensions of rope 0 (diagnostics), in double; and both engines' states the same bits. */
static int tensions(const sk_scenario *s, double *out, int links)
{
    sk_engine *ref = at_rest(s, "reference"), *bat = at_rest(s, "batch");
    CHECK(ref && bat);
    sk_real t[64], tb[64], p[3 * 64], v[3 * 64], pb[3 * 64], vb[3 * 64];
    CHECK(links < 64);
    sk_rope_diagnostics d;
    sk_engine_rope_diagnostics(ref, 0, &d, t);
    sk_engine_rope_diagnostics(bat, 0, &d, tb);
    for (int i = 0; i < links; i++)
        out[i] = (double)t[i];
    for (size_t r = 0; r < s->total_ropes; r++) {
        sk_engine_read_rope(ref, r, p, v);
        sk_engine_read_rope(bat, r, pb, vb);
        const int n = sk_engine_rope_particles(ref, r);
        CHECK(memcmp(p, pb, (size_t)n * 3 * sizeof *p) == 0 && memcmp(v, vb, (size_t)n * 3 * sizeof *v) == 0);
        for (int i = 0; i < 3 * n; i++)
            CHECK(v[i] == 0);
    }
    CHECK(memcmp(t, tb, (size_t)links * sizeof *t) == 0);
    sk_engine_destroy(ref);
    sk_engine_destroy(bat);
    return 0;
}

/* The lumped-mass catenary by shooting: link i pulls particle i with T_i, T_(i+1) = T_i + (0, m g) (particle
 * i + 1 at rest), link i is L + |T_i| / k long along T_i; T_0 = (H, V) found by Newton (difference quotients)
 * so that the last particle lands on the right pin. Fills each link's tension |T_i|. */
static void shoot(double h, double vy, int links, double m, double g, double k, double len, double *x, double *y,
                  double *tension)
{
    *x = *y = 0;
    for (int i = 0; i < links; i++) {
        const double ty = vy + i * m * g, t = sqrt(h * h + ty * ty), l = len + t / k;
        *x += l * h / t;
        *y += l * ty / t;
        if (tension)
            tension[i] = t;
    }
}

static int catenary(void)
{
    enum { N = 21, LINKS = N - 1 };
    const double m = 0.1, k = 500, len = 1, span = 16, g = 9.81;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 3, \"particles\": %d, \"start\": [0, 0, 0], \"end\": [%g, 0, 0],"
                       " \"mass\": %g, \"pinned\": [0, %d], \"link\": {\"type\": \"spring\", \"stiffness\": %g, \"length\": %g},"
                       " \"sweep\": {\"link.stiffness\": {\"values\": [%g, 200, 2000]}}}]}",
                       STATIC_TOLERANCE, N, span, m, N - 1, k, len, k));
    double exact[LINKS], got[LINKS];
    double h = 10, vy = -(LINKS - 1) * m * g / 2; /* symmetric: the middle link level */
    for (int it = 0; it < 100; it++) {
        double x, y, x1, y1, x2, y2;
        shoot(h, vy, LINKS, m, g, k, len, &x, &y, NULL);
        const double eh = 1e-7 * h, ev = 1e-7 * (fabs(vy) + 1);
        shoot(h + eh, vy, LINKS, m, g, k, len, &x1, &y1, NULL);
        shoot(h, vy + ev, LINKS, m, g, k, len, &x2, &y2, NULL);
        const double a = (x1 - x) / eh, b = (x2 - x) / ev, c = (y1 - y) / eh, d = (y2 - y) / ev, det = a * d - b * c;
        const double fx = x - span, fy = y;
        h -= (d * fx - b * fy) / det;
        vy -= (a * fy - c * fx) / det;
    }
    double x, y;
    shoot(h, vy, LINKS, m, g, k, len, &x, &y, exact);
    CHECK(fabs(x - span) < 1e-12 && fabs(y) < 1e-12);
    CHECK_OK(tensions(&s, got, LINKS));
    double worst = 0, largest = 0;
    for (int i = 0; i < LINKS; i++) {
        worst = fmax(worst, fabs(got[i] - exact[i]));
        largest = fmax(largest, exact[i]);
    }
    fprintf(stderr, "measured: catenary of %d springs between pins 16 m apart: tensions within %.3g N of the exact "
                    "lumped-mass equilibrium (largest %.6g N)\n", LINKS, worst, largest);
    CHECK(worst <= TENSION_CLOSE * largest);
    sk_scenario_free(&s);
    return 0;
}

/* A rope hanging from a pin, laid out slanted, with a linear mass profile and two payloads (at the tip and at
 * particle 6): link i carries g times the mass below it. `link` "spring" or "bungee" (laid out compressed: every
 * link slack at the start, none at rest). */
static int hanging(const char *link, double end_x, const char *label)
{
    enum { N = 12, LINKS = N - 1 };
    const double g = 9.81, m0 = 0.05, m1 = 0.2, tip = 0.5, inner = 0.2;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 2, \"particles\": %d, \"start\": [0, 0, 0], \"end\": [%g, -%g, 0],"
                       " \"mass\": {\"from\": %g, \"to\": %g}, \"pinned\": [0],"
                       " \"payloads\": [{\"index\": -1, \"mass\": %g}, {\"index\": 6, \"mass\": %g}],"
                       " \"link\": {\"type\": \"%s\", \"stiffness\": 300, \"length\": 0.5}}]}",
                       STATIC_TOLERANCE, N, end_x, end_x, m0, m1, tip, inner, link));
    double got[LINKS];
    CHECK_OK(tensions(&s, got, LINKS));
    double worst = 0, below = 0, largest = 0;
    for (int i = LINKS - 1; i >= 0; i--) {
        const int j = i + 1; /* the particle below link i */
        below += m0 + (m1 - m0) * (double)j / (N - 1) + (j == N - 1 ? tip : 0) + (j == 6 ? inner : 0);
        worst = fmax(worst, fabs(got[i] - g * below));
        largest = fmax(largest, g * below);
    }
    fprintf(stderr, "measured: %s: each link's tension within %.3g N of the weight below it (largest %.6g N)\n", label,
            worst, largest);
    CHECK(worst <= TENSION_CLOSE * largest);
    sk_scenario_free(&s);
    return 0;
}

static int hanging_payloads(void) { return hanging("spring", 3, "hanging rope with payloads"); }

static int bungee_slack(void) { return hanging("bungee", 1, "bungee chain laid out slack"); }

/* A seabed that pushes back in proportion to depth is not in the model: the ground is a rigid contact, which
 * the solve does not take; a scenario asking for both is refused in one line. */
static int seabed_refused(void)
{
    sk_scenario s;
    sk_error err = {0};
    const char *json = "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"initial\": {\"equilibrium\": true},"
                       " \"ground\": {\"height\": -1}, \"groups\": [{\"count\": 1, \"particles\": 4, \"start\": [0, 0, 0],"
                       " \"end\": [3, 0, 0], \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 100}}]}";
    CHECK(sk_scenario_load_string(json, "seabed", NULL, &s, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "seabed: initial.equilibrium: does not take contacts (rods, cables, the ground) "
                              "(groups[0])") == 0);
    return 0;
}

CHECK_MAIN({"catenary", catenary}, {"hanging_payloads", hanging_payloads}, {"bungee_slack", bungee_slack},
           {"seabed_refused", seabed_refused})
