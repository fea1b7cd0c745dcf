/* Strain to colour: a diverging map from blue (compressed) through light grey (rest length) to red
 * (stretched), readable on a dark background, and the scale that maps strain onto it. */
#ifndef SKEIN_VIEWER_COLORMAP_H
#define SKEIN_VIEWER_COLORMAP_H

/* The map's stops at t = -1, -0.5, 0, 0.5, 1 (RGB in [0, 1]); colours between are linear in RGB. */
#define SK_COLORMAP_STOPS 5
extern const float sk_colormap_stops[SK_COLORMAP_STOPS][3];

/* Colour of t = strain / scale, clamped to [-1, 1]; a NaN strain (or scale <= 0) gives the rest
 * colour (t = 0). */
void sk_colormap_strain(double strain, double scale, float rgb[3]);

/* Colour of a position t in [-1, 1] on the map (the legend draws it). */
void sk_colormap_at(double t, float rgb[3]);

/* The smallest "nice" scale (1, 2 or 5 times a power of ten, at least SK_COLORMAP_MIN_SCALE) that is
 * >= |strain|: the legend's range, which then only changes in readable steps. */
#define SK_COLORMAP_MIN_SCALE 0.01
double sk_colormap_nice_scale(double strain);

#endif
