/* The top-level "water": the sea's density and free surface, a current profile by height, regular Airy waves,
 * validated, and the waves' constants derived once (the dispersion relation solved for k). docs/model.md
 * section 12 gives the kinematics, core/model/water_flow.h computes them. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "scenario/scenario_impl.h"

/* Miche's limit on a wave's steepness before it breaks, H / L <= 0.142 tanh(k h), as k a with H = 2 a and
 * L = 2 pi / k: k a <= 0.142 pi tanh(k h). In deep water H / L <= 1/7; in shallow water it gives a <= 0.446 h. */
#define SK_WAVE_MICHE 0.142
#define PI 3.14159265358979323846

static int oom(const sk_scn_ctx *c) { return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name); }

/* water.current: {"heights": [y0, y1, ...] strictly increasing, "velocities": [[vx, vy, vz], ...] as many}. */
static int parse_current(const sk_scn_ctx *c, json_t *w, sk_water *water)
{
    static const char *const keys[] = {"heights", "velocities", NULL};
    json_t *o;
    int rc = sk_scn_read_object(c, "water", w, "current", false, &o);
    if (rc || !o)
        return rc;
    if ((rc = sk_scn_check_keys(c, "water.current", o, keys)))
        return rc;
    json_t *heights = json_object_get(o, "heights"), *velocities = json_object_get(o, "velocities");
    if (!json_is_array(heights) || json_array_size(heights) == 0)
        return sk_scn_fail(c, "water.current.heights", "required: a non-empty array of heights y (m)");
    const size_t n = json_array_size(heights);
    if (n > SK_MAX_CURRENT_ROWS)
        return sk_scn_fail(c, "water.current.heights", "at most %d heights", SK_MAX_CURRENT_ROWS);
    if (!json_is_array(velocities) || json_array_size(velocities) != n)
        return sk_scn_fail(c, "water.current.velocities",
                           "required: an array of as many velocities [vx, vy, vz] (m/s) as heights (%zu)", n);
    water->current_heights = malloc(n * sizeof *water->current_heights);
    water->current_velocities = malloc(n * sizeof *water->current_velocities);
    if (!water->current_heights || !water->current_velocities)
        return oom(c);
    water->current_count = (int)n;
    sk_real *y = water->current_heights;
    sk_vec3 *v = water->current_velocities;
    for (size_t i = 0; i < n; i++) {
        char p[SK_SCN_PATH_MAX];
        sk_scn_path_index(p, "water.current.heights", i);
        if ((rc = sk_scn_real_value(c, p, json_array_get(heights, i), SK_RANGE_ANY, &y[i])))
            return rc;
        /* the interpolation divides by the difference: it must be a positive finite number */
        if (i > 0 && !(y[i] > y[i - 1]))
            return sk_scn_fail(c, p, "must be greater than the height before it (heights strictly increase)");
        if (i > 0 && !isfinite(y[i] - y[i - 1]))
            return sk_scn_fail(c, p, "too far from the height before it (their difference overflows)");
        sk_scn_path_index(p, "water.current.velocities", i);
        if ((rc = sk_scn_vec3_value(c, p, json_array_get(velocities, i), &v[i])))
            return rc;
        if (i > 0 && (!isfinite(v[i].x - v[i - 1].x) || !isfinite(v[i].y - v[i - 1].y) ||
                      !isfinite(v[i].z - v[i - 1].z)))
            return sk_scn_fail(c, p, "too far from the velocity before it (their difference overflows)");
    }
    return 0;
}

/* x tanh(x) = alpha (x = k h, alpha = omega^2 h / g), by Newton's method kept inside a bracket: x is at least
 * alpha (the deep-water root, since tanh < 1) and sqrt(alpha) (the shallow-water one, since tanh x < x), and at
 * most alpha / tanh(lo) for any lower bound lo. Newton starts from the larger lower bound and iterates to
 * round-off; a step leaving the bracket bisects instead. */
static double dispersion_kh(double alpha)
{
    double lo = alpha > sqrt(alpha) ? alpha : sqrt(alpha);
    double hi = alpha / tanh(lo);
    double x = lo;
    for (int it = 0; it < 200; it++) {
        const double t = tanh(x), f = x * t - alpha;
        if (f == 0)
            return x;
        if (f < 0)
            lo = x;
        else
            hi = x;
        const double df = t + x * (1 - t * t);
        double next = x - f / df;
        if (!(next > lo && next < hi))
            next = lo + 0.5 * (hi - lo);
        if (next == x || fabs(next - x) <= 4 * DBL_EPSILON * x)
            return next;
        x = next;
    }
    return x;
}

/* A whole number of turns taken off an angle in degrees (exactly: fmod rounds nothing), then radians. */
static sk_real radians(double degrees) { return (sk_real)(fmod(degrees, 360.0) * (PI / 180.0)); }

/* Degrees as written (0 where absent), read back from the tree: the range reader has checked them. */
static double degrees(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return v ? (double)(sk_real)json_number_value(v) : 0.0;
}

/* water.waves: amplitude, period and depth required, heading and phase in degrees, ramp in seconds. */
static int parse_waves(const sk_scn_ctx *c, json_t *w, sk_scenario *s)
{
    static const char *const keys[] = {"amplitude", "period", "heading", "phase", "depth", "ramp", NULL};
    sk_water *water = &s->water;
    json_t *o;
    int rc = sk_scn_read_object(c, "water", w, "waves", false, &o);
    if (rc || !o)
        return rc;
    sk_real heading, phase;
    if ((rc = sk_scn_check_keys(c, "water.waves", o, keys)) ||
        (rc = sk_scn_read_real(c, "water.waves", o, "amplitude", true, 0, SK_RANGE_GE0, &water->wave_amplitude)) ||
        (rc = sk_scn_read_real(c, "water.waves", o, "period", true, 0, SK_RANGE_GT0, &water->wave_period)) ||
        (rc = sk_scn_read_real(c, "water.waves", o, "heading", false, 0, SK_RANGE_ANY, &heading)) ||
        (rc = sk_scn_read_real(c, "water.waves", o, "phase", false, 0, SK_RANGE_ANY, &phase)) ||
        (rc = sk_scn_read_real(c, "water.waves", o, "depth", true, 0, SK_RANGE_GT0, &water->wave_depth)) ||
        (rc = sk_scn_read_real(c, "water.waves", o, "ramp", false, 0, SK_RANGE_GE0, &water->wave_ramp)))
        return rc;
    water->waves = true;
    water->wave_heading = radians(degrees(o, "heading"));
    water->wave_phase = radians(degrees(o, "phase"));
    water->wave_cos_heading = (sk_real)cos((double)water->wave_heading);
    water->wave_sin_heading = (sk_real)sin((double)water->wave_heading);

    const double h = (double)water->wave_depth, a = (double)water->wave_amplitude;
    if (s->has_ground && h > (double)water->surface - (double)s->ground_height)
        return sk_scn_fail(c, "water.waves.depth",
                           "%.17g m reaches below the ground (the water over ground.height is %.17g m deep)", h,
                           (double)water->surface - (double)s->ground_height);
    const double g = sqrt((double)s->gravity.x * s->gravity.x + (double)s->gravity.y * s->gravity.y +
                          (double)s->gravity.z * s->gravity.z);
    if (!(g > 0) || !isfinite(g))
        return sk_scn_fail(c, "water.waves", "waves need gravity (a finite, non-zero \"gravity\")");
    const double omega = 2 * PI / (double)water->wave_period;
    const double alpha = omega * omega * h / g;
    if (!(alpha > 0) || !isfinite(alpha) || !isfinite(omega * omega / g))
        return sk_scn_fail(c, "water.waves.period", "%.17g s: the wave number is out of range (too short a period)",
                           (double)water->wave_period);
    const double kh = dispersion_kh(alpha), k = kh / h;
    /* 1 / (1 - exp(-2 k h)) = 1 / sinh(k h) * exp(k h) / 2, finite for every k h > 0 that is not denormal */
    const double factor = -1 / expm1(-2 * kh);
    if (!sk_scn_fits_real(omega) || !sk_scn_fits_real(k) || !sk_scn_fits_real(factor) || !(k > 0))
        return sk_scn_fail(c, "water.waves.period", "%.17g s in %.17g m of water: the wave number is out of range",
                           (double)water->wave_period, h);
    const double limit = SK_WAVE_MICHE * PI * tanh(kh);
    if (k * a > limit)
        return sk_scn_fail(c, "water.waves.amplitude",
                           "%.17g m breaks: k a = %.4g is steeper than Miche's limit 0.142 pi tanh(k h) = %.4g "
                           "(k = %.6g 1/m)",
                           a, k * a, limit, k);
    water->wave_omega = (sk_real)omega;
    water->wave_number = (sk_real)k;
    water->wave_depth_factor = (sk_real)factor;
    return 0;
}

int sk_scn_parse_water(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    static const char *const keys[] = {"density", "surface", "current", "waves", NULL};
    json_t *w;
    int rc = sk_scn_read_object(c, "", root, "water", false, &w);
    if (rc || !w)
        return rc;
    s->water.present = true;
    if ((rc = sk_scn_check_keys(c, "water", w, keys)) ||
        (rc = sk_scn_read_real(c, "water", w, "density", true, 0, SK_RANGE_GT0, &s->water.density)) ||
        (rc = sk_scn_read_real(c, "water", w, "surface", false, 0, SK_RANGE_ANY, &s->water.surface)) ||
        (rc = parse_current(c, w, &s->water)))
        return rc;
    return parse_waves(c, w, s);
}
