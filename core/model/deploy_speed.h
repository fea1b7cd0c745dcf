/* A deployment speed profile (docs/model.md section 7): the length a step pays out, the exact integral of
 * the piecewise-linear speed table over the step, the same operations in both engines (the kernels
 * evaluate it once per step for every lane of the group). */
#ifndef SKEIN_MODEL_DEPLOY_SPEED_H
#define SKEIN_MODEL_DEPLOY_SPEED_H

#include "skein/types.h"

/* The first index whose time is greater than t (n when none is). */
static inline int sk_speed_after(const sk_real *times, int n, sk_real t)
{
    int lo = 0, hi = n; /* times[lo - 1] <= t < times[hi] */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The speed at t: values[0] up to times[0], values[n - 1] from times[n - 1] on, linear in between. j is
 * sk_speed_after(times, n, t). */
static inline sk_real sk_speed_at(const sk_real *times, const sk_real *values, int n, int j, sk_real t)
{
    if (j == 0)
        return values[0];
    if (j == n)
        return values[n - 1];
    sk_real frac = (t - times[j - 1]) / (times[j] - times[j - 1]);
    return values[j - 1] + ((values[j] - values[j - 1]) * frac);
}

/* The length paid out by step `step` of dt: the integral of the speed from a = step*dt to b = (step + 1)*dt,
 * a trapezoid per piece of the table the step covers (exact for a piecewise-linear speed), summed from a
 * on. Negative while the speed is: the rope is reeled in. The halves are taken before the sum so two
 * large speeds do not overflow. */
static inline sk_real sk_deploy_step_length(const sk_real *times, const sk_real *values, int n, long step,
                                            sk_real dt)
{
    const sk_real half = (sk_real)0.5;
    sk_real a = (sk_real)step * dt, b = (sk_real)(step + 1) * dt;
    int j = sk_speed_after(times, n, a);
    sk_real lo = a, ulo = sk_speed_at(times, values, n, j, a), sum = 0;
    for (; j < n && times[j] < b; j++) {
        sum = sum + ((times[j] - lo) * ((half * ulo) + (half * values[j])));
        lo = times[j];
        ulo = values[j];
    }
    sk_real ub = sk_speed_at(times, values, n, sk_speed_after(times, n, b), b);
    return sum + ((b - lo) * ((half * ulo) + (half * ub)));
}

#endif
