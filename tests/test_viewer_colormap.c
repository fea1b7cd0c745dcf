/* The viewer's strain colours, their scale, and where the grid lies: pure functions, values by hand. */
#include <math.h>

#include "check.h"
#include "colormap.h"
#include "grid.h"

static int same_rgb(const float a[3], const float b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static int endpoints(void)
{
    float rgb[3];
    sk_colormap_strain(-0.05, 0.05, rgb);
    CHECK(same_rgb(rgb, sk_colormap_stops[0]));
    sk_colormap_strain(0.05, 0.05, rgb);
    CHECK(same_rgb(rgb, sk_colormap_stops[4]));
    sk_colormap_strain(0, 0.05, rgb);
    CHECK(same_rgb(rgb, sk_colormap_stops[2]));
    /* Beyond the scale: clamped to the ends. */
    sk_colormap_strain(-3, 0.05, rgb);
    CHECK(same_rgb(rgb, sk_colormap_stops[0]));
    sk_colormap_strain(INFINITY, 0.05, rgb);
    CHECK(same_rgb(rgb, sk_colormap_stops[4]));
    /* NaN strain and a zero scale give the rest colour. */
    sk_colormap_strain(NAN, 0.05, rgb);
    CHECK(same_rgb(rgb, sk_colormap_stops[2]));
    sk_colormap_strain(0.3, 0, rgb);
    CHECK(same_rgb(rgb, sk_colormap_stops[2]));
    /* The ends are blue (compressed) and red (stretched), the middle a light grey. */
    CHECK(sk_colormap_stops[0][2] > sk_colormap_stops[0][0] && sk_colormap_stops[4][0] > sk_colormap_stops[4][2]);
    CHECK(fabsf(sk_colormap_stops[2][0] - sk_colormap_stops[2][2]) < 0.01f && sk_colormap_stops[2][0] > 0.8f);
    return 0;
}

/* Linear between stops 0.5 apart: t = 0.25 is halfway from stop 2 to stop 3, t = -0.75 halfway from
 * stop 0 to stop 1. */
static int between_stops(void)
{
    float rgb[3];
    sk_colormap_strain(0.025, 0.1, rgb);
    for (int i = 0; i < 3; i++)
        CHECK_NEAR(rgb[i], (sk_colormap_stops[2][i] + sk_colormap_stops[3][i]) / 2, 1e-6);
    sk_colormap_at(-0.75, rgb);
    for (int i = 0; i < 3; i++)
        CHECK_NEAR(rgb[i], (sk_colormap_stops[0][i] + sk_colormap_stops[1][i]) / 2, 1e-6);
    sk_colormap_at(0.5, rgb);
    CHECK(same_rgb(rgb, sk_colormap_stops[3]));
    return 0;
}

static int nice_scale(void)
{
    CHECK(sk_colormap_nice_scale(0) == SK_COLORMAP_MIN_SCALE);
    CHECK(sk_colormap_nice_scale(0.003) == 0.01);
    CHECK(sk_colormap_nice_scale(-0.013) == 0.02);
    CHECK_NEAR(sk_colormap_nice_scale(0.2), 0.2, 1e-15);
    CHECK_NEAR(sk_colormap_nice_scale(0.21), 0.5, 1e-15);
    CHECK_NEAR(sk_colormap_nice_scale(0.6), 1, 1e-15);
    CHECK_NEAR(sk_colormap_nice_scale(1.2), 2, 1e-15);
    CHECK_NEAR(sk_colormap_nice_scale(7), 10, 1e-15);
    CHECK_NEAR(sk_colormap_nice_scale(10), 10, 1e-15);
    CHECK(sk_colormap_nice_scale(NAN) == SK_COLORMAP_MIN_SCALE);
    return 0;
}

/* A box 4 m wide (x), 1 m tall, 0 deep: spacing 0.5 (a tenth of 4 rounded up to 1-2-5), centre snapped
 * to it, a quarter of 4 m under the lowest point, 1.5 * 4 / 0.5 + 1 = 13 lines each side. */
static int grid_fit(void)
{
    const double lo[3] = {-1.1, 2, 0.3}, hi[3] = {2.9, 3, 0.3};
    sk_grid g = sk_grid_fit(lo, hi, false, 0);
    CHECK_NEAR(g.spacing, 0.5, 1e-15);
    CHECK_NEAR(g.y, 1, 1e-15);
    CHECK_NEAR(g.centre[0], 1.0, 1e-15);
    CHECK_NEAR(g.centre[1], 0.5, 1e-15);
    CHECK(g.half_lines == 13);
    CHECK_NEAR(sk_grid_half_size(&g), 6.5, 1e-15);
    /* On the ground when there is one. */
    g = sk_grid_fit(lo, hi, true, -0.25);
    CHECK(g.y == -0.25);
    /* A single point: a 1 m scene, spacing 0.1. */
    const double p[3] = {7, 8, 9};
    g = sk_grid_fit(p, p, false, 0);
    CHECK_NEAR(g.spacing, 0.1, 1e-15);
    CHECK_NEAR(g.y, 7.75, 1e-12);
    return 0;
}

/* A grid follows a scene that grows (a deploying tether: 1 m, then 100 m), moves off its square, or shrinks;
 * one that still fits is kept (no flicker from frame to frame). */
static int grid_outgrown(void)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 0.2, 0};
    sk_grid g = sk_grid_fit(lo, hi, false, 0);
    CHECK_NEAR(g.spacing, 0.1, 1e-15);
    CHECK(!sk_grid_outgrown(&g, lo, hi));
    const double wider[3] = {1.5, 0.2, 0}; /* still inside the square, spacing still fine */
    CHECK(!sk_grid_outgrown(&g, lo, wider));
    const double grown[3] = {100, 0.2, 0};
    CHECK(sk_grid_outgrown(&g, lo, grown));
    g = sk_grid_fit(lo, grown, false, 0);
    CHECK_NEAR(g.spacing, 10, 1e-12);
    CHECK(!sk_grid_outgrown(&g, lo, grown));
    const double small[3] = {1, 0.2, 0}; /* 1 m under a 10 m grid: far coarser than a tenth */
    CHECK(sk_grid_outgrown(&g, lo, small));
    const double moved_lo[3] = {500, 0, 0}, moved_hi[3] = {600, 0.2, 0};
    CHECK(sk_grid_outgrown(&g, moved_lo, moved_hi));
    const double bad[3] = {NAN, 0, 0};
    CHECK(!sk_grid_outgrown(&g, bad, grown));
    return 0;
}

CHECK_MAIN({"endpoints", endpoints}, {"between_stops", between_stops}, {"nice_scale", nice_scale},
           {"grid_fit", grid_fit}, {"grid_outgrown", grid_outgrown})
