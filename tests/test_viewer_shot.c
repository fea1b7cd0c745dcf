/* skein-view --screenshot under Xvfb: runs the viewer on tests/viewer/short_ropes.json, reads the PNG back
 * and checks that every particle's pixel (where the camera maths projects it) has the colour of its
 * strain, worked out here from a reference rope stepped as many times, every link's middle the colour
 * of its strain, the anchor its colour, and the background colour everywhere well away from the ropes,
 * the grid and the legend.
 * The replay case draws the same rope from skein run --h5's output (its frame of step FRAMES) and checks
 * the same pixels.
 * Usage: test_viewer_shot SKEIN_VIEW SCENARIO CASE   (CASE: pinned, anchored or replay) */
#include <dirent.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "camera.h"
#include "check.h"
#include "colormap.h"
#include "grid.h"
#include "scene.h"
#include "reference/reference.h"
#include "skein/scenario.h"

extern char **environ;

enum { WIDTH = 640, HEIGHT = 480, FRAMES = 150 };

static const char *viewer, *scenario_path;
static const char *view_file; /* what skein-view opens: the scenario, or the replay's HDF5 file */
static long shot_frames = FRAMES; /* --frames: steps, or the replay's frame */
/* --strain-scale: chosen so that the case's strains (from 0.001 to 0.12) spread over the colour map. */
static double strain_scale;
static unsigned char *image;

static int run_viewer(const char *out, const char *const *rope_args)
{
    char frames[32], size[32], scale[32];
    snprintf(frames, sizeof frames, "%ld", shot_frames);
    snprintf(scale, sizeof scale, "%g", strain_scale);
    snprintf(size, sizeof size, "%dx%d", WIDTH, HEIGHT);
    const char *argv[16] = {viewer, view_file};
    int n = 2;
    for (; *rope_args; rope_args++)
        argv[n++] = *rope_args;
    const char *rest[] = {"--screenshot", out, "--frames", frames, "--size", size, "--strain-scale", scale, NULL};
    for (int i = 0; rest[i]; i++)
        argv[n++] = rest[i];
    argv[n] = NULL;
    pid_t pid;
    if (posix_spawn(&pid, viewer, NULL, NULL, (char *const *)argv, environ) != 0)
        return -1;
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

static const unsigned char *pixel(int x, int y) { return image + ((size_t)y * WIDTH + x) * 3; }

/* The pixel at (x, y) is rgb (as 8-bit: round(c * 255)) within tol per channel. */
static int has_colour(double x, double y, const float rgb[3], int tol, const char *what, int index)
{
    int ix = (int)floor(x), iy = (int)floor(y);
    if (ix < 0 || iy < 0 || ix >= WIDTH || iy >= HEIGHT) {
        fprintf(stderr, "%s %d projects outside the picture (%g, %g)\n", what, index, x, y);
        return 1;
    }
    const unsigned char *p = pixel(ix, iy);
    for (int c = 0; c < 3; c++)
        if (abs((int)p[c] - (int)lround(rgb[c] * 255)) > tol) {
            fprintf(stderr, "%s %d at pixel (%d, %d): (%d, %d, %d), expected (%ld, %ld, %ld)\n", what, index, ix, iy,
                    p[0], p[1], p[2], lround(rgb[0] * 255), lround(rgb[1] * 255), lround(rgb[2] * 255));
            return 1;
        }
    return 0;
}

static double segment_distance(double x, double y, const double a[2], const double b[2])
{
    double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((x - a[0]) * dx + (y - a[1]) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(x - (a[0] + t * dx), y - (a[1] + t * dy));
}

/* Whether the ray through pixel (x, y) meets the grid's plane inside its square (widened by margin):
 * the inverse of the camera's projection, written out here. */
static bool on_grid(const sk_camera *c, const sk_grid *g, double x, double y, double margin)
{
    double eye[3], f[3], r[3], u[3];
    sk_camera_eye(c, eye);
    double fl = 0;
    for (int i = 0; i < 3; i++) {
        f[i] = c->target[i] - eye[i];
        fl += f[i] * f[i];
    }
    fl = sqrt(fl);
    for (int i = 0; i < 3; i++)
        f[i] /= fl;
    r[0] = -f[2]; /* f x (0, 1, 0) */
    r[1] = 0;
    r[2] = f[0];
    double rl = hypot(r[0], r[2]);
    r[0] /= rl;
    r[2] /= rl;
    u[0] = r[1] * f[2] - r[2] * f[1];
    u[1] = r[2] * f[0] - r[0] * f[2];
    u[2] = r[0] * f[1] - r[1] * f[0];
    double t = tan(c->fov_y / 2);
    double nx = (x / WIDTH * 2 - 1) * t * WIDTH / HEIGHT, ny = (1 - y / HEIGHT * 2) * t;
    double d[3];
    for (int i = 0; i < 3; i++)
        d[i] = f[i] + r[i] * nx + u[i] * ny;
    if (d[1] == 0)
        return false;
    double s = (g->y - eye[1]) / d[1];
    if (s <= 0)
        return false;
    double half = sk_grid_half_size(g) + margin;
    return fabs(eye[0] + s * d[0] - g->centre[0]) <= half && fabs(eye[2] + s * d[2] - g->centre[1]) <= half;
}

static int check_shot(int group, size_t local, const char *const *rope_args)
{
    char dir[] = "/tmp/skein-view-shot-XXXXXX", out[128];
    CHECK(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/shot.png", dir);
    int rc = run_viewer(out, rope_args);
    CHECK(rc == 0);
    int w, h, n;
    image = stbi_load(out, &w, &h, &n, 3);
    CHECK(image && w == WIDTH && h == HEIGHT);
    /* Written through a temporary, which is gone. */
    DIR *d = opendir(dir);
    CHECK(d);
    for (struct dirent *e; (e = readdir(d));)
        CHECK(e->d_name[0] == '.' || strcmp(e->d_name, "shot.png") == 0);
    closedir(d);
    remove(out);
    rmdir(dir);

    /* The rope as the reference engine has it after FRAMES steps. */
    sk_scenario s;
    sk_error err = {0};
    CHECK_OK(sk_scenario_load_file(scenario_path, NULL, &s, &err));
    sk_ref_rope *r = sk_ref_rope_create(&s, group, local);
    CHECK(r);
    int np = sk_ref_rope_count(r);
    /* "length": "auto": the rest length is the initial spacing. */
    sk_vec3 p0 = sk_ref_rope_position(r, 0), p1 = sk_ref_rope_position(r, 1);
    double rest = sqrt(((double)p1.x - p0.x) * (p1.x - p0.x) + ((double)p1.y - p0.y) * (p1.y - p0.y) +
                       ((double)p1.z - p0.z) * (p1.z - p0.z));
    for (int k = 0; k < FRAMES; k++)
        sk_ref_rope_step(r);
    double pos[16][3], strain[16];
    CHECK(np <= 16);
    double lo[3], hi[3];
    for (int i = 0; i < np; i++) {
        sk_vec3 p = sk_ref_rope_position(r, i);
        pos[i][0] = p.x;
        pos[i][1] = p.y;
        pos[i][2] = p.z;
        for (int c = 0; c < 3; c++) {
            lo[c] = i == 0 || pos[i][c] < lo[c] ? pos[i][c] : lo[c];
            hi[c] = i == 0 || pos[i][c] > hi[c] ? pos[i][c] : hi[c];
        }
    }
    for (int i = 0; i + 1 < np; i++)
        strain[i] = sqrt((pos[i][0] - pos[i + 1][0]) * (pos[i][0] - pos[i + 1][0]) +
                         (pos[i][1] - pos[i + 1][1]) * (pos[i][1] - pos[i + 1][1]) +
                         (pos[i][2] - pos[i + 1][2]) * (pos[i][2] - pos[i + 1][2])) / rest - 1;
    bool anchored = s.groups[group].anchor != SK_ANCHOR_NONE;
    double anchor[3] = {0, 0, 0};
    if (anchored) {
        sk_vec3 x = sk_ref_rope_anchor(r);
        anchor[0] = x.x;
        anchor[1] = x.y;
        anchor[2] = x.z;
        for (int c = 0; c < 3; c++) {
            lo[c] = anchor[c] < lo[c] ? anchor[c] : lo[c];
            hi[c] = anchor[c] > hi[c] ? anchor[c] : hi[c];
        }
    }

    /* The viewer frames every rope with its default camera angles. */
    sk_camera cam = sk_camera_default();
    sk_camera_frame(&cam, lo, hi, (double)WIDTH / HEIGHT);
    double px[17][2];
    for (int i = 0; i < np; i++)
        CHECK(sk_camera_project(&cam, WIDTH, HEIGHT, pos[i], &px[i][0], &px[i][1]));
    if (anchored)
        CHECK(sk_camera_project(&cam, WIDTH, HEIGHT, anchor, &px[np][0], &px[np][1]));

    /* Particles: the colour of their links' mean strain; the pinned one green. */
    for (int i = 0; i < np; i++) {
        float rgb[3];
        if (sk_ref_rope_particle(r, i)->w == 0) {
            memcpy(rgb, sk_scene_pinned_rgb, sizeof rgb);
        } else {
            double sum = 0;
            int links = 0;
            if (i > 0)
                sum += strain[i - 1], links++;
            if (i + 1 < np)
                sum += strain[i], links++;
            sk_colormap_strain(sum / links, strain_scale, rgb);
        }
        CHECK_OK(has_colour(px[i][0], px[i][1], rgb, 2, "particle", i));
    }
    /* Links: far longer on screen than a disc, so their middles show the link itself. */
    bool coloured = false;
    for (int i = 0; i + 1 < np; i++) {
        CHECK(hypot(px[i + 1][0] - px[i][0], px[i + 1][1] - px[i][1]) > 40);
        float rgb[3];
        sk_colormap_strain(strain[i], strain_scale, rgb);
        CHECK_OK(has_colour((px[i][0] + px[i + 1][0]) / 2, (px[i][1] + px[i + 1][1]) / 2, rgb, 2, "link", i));
        /* The strains are large enough that colours differ from the rest colour. */
        coloured = coloured || fabs(strain[i]) > 0.2 * strain_scale;
    }
    CHECK(coloured);
    if (anchored)
        CHECK_OK(has_colour(px[np][0], px[np][1], sk_scene_pinned_rgb, 2, "anchor", 0));

    /* The legend: +scale at its top, -scale at its bottom. */
    float lr[4];
    sk_scene_legend_rect(WIDTH, HEIGHT, lr);
    double lx = (lr[0] + lr[2]) / 2;
    float top[3], bottom[3];
    sk_colormap_at(1, top);
    sk_colormap_at(-1, bottom);
    CHECK_OK(has_colour(lx, lr[1] + 1, top, 6, "legend top", 0));
    CHECK_OK(has_colour(lx, lr[3] - 2, bottom, 6, "legend bottom", 0));

    /* The labels: text (the caption's, the legend's, the grid's) somewhere in each rectangle. */
    float labels[SK_SCENE_LABELS][4];
    sk_scene_label_rects(WIDTH, HEIGHT, labels);
    for (int k = 0; k < SK_SCENE_LABELS; k++) {
        int bright = 0;
        for (int y = (int)labels[k][1]; y < (int)labels[k][3]; y++)
            for (int x = (int)labels[k][0]; x < (int)labels[k][2]; x++)
                bright += pixel(x, y)[0] > 180 && pixel(x, y)[1] > 180 && pixel(x, y)[2] > 180;
        if (bright < 20) {
            fprintf(stderr, "label %d: %d bright pixels: no text\n", k, bright);
            return 1;
        }
    }

    /* Background well away from everything drawn. */
    sk_grid grid = sk_grid_fit(lo, hi, s.has_ground, (double)s.ground_height);
    int checked = 0;
    for (int y = 4; y < HEIGHT; y += 8)
        for (int x = 4; x < WIDTH; x += 8) {
            double cx = x + 0.5, cy = y + 0.5;
            bool near = cx > lr[0] - 16 && cx < lr[2] + 8 && cy > lr[1] - 8 && cy < lr[3] + 8;
            for (int k = 0; k < SK_SCENE_LABELS && !near; k++)
                near = cx > labels[k][0] - 2 && cx < labels[k][2] + 2 && cy > labels[k][1] - 2 && cy < labels[k][3] + 2;
            for (int i = 0; i < np + anchored && !near; i++)
                near = hypot(cx - px[i][0], cy - px[i][1]) < 25;
            for (int i = 0; i + 1 < np && !near; i++)
                near = segment_distance(cx, cy, px[i], px[i + 1]) < 25;
            if (anchored && !near)
                near = segment_distance(cx, cy, px[np], px[sk_ref_rope_held(r)]) < 25;
            if (near || on_grid(&cam, &grid, cx, cy, grid.spacing))
                continue;
            CHECK_OK(has_colour(cx, cy, sk_scene_background, 1, "background pixel", y * WIDTH + x));
            checked++;
        }
    CHECK(checked > 500);
    fprintf(stderr, "checked %d particles, %d links, %d background pixels\n", np, np - 1, checked);

    sk_ref_rope_destroy(r);
    sk_scenario_free(&s);
    stbi_image_free(image);
    return 0;
}

/* Rope 1 of group 0: pinned at particle 0, stiffer of the two (the sweep). */
static int pinned(void)
{
    const char *const args[] = {"--rope", "1", NULL};
    strain_scale = 0.01;
    return check_shot(0, 1, args);
}

/* Rope 0 of group 1 (global rope 2), held by an anchored spring. */
static int anchored(void)
{
    const char *const args[] = {"--group", "1", "--rope", "0", NULL};
    strain_scale = 0.1;
    return check_shot(1, 0, args);
}

/* Rope 1 again, replayed from an HDF5 output of frames at steps 0 and FRAMES: frame 1. */
static int replay(void)
{
    char dir[] = "/tmp/skein-view-replay-XXXXXX", h5[128], steps[32];
    CHECK(mkdtemp(dir));
    snprintf(h5, sizeof h5, "%s/run.h5", dir);
    snprintf(steps, sizeof steps, "%d", FRAMES);
    const char *argv[] = {SKEIN_BINARY_DIR "/skein", "run", scenario_path, "--steps", steps, "--every", steps,
                          "--ropes", "1", "--h5", h5, "--quiet", NULL};
    pid_t pid;
    int status;
    CHECK(posix_spawn(&pid, argv[0], NULL, NULL, (char *const *)argv, environ) == 0);
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    view_file = h5;
    shot_frames = 1;
    const char *const args[] = {"--rope", "1", NULL};
    strain_scale = 0.01;
    int rc = check_shot(0, 1, args);
    remove(h5);
    rmdir(dir);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_viewer_shot SKEIN_VIEW SCENARIO CASE\n");
        return 2;
    }
    viewer = argv[1];
    scenario_path = view_file = argv[2];
    static const check_case cases[] = {{"pinned", pinned}, {"anchored", anchored}, {"replay", replay}};
    char *args[] = {argv[0], argv[3]};
    return check_main(cases, 3, 2, args);
}
