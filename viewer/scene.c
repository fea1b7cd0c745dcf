/* Building a frame's drawables from the ropes. */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#include <stb_easy_font.h>

#include "colormap.h"

const float sk_scene_background[3] = {0.075f, 0.085f, 0.105f};
const float sk_scene_pinned_rgb[3] = {0.35f, 0.92f, 0.55f}; /* green: outside the strain map */

static const float rim_rgb[3] = {0.05f, 0.06f, 0.08f};
static const float grid_minor[4] = {0.19f, 0.21f, 0.25f, 1.0f};
static const float grid_major[4] = {0.30f, 0.33f, 0.39f, 1.0f};
static const float ground_rgba[4] = {0.16f, 0.30f, 0.20f, 0.45f};
static const float legend_frame[4] = {0.70f, 0.72f, 0.76f, 1.0f};
static const float pause_rgba[4] = {0.85f, 0.86f, 0.88f, 0.85f};
static const float text_rgba[4] = {0.86f, 0.88f, 0.91f, 1.0f};

enum { TEXT_SCALE = 2 }; /* stb_easy_font's 7-pixel glyphs, twice as large */

/* Makes room for one more element of size bytes in *array (count used of *cap). */
static bool reserve(void **array, int count, int *cap, size_t size, int more)
{
    if (count + more <= *cap)
        return true;
    int want = *cap ? *cap * 2 : 256;
    while (want < count + more)
        want *= 2;
    void *p = realloc(*array, (size_t)want * size);
    if (!p)
        return false;
    *array = p;
    *cap = want;
    return true;
}

static void set3(float out[3], double x, double y, double z)
{
    out[0] = (float)x;
    out[1] = (float)y;
    out[2] = (float)z;
}

static bool finite3(sk_vec3 p) { return isfinite(p.x) && isfinite(p.y) && isfinite(p.z); }

static bool add_point(sk_scene *sc, const float pos[3], const float rgb[3], const float rim[3], float size)
{
    if (!reserve((void **)&sc->points, sc->n_points, &sc->cap_points, sizeof *sc->points, 1))
        return false;
    sk_scene_point *p = &sc->points[sc->n_points++];
    memcpy(p->pos, pos, sizeof p->pos);
    memcpy(p->rgb, rgb, sizeof p->rgb);
    memcpy(p->rim, rim, sizeof p->rim);
    p->size = size;
    return true;
}

static bool add_segment(sk_scene *sc, const float a[3], const float b[3], const float rgb[3], float width)
{
    if (!reserve((void **)&sc->segments, sc->n_segments, &sc->cap_segments, sizeof *sc->segments, 1))
        return false;
    sk_scene_segment *s = &sc->segments[sc->n_segments++];
    memcpy(s->a, a, sizeof s->a);
    memcpy(s->b, b, sizeof s->b);
    memcpy(s->rgb, rgb, sizeof s->rgb);
    s->width = width;
    return true;
}

static bool add_line(sk_scene *sc, const float a[3], const float b[3], const float rgba_a[4], const float rgba_b[4])
{
    if (!reserve((void **)&sc->lines, sc->n_lines, &sc->cap_lines, sizeof *sc->lines, 2))
        return false;
    sk_scene_vertex *v = &sc->lines[sc->n_lines];
    memcpy(v[0].pos, a, sizeof v[0].pos);
    memcpy(v[0].rgba, rgba_a, sizeof v[0].rgba);
    memcpy(v[1].pos, b, sizeof v[1].pos);
    memcpy(v[1].rgba, rgba_b, sizeof v[1].rgba);
    sc->n_lines += 2;
    return true;
}

/* Two triangles a b c, a c d. */
static bool add_quad(sk_scene *sc, const float q[4][3], const float rgba[4])
{
    if (!reserve((void **)&sc->triangles, sc->n_triangles, &sc->cap_triangles, sizeof *sc->triangles, 6))
        return false;
    static const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++) {
        sk_scene_vertex *v = &sc->triangles[sc->n_triangles++];
        memcpy(v->pos, q[order[i]], sizeof v->pos);
        memcpy(v->rgba, rgba, sizeof v->rgba);
    }
    return true;
}

/* A screen rectangle [x0, x1] x [y0, y1] (pixels), colour top at y0 and bottom at y1. */
static bool add_rect(sk_scene *sc, float x0, float y0, float x1, float y1, const float top[4], const float bottom[4])
{
    if (!reserve((void **)&sc->overlay, sc->n_overlay, &sc->cap_overlay, sizeof *sc->overlay, 6))
        return false;
    const float xy[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    const float *rgba[4] = {top, top, bottom, bottom};
    static const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++) {
        sk_scene_overlay_vertex *v = &sc->overlay[sc->n_overlay++];
        memcpy(v->xy, xy[order[i]], sizeof v->xy);
        memcpy(v->rgba, rgba[order[i]], sizeof v->rgba);
    }
    return true;
}

/* The quads stb_easy_font draws text with, at most a line's worth. */
enum { TEXT_MAX_QUADS = 1000 };
typedef struct text_quads {
    float v[TEXT_MAX_QUADS * 4][4]; /* x, y, z, colour (4 bytes, unused) per vertex */
    int n;
} text_quads;

static void lay_text(text_quads *q, const char *text)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text); /* stb_easy_font takes a char * */
    q->n = stb_easy_font_print(0, 0, copy, NULL, q->v, (int)sizeof q->v);
}

int sk_scene_text_vertices(const char *text)
{
    static text_quads q; /* large: kept off the stack (the viewer draws on one thread) */
    lay_text(&q, text);
    return q.n * 6;
}

/* Pixels text takes across at TEXT_SCALE. */
static float text_width(const char *text)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    return (float)(stb_easy_font_width(copy) * TEXT_SCALE);
}

/* text with its top-left corner at (x, y), as overlay triangles. */
static bool add_text(sk_scene *sc, float x, float y, const char *text)
{
    static text_quads q;
    lay_text(&q, text);
    if (!reserve((void **)&sc->overlay, sc->n_overlay, &sc->cap_overlay, sizeof *sc->overlay, q.n * 6))
        return false;
    static const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < q.n; k++)
        for (int i = 0; i < 6; i++) {
            const float *p = q.v[4 * k + order[i]];
            sk_scene_overlay_vertex *v = &sc->overlay[sc->n_overlay++];
            v->xy[0] = x + p[0] * TEXT_SCALE;
            v->xy[1] = y + p[1] * TEXT_SCALE;
            memcpy(v->rgba, text_rgba, sizeof v->rgba);
        }
    return true;
}

void sk_scene_particle_rgb(const sk_view_sim *sim, int k, int i, double strain_scale, float rgb[3])
{
    if (sim->ropes[k].pinned[i]) {
        memcpy(rgb, sk_scene_pinned_rgb, 3 * sizeof *rgb);
        return;
    }
    int n = sim->ropes[k].n, links = 0;
    double sum = 0;
    if (i > 0) {
        sum += sk_view_sim_strain(sim, k, i - 1);
        links++;
    }
    if (i < n - 1) {
        sum += sk_view_sim_strain(sim, k, i);
        links++;
    }
    sk_colormap_strain(links ? sum / links : 0, strain_scale, rgb);
}

float sk_scene_rim_width(float size) { return size * 0.15f > 1 ? size * 0.15f : 1; }

float sk_scene_particle_size(const sk_view_sim *sim, int k, const sk_scene_view *view)
{
    float largest = k == view->current ? SK_SCENE_CURRENT_SIZE : SK_SCENE_PARTICLE_SIZE;
    int n = sim->ropes[k].n, links = 0;
    double sum = 0, pa[2], pb[2];
    for (int i = 0; i + 1 < n; i++) {
        sk_vec3 a = sk_view_sim_position(sim, k, i), b = sk_view_sim_position(sim, k, i + 1);
        double wa[3] = {a.x, a.y, a.z}, wb[3] = {b.x, b.y, b.z};
        if (sk_camera_project(view->camera, view->width, view->height, wa, &pa[0], &pa[1]) &&
            sk_camera_project(view->camera, view->width, view->height, wb, &pb[0], &pb[1]) &&
            isfinite(pa[0] + pa[1] + pb[0] + pb[1])) {
            sum += hypot(pb[0] - pa[0], pb[1] - pa[1]);
            links++;
        }
    }
    if (links == 0)
        return largest;
    double size = 0.6 * sum / links;
    return size > largest ? largest : size < SK_SCENE_MIN_SIZE ? SK_SCENE_MIN_SIZE : (float)size;
}

static bool add_rope(sk_scene *sc, const sk_view_sim *sim, int k, const sk_scene_view *view)
{
    int n = sim->ropes[k].n;
    for (int i = 0; i + 1 < n; i++) {
        sk_vec3 a = sk_view_sim_position(sim, k, i), b = sk_view_sim_position(sim, k, i + 1);
        if (!finite3(a) || !finite3(b))
            continue;
        float fa[3], fb[3], rgb[3];
        set3(fa, a.x, a.y, a.z);
        set3(fb, b.x, b.y, b.z);
        sk_colormap_strain(sk_view_sim_strain(sim, k, i), view->strain_scale, rgb);
        if (!add_segment(sc, fa, fb, rgb, SK_SCENE_LINK_WIDTH))
            return false;
    }
    double x[3];
    int held;
    if (sk_view_sim_anchor(sim, k, x, &held)) {
        float fx[3];
        set3(fx, x[0], x[1], x[2]);
        sk_vec3 p = sk_view_sim_position(sim, k, held);
        if (finite3(p)) {
            float fp[3];
            set3(fp, p.x, p.y, p.z);
            if (!add_segment(sc, fx, fp, sk_scene_pinned_rgb, SK_SCENE_ANCHOR_LINK_WIDTH))
                return false;
        }
        if (!add_point(sc, fx, sk_scene_pinned_rgb, rim_rgb, SK_SCENE_ANCHOR_SIZE))
            return false;
    }
    float size = sk_scene_particle_size(sim, k, view);
    for (int i = 0; i < n; i++) {
        sk_vec3 p = sk_view_sim_position(sim, k, i);
        if (!finite3(p))
            continue;
        float fp[3], rgb[3];
        set3(fp, p.x, p.y, p.z);
        sk_scene_particle_rgb(sim, k, i, view->strain_scale, rgb);
        if (!add_point(sc, fp, rgb, rim_rgb, size))
            return false;
    }
    return true;
}

/* Grid lines cut into cells, each end's alpha falling off with the distance from the centre, so the
 * grid fades out instead of ending in a hard square. */
static bool add_grid(sk_scene *sc, const sk_grid *g)
{
    int h = g->half_lines;
    double half = sk_grid_half_size(g);
    for (int dir = 0; dir < 2; dir++)
        for (int j = -h; j <= h; j++) {
            double across = j * g->spacing;
            long world_index = lround((dir ? g->centre[1] : g->centre[0]) / g->spacing) + j;
            const float *base = world_index % SK_GRID_MAJOR_EVERY == 0 ? grid_major : grid_minor;
            for (int i = -h; i < h; i++) {
                double along[2] = {i * g->spacing, (i + 1) * g->spacing};
                float p[2][3], c[2][4];
                for (int e = 0; e < 2; e++) {
                    double u = dir ? along[e] : across, w = dir ? across : along[e];
                    set3(p[e], g->centre[0] + u, g->y, g->centre[1] + w);
                    double r = sqrt(u * u + w * w) / half;
                    double fade = r < 1 ? 1 - r * r : 0;
                    memcpy(c[e], base, sizeof c[e]);
                    c[e][3] = (float)(base[3] * fade);
                }
                if (!add_line(sc, p[0], p[1], c[0], c[1]))
                    return false;
            }
        }
    return true;
}

static bool add_ground(sk_scene *sc, const sk_grid *g)
{
    double half = sk_grid_half_size(g);
    float q[4][3];
    set3(q[0], g->centre[0] - half, g->y, g->centre[1] - half);
    set3(q[1], g->centre[0] + half, g->y, g->centre[1] - half);
    set3(q[2], g->centre[0] + half, g->y, g->centre[1] + half);
    set3(q[3], g->centre[0] - half, g->y, g->centre[1] + half);
    return add_quad(sc, q, ground_rgba);
}

void sk_scene_legend_rect(int width, int height, float rect[4])
{
    rect[0] = (float)width - 36;
    rect[1] = (float)height * 0.25f;
    rect[2] = (float)width - 22;
    rect[3] = (float)height * 0.75f;
}

/* The colour bar: one quad per piece of the map (the map is linear between stops, as GL interpolates),
 * a one-pixel frame and a tick at zero strain. */
static bool add_legend(sk_scene *sc, int width, int height)
{
    float r[4];
    sk_scene_legend_rect(width, height, r);
    bool ok = add_rect(sc, r[0] - 1, r[1] - 1, r[2] + 1, r[3] + 1, legend_frame, legend_frame);
    float piece = (r[3] - r[1]) / (SK_COLORMAP_STOPS - 1);
    for (int k = 0; ok && k < SK_COLORMAP_STOPS - 1; k++) {
        /* Top is +scale: the top piece runs from the last stop down to the one before. */
        const float *t = sk_colormap_stops[SK_COLORMAP_STOPS - 1 - k];
        const float *b = sk_colormap_stops[SK_COLORMAP_STOPS - 2 - k];
        float top[4] = {t[0], t[1], t[2], 1}, bottom[4] = {b[0], b[1], b[2], 1};
        ok = add_rect(sc, r[0], r[1] + piece * k, r[2], r[1] + piece * (k + 1), top, bottom);
    }
    float mid = (r[1] + r[3]) / 2;
    return ok && add_rect(sc, r[0] - 7, mid - 1, r[0] - 1, mid + 1, legend_frame, legend_frame);
}

void sk_scene_label_rects(int width, int height, float rects[SK_SCENE_LABELS][4])
{
    float bar[4];
    sk_scene_legend_rect(width, height, bar);
    const float caption[4] = {46, 10, (float)width - 50, 36}, legend[4] = {bar[0] - 92, bar[1] - 36, bar[0] - 4, bar[3] + 14},
                grid[4] = {10, (float)height - 34, 250, (float)height - 8};
    memcpy(rects[SK_SCENE_LABEL_CAPTION], caption, sizeof caption);
    memcpy(rects[SK_SCENE_LABEL_LEGEND], legend, sizeof legend);
    memcpy(rects[SK_SCENE_LABEL_GRID], grid, sizeof grid);
}

/* The numbers a picture needs: the caption, the strain at the legend's ends and middle, the grid's spacing;
 * each inside its label rectangle (a caption too long for it is cut). */
static bool add_labels(sk_scene *sc, const sk_scene_view *view)
{
    float rects[SK_SCENE_LABELS][4], bar[4];
    sk_scene_label_rects(view->width, view->height, rects);
    sk_scene_legend_rect(view->width, view->height, bar);
    const float line = 7 * TEXT_SCALE;
    if (view->caption) {
        char caption[256];
        snprintf(caption, sizeof caption, "%s", view->caption);
        for (size_t n = strlen(caption); n > 0 && text_width(caption) > rects[SK_SCENE_LABEL_CAPTION][2] - 46; n--)
            caption[n - 1] = '\0';
        if (!add_text(sc, rects[SK_SCENE_LABEL_CAPTION][0], rects[SK_SCENE_LABEL_CAPTION][1] + 6, caption))
            return false;
    }
    char top[32], bottom[32];
    snprintf(top, sizeof top, "+%g", view->strain_scale);
    snprintf(bottom, sizeof bottom, "-%g", view->strain_scale);
    const float right = rects[SK_SCENE_LABEL_LEGEND][2] - 6; /* labels end left of the zero tick */
    if (!add_text(sc, right - text_width("strain"), bar[1] - 30, "strain") ||
        !add_text(sc, right - text_width(top), bar[1] - 2, top) ||
        !add_text(sc, right - text_width("0"), (bar[1] + bar[3]) / 2 - line / 2, "0") ||
        !add_text(sc, right - text_width(bottom), bar[3] - line + 2, bottom))
        return false;
    char grid[64];
    snprintf(grid, sizeof grid, "grid %g m", view->grid.spacing);
    return add_text(sc, rects[SK_SCENE_LABEL_GRID][0] + 6, rects[SK_SCENE_LABEL_GRID][1] + 6, grid);
}

static bool add_pause_mark(sk_scene *sc)
{
    return add_rect(sc, 18, 18, 25, 40, pause_rgba, pause_rgba) && add_rect(sc, 31, 18, 38, 40, pause_rgba, pause_rgba);
}

bool sk_scene_build(sk_scene *sc, const sk_view_sim *sim, const sk_scene_view *view)
{
    sc->n_points = sc->n_segments = sc->n_lines = sc->n_triangles = sc->n_overlay = 0;
    if (sim->has_ground && !add_ground(sc, &view->grid))
        return false;
    if (!add_grid(sc, &view->grid))
        return false;
    /* The current rope last, so its particles are drawn over the others where they overlap. */
    for (int k = 0; k < sim->n; k++)
        if (k != view->current && !add_rope(sc, sim, k, view))
            return false;
    if (view->current >= 0 && view->current < sim->n && !add_rope(sc, sim, view->current, view))
        return false;
    if (!add_legend(sc, view->width, view->height) || !add_labels(sc, view))
        return false;
    return !view->paused || add_pause_mark(sc);
}

void sk_scene_free(sk_scene *sc)
{
    free(sc->points);
    free(sc->segments);
    free(sc->lines);
    free(sc->triangles);
    free(sc->overlay);
    *sc = (sk_scene){0};
}
