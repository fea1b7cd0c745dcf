/* The strain colour map and its scale. */
#include "colormap.h"

#include <math.h>

const float sk_colormap_stops[SK_COLORMAP_STOPS][3] = {
    {0.15f, 0.45f, 1.00f}, /* compressed by the full scale */
    {0.45f, 0.75f, 1.00f},
    {0.88f, 0.88f, 0.88f}, /* at rest length */
    {1.00f, 0.75f, 0.30f},
    {1.00f, 0.25f, 0.15f}, /* stretched by the full scale */
};

void sk_colormap_at(double t, float rgb[3])
{
    if (isnan(t))
        t = 0;
    if (t < -1)
        t = -1;
    if (t > 1)
        t = 1;
    /* Stops are 0.5 apart: segment k runs from stop k to stop k + 1. */
    double x = (t + 1) * 2;
    int k = (int)x;
    if (k > SK_COLORMAP_STOPS - 2)
        k = SK_COLORMAP_STOPS - 2;
    double f = x - k;
    for (int i = 0; i < 3; i++)
        rgb[i] = (float)(sk_colormap_stops[k][i] + (sk_colormap_stops[k + 1][i] - sk_colormap_stops[k][i]) * f);
}

void sk_colormap_strain(double strain, double scale, float rgb[3])
{
    sk_colormap_at(scale > 0 ? strain / scale : 0, rgb);
}

double sk_colormap_nice_scale(double strain)
{
    double s = fabs(strain);
    if (!(s > SK_COLORMAP_MIN_SCALE))
        return SK_COLORMAP_MIN_SCALE;
    if (!isfinite(s))
        return 1e300;
    double p = pow(10, floor(log10(s)));
    static const double steps[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++)
        /* A tiny tolerance so that 0.2 computed as 2 * 0.1 counts as 0.2, not as "above 0.2". */
        if (s <= steps[i] * p * (1 + 1e-12))
            return steps[i] * p;
    return 10 * p;
}
