/* What a frame draws, as plain arrays built from the ropes without GL: particles as discs, links as
 * thin quads coloured by strain, the anchor, the ground plane, the grid, and the strain legend and the
 * pause mark in screen space. render.c only uploads and draws these; tests read the same colours. */
#ifndef SKEIN_VIEWER_SCENE_H
#define SKEIN_VIEWER_SCENE_H

#include <stdbool.h>

#include "camera.h"
#include "grid.h"
#include "sim.h"

/* A disc of size pixels across: fill colour inside, a dark rim round it (15% of the size, at least one
 * pixel: sk_scene_rim_width). */
typedef struct sk_scene_point {
    float pos[3];
    float rgb[3];
    float rim[3];
    float size;
} sk_scene_point;

/* A link drawn as a quad width pixels wide from a to b. */
typedef struct sk_scene_segment {
    float a[3], b[3];
    float rgb[3];
    float width;
} sk_scene_segment;

/* A world-space vertex of a line (two per line, one pixel wide) or a triangle (three each). */
typedef struct sk_scene_vertex {
    float pos[3];
    float rgba[4];
} sk_scene_vertex;

/* A screen-space vertex of an overlay triangle, in pixels from the top-left corner. */
typedef struct sk_scene_overlay_vertex {
    float xy[2];
    float rgba[4];
} sk_scene_overlay_vertex;

typedef struct sk_scene {
    sk_scene_point *points;
    sk_scene_segment *segments;
    sk_scene_vertex *lines, *triangles;
    sk_scene_overlay_vertex *overlay;
    int n_points, n_segments, n_lines, n_triangles, n_overlay; /* counts of elements (vertices for the last three) */
    int cap_points, cap_segments, cap_lines, cap_triangles, cap_overlay;
} sk_scene;

/* The look. */
extern const float sk_scene_background[3];
extern const float sk_scene_pinned_rgb[3]; /* pinned particles, the anchor and its link */
#define SK_SCENE_PARTICLE_SIZE 9.0f    /* largest disc diameter (pixels) */
#define SK_SCENE_CURRENT_SIZE 12.0f    /* the same for the current rope */
#define SK_SCENE_MIN_SIZE 5.0f         /* discs shrink to this where particles crowd on screen */
#define SK_SCENE_ANCHOR_SIZE 13.0f
#define SK_SCENE_LINK_WIDTH 3.0f       /* (pixels) */
#define SK_SCENE_ANCHOR_LINK_WIDTH 2.0f

/* What to draw besides the ropes. */
typedef struct sk_scene_view {
    int current;         /* the current rope: its particles are drawn larger */
    double strain_scale; /* strain at the ends of the colour map */
    sk_grid grid;
    bool paused;         /* draw the pause mark */
    int width, height;   /* viewport (pixels) */
    const sk_camera *camera; /* sizes discs so that neighbours do not hide the links between them */
    const char *caption;     /* the top line: time, step, rope (may be NULL) */
} sk_scene_view;

/* Fills sc (keeping its storage) with everything a frame draws. Particles and links with a non-finite
 * end are left out. Returns false when memory runs out. */
bool sk_scene_build(sk_scene *sc, const sk_view_sim *sim, const sk_scene_view *view);
void sk_scene_free(sk_scene *sc);

/* The colour of particle i of rope k: pinned colour when pinned, else the colour of the mean strain
 * of the links it joins (rest colour for a rope of one particle). */
void sk_scene_particle_rgb(const sk_view_sim *sim, int k, int i, double strain_scale, float rgb[3]);

/* The disc diameter of rope k's particles: 0.6 times the mean on-screen link length, within
 * [SK_SCENE_MIN_SIZE, SK_SCENE_PARTICLE_SIZE] (SK_SCENE_CURRENT_SIZE for the current rope). */
float sk_scene_particle_size(const sk_view_sim *sim, int k, const sk_scene_view *view);

/* The rim of a disc of the given size (pixels): what the particle shader draws. */
float sk_scene_rim_width(float size);

/* The legend's colour bar, in pixels from the top-left: x0, y0, x1, y1 (+scale at the top). */
void sk_scene_legend_rect(int width, int height, float rect[4]);

/* Where text may be drawn, so that a picture carries the numbers its reader needs (a screenshot has no
 * window title): the caption at the top, the legend's values beside its bar, the grid's spacing at the
 * bottom. rects[i] is x0, y0, x1, y1 in pixels; text never leaves them. */
enum { SK_SCENE_LABEL_CAPTION, SK_SCENE_LABEL_LEGEND, SK_SCENE_LABEL_GRID, SK_SCENE_LABELS };
void sk_scene_label_rects(int width, int height, float rects[SK_SCENE_LABELS][4]);

/* Overlay vertices text takes (two triangles per stroke of stb_easy_font's quads). */
int sk_scene_text_vertices(const char *text);

#endif
