/* Fitting the reference grid to the scene. */
#include "grid.h"

#include <math.h>

/* The smallest of 1, 2, 5 times a power of ten that is >= x (x > 0). */
static double round_up_nice(double x)
{
    double p = pow(10, floor(log10(x)));
    if (x <= p * (1 + 1e-12))
        return p;
    if (x <= 2 * p * (1 + 1e-12))
        return 2 * p;
    if (x <= 5 * p * (1 + 1e-12))
        return 5 * p;
    return 10 * p;
}

sk_grid sk_grid_fit(const double lo[3], const double hi[3], bool has_ground, double ground_y)
{
    double c[3] = {0, 0, 0}, size = 0;
    bool valid = true;
    for (int i = 0; i < 3; i++) {
        valid = valid && isfinite(lo[i]) && isfinite(hi[i]) && lo[i] <= hi[i];
        c[i] = (lo[i] + hi[i]) / 2;
        if (hi[i] - lo[i] > size)
            size = hi[i] - lo[i];
    }
    if (!valid) {
        c[0] = c[1] = c[2] = 0;
        size = 0;
    }
    if (!(size > 1e-6))
        size = 1;
    sk_grid g;
    g.spacing = round_up_nice(size / 10);
    /* Without a ground, a quarter of the scene below it: a horizontal rope must not lie in the grid. */
    g.y = has_ground ? ground_y : (valid ? lo[1] : 0) - size / 4;
    g.centre[0] = round(c[0] / g.spacing) * g.spacing;
    g.centre[1] = round(c[2] / g.spacing) * g.spacing;
    /* 1.5 box sizes each side, plus one spacing for the rounding of the centre. */
    g.half_lines = (int)ceil(1.5 * size / g.spacing) + 1;
    return g;
}

double sk_grid_half_size(const sk_grid *g) { return g->half_lines * g->spacing; }

bool sk_grid_outgrown(const sk_grid *g, const double lo[3], const double hi[3])
{
    double size = 0;
    for (int i = 0; i < 3; i++) {
        if (!isfinite(lo[i]) || !isfinite(hi[i]) || lo[i] > hi[i])
            return false;
        size = hi[i] - lo[i] > size ? hi[i] - lo[i] : size;
    }
    const double half = sk_grid_half_size(g);
    const bool outside = lo[0] < g->centre[0] - half || hi[0] > g->centre[0] + half || lo[2] < g->centre[1] - half ||
                         hi[2] > g->centre[1] + half;
    /* a tenth of the scene, within a factor of 5 either way: no finer than that, no coarser */
    return outside || size > 50 * g->spacing || (size > 1e-6 && size < 2 * g->spacing);
}
