/* Physics: a damped mass on an anchored spring whose anchor is driven, x(t) = point + a sin(w t + phase)
 * with t = step * dt at the start of the step (docs/model.md section 6), settles onto the exact steady state
 * of the discrete scheme, U = H(e^(i w dt)) A. */
#include <complex.h>

#include "scenario/scenario.h"
#include "physics_util.h"

/* Along the spring's axis, with u = p - point - l the stretch coordinate and X_n = a sin(w n dt + phase)
 * the anchor's offset used by step n + 1, the symplectic step with damping D = d^dt reads
 *   v_(n+1) = D (v_n - w0^2 dt (u_n - X_n)),   u_(n+1) = u_n + dt v_(n+1).
 * A forcing X_n = Re(A z^n), z = e^(i w dt), A = -i a e^(i phase), has the steady response
 * u_n = Re(U z^n), v_n = Re(V z^n) with z U = U + z V dt and z V = D (V - w0^2 dt (U - A)):
 *   V = U (z - 1) / (z dt),   U = D w0^2 dt^2 z A / ((z - 1)(z - D) + D w0^2 dt^2 z).
 * Everything else decays with the homogeneous step M. */
static int steady(double omega_drive, double phase)
{
    /* dt = 2e-3, d = 1e-4: transients decay as sqrt(d)^t = e^(-4.6 t); 8 s to settle (e^-37), then 8 s
     * watched. */
    const long settle_steps = 4000, window = 4000;
    sk_scenario s;
    CHECK_OK(phys_load(
        &s,
        "{\"skein\": 1, \"dt\": 2e-3, \"steps\": %ld, \"integrator\": \"symplectic\", \"gravity\": [0, 0, 0],"
        " \"groups\": [{\"count\": 1, \"particles\": 1, \"start\": [1.5, -0.25, 2], \"end\": [1.5, -0.25, 2],"
        " \"mass\": 0.5, \"damping\": 1e-4, \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.5, -0.25, 2],"
        " \"stiffness\": 50, \"length\": 1, \"motion\": {\"amplitude\": [0.2, 0, 0], \"omega\": %.17g,"
        " \"phase\": %.17g}}}]}",
        settle_steps + window, omega_drive, phase));
    const sk_rope_params *in = &s.groups[0].base;
    double dt = s.dt, l = in->anchor_length, x0 = in->anchor_point.x, a = in->motion_amplitude.x;
    double w = in->motion_omega, phi = in->motion_phase;
    double w0 = sqrt((double)in->anchor_stiffness / in->mass);
    double damp = SK_POW(in->damping, s.dt);

    double complex z = cexp(I * w * dt), amp = -I * a * cexp(I * phi);
    double k2 = damp * w0 * w0 * dt * dt;
    double complex u_amp = k2 * z * amp / ((z - 1) * (z - damp) + k2 * z);
    double complex v_amp = u_amp * (z - 1) / (z * dt);

    /* The homogeneous step in scaled coordinates (v / w0, u): Ms = [[D, -D w0 dt], [D w0 dt, 1 - D w0^2 dt^2]],
     * eigenvalues of modulus rho = sqrt(D); with its eigenvectors e, conj(e) as the columns of E,
     * |Ms^n| <= kappa rho^n, kappa = |E| |E^-1| from the singular values of E (s1^2 + s2^2 = |E|_F^2,
     * s1 s2 = |det E|). */
    double m11 = damp, m12 = -damp * w0 * dt, tr = damp + 1 - k2;
    double disc = tr * tr - 4 * damp;
    CHECK(disc < 0); /* underdamped step */
    double complex lambda = tr / 2 + I * sqrt(-disc) / 2;
    double complex e2 = lambda - m11;
    double frob = 2 * (m12 * m12 + creal(e2 * conj(e2))), det = 2 * fabs(m12 * cimag(e2));
    double root = sqrt(frob * frob - 4 * det * det);
    double kappa = sqrt((frob + root) / (frob - root));
    double rho = sqrt(damp);

    /* Tolerance: the start (at rest, u = 0) is off the steady state by |U| + |V| / w0, decayed to
     * kappa rho^n of that; each step's rounding, about 4 u of |p| + |v| / w0 + a in the scaled state, plus
     * the drive's phase w t + phase rounded (t = n dt too) to about 3 u (|w t| + |phase|) and so X by a
     * times that, which enters v / w0 as w0 dt a of it, accumulates to at most kappa r / (1 - rho). */
    double p_max = fabs(x0) + l + a + cabs(u_amp) + 0.2;
    double t_max = (double)(settle_steps + window) * dt;
    double r = 4 * PHYS_U * (p_max + cabs(v_amp) / w0 + a) + w0 * dt * a * 3 * PHYS_U * (w * t_max + fabs(phi));
    double tol =
        2 * (kappa * pow(rho, (double)settle_steps) * (cabs(u_amp) + cabs(v_amp) / w0) + kappa * r / (1 - rho));
    /* The test must see the time convention: x taken at the step's end would shift the response by
     * |U| |z - 1| = |U| w dt, at least 4 times the tolerance (float included: hence dt = 2e-3 and the
     * strong damping, which shorten the memory 1 / (1 - rho) over which rounding accumulates). */
    CHECK(tol < 0.25 * cabs(u_amp) * w * dt);

    sk_ref_rope *rope = sk_ref_rope_create(&s, 0, 0);
    CHECK(rope);
    for (long n = 0; n < settle_steps; n++)
        sk_ref_rope_step(rope);
    phys_track t = {0};
    for (long n = settle_steps; n < settle_steps + window; n++) {
        sk_ref_rope_step(rope);
        sk_vec3 p = sk_ref_rope_position(rope, 0);
        CHECK(p.y == in->start.y && p.z == in->start.z);
        double complex zn = cexp(I * w * dt * (double)(n + 1));
        PHYS_NEAR(&t, (double)p.x - x0 - l, creal(u_amp * zn), tol);
        PHYS_NEAR(&t, sk_ref_rope_velocity(rope, 0).x, creal(v_amp * zn), tol * w0);
    }
    char label[128];
    snprintf(label, sizeof label, "driven anchor w %.4g (w0 %.4g), steady state vs Re(H(z) A z^n)", w, w0);
    phys_report(label, &t);
    /* For comparison, the continuous steady state's gain w0^2 / (w0^2 - w^2 + i lambda w), lambda = -ln d. */
    double lam = -log((double)in->damping);
    double complex h_cont = w0 * w0 / (w0 * w0 - w * w + I * lam * w);
    fprintf(stderr, "       |U| / a = %.9g (discrete), %.9g (continuous)\n", cabs(u_amp) / a, cabs(h_cont));
    sk_ref_rope_destroy(rope);
    sk_scenario_free(&s);
    return 0;
}

/* Drive periods chosen so the window holds whole periods (not needed by the pointwise check). */
static int near_resonance(void) { return steady(2 * PHYS_PI * 10 / 8.0, 0.3); }
static int below_resonance(void) { return steady(2 * PHYS_PI * 3 / 8.0, -1.1); }
static int above_resonance(void) { return steady(2 * PHYS_PI * 25 / 8.0, 2.0); }

CHECK_MAIN({"near_resonance", near_resonance}, {"below_resonance", below_resonance},
           {"above_resonance", above_resonance})
