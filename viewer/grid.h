/* Where the reference grid lies: a square of lines in a horizontal plane under the scene (on the ground
 * when the scenario has one), its spacing a round number fitted to the scene's size. Pure maths. */
#ifndef SKEIN_VIEWER_GRID_H
#define SKEIN_VIEWER_GRID_H

#include <stdbool.h>

typedef struct sk_grid {
    double y;         /* height of the plane (m) */
    double centre[2]; /* x, z of the square's centre, a multiple of spacing (m) */
    double spacing;   /* between lines (m): 1, 2 or 5 times a power of ten */
    int half_lines;   /* lines each side of the centre: the square spans centre +- half_lines * spacing */
} sk_grid;

/* Every fifth line (counted from the world origin) is drawn brighter. */
#define SK_GRID_MAJOR_EVERY 5

/* A grid for the scene box [lo, hi]: on the ground at ground_y when has_ground, else a quarter of the
 * box's largest side below its lowest point; spacing near a tenth of the box's largest side; the square covers at least three times the box. */
sk_grid sk_grid_fit(const double lo[3], const double hi[3], bool has_ground, double ground_y);

/* Half the side of the square (m). */
double sk_grid_half_size(const sk_grid *g);

/* Whether the scene box [lo, hi] has outgrown the grid (a deploying tether grows hundredfold): it leaves the
 * grid's square, or the spacing is far from a tenth of its size (under a fiftieth or over a half). A box
 * that is not finite never has. */
bool sk_grid_outgrown(const sk_grid *g, const double lo[3], const double hi[3]);

#endif
