/* Physics of bending stiffness (docs/model.md section 3.4) on a cantilever: a rope clamped at one end (two
 * particles pinned, which fixes the slope there) and free at the other. The clamp is the rope's last two
 * particles and the tip particle 0, because the anchor that carries the tip load holds particle 0.
 *
 *   static tip load P: the discrete rope's deflection is (P l0^3 / EI) sum_{j=1..N} j^2 (hinge j, j links
 *   from the tip, bends by P j l0 / k_b with k_b = EI / l0), which is the beam's P L^3 / (3 EI) times
 *   (1 + 1/N)(1 + 1/(2N)): it converges at first order in the particle spacing;
 *   first bending mode: released from the loaded shape, the tip swings at about 1.875^2 sqrt(EI / (mu L^4));
 *   symplectic Euler keeps the energy (kinetic + the hinges' + the links') within its O(w dt) swing, without
 *   drift.
 *
 * gradient: the hinge forces are the energy's exact negative gradient, torque-free.
 *
 * The load is an anchored spring of zero rest length holding the tip towards a point D = 1 km straight below
 * it: its pull is P (1 + delta / D) along -y, constant to 1e-7 for the deflections here. No gravity. */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "model/bending.h"
#include "model/vec3.h"
#include "physics_util.h"
#include "engine/engine_state.h"

#define EI 1.0  /* N m^2 */
#define MU 1.0  /* kg/m */
#define LEN 1.0 /* m: from the clamp (particle N) to the tip (particle 0) */
#define DIST 1000.0
/* beta_1 L of the clamped-free beam's first mode */
#define BETA1 1.87510406871196

/* The load gives delta / L = 1e-4 in double (the hinges then bend by 3e-4 rad: the small-angle theory holds
 * to 1e-7) and 1e-2 in float, where a smaller bend would drown in round-off (1 - cos theta of 1e-4 rad is
 * below float's resolution of cos). */
static double load(void) { return (PHYS_FLOAT ? 1e-2 : 1e-4) * 3 * EI / (LEN * LEN); }

/* Two groups of one rope each, N segments of the free length: group 0 carries the tip load and is damped
 * near critically for its first mode (it settles to its static shape), group 1 is free and undamped. dt
 * scales with l0^2, as the highest bending frequency 4 sqrt(EI / mu) / l0^2 does. */
static int load_cantilever(sk_scenario *s, int n_seg, const char *integrator, double *dt_out)
{
    const double l0 = LEN / n_seg, dt = 0.1 / ((double)n_seg * n_seg), p = load();
    *dt_out = dt;
#define GROUP(EXTRA)                                                                                              \
    "{\"count\": 1, \"particles\": %d, \"start\": [%.17g, 0, 0], \"end\": [%.17g, 0, 0], \"mass\": %.17g,"      \
    " \"pinned\": [%d, %d], \"link\": {\"type\": \"spring\", \"stiffness\": 10000, \"length\": %.17g},"         \
    " \"bending\": {\"stiffness\": %g}" EXTRA "}"
    return phys_load(s,
                     "{\"skein\": 1, \"dt\": %.17g, \"steps\": 1, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
                     " \"groups\": [" GROUP(", \"damping\": 0.0009, \"anchor\": {\"type\": \"anchored_spring\","
                                            " \"point\": [%.17g, %.17g, 0], \"stiffness\": %.17g, \"length\": 0}")
                     ", " GROUP("") "]}",
                     dt, integrator,
                     n_seg + 2, LEN, -l0, MU * l0, n_seg, n_seg + 1, l0, EI, LEN, -DIST, p / DIST,
                     n_seg + 2, LEN, -l0, MU * l0, n_seg, n_seg + 1, l0, EI);
#undef GROUP
}

/* The loaded rope settled: 12 s, some 40 time constants of its slowest mode. */
static sk_ref_rope *settled(const sk_scenario *s, double dt)
{
    sk_ref_rope *r = sk_ref_rope_create(s, 0, 0);
    if (r)
        sk_ref_rope_advance(r, lround(12 / dt));
    return r;
}

static double tip_exact(void) { return load() * LEN * LEN * LEN / (3 * EI); }

static double tip_discrete(int n_seg)
{
    const double l0 = LEN / n_seg, nn = n_seg;
    return load() * l0 * l0 * l0 / EI * (nn * (nn + 1) * (2 * nn + 1) / 6);
}

static int tip_deflection(void)
{
    const int counts[] = {10, 20, 40};
    double previous_error = 0;
    phys_track discrete = {0};
    for (int k = 0; k < 3; k++) {
        sk_scenario s;
        double dt;
        CHECK_OK(load_cantilever(&s, counts[k], "symplectic", &dt));
        sk_ref_rope *r = settled(&s, dt);
        CHECK(r);
        const double delta = -(double)sk_ref_rope_position(r, 0).y;
        /* at rest: one more second moves the tip by nothing the checks could see */
        sk_ref_rope_advance(r, lround(1 / dt));
        CHECK(fabs(-(double)sk_ref_rope_position(r, 0).y - delta) < (PHYS_FLOAT ? 1e-4 : 1e-7) * delta);
        /* the discrete rope's own closed form: small-angle theory (its error ~ theta^2) and round-off */
        PHYS_NEAR(&discrete, delta / tip_discrete(counts[k]), 1, PHYS_FLOAT ? 1e-3 : 1e-6);
        /* against the beam: the discretisation's (1 + 1/N)(1 + 1/(2N)) - 1, shrinking at first order */
        const double error = delta / tip_exact() - 1, predicted = 1.5 / counts[k] + 0.5 / ((double)counts[k] * counts[k]);
        fprintf(stderr, "measured: cantilever N = %d: tip %.6g m, P L^3 / (3 EI) = %.6g m, relative error %.4g"
                        " (discretisation (1 + 1/N)(1 + 1/2N) - 1 = %.4g)\n",
                counts[k], delta, tip_exact(), error, predicted);
        CHECK(fabs(error - predicted) < (PHYS_FLOAT ? 1e-3 : 1e-6));
        if (k > 0)
            CHECK(error < 0.55 * previous_error); /* halves as N doubles */
        previous_error = error;
        sk_ref_rope_destroy(r);
        sk_scenario_free(&s);
    }
    CHECK(previous_error < 0.04); /* N = 40: within 4% of the beam */
    phys_report("cantilever tip deflection against the discrete rope's closed form (N = 10, 20, 40)", &discrete);
    return 0;
}

/* The free rope (group 1) set to the loaded rope's static shape, at rest, at step 0. */
static sk_ref_rope *released(const sk_scenario *s, double dt)
{
    sk_ref_rope *loaded = settled(s, dt), *free_rope = sk_ref_rope_create(s, 1, 0);
    const int n = s->groups[0].particles;
    sk_real *buf = calloc((size_t)n * 9, sizeof *buf);
    bool ok = loaded && free_rope && buf;
    if (ok) {
        sk_rope_state st = {.p = buf, .v = buf + 3 * n, .q = buf + 6 * n};
        sk_ref_rope_export(loaded, &st);
        memset(st.v, 0, (size_t)n * 3 * sizeof *st.v);
        memcpy(st.q, st.p, (size_t)n * 3 * sizeof *st.q);
        st.steps = 0;
        ok = sk_ref_rope_import(free_rope, &st);
    }
    free(buf);
    sk_ref_rope_destroy(loaded);
    if (!ok) {
        sk_ref_rope_destroy(free_rope);
        return NULL;
    }
    return free_rope;
}

/* The tip's period from its upward zero crossings (linear interpolation between steps) over `periods` periods. */
static double tip_period(sk_ref_rope *r, double dt, int periods)
{
    double y_prev = (double)sk_ref_rope_position(r, 0).y, first = -1, last = -1;
    int crossings = 0;
    for (long n = 1; crossings <= periods && n < 100000000; n++) {
        sk_ref_rope_step(r);
        double y = (double)sk_ref_rope_position(r, 0).y;
        if (y_prev < 0 && y >= 0) {
            double t = ((double)(n - 1) + (-y_prev) / (y - y_prev)) * dt;
            if (crossings == 0)
                first = t;
            last = t;
            crossings++;
        }
        y_prev = y;
    }
    return (last - first) / periods;
}

static int first_mode(void)
{
    const int counts[] = {10, 20, 40};
    const double omega = BETA1 * BETA1 * sqrt(EI / (MU * LEN * LEN * LEN * LEN));
    double measured[3];
    for (int k = 0; k < 3; k++) {
        sk_scenario s;
        double dt;
        CHECK_OK(load_cantilever(&s, counts[k], "symplectic", &dt));
        sk_ref_rope *r = released(&s, dt);
        CHECK(r);
        measured[k] = 2 * PHYS_PI / tip_period(r, dt, 10);
        const double error = measured[k] / omega - 1;
        fprintf(stderr, "measured: cantilever N = %d: first mode %.6g rad/s, 1.875^2 sqrt(EI / (mu L^4)) = %.6g rad/s,"
                        " relative error %.4g\n", counts[k], measured[k], omega, error);
        /* the lumped masses (a whole particle's at the tip) and the hinge at the clamp make the rope a little
         * longer than the beam, by a fraction of l0: it swings slower, by a first-order error (about 1.8 / N) */
        CHECK(error < 0 && fabs(error) < 2.0 / counts[k]);
        if (k > 0)
            CHECK(fabs(error) < 0.6 * fabs(measured[k - 1] / omega - 1)); /* halves as N doubles */
        sk_ref_rope_destroy(r);
        sk_scenario_free(&s);
    }
    /* the error being first order, Richardson's extrapolation from N = 20 and 40 cancels it */
    const double extrapolated = 2 * measured[2] - measured[1];
    fprintf(stderr, "measured: first mode extrapolated from N = 20, 40: %.6g rad/s, relative error %.3g\n", extrapolated,
            extrapolated / omega - 1);
    CHECK(fabs(extrapolated / omega - 1) < 0.01);
    return 0;
}

/* Released from the loaded shape and left to swing for 50 periods (float: 6): E = kinetic + elastic (the hinges' and the
 * links' energy, sk_rope_diagnose) against E0, the bending energy it starts with. */
static int symplectic_energy(void)
{
    sk_scenario s;
    double dt;
    const int n_seg = 20;
    CHECK_OK(load_cantilever(&s, n_seg, "symplectic", &dt));
    sk_ref_rope *r = released(&s, dt);
    CHECK(r);
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(r, &d, NULL);
    const double e0 = (double)d.kinetic + (double)d.elastic;
    CHECK(d.kinetic == 0 && e0 > 0);
    /* the start is the loaded shape: its energy is P delta / 2 (a linear spring loaded to P) */
    CHECK_REL(e0, load() * tip_discrete(n_seg) / 2, PHYS_FLOAT ? 5e-3 : 1e-4);
    const double omega = BETA1 * BETA1 * sqrt(EI / (MU * LEN * LEN * LEN * LEN));
    /* float: 6 periods (43000 steps); its positions' rounding, 6e-8 of a step's move of 1e-5, walks E away
     * as the steps add up */
    const int periods = PHYS_FLOAT ? 6 : 50;
    const long steps = lround(periods * 2 * PHYS_PI / omega / dt);
    double worst[2] = {0, 0};
    for (long n = 1; n <= steps; n++) {
        sk_ref_rope_step(r);
        sk_ref_rope_diagnose(r, &d, NULL);
        double e = ((double)d.kinetic + (double)d.elastic) / e0 - 1;
        int half = n > steps / 2;
        worst[half] = fmax(worst[half], fabs(e));
    }
    fprintf(stderr, "measured: symplectic cantilever swinging %d periods (N = %d, w1 dt = %.3g): |E / E0 - 1| at most"
                    " %.3g in the first half, %.3g in the second (%s)\n",
            periods, n_seg, omega * dt, worst[0], worst[1], SK_REAL_NAME);
    /* symplectic Euler's E swings by w dt / 2 of a mode's energy (physics_energy's oscillator); the release
     * puts nearly all of it in the first mode: the swing is that, and it does not grow */
    CHECK(worst[0] > 0.4 * omega * dt && worst[0] < omega * dt + (PHYS_FLOAT ? 1e-2 : 1e-9));
    CHECK(worst[1] < 1.05 * worst[0] + (PHYS_FLOAT ? 1e-2 : 1e-9));
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

/* The forces are the energy's exact negative gradient: against central differences of sk_hinge_energy (the
 * energy the diagnostics report) at hinges bent by 0.01 to 170 degrees, links of different lengths, in 3D;
 * and, the energy being unchanged by rotations, the hinge exerts no torque: sum p x f = 0. */
static int gradient(void)
{
    const double angles[] = {0.01, 1, 30, 90, 135, 170}; /* degrees */
    const double kb = 2.5, h = PHYS_FLOAT ? 1e-2 : 1e-6;
    phys_track t = {0}, torque = {0};
    for (size_t k = 0; k < sizeof angles / sizeof angles[0]; k++) {
        const double th = angles[k] * PHYS_PI / 180;
        /* a at 0.7 m behind b along a tilted axis, c 1.3 m ahead, turned by th about another tilted axis */
        sk_vec3 p[3] = {{(sk_real)-0.7 * (sk_real)0.8, (sk_real)-0.7 * (sk_real)0.6, 0.1f},
                        {0, 0, 0.1f},
                        {(sk_real)(1.3 * (0.8 * cos(th) - 0.6 * sin(th) * 0.6)),
                         (sk_real)(1.3 * (0.6 * cos(th) + 0.8 * sin(th) * 0.6)), (sk_real)(0.1 + 1.3 * sin(th) * 0.8)}};
        sk_hinge hg = sk_hinge_eval((sk_real)kb, p[0], p[1], p[2]);
        const sk_vec3 f[3] = {hg.fa, sk_hinge_middle(&hg), hg.fc};
        double scale = kb / 0.7; /* the forces' size */
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++) {
                sk_vec3 q[3] = {p[0], p[1], p[2]};
                sk_real *x = c == 0 ? &q[i].x : c == 1 ? &q[i].y : &q[i].z;
                const sk_real x0 = *x;
                *x = x0 + (sk_real)h;
                const double up = (double)sk_hinge_energy((sk_real)kb, q[0], q[1], q[2]);
                *x = x0 - (sk_real)h;
                const double down = (double)sk_hinge_energy((sk_real)kb, q[0], q[1], q[2]);
                const double numeric = -(up - down) / (2 * h);
                const double got = c == 0 ? (double)f[i].x : c == 1 ? (double)f[i].y : (double)f[i].z;
                /* central differences: O(h^2) truncation, and the energy's rounding over 2h */
                PHYS_NEAR(&t, got, numeric, scale * (PHYS_FLOAT ? 5e-4 : 1e-9));
            }
        double m[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++) {
            m[0] += (double)p[i].y * f[i].z - (double)p[i].z * f[i].y;
            m[1] += (double)p[i].z * f[i].x - (double)p[i].x * f[i].z;
            m[2] += (double)p[i].x * f[i].y - (double)p[i].y * f[i].x;
        }
        for (int c = 0; c < 3; c++)
            PHYS_NEAR(&torque, m[c], 0, scale * 64 * PHYS_U);
    }
    phys_report("hinge forces against the energy's central differences, 0.01 to 170 degrees", &t);
    phys_report("hinge torque sum p x f", &torque);
    return 0;
}

CHECK_MAIN({"gradient", gradient}, {"tip_deflection", tip_deflection}, {"first_mode", first_mode}, {"symplectic_energy", symplectic_energy})
