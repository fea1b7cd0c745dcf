/* The piecewise-linear path of a moving anchor (docs/model.md section 6.5): the displacement at time t,
 * the same operations in both engines (the kernels evaluate it once per step for every lane). */
#ifndef SKEIN_MODEL_ANCHOR_PATH_H
#define SKEIN_MODEL_ANCHOR_PATH_H

#include "model/vec3.h"

/* The row j of the path that t is on, times[j] <= t < times[j + 1], for times[0] < t < times[n - 1]. */
static inline int sk_path_row(const sk_real *times, int n, sk_real t)
{
    int lo = 0, hi = n - 1; /* times[lo] < t < times[hi] */
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* points[0] up to times[0], points[n - 1] from times[n - 1] on, and between times[j] <= t < times[j + 1]
 * points[j] + (points[j + 1] - points[j]) * ((t - times[j]) / (times[j + 1] - times[j])). times strictly
 * increase; n >= 1. */
static inline sk_vec3 sk_path_displacement(const sk_real *times, const sk_vec3 *points, int n, sk_real t)
{
    if (!(t > times[0]))
        return points[0];
    if (t >= times[n - 1])
        return points[n - 1];
    const int lo = sk_path_row(times, n, t);
    sk_real frac = (t - times[lo]) / (times[lo + 1] - times[lo]);
    return sk_vec3_add(points[lo], sk_vec3_scale(sk_vec3_sub(points[lo + 1], points[lo]), frac));
}

/* The path's velocity at t, the slope of the row it is on: (points[j + 1] - points[j]) * (1 / (times[j + 1] -
 * times[j])) for times[j] <= t < times[j + 1] (the slope after a row at the row's own time), zero before
 * times[0] (t <= times[0] too, where the displacement is held) and from times[n - 1] on. */
static inline sk_vec3 sk_path_velocity(const sk_real *times, const sk_vec3 *points, int n, sk_real t)
{
    if (!(t > times[0]) || t >= times[n - 1])
        return sk_vec3_zero();
    const int lo = sk_path_row(times, n, t);
    return sk_vec3_scale(sk_vec3_sub(points[lo + 1], points[lo]), (sk_real)1 / (times[lo + 1] - times[lo]));
}

#endif
