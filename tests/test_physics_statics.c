/* Static equilibrium ("initial": {"equilibrium": true}, docs/model.md section 2.3), both engines: a catenary of
 * springs between two pins against the lumped-mass equilibrium solved here by shooting, a hanging rope with
 * payloads whose links each carry the weight below them, a bungee chain laid out slack that comes to hang taut,
 * and a rope that stays where it is put (its state after a step is the equilibrium); lines in water and on
 * the compliant seabed, one given by EA against the elastic catenary, and the Lowe and Langley jumper. */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "physics_util.h"
#include "skein/engine.h"

/* The force left on a particle the solve stops at (N), and how near the tensions must come to the exact ones,
 * relative to the largest: a float build's forces are good to about 5e-4 N here (a tension k (l - L) of a link
 * of 1.02 m, k up to 2000 N/m, from lengths good to 1.2e-7 m). */
#define STATIC_TOLERANCE (PHYS_FLOAT ? "2e-3" : "1e-11")
#define TENSION_CLOSE (PHYS_FLOAT ? 1e-3 : 1e-9)
/* The lines' (stiffer links over longer spans: a float's positions carry about 1 N of their forces, a double's
 * about 1e-9 N). */
#define LINE_TOLERANCE (PHYS_FLOAT ? "5" : "1e-7")

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
 * i + 1 at rest), link i is L + |T_i| / k long along T_i (k infinite: a rod, exactly L); T_0 = (H, V) found by
 * Newton (difference quotients) so that the last particle lands on the right pin. Fills each link's tension
 * |T_i| and each particle's place (particle 0 at the origin), where asked. */
static void shoot_path(double h, double vy, int links, double m, double g, double k, double len, double *x,
                       double *y, double *tension, double *px, double *py)
{
    *x = *y = 0;
    for (int i = 0; i < links; i++) {
        if (px)
            px[i] = *x, py[i] = *y;
        const double ty = vy + i * m * g, t = sqrt(h * h + ty * ty), l = len + t / k;
        *x += l * h / t;
        *y += l * ty / t;
        if (tension)
            tension[i] = t;
    }
    if (px)
        px[links] = *x, py[links] = *y;
}

static void shoot(double h, double vy, int links, double m, double g, double k, double len, double *x, double *y,
                  double *tension)
{
    shoot_path(h, vy, links, m, g, k, len, x, y, tension, NULL, NULL);
}

/* T_0 = (H, V) of the catenary of `links` links between pins `span` apart at one height (Newton on shoot). */
static void catenary_start(int links, double m, double g, double k, double len, double span, double *h, double *vy)
{
    *h = 10, *vy = -(links - 1) * m * g / 2; /* symmetric: the middle link level */
    for (int it = 0; it < 100; it++) {
        double x, y, x1, y1, x2, y2;
        shoot(*h, *vy, links, m, g, k, len, &x, &y, NULL);
        const double eh = 1e-7 * *h, ev = 1e-7 * (fabs(*vy) + 1);
        shoot(*h + eh, *vy, links, m, g, k, len, &x1, &y1, NULL);
        shoot(*h, *vy + ev, links, m, g, k, len, &x2, &y2, NULL);
        const double a = (x1 - x) / eh, b = (x2 - x) / ev, c = (y1 - y) / eh, d = (y2 - y) / ev, det = a * d - b * c;
        const double fx = x - span, fy = y;
        *h -= (d * fx - b * fy) / det;
        *vy -= (a * fy - c * fx) / det;
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
    double exact[LINKS], got[LINKS], h, vy;
    catenary_start(LINKS, m, g, k, len, span, &h, &vy);
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

/* Lines in water and on the compliant seabed (docs/model.md 3.6, 3.7). rho A of a line of diameter d in water
 * of density 1025. */
static double rho_a(double d) { return 1025 * (PHYS_PI * d * d / 4); }

/* A line's statics in the reference engine: the solves it took (-1: not at rest), the rope kept in *out. */
static int line_at_rest(const sk_scenario *s, sk_ref_rope **out)
{
    sk_ref_rope *r = sk_ref_rope_create(s, 0, 0);
    if (!r)
        return -1;
    *out = r;
    return sk_ref_rope_equilibrium(r, s->equilibrium_tolerance, s->equilibrium_iterations);
}

/* A line heavier than water pinned at both ends, all of it under the surface: at rest the supports hold its
 * weight in water, (mu - rho A) g times its length, and nothing sideways; its statics are where a long run with
 * damping (the integrator's and the links') settles it; both engines start from the same bits. */
static int line_in_water(void)
{
    const double mu = 3, d = 0.05, len = 20, g = 9.81;
    const char *json = "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"symplectic\","
                       " \"water\": {\"density\": 1025}, \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 1, \"start\": [0, -5, 0], \"end\": [16, -8, 0], \"pinned\": [0, 20],"
                       " \"damping\": 0.05, \"line\": {\"diameter\": %g, \"mass_per_length\": %g, \"EA\": 2e5, \"length\": %g,"
                       " \"segments\": 20, \"drag\": {\"normal\": 1.2, \"tangential\": 0.4}, \"added_mass\": {\"normal\": 1}},"
                       " \"link\": {\"type\": \"spring\", \"damping_ratio\": 0.5}}]}";
    sk_scenario s;
    CHECK_OK(phys_load(&s, json, LINE_TOLERANCE, d, mu, len));
    double got[20];
    CHECK_OK(tensions(&s, got, 20));
    sk_ref_rope *r = NULL, *settled = sk_ref_rope_create(&s, 0, 0);
    const int solves = line_at_rest(&s, &r);
    CHECK(r && settled && solves >= 0);
    sk_vec3 support[2];
    sk_ref_rope_support(r, support);
    const double wet = (mu - rho_a(d)) * g * len;
    phys_track t = {0};
    const double rel = PHYS_FLOAT ? 1e-3 : 1e-10;
    PHYS_NEAR(&t, (double)support[0].y + (double)support[1].y, wet, rel * wet);
    PHYS_NEAR(&t, (double)support[0].x + (double)support[1].x, 0, rel * wet);
    PHYS_NEAR(&t, (double)support[0].z + (double)support[1].z, 0, rel * wet);
    phys_report("line in water between pins: supports' sum vs its weight in water (mu - rho A) g L", &t);
    sk_ref_rope_advance(settled, 80000);
    double worst = 0;
    for (int i = 0; i < 21; i++) {
        const sk_vec3 a = sk_ref_rope_position(r, i), b = sk_ref_rope_position(settled, i);
        worst = fmax(worst, fmax(fabs((double)(a.x - b.x)), fmax(fabs((double)(a.y - b.y)), fabs((double)(a.z - b.z)))));
    }
    fprintf(stderr, "measured: line in water between pins: statics in %d solves, within %.3g m of 80 s of damped "
                    "settling (tolerance %g m)\n", solves, worst, PHYS_FLOAT ? 1e-2 : 1e-7);
    CHECK(worst <= (PHYS_FLOAT ? 1e-2 : 1e-7));
    sk_ref_rope_destroy(r);
    sk_ref_rope_destroy(settled);
    sk_scenario_free(&s);
    return 0;
}

/* A line from an anchor on a compliant seabed up to a fairlead, laid straight and longer than the distance: at
 * rest its part on the seabed lies flat, each particle of it sunk by (mu - rho A) g / (k d) (its weight in water
 * per length on the seabed's k d per length), the particles away from the touchdown to round-off. */
static int line_on_seabed(void)
{
    const double mu = 5, d = 0.05, k = 2e4, g = 9.81, bed = -20;
    const double pen = (mu - rho_a(d)) * g / (k * d);
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"integrator\": \"symplectic\","
                       " \"water\": {\"density\": 1025}, \"ground\": {\"height\": %g, \"stiffness\": %g, \"damping\": 2e3,"
                       " \"friction\": {\"static\": 0.5, \"kinetic\": 0.5}},"
                       " \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 1, \"start\": [0, %.17g, 0], \"end\": [30, -12, 0], \"pinned\": [0, 40],"
                       " \"line\": {\"diameter\": %g, \"mass_per_length\": %g, \"EA\": 1e6, \"length\": 40, \"segments\": 40,"
                       " \"drag\": {\"normal\": 1.2}}}]}",
                       bed, k, LINE_TOLERANCE, bed - pen, d, mu));
    double got[40];
    CHECK_OK(tensions(&s, got, 40));
    sk_ref_rope *r = NULL;
    const int solves = line_at_rest(&s, &r);
    CHECK(r && solves >= 0);
    int touchdown = 0; /* the last particle in the seabed */
    for (int i = 0; i <= 40; i++)
        if ((double)sk_ref_rope_position(r, i).y < bed)
            touchdown = i;
    CHECK(touchdown >= 20 && touchdown < 40);
    phys_track t = {0};
    for (int i = 1; i + 10 <= touchdown; i++)
        PHYS_NEAR(&t, bed - (double)sk_ref_rope_position(r, i).y, pen, (PHYS_FLOAT ? 0.1 : 1e-9) * pen);
    fprintf(stderr, "measured: line on the seabed: statics in %d solves, touchdown at particle %d\n", solves, touchdown);
    phys_report("line on the seabed at rest: penetration vs (mu - rho A) g / (k d), 10 links or more from the touchdown",
                &t);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* A line in air given as engineers give it (mass per length, EA, length, segments: ends carrying half a segment)
 * hung between two pins: its tensions are the exact lumped-mass catenary's (shooting, as `catenary`), and within
 * the lumping's O(1/n^2) of the continuous elastic catenary's support forces (Irvine's closed form). */
static int line_catenary_ea(void)
{
    enum { SEG = 40 };
    const double mu = 2, ea = 4e4, len = 30, span = 24, g = 9.81, l = len / SEG, m = mu * l, k = ea / l;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 1, \"start\": [0, 0, 0], \"end\": [%g, 0, 0], \"pinned\": [0, %d],"
                       " \"line\": {\"diameter\": 0.01, \"mass_per_length\": %g, \"EA\": %g, \"length\": %g, \"segments\": %d},"
                       " \"link\": {\"type\": \"spring\"}}]}",
                       LINE_TOLERANCE, span, SEG, mu, ea, len, SEG));
    double exact[SEG], got[SEG];
    double h = 50, vy = -(SEG - 1) * m * g / 2;
    for (int it = 0; it < 100; it++) {
        double x, y, x1, y1, x2, y2;
        shoot(h, vy, SEG, m, g, k, l, &x, &y, NULL);
        const double eh = 1e-7 * h, ev = 1e-7 * (fabs(vy) + 1);
        shoot(h + eh, vy, SEG, m, g, k, l, &x1, &y1, NULL);
        shoot(h, vy + ev, SEG, m, g, k, l, &x2, &y2, NULL);
        const double a = (x1 - x) / eh, b = (x2 - x) / ev, c = (y1 - y) / eh, dd = (y2 - y) / ev, det = a * dd - b * c;
        const double fx = x - span, fy = y;
        h -= (dd * fx - b * fy) / det;
        vy -= (a * fy - c * fx) / det;
    }
    double x, y;
    shoot(h, vy, SEG, m, g, k, l, &x, &y, exact);
    CHECK(fabs(x - span) < 1e-12 && fabs(y) < 1e-12);
    CHECK_OK(tensions(&s, got, SEG));
    phys_track t = {0};
    for (int i = 0; i < SEG; i++)
        PHYS_NEAR(&t, got[i], exact[i], (PHYS_FLOAT ? 2e-2 : 1e-9) * exact[SEG / 2]);
    phys_report("line given by EA between pins: tensions vs the exact lumped-mass catenary", &t);
    /* Irvine's elastic catenary, arc length s from the left pin, horizontal tension H, vertical V(s) = V0 + w s
     * (w = mu g): x(s) = H s / EA + (H / w)(asinh(V(s) / H) - asinh(V0 / H)), y(s) = (w s^2 / 2 + V0 s) / EA
     * + (H / w)(sqrt(1 + (V(s) / H)^2) - sqrt(1 + (V0 / H)^2)); symmetric: V0 = -w L / 2. */
    const double w = mu * g, v0 = -w * len / 2;
    double lo = 1, hi = 1e5;
    for (int i = 0; i < 200; i++) {
        const double hh = (lo + hi) / 2;
        const double xe = hh * len / ea + (hh / w) * (asinh((v0 + w * len) / hh) - asinh(v0 / hh));
        *(xe < span ? &lo : &hi) = hh;
    }
    sk_ref_rope *r = NULL;
    CHECK(line_at_rest(&s, &r) >= 0 && r);
    sk_vec3 support[2];
    sk_ref_rope_support(r, support);
    phys_track c = {0};
    PHYS_NEAR(&c, (double)support[1].x, lo, 2e-3 * lo);
    PHYS_NEAR(&c, (double)support[1].y, w * len / 2, 2e-3 * w * len / 2);
    phys_report("line given by EA between pins: support forces vs Irvine's elastic catenary (40 segments)", &c);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* The flexible jumper of Lowe and Langley (2006) as MoorDyn's validation gives it (line.txt of its test: 170 m,
 * 68 segments, 165 kg/m, EA 500 MN, EI 120.8 kN m^2, d 0.396 m, damping ratio 0.5, pins at (-100, -55) and
 * (0, -5) m in water of 1000 kg/m^3, g 9.807): laid straight (compressed) between its pins, it comes to rest
 * within the default solves, the supports within 0.2 kN of the published (-11.40, 24.04) kN at the bottom and
 * (11.40, 45.71) kN at the top. A float's positions near 100 m are good to about 1e-5 m, which the links'
 * 2e8 N/m turn into kN: the float build checks only that it loads. */
static int jumper(void)
{
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1, \"integrator\": \"symplectic\", \"gravity\": [0, -9.807, 0],"
                       " \"water\": {\"density\": 1000}, \"initial\": {\"equilibrium\": true, \"tolerance\": 1e-3},"
                       " \"groups\": [{\"count\": 1, \"start\": [-100, -55, 0], \"end\": [0, -5, 0], \"pinned\": [0, 68],"
                       " \"line\": {\"diameter\": 0.396, \"mass_per_length\": 165, \"EA\": 5e8, \"length\": 170,"
                       " \"segments\": 68, \"drag\": {\"normal\": 1.0}, \"added_mass\": {\"normal\": 1}},"
                       " \"link\": {\"type\": \"spring\", \"damping_ratio\": 0.5}, \"bending\": {\"stiffness\": 120.8e3}}]}"));
    if (PHYS_FLOAT) {
        sk_scenario_free(&s);
        CHECK_SKIP("jumper: a float build cannot hold a 500 MN line's forces to its tolerance");
    }
    CHECK(s.equilibrium_iterations == 500);
    sk_ref_rope *r = NULL;
    const int solves = line_at_rest(&s, &r);
    CHECK(r);
    fprintf(stderr, "measured: Lowe and Langley jumper: statics in %d solves (at most %d)\n", solves,
            s.equilibrium_iterations);
    CHECK(solves >= 0);
    sk_vec3 support[2];
    sk_ref_rope_support(r, support);
    phys_track t = {0};
    PHYS_NEAR(&t, (double)support[0].x, -11400, 200);
    PHYS_NEAR(&t, (double)support[0].y, 24040, 200);
    PHYS_NEAR(&t, (double)support[1].x, 11400, 200);
    PHYS_NEAR(&t, (double)support[1].y, 45710, 200);
    phys_report("Lowe and Langley jumper: static support forces vs the published (N)", &t);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* Contacts at rest (docs/model.md 2.3): both engines put at rest, rope 0's positions into p (their bits the
 * same in both), then `steps` steps of each: *moved, the farthest any particle of any rope went from there. */
static int rest_then_run(const sk_scenario *s, long steps, sk_real *p, double *moved)
{
    enum { MOST = 64 };
    sk_engine *e[2] = {at_rest(s, "reference"), at_rest(s, "batch")};
    CHECK(e[0] && e[1]);
    static sk_real start[2][3 * MOST], v[3 * MOST], now[3 * MOST];
    const int n = sk_engine_rope_particles(e[0], 0);
    CHECK(n <= MOST && s->total_ropes == 1);
    for (int k = 0; k < 2; k++)
        sk_engine_read_rope(e[k], 0, start[k], v);
    CHECK(memcmp(start[0], start[1], (size_t)n * 3 * sizeof **start) == 0);
    memcpy(p, start[0], (size_t)n * 3 * sizeof *p);
    *moved = 0;
    for (int k = 0; k < 2; k++) {
        sk_engine_advance(e[k], steps);
        sk_engine_read_rope(e[k], 0, now, v);
        for (int i = 0; i < 3 * n; i++)
            *moved = fmax(*moved, fabs((double)now[i] - (double)start[k][i]));
        sk_engine_destroy(e[k]);
    }
    return 0;
}

/* The largest |length - L| of the links between consecutive particles of p (n of them). */
static double worst_length(const sk_real *p, int n, double len)
{
    double worst = 0;
    for (int i = 0; i + 1 < n; i++) {
        const double dx = (double)p[3 * i + 3] - (double)p[3 * i], dy = (double)p[3 * i + 4] - (double)p[3 * i + 1],
                     dz = (double)p[3 * i + 5] - (double)p[3 * i + 2];
        worst = fmax(worst, fabs(sqrt(dx * dx + dy * dy + dz * dz) - len));
    }
    return worst;
}

/* Rods between two pins, laid out straight and so too long for the span: at rest they hang as the lumped-mass
 * catenary of inextensible links (shoot with k infinite), each rod at its length; the direct solver then holds
 * the rope where it is, to less than the g dt^2 a particle falls in a step before the constraints take it back. */
static int rod_catenary(void)
{
    enum { N = 21, LINKS = N - 1 };
    const double m = 0.1, len = 1, span = 16, g = 9.81;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"resolver\": \"direct\","
                       " \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0, 0, 0], \"end\": [%g, 0, 0],"
                       " \"mass\": %g, \"pinned\": [0, %d], \"link\": {\"type\": \"rod\", \"length\": %g}}]}",
                       PHYS_FLOAT ? "2e-3" : "1e-9", N, span, m, N - 1, len));
    double h, vy, x, y, px[N], py[N];
    catenary_start(LINKS, m, g, INFINITY, len, span, &h, &vy);
    shoot_path(h, vy, LINKS, m, g, INFINITY, len, &x, &y, NULL, px, py);
    CHECK(fabs(x - span) < 1e-12 && fabs(y) < 1e-12);
    sk_real p[3 * N];
    double moved;
    CHECK_OK(rest_then_run(&s, 2000, p, &moved));
    phys_track t = {0};
    const double tol = PHYS_FLOAT ? 2e-3 : 1e-8;
    for (int i = 0; i < N; i++) {
        PHYS_NEAR(&t, (double)p[3 * i], px[i], tol);
        PHYS_NEAR(&t, (double)p[3 * i + 1], py[i], tol);
        PHYS_NEAR(&t, (double)p[3 * i + 2], 0, tol);
    }
    phys_report("rods between pins at rest vs the inextensible lumped-mass catenary (m)", &t);
    const double off = worst_length(p, N, len);
    fprintf(stderr, "measured: rods at rest: lengths within %.3g m of theirs; 2 s of the direct solver moved them "
                    "%.3g m\n", off, moved);
    CHECK(off <= (PHYS_FLOAT ? 1e-4 : 1e-10));
    CHECK(moved <= (PHYS_FLOAT ? 1e-3 : 9.81e-6));
    sk_scenario_free(&s);
    return 0;
}

/* A chain of cables on a cable anchor, laid out slack and slanted: at rest it hangs straight down from the
 * anchor point, the anchor's cable and every link taut at their lengths. */
static int cable_hanging(void)
{
    enum { N = 10 };
    const double a = 0.7, len = 0.5;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"resolver\": \"direct\","
                       " \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0.3, -0.2, 0.1], \"end\": [2, -1, 0.4],"
                       " \"mass\": 0.05, \"anchor\": {\"type\": \"cable\", \"point\": [0, 0, 0], \"length\": %g},"
                       " \"link\": {\"type\": \"cable\", \"length\": %g}}]}",
                       PHYS_FLOAT ? "1e-3" : "1e-6", N, a, len));
    sk_real p[3 * N];
    double moved;
    CHECK_OK(rest_then_run(&s, 2000, p, &moved));
    phys_track t = {0};
    const double tol = PHYS_FLOAT ? 1e-4 : 1e-9;
    for (int i = 0; i < N; i++) {
        PHYS_NEAR(&t, (double)p[3 * i], 0, tol);
        PHYS_NEAR(&t, (double)p[3 * i + 1], -(a + i * len), tol);
        PHYS_NEAR(&t, (double)p[3 * i + 2], 0, tol);
    }
    phys_report("cables on a cable anchor at rest vs hanging straight down (m)", &t);
    fprintf(stderr, "measured: cables at rest: 2 s of the direct solver moved them %.3g m\n", moved);
    CHECK(moved <= (PHYS_FLOAT ? 1e-4 : 1e-9));
    sk_scenario_free(&s);
    return 0;
}

/* A rope of springs from a pin on a rigid ground up to a pin above it, longer than the distance: at rest part of
 * it lies on the ground, each particle there exactly at the ground's height and none below; the ground's
 * contacts then hold it where it is, to less than the g dt^2 a particle falls into the ground in a step before
 * its contact pushes back. (Rods laid out straight between these pins would be compressed: on a frictionless
 * ground their rest is a fold held by rods pushing, which the solve finds but a test could not call the one
 * answer.) */
static int springs_on_ground(void)
{
    const char *label = "springs on a rigid ground";
    enum { N = 21 };
    const double bed = -1;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"resolver\": \"%s\","
                       " \"initial\": {\"equilibrium\": true, \"tolerance\": %s}, \"ground\": {\"height\": %g},"
                       " \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0, %g, 0], \"end\": [8, 1, 0],"
                       " \"mass\": 0.05, \"pinned\": [0, %d], \"link\": {%s, \"length\": 0.5}}]}",
                       "cyclone", PHYS_FLOAT ? "1e-3" : "1e-6", bed, N, bed, N - 1,
                       "\"type\": \"spring\", \"stiffness\": 500"));
    sk_real p[3 * N];
    double moved;
    CHECK_OK(rest_then_run(&s, 2000, p, &moved));
    int lying = 0;
    for (int i = 0; i < N; i++) {
        CHECK(p[3 * i + 1] >= (sk_real)bed);
        lying += p[3 * i + 1] == (sk_real)bed;
    }
    fprintf(stderr, "measured: %s: %d of %d particles exactly on the ground at rest; 2 s moved them %.3g m\n", label,
            lying, N, moved);
    CHECK(lying >= 5 && lying < N - 2);
    CHECK(moved <= (PHYS_FLOAT ? 1e-3 : 9.81e-6));
    sk_scenario_free(&s);
    return 0;
}


/* A deploying rope (its first particles out, the anchor holding the newest through the anchored segment) put
 * at rest before its reel turns: each link carries the weight below it, the anchored segment all of it, and
 * while the speed table stays at 0 the rope stays where the solve put it. */
static int deploying_at_rest(void)
{
    enum { OUT = 5 };
    const double m = 0.2, g = 9.81;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 1, \"particles\": 12, \"start\": [0.3, -2.5, 0], \"end\": [0.1, -0.4, 0.2],"
                       " \"mass\": %g, \"link\": {\"type\": \"spring\", \"stiffness\": 800, \"length\": 0.5},"
                       " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 800, \"length\": 0.3},"
                       " \"deploy\": {\"velocity\": {\"times\": [0, 1, 2], \"values\": [0, 0, 1]}, \"initial_particles\": %d}}]}",
                       STATIC_TOLERANCE, m, OUT));
    double got[OUT - 1];
    CHECK_OK(tensions(&s, got, OUT - 1));
    double worst = 0;
    for (int i = 0; i < OUT - 1; i++) /* link i holds particles 0 .. i */
        worst = fmax(worst, fabs(got[i] - (i + 1) * m * g));
    sk_real p[3 * 12];
    double moved;
    CHECK_OK(rest_then_run(&s, 900, p, &moved));
    double ax = p[3 * (OUT - 1)], ay = p[3 * (OUT - 1) + 1], az = p[3 * (OUT - 1) + 2];
    const double held = sqrt(ax * ax + ay * ay + az * az); /* the anchored segment: 0.3 m + its stretch */
    fprintf(stderr, "measured: deploying rope at rest: tensions within %.3g N of the weight below; anchored segment "
                    "%.12g m (0.3 + %d m g / 800 = %.12g); 0.9 s before the reel turns moved it %.3g m\n",
            worst, held, OUT, 0.3 + OUT * m * g / 800, moved);
    CHECK(worst <= TENSION_CLOSE * OUT * m * g);
    CHECK(fabs(held - (0.3 + OUT * m * g / 800)) <= (PHYS_FLOAT ? 1e-5 : 1e-12));
    CHECK(moved <= (PHYS_FLOAT ? 1e-5 : 1e-10));
    sk_scenario_free(&s);
    return 0;
}

/* The fake spring (a force written for steps of dt) is what the solve does not take: refused in one line. */
static int fake_spring_refused(void)
{
    sk_scenario s;
    sk_error err = {0};
    const char *json = "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"initial\": {\"equilibrium\": true},"
                       " \"groups\": [{\"count\": 1, \"particles\": 4, \"start\": [0, 0, 0], \"end\": [0, -1, 0],"
                       " \"link\": {\"type\": \"spring\", \"stiffness\": 100},"
                       " \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 0, 0], \"stiffness\": 100, \"damping\": 1}}]}";
    CHECK(sk_scenario_load_string(json, "fake", NULL, &s, &err) == SK_ERR_INVALID);
    fprintf(stderr, "%s\n", err.message);
    CHECK(strcmp(err.message, "fake: initial.equilibrium: does not take a fake_spring anchor (groups[0])") == 0);
    return 0;
}

/* A rope hanging from a pin in a wind (a force object: F on every particle): every particle carries the same
 * force W = F + m g, so at rest the rope is straight along W, link i carrying (N - 1 - i) |W| and stretched by
 * that over k. Checks the wind's term in both engines' static forces and its potential in the line search. */
static int wind_slant(void)
{
    enum { N = 15, LINKS = N - 1 };
    const double m = 0.1, k = 400, len = 0.5, g = 9.81, fx = 0.6, fz = -0.3;
    sk_scenario s;
    CHECK_OK(phys_load(&s,
                       "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"initial\": {\"equilibrium\": true, \"tolerance\": %s},"
                       " \"groups\": [{\"count\": 2, \"particles\": %d, \"start\": [0, 0, 0], \"end\": [0, -5, 0],"
                       " \"mass\": %g, \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": %g, \"length\": %g},"
                       " \"wind\": {\"force\": [%g, 0, %g]}, \"sweep\": {\"wind.force[0]\": {\"values\": [%g, -2]}}}]}",
                       STATIC_TOLERANCE, N, m, k, len, fx, fz, fx));
    const double w = sqrt(fx * fx + m * g * m * g + fz * fz);
    double got[LINKS], worst = 0, along = 0;
    CHECK_OK(tensions(&s, got, LINKS));
    for (int i = 0; i < LINKS; i++) {
        worst = fmax(worst, fabs(got[i] - (LINKS - i) * w));
        along += len + (LINKS - i) * w / k;
    }
    sk_engine *e = at_rest(&s, "reference");
    CHECK(e != NULL);
    sk_real p[3 * N], v[3 * N];
    sk_engine_read_rope(e, 0, p, v);
    const double tip[3] = {along * fx / w, -along * m * g / w, along * fz / w};
    double off = 0;
    for (int c = 0; c < 3; c++)
        off = fmax(off, fabs((double)p[3 * (N - 1) + c] - tip[c]));
    fprintf(stderr, "measured: rope in a wind: tensions within %.3g N of (N - 1 - i) |F + m g| (largest %.6g N), tip "
                    "within %.3g m of the straight line along F + m g\n", worst, LINKS * w, off);
    CHECK(worst <= TENSION_CLOSE * LINKS * w);
    CHECK(off <= (PHYS_FLOAT ? 1e-4 : 1e-9) * along);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"catenary", catenary}, {"hanging_payloads", hanging_payloads}, {"bungee_slack", bungee_slack},
           {"deploying_at_rest", deploying_at_rest}, {"fake_spring_refused", fake_spring_refused}, {"rod_catenary", rod_catenary}, {"cable_hanging", cable_hanging},
           {"springs_on_ground", springs_on_ground}, {"line_in_water", line_in_water}, {"line_on_seabed", line_on_seabed},
           {"line_catenary_ea", line_catenary_ea}, {"jumper", jumper}, {"wind_slant", wind_slant})
