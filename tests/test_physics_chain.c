/* Physics: a damped spring chain hanging from a pinned top settles where every spring carries the
 * weight below it, stretch_j = (particles below) m g / k, under each integrator. */
#include "scenario/scenario.h"
#include "physics_util.h"

static const char *const integrator_names[] = {"cyclone", "euler", "symplectic", "verlet"};

static int hang(sk_integrator integrator)
{
    /* 6 particles of 0.1 kg, the top one pinned, springs k = 50 with rest 0.2, laid unstretched and at
     * rest along -y, 12 s. Damping d = 1e-4 at dt = 1e-3; verlet k = 0.04 at dt = 4e-3 (about the same
     * decay per second): verlet adds a dt^2 straight to p, and the longer step keeps that move above
     * float's half ulp down to 16 times smaller leftover forces (see the rounding bound below). */
    enum { N = 6 };
    bool verlet = integrator == SK_INTEGRATOR_VERLET;
    const long steps = verlet ? 3000 : 12000;
    sk_scenario s;
    CHECK_OK(
        phys_load(&s,
                  "{\"skein\": 1, \"dt\": %s, \"steps\": %ld, \"integrator\": \"%s\", \"gravity\": [0, -9.81, 0],"
                  " \"groups\": [{\"count\": 1, \"particles\": %d, \"start\": [0.3, 2, -0.4], \"end\": [0.3, 1, -0.4],"
                  " \"mass\": 0.1, \"damping\": 1e-4, \"verlet_damping\": 0.04, \"pinned\": [0],"
                  " \"link\": {\"type\": \"spring\", \"stiffness\": 50, \"length\": 0.2}}]}",
                  verlet ? "4e-3" : "1e-3", steps, integrator_names[integrator], N));
    const sk_rope_params *in = &s.groups[0].base;
    double dt = s.dt, m = in->mass, k = in->link_stiffness, l = in->link_length, g = -(double)s.gravity.y;
    double damp = SK_POW(in->damping, s.dt), keep = (sk_real)1 - in->verlet_damping;

    /* Equilibrium: spring j (between particles j and j + 1) holds the N - 1 - j particles below it. */
    double expected[N], stretch_sum = 0;
    expected[0] = in->start.y;
    for (int j = 0; j + 1 < N; j++) {
        double stretch = (double)(N - 1 - j) * m * g / k;
        expected[j + 1] = expected[j] - (l + stretch);
        stretch_sum += stretch;
    }

    /* Tolerance. Settling: the N - 1 free particles form a fixed-free chain whose modes have
     * w_j = 2 sqrt(k/m) sin((2j - 1) pi / (4(N - 1) + 2)); in mode coordinates each step is a 2x2
     * matrix M of spectral radius rho (phys_step_modulus), and |M^n| is bounded by phys_settle_factor.
     * The start is off by at most stretch_sum per particle, sqrt(N) stretch_sum in norm.
     * Rounding: the chain stops where a step no longer moves a position, that is where a leftover
     * acceleration a gives a per-step move below half an ulp of |p| (u |p|). The Euler schemes keep v,
     * which builds up to a dt D / (1 - D), a move of a dt^2 / (1 - D) a step; verlet keeps no velocity
     * (p - q is 0 once p stops), so its move is a dt^2 alone. The forces' own rounding (a few u of
     * k |d| / m and of g) leaves such an a as well. Leftover accelerations a_j <= a displace particle i
     * by sum_j min(i, j) m a_j / k (the hanging chain's compliance), at most N (N - 1) / 2 m a / k.
     * Doubled. */
    double rho = 0, wmax = 0;
    for (int j = 1; j < N; j++) {
        double w = 2 * sqrt(k / m) * sin((2 * j - 1) * PHYS_PI / (4 * (N - 1) + 2));
        rho = fmax(rho, phys_step_modulus(integrator, w, dt, damp, keep));
        wmax = fmax(wmax, w);
    }
    CHECK(rho < 1);
    double settle = sqrt((double)N) * stretch_sum * phys_settle_factor(rho, steps, wmax, dt);
    double p_max = fmax(fabs(expected[0]), fabs(expected[N - 1])); /* the largest |p.y| */
    double loss = verlet ? 1 : 1 - damp;
    double stuck = PHYS_U * p_max * loss / (dt * dt);
    double force_rounding = 8 * PHYS_U * (k / m * (l + stretch_sum) + g);
    double tol = 2 * (settle + (double)(N * (N - 1) / 2) * m * (stuck + force_rounding) / k);

    sk_ref_rope *r = sk_ref_rope_create(&s, 0, 0);
    CHECK(r);
    for (long n = 0; n < steps; n++)
        sk_ref_rope_step(r);
    phys_track t = {0};
    for (int i = 0; i < N; i++) {
        sk_vec3 p = sk_ref_rope_position(r, i);
        /* All forces act along y, whose unit vectors have x = z = 0 exactly. */
        CHECK(p.x == in->start.x && p.z == in->start.z);
        PHYS_NEAR(&t, p.y, expected[i], tol);
    }
    /* The bottom spring's stretch alone, against m g / k. */
    sk_real bottom = sk_ref_rope_position(r, N - 2).y - sk_ref_rope_position(r, N - 1).y;
    PHYS_NEAR(&t, bottom - l, m * g / k, 2 * tol);
    char label[96];
    snprintf(label, sizeof label, "hanging chain %s, settled y against the static stretch",
             integrator_names[integrator]);
    phys_report(label, &t);
    fprintf(stderr, "       (settling bound %.3g, rounding bound %.3g, total stretch %.6g)\n", settle, tol / 2 - settle,
            stretch_sum);
    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    return 0;
}

static int symplectic(void) { return hang(SK_INTEGRATOR_SYMPLECTIC); }
static int cyclone(void) { return hang(SK_INTEGRATOR_CYCLONE); }
static int verlet(void) { return hang(SK_INTEGRATOR_VERLET); }

CHECK_MAIN({"symplectic", symplectic}, {"cyclone", cyclone}, {"verlet", verlet})
