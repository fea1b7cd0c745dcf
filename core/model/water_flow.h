/* The water's velocity and acceleration at a point and time (docs/model.md section 12): the current at the
 * point's height plus the orbital motion of regular linear (Airy) waves, ramped in, zero above the surface.
 * The reference engine calls sk_water_flow; the kernels (kernels/water_flow.h) do the same operations on
 * lanes, with the time's share computed once by sk_wave_clock_at here, so that both give the same bits. */
#ifndef SKEIN_MODEL_WATER_FLOW_H
#define SKEIN_MODEL_WATER_FLOW_H

#include <math.h>

#include "model/sleef_scalar.h"
#include "model/vec3.h"
#include "scenario/scenario_types.h"

#define SK_WATER_TWO_PI ((sk_real)6.283185307179586476925)
#define SK_WATER_INV_TWO_PI ((sk_real)0.159154943091895335768884)
/* The reduced phase stays within [-pi, pi] but for rounding; a lane whose phase is not a number (a particle
 * gone non-finite) is held within this bound too, so that no lane sends SLEEF down its slow path, which in
 * float (and in double beyond 1e14) changes the other lanes' bits. */
#define SK_WATER_PHASE_BOUND ((sk_real)4)
/* Rounding to the nearest whole number, ties to even: what the vector round instructions do. */
#ifdef SKEIN_REAL_FLOAT
#define SK_WATER_RINT nearbyintf
#else
#define SK_WATER_RINT nearbyint
#endif

/* What the waves' kinematics take from the time t alone, the same for every particle: the ramp factor r(t)
 * and its rate, and phase - omega t with whole turns of omega t taken off (in double: a float's omega t
 * would lose the phase after a few hundred periods). */
typedef struct sk_wave_clock {
    bool ramping;      /* t < ramp: r < 1, and the acceleration gains r' times the velocity */
    sk_real ramp, ramp_rate; /* r(t) = f^3 (10 - 15 f + 6 f^2), f = t / ramp; r' = 30 f^2 (1 - f)^2 / ramp */
    sk_real phase;     /* phase - (omega t mod 2 pi) (rad) */
    sk_real aw, aw2;   /* a omega (m/s), a omega^2 (m/s^2) */
} sk_wave_clock;

static inline sk_wave_clock sk_wave_clock_at(const sk_water *w, sk_real t)
{
    sk_wave_clock c;
    c.ramping = w->wave_ramp > 0 && t < w->wave_ramp;
    c.ramp = 1;
    c.ramp_rate = 0;
    if (c.ramping) {
        sk_real f = t > 0 ? t / w->wave_ramp : 0;
        sk_real g = 1 - f;
        c.ramp = f * f * f * (10 + f * (-15 + f * 6));
        c.ramp_rate = 30 * f * f * g * g / w->wave_ramp;
    }
    const double two_pi = 6.283185307179586476925;
    const double wt = (double)w->wave_omega * (double)t;
    const double turns = floor(wt / two_pi);
    c.phase = (sk_real)((double)w->wave_phase - (wt - turns * two_pi));
    c.aw = w->wave_amplitude * w->wave_omega;
    c.aw2 = c.aw * w->wave_omega;
    return c;
}

/* The current at height y: velocities[0] at and below heights[0], velocities[n - 1] at and above
 * heights[n - 1], between them linear: v[i] + (v[i + 1] - v[i]) * ((y - h[i]) / (h[i + 1] - h[i])) for the
 * last i with h[i] <= y (segment 0 for a y that is not a number). n >= 1. */
static inline sk_vec3 sk_water_current(const sk_water *w, sk_real y)
{
    const int n = w->current_count;
    const sk_real *h = w->current_heights;
    const sk_vec3 *v = w->current_velocities;
    if (n == 1 || y <= h[0])
        return v[0];
    if (y >= h[n - 1])
        return v[n - 1];
    int i = 0;
    for (int j = 1; j < n - 1; j++)
        if (y >= h[j])
            i = j;
    const sk_real f = (y - h[i]) / (h[i + 1] - h[i]);
    return sk_vec3_add(v[i], sk_vec3_scale(sk_vec3_sub(v[i + 1], v[i]), f));
}

/* The water's velocity u and acceleration a at point p and time t: the current at p's height plus the
 * waves' orbital velocity and acceleration (times the ramp); zero above the surface (p.y > surface).
 *
 * With z = max(p.y - surface, -depth) (held at the bed below it), E1 = exp(k z), E2 = exp(-k (z + 2 h)):
 * cosh(k s) / sinh(k h) = (E1 + E2) F and sinh(k s) / sinh(k h) = (E1 - E2) F, s = z + h the height above
 * the bed and F = 1 / (1 - exp(-2 k h)), finite however deep the water. theta = k (x cos(heading) +
 * z sin(heading)) - omega t + phase; the horizontal velocity a omega cosh/sinh cos(theta) along the
 * heading, the vertical a omega sinh/sinh sin(theta), the accelerations their time derivatives.
 * sk_water_flow_clocked takes the time's share from a clock computed once (sk_wave_clock_at(w, t)) for
 * callers that evaluate many points at one time; the result is the same bits. */
static inline void sk_water_flow_clocked(const sk_water *w, const sk_wave_clock *clock, sk_vec3 p, sk_vec3 *u,
                                         sk_vec3 *a)
{
    *u = sk_vec3_zero();
    *a = sk_vec3_zero();
    if (!w->present)
        return;
    const sk_real z = p.y - w->surface;
    if (z > 0)
        return;
    if (w->current_count > 0)
        *u = sk_water_current(w, p.y);
    if (!w->waves)
        return;
    const sk_wave_clock c = *clock;
    const sk_real k = w->wave_number, h = w->wave_depth;
    const sk_real nh = -h, h2 = h + h, nk = -k;
    const sk_real zc = z > nh ? z : nh;
    const sk_real e1 = sk_sleef_exp(k * zc), e2 = sk_sleef_exp(nk * (zc + h2));
    const sk_real ch = (e1 + e2) * w->wave_depth_factor, sh = (e1 - e2) * w->wave_depth_factor;
    const sk_real along = p.x * w->wave_cos_heading + p.z * w->wave_sin_heading;
    const sk_real theta = k * along + c.phase;
    sk_real r = theta - SK_WATER_TWO_PI * SK_WATER_RINT(theta * SK_WATER_INV_TWO_PI);
    r = r > -SK_WATER_PHASE_BOUND ? r : -SK_WATER_PHASE_BOUND;
    r = r < SK_WATER_PHASE_BOUND ? r : SK_WATER_PHASE_BOUND;
    sk_real sn, cs;
    sk_sleef_sincos(r, &sn, &cs);
    sk_real vh = (c.aw * ch) * cs, vv = (c.aw * sh) * sn;
    sk_real ah = (c.aw2 * ch) * sn, av = (-c.aw2 * sh) * cs;
    if (c.ramping) {
        ah = c.ramp * ah + c.ramp_rate * vh;
        av = c.ramp * av + c.ramp_rate * vv;
        vh = c.ramp * vh;
        vv = c.ramp * vv;
    }
    *u = sk_vec3_add(*u, sk_vec3_make(vh * w->wave_cos_heading, vv, vh * w->wave_sin_heading));
    *a = sk_vec3_make(ah * w->wave_cos_heading, av, ah * w->wave_sin_heading);
}

static inline void sk_water_flow(const sk_water *w, sk_vec3 p, sk_real t, sk_vec3 *u, sk_vec3 *a)
{
    const sk_wave_clock clock = sk_wave_clock_at(w, t);
    sk_water_flow_clocked(w, &clock, p, u, a);
}

#endif
