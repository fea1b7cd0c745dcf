/* What a frame draws, without GL: particles and links with their strain colours, the anchor, ground,
 * grid and legend; and PNG writing read back with stb_image. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "scenario/scenario.h"
#include "camera.h"
#include "check.h"
#include "colormap.h"
#include "scene.h"
#include "screenshot.h"
#include "sim.h"

/* Particle 0 pinned; 4 particles 1 m apart on springs of rest 0.8 (strain 0.25), an anchored spring
 * holding particle 0 from (0, 3, 0), a ground. Rope 1 is the same with rest 1 (strain 0). */
static const char json[] =
    "{\"skein\": 1, \"dt\": 0.001, \"steps\": 1, \"ground\": {\"height\": -1, \"restitution\": 0},"
    " \"groups\": [{\"count\": 2, \"particles\": 4, \"start\": [0, 2, 0], \"end\": [3, 2, 0], \"mass\": 1,"
    "   \"pinned\": [3], \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 0.8},"
    "   \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 3, 0], \"stiffness\": 10, \"length\": 1},"
    "   \"sweep\": {\"link.length\": {\"values\": [0.8, 1]}}}]}";

static int same_rgb(const float *a, const float *b, double tol)
{
    for (int i = 0; i < 3; i++)
        if (fabs(a[i] - b[i]) > tol)
            return 0;
    return 1;
}

static int build(void)
{
    sk_scenario s;
    sk_error err = {0};
    CHECK_OK(sk_scenario_load_string(json, "scene", NULL, &s, &err));
    const size_t ropes[] = {0, 1};
    sk_view_sim sim;
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 2, &err));
    sk_camera cam = sk_camera_default();
    double lo[3], hi[3];
    CHECK(sk_view_sim_bounds(&sim, lo, hi));
    sk_camera_frame(&cam, lo, hi, 800.0 / 600);
    sk_scene_view view = {.current = 1, .strain_scale = 0.5, .width = 800, .height = 600, .camera = &cam};
    view.grid = sk_grid_fit(lo, hi, true, -1);
    sk_scene sc = {0};
    CHECK(sk_scene_build(&sc, &sim, &view));

    /* Per rope: 3 links and the anchor's link; 4 particles and the anchor. */
    CHECK(sc.n_segments == 8 && sc.n_points == 10);
    /* Rope 0 (not current) first: links coloured by strain 0.25 of scale 0.5, i.e. t = 0.5: stop 3. */
    for (int i = 0; i < 3; i++) {
        CHECK(same_rgb(sc.segments[i].rgb, sk_colormap_stops[3], 1e-6));
        CHECK(sc.segments[i].width == SK_SCENE_LINK_WIDTH);
        CHECK(sc.segments[i].a[0] == i && sc.segments[i].b[0] == i + 1 && sc.segments[i].a[1] == 2);
    }
    /* The anchor's link from (0, 3, 0) to the held particle 0, in the anchor colour. */
    CHECK(same_rgb(sc.segments[3].rgb, sk_scene_pinned_rgb, 0));
    CHECK(sc.segments[3].a[1] == 3 && sc.segments[3].b[0] == 0 && sc.segments[3].b[1] == 2);
    CHECK(sc.points[0].pos[1] == 3 && same_rgb(sc.points[0].rgb, sk_scene_pinned_rgb, 0));
    CHECK(sc.points[0].size == SK_SCENE_ANCHOR_SIZE);
    /* Particles: strain colour of the mean of their links (all 0.25), the pinned one green. */
    for (int i = 0; i < 4; i++) {
        const sk_scene_point *p = &sc.points[1 + i];
        CHECK(p->pos[0] == i && p->pos[1] == 2 && p->pos[2] == 0);
        CHECK(same_rgb(p->rgb, i == 3 ? sk_scene_pinned_rgb : sk_colormap_stops[3], 1e-6));
        CHECK(p->size >= SK_SCENE_MIN_SIZE && p->size <= SK_SCENE_PARTICLE_SIZE);
    }
    /* Rope 1 (current, drawn last): at rest length, so the rest colour; larger discs. */
    CHECK(same_rgb(sc.segments[4].rgb, sk_colormap_stops[2], 1e-6));
    CHECK(same_rgb(sc.points[6].rgb, sk_colormap_stops[2], 1e-6));
    CHECK(sc.points[6].size > sc.points[1].size || sc.points[6].size == SK_SCENE_MIN_SIZE);
    /* Ground: one quad on the grid's square at y = -1. */
    CHECK(sc.n_triangles == 6);
    for (int v = 0; v < 6; v++)
        CHECK(sc.triangles[v].pos[1] == -1);
    /* Grid: 2 directions x (2h + 1) lines x 2h cells, 2 vertices each. */
    int h = view.grid.half_lines;
    CHECK(sc.n_lines == 2 * (2 * h + 1) * 2 * h * 2);
    /* Legend: frame, 4 colour pieces, zero tick: 6 rectangles of 6 vertices; its labels ("strain", the two
     * ends, zero) and the grid's; paused adds two bars; a caption its text. Every label's vertex inside its
     * rectangle. */
    char top[32], bottom[32], grid_text[64];
    snprintf(top, sizeof top, "+%g", view.strain_scale);
    snprintf(bottom, sizeof bottom, "-%g", view.strain_scale);
    snprintf(grid_text, sizeof grid_text, "grid %g m", view.grid.spacing);
    const int labels = sk_scene_text_vertices("strain") + sk_scene_text_vertices(top) + sk_scene_text_vertices("0") +
                       sk_scene_text_vertices(bottom) + sk_scene_text_vertices(grid_text);
    CHECK(labels > 0 && sc.n_overlay == 36 + labels);
    float rects[SK_SCENE_LABELS][4];
    sk_scene_label_rects(view.width, view.height, rects);
    for (int v = 36; v < 36 + labels; v++) { /* the legend's labels, then the grid's */
        const float *xy = sc.overlay[v].xy;
        const float *r = v < 36 + labels - sk_scene_text_vertices(grid_text) ? rects[SK_SCENE_LABEL_LEGEND]
                                                                              : rects[SK_SCENE_LABEL_GRID];
        if (!(xy[0] >= r[0] && xy[0] <= r[2] && xy[1] >= r[1] && xy[1] <= r[3])) {
            fprintf(stderr, "vertex %d at (%g, %g) outside (%g, %g)-(%g, %g)\n", v, xy[0], xy[1], r[0], r[1], r[2], r[3]);
            return 1;
        }
    }
    view.paused = true;
    CHECK(sk_scene_build(&sc, &sim, &view));
    CHECK(sc.n_overlay == 48 + labels);
    view.caption = "t 1.5000 s  step 300  rope 0";
    CHECK(sk_scene_build(&sc, &sim, &view));
    CHECK(sc.n_overlay == 48 + labels + sk_scene_text_vertices(view.caption));
    /* a caption too long for its rectangle is cut to fit */
    char longer[256];
    memset(longer, 'm', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    view.caption = longer;
    CHECK(sk_scene_build(&sc, &sim, &view));
    for (int v = 36; v < sc.n_overlay - 12 - labels; v++) /* the caption comes before the other labels */
        CHECK(sc.overlay[v].xy[0] <= rects[SK_SCENE_LABEL_CAPTION][2]);
    sk_scene_free(&sc);
    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

/* Disc size: 0.6 x the mean on-screen link length, within the limits; rim 15% of it, at least 1 px. */
static int particle_size(void)
{
    sk_scenario s;
    sk_error err = {0};
    CHECK_OK(sk_scenario_load_string(json, "scene", NULL, &s, &err));
    const size_t ropes[] = {0};
    sk_view_sim sim;
    CHECK_OK(sk_view_sim_init(&sim, &s, ropes, 1, &err));
    /* Looking straight at the rope (along -z) from 10 m with a 90 degree view on 200 px: 1 m at depth
     * 10 is 0.1 ndc, 10 px; discs 6 px. */
    sk_camera cam = sk_camera_default();
    cam.yaw = cam.pitch = 0;
    cam.target[0] = 1.5;
    cam.target[1] = 2;
    cam.target[2] = 0;
    cam.distance = 10;
    cam.fov_y = 3.14159265358979323846 / 2;
    sk_scene_view view = {.current = 0, .strain_scale = 1, .width = 200, .height = 200, .camera = &cam};
    CHECK_NEAR(sk_scene_particle_size(&sim, 0, &view), 6, 1e-4);
    cam.distance = 1000; /* 0.1 px per link: the smallest discs */
    CHECK(sk_scene_particle_size(&sim, 0, &view) == SK_SCENE_MIN_SIZE);
    cam.distance = 1; /* close: the largest */
    CHECK(sk_scene_particle_size(&sim, 0, &view) == SK_SCENE_CURRENT_SIZE);
    view.current = 1;
    CHECK(sk_scene_particle_size(&sim, 0, &view) == SK_SCENE_PARTICLE_SIZE);
    CHECK(sk_scene_rim_width(20) == 3);
    CHECK(sk_scene_rim_width(5) == 1);
    sk_view_sim_free(&sim);
    sk_scenario_free(&s);
    return 0;
}

static int legend_rect(void)
{
    float r[4];
    sk_scene_legend_rect(1000, 800, r);
    CHECK(r[0] == 964 && r[2] == 978 && r[1] == 200 && r[3] == 600);
    return 0;
}

/* A 5 x 3 picture with every pixel different round-trips through the PNG exactly; no temporary is
 * left; a second write replaces the file. */
static int png_round_trip(void)
{
    char dir[] = "/tmp/skein-view-png-XXXXXX";
    CHECK(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/shot.png", dir);
    unsigned char rgb[5 * 3 * 3];
    for (int i = 0; i < (int)sizeof rgb; i++)
        rgb[i] = (unsigned char)(i * 37 + 11);
    sk_error err = {0};
    CHECK_OK(sk_screenshot_write(path, 5, 3, rgb, &err));
    int w, h, n;
    unsigned char *back = stbi_load(path, &w, &h, &n, 3);
    CHECK(back && w == 5 && h == 3 && n == 3);
    CHECK(memcmp(back, rgb, sizeof rgb) == 0);
    stbi_image_free(back);
    rgb[0] = 0;
    CHECK_OK(sk_screenshot_write(path, 5, 3, rgb, &err));
    back = stbi_load(path, &w, &h, &n, 3);
    CHECK(back && back[0] == 0);
    stbi_image_free(back);
    DIR *d = opendir(dir);
    CHECK(d);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') {
            entries++;
            CHECK(strcmp(e->d_name, "shot.png") == 0);
        }
    closedir(d);
    CHECK(entries == 1);
    remove(path);
    rmdir(dir);
    return 0;
}

static int png_unwritable(void)
{
    unsigned char rgb[3] = {1, 2, 3};
    sk_error err = {0};
    CHECK(sk_screenshot_write("/nonexistent-dir/shot.png", 1, 1, rgb, &err) == SK_ERR_IO);
    CHECK(strcmp(err.message, "/nonexistent-dir/shot.png: cannot write: No such file or directory") == 0);
    return 0;
}

static int next_name(void)
{
    char dir[] = "/tmp/skein-view-name-XXXXXX", cwd[4096], name[64];
    CHECK(mkdtemp(dir) && getcwd(cwd, sizeof cwd));
    CHECK(chdir(dir) == 0);
    sk_error err = {0};
    CHECK_OK(sk_screenshot_next_name(name, sizeof name, &err));
    CHECK(strcmp(name, "skein-view-0001.png") == 0);
    FILE *f = fopen(name, "w");
    CHECK(f);
    fclose(f);
    CHECK_OK(sk_screenshot_next_name(name, sizeof name, &err));
    CHECK(strcmp(name, "skein-view-0002.png") == 0);
    remove("skein-view-0001.png");
    CHECK(chdir(cwd) == 0);
    rmdir(dir);
    return 0;
}

CHECK_MAIN({"build", build}, {"particle_size", particle_size}, {"legend_rect", legend_rect},
           {"png_round_trip", png_round_trip}, {"png_unwritable", png_unwritable}, {"next_name", next_name})
