/* skein-view: loads a scenario, opens a GLFW window with an OpenGL 3.3 core context and shows the
 * chosen ropes in real time, or takes a fixed number of steps and writes one picture (--screenshot);
 * or replays chosen ropes from skein run --h5's output, frame by frame. */
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "colormap.h"
#include "grid.h"
#include "input.h"
#include "options.h"
#include "render.h"
#include "replay.h"
#include "replay_nav.h"
#include "scene.h"
#include "screenshot.h"
#include "sim.h"

/* Stepping may take this much of a frame (s); past it the rest of the frame's steps are dropped. */
#define STEP_BUDGET (1.0 / 30)
/* Radians per pixel of mouse drag, and the zoom factor per wheel notch. */
#define ORBIT_RATE 0.008
#define ZOOM_STEP 0.88

typedef struct app {
    const sk_view_options *opt;
    const sk_scenario *scenario;
    sk_view_sim sim;
    sk_view_controls controls;
    sk_camera camera;
    sk_grid grid;
    sk_scene scene;
    sk_render *render;
    GLFWwindow *window;
    double strain_scale; /* the colour map's range; grows with the strain seen unless --strain-scale */

    bool orbiting, panning;
    double mouse_x, mouse_y;

    long rate_steps;  /* steps since rate_since */
    double rate_since, step_rate, title_at;

    const sk_replay *replay; /* replaying an HDF5 output: the sim's ropes show its frames, never step */
    sk_replay_nav nav;
    long shown; /* the frame the sim's ropes hold */

    int status; /* first failure inside a callback */
    sk_error err;
} app;

static char glfw_error[256];

/* GLFW reports through this callback only; it says nothing unless one is set. Keep the last message
 * for when a call fails. */
static void on_glfw_error(int code, const char *description)
{
    snprintf(glfw_error, sizeof glfw_error, "%s (GLFW error 0x%x)", description, (unsigned)code);
}

static void update_strain_scale(app *a)
{
    if (a->opt->strain_scale > 0) {
        a->strain_scale = a->opt->strain_scale;
        return;
    }
    double s = sk_colormap_nice_scale(sk_view_sim_max_strain(&a->sim));
    if (s > a->strain_scale)
        a->strain_scale = s;
}

/* Frames every rope (and puts the grid under them) for a viewport of the given size. */
static void frame_all(app *a, int width, int height)
{
    double lo[3], hi[3];
    sk_view_sim_bounds(&a->sim, lo, hi);
    sk_camera_frame(&a->camera, lo, hi, (double)width / height);
    a->grid = sk_grid_fit(lo, hi, a->sim.has_ground, a->sim.ground_height);
}

/* The grid follows the scene as it grows (a deploying tether) or shrinks, without moving the camera. */
static void refit_grid(app *a)
{
    double lo[3], hi[3];
    if (sk_view_sim_bounds(&a->sim, lo, hi) && sk_grid_outgrown(&a->grid, lo, hi))
        a->grid = sk_grid_fit(lo, hi, a->sim.has_ground, a->sim.ground_height);
}

/* The picture's caption: what the window title says, so a screenshot carries it too. */
static void caption(const app *a, char *buf, size_t size)
{
    const sk_view_rope *v = &a->sim.ropes[a->controls.current];
    if (a->replay) {
        const long f = a->nav.frame;
        snprintf(buf, size, "t %.4f s  step %lld  frame %ld/%ld  rope %zu%s%s", a->replay->time[f],
                 (long long)a->replay->step[f], f, a->replay->frames - 1, v->global, v->diverged ? "  DIVERGED" : "",
                 a->replay->complete ? "" : "  incomplete run");
        return;
    }
    snprintf(buf, size, "t %.4f s  step %ld  rope %zu  E %.6g J%s", sk_view_sim_time(&a->sim), a->sim.steps, v->global,
             sk_view_sim_energy(&a->sim, a->controls.current), v->diverged ? "  DIVERGED" : "");
}

static bool build_scene(app *a, int width, int height, bool paused)
{
    char text[256];
    caption(a, text, sizeof text);
    refit_grid(a);
    sk_scene_view view = {
        .caption = text,
        .current = a->controls.current,
        .strain_scale = a->strain_scale,
        .grid = a->grid,
        .paused = paused,
        .width = width,
        .height = height,
        .camera = &a->camera,
    };
    if (sk_scene_build(&a->scene, &a->sim, &view))
        return true;
    a->status = sk_fail(&a->err, SK_ERR_NO_MEMORY, "out of memory");
    return false;
}

/* Renders the scene offscreen at width x height and writes it to path. */
static int write_picture(app *a, const char *path, int width, int height)
{
    unsigned char *rgb = malloc((size_t)width * height * 3);
    if (!rgb)
        return sk_fail(&a->err, SK_ERR_NO_MEMORY, "out of memory");
    int rc = sk_render_pixels(a->render, &a->scene, &a->camera, width, height, rgb, &a->err);
    if (rc == 0)
        rc = sk_screenshot_write(path, width, height, rgb, &a->err);
    free(rgb);
    return rc;
}

/* Puts the navigation's frame into the ropes when it changed. */
static bool show_frame(app *a)
{
    if (a->nav.frame == a->shown)
        return true;
    a->status = sk_replay_show(a->replay, a->nav.frame, &a->sim, &a->err);
    a->shown = a->nav.frame;
    update_strain_scale(a);
    return a->status == 0;
}

static void update_replay_title(app *a, double now)
{
    const sk_view_rope *v = &a->sim.ropes[a->controls.current];
    long f = a->nav.frame;
    char title[512];
    snprintf(title, sizeof title,
             "skein-view  replay%s  rope %zu (group %d #%zu)%s  frame %ld/%ld  step %lld  t %.4f s  E %.6g J%s  "
             "strain +-%g  grid %g m",
             a->replay->complete ? "" : " incomplete", v->global, v->group, v->local,
             v->diverged ? " DIVERGED" : "", f, a->replay->frames - 1, (long long)a->replay->step[f],
             a->replay->time[f], a->replay->ropes[a->controls.current].energy[f],
             a->nav.paused ? "  paused" : "", a->strain_scale, a->grid.spacing);
    glfwSetWindowTitle(a->window, title);
    a->title_at = now;
}

static void update_title(app *a, double now)
{
    if (a->replay) {
        update_replay_title(a, now);
        return;
    }
    const sk_view_rope *v = &a->sim.ropes[a->controls.current];
    char title[512];
    snprintf(title, sizeof title,
             "skein-view  rope %zu (group %d #%zu)%s  t %.4f s  E %.6g J  %.0f steps/s  speed x%g%s  "
             "strain +-%g  grid %g m",
             v->global, v->group, v->local, v->diverged ? " DIVERGED" : "", sk_view_sim_time(&a->sim),
             sk_view_sim_energy(&a->sim, a->controls.current), a->step_rate,
             sk_playback_speed(&a->controls.playback), a->controls.playback.paused ? "  paused" : "",
             a->strain_scale, a->grid.spacing);
    glfwSetWindowTitle(a->window, title);
    a->title_at = now;
}

static void print_keys(const app *a)
{
    if (a->replay)
        printf("skein-view replay keys:\n%s", sk_replay_key_help);
    else
        printf("skein-view keys and mouse:\n%s", sk_view_key_help);
    fflush(stdout);
}

static void on_key(GLFWwindow *w, int key, int scancode, int event, int mods)
{
    (void)scancode;
    (void)mods;
    app *a = glfwGetWindowUserPointer(w);
    int status = 0;
    sk_view_action act;
    if (a->replay) {
        /* The navigation's keys, then those of the window's (Tab, F, S, H, Esc); no stepping keys. */
        if (sk_replay_nav_key(&a->nav, key, event) || event != GLFW_PRESS)
            return;
        act = sk_view_key_action(key);
        if (act == SK_VIEW_NEXT_ROPE)
            a->controls.current = (a->controls.current + 1) % a->sim.n;
    } else {
        act = sk_view_controls_key(&a->controls, key, event, &status, &a->err);
    }
    if (status != 0) {
        a->status = status;
        glfwSetWindowShouldClose(w, GLFW_TRUE);
        return;
    }
    int width, height;
    glfwGetFramebufferSize(w, &width, &height);
    switch (act) {
    case SK_VIEW_RESET:
        a->strain_scale = 0;
        update_strain_scale(a);
        break;
    case SK_VIEW_FRAME:
        if (width > 0 && height > 0)
            frame_all(a, width, height);
        break;
    case SK_VIEW_SCREENSHOT: {
        char name[64];
        if (width <= 0 || height <= 0)
            break;
        int rc = sk_screenshot_next_name(name, sizeof name, &a->err);
        if (rc == 0 && build_scene(a, width, height, false))
            rc = write_picture(a, name, width, height);
        if (rc == 0)
            printf("skein-view: wrote %s\n", name);
        else
            fprintf(stderr, "skein-view: %s\n", a->err.message);
        fflush(stdout);
        break;
    }
    case SK_VIEW_HELP:
        print_keys(a);
        break;
    case SK_VIEW_QUIT:
        glfwSetWindowShouldClose(w, GLFW_TRUE);
        break;
    default:
        break;
    }
}

static void on_mouse_button(GLFWwindow *w, int button, int event, int mods)
{
    app *a = glfwGetWindowUserPointer(w);
    bool down = event == GLFW_PRESS;
    if (button == GLFW_MOUSE_BUTTON_LEFT && !(mods & GLFW_MOD_SHIFT))
        a->orbiting = down;
    else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_LEFT)
        a->panning = down;
    if (!down)
        a->orbiting = a->panning = false;
    glfwGetCursorPos(w, &a->mouse_x, &a->mouse_y);
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    app *a = glfwGetWindowUserPointer(w);
    double dx = x - a->mouse_x, dy = y - a->mouse_y;
    a->mouse_x = x;
    a->mouse_y = y;
    int width, height;
    glfwGetWindowSize(w, &width, &height);
    if (a->orbiting)
        sk_camera_orbit(&a->camera, -dx * ORBIT_RATE, dy * ORBIT_RATE);
    else if (a->panning && height > 0)
        sk_camera_pan(&a->camera, dx / height, -dy / height);
}

static void on_scroll(GLFWwindow *w, double xoffset, double yoffset)
{
    (void)xoffset;
    app *a = glfwGetWindowUserPointer(w);
    sk_camera_zoom(&a->camera, pow(ZOOM_STEP, yoffset));
}

static int run_interactive(app *a)
{
    GLFWwindow *w = a->window;
    glfwSetWindowUserPointer(w, a);
    glfwSetKeyCallback(w, on_key);
    glfwSetMouseButtonCallback(w, on_mouse_button);
    glfwSetCursorPosCallback(w, on_cursor);
    glfwSetScrollCallback(w, on_scroll);
    glfwSwapInterval(1);

    int width, height;
    glfwGetFramebufferSize(w, &width, &height);
    frame_all(a, width > 0 ? width : 1, height > 0 ? height : 1);
    double last = glfwGetTime();
    a->rate_since = a->title_at = last;
    update_title(a, last);
    while (!glfwWindowShouldClose(w) && a->status == 0) {
        long before = a->sim.steps;
        glfwPollEvents();
        double now = glfwGetTime();
        if (a->replay) {
            sk_replay_nav_advance(&a->nav, now - last);
            if (!show_frame(a))
                break;
            before = a->sim.steps; /* a replay takes no steps */
        } else {
            sk_view_controls_advance(&a->controls, now - last, glfwGetTime, STEP_BUDGET);
        }
        last = now;
        /* Steps taken by keys (single steps) count too; after a reset, the steps since it. */
        a->rate_steps += a->sim.steps >= before ? a->sim.steps - before : a->sim.steps;
        update_strain_scale(a);
        if (now - a->rate_since >= 0.5) {
            a->step_rate = a->rate_steps / (now - a->rate_since);
            a->rate_steps = 0;
            a->rate_since = now;
        }
        if (now - a->title_at >= 0.25)
            update_title(a, now);
        glfwGetFramebufferSize(w, &width, &height);
        if (width <= 0 || height <= 0) { /* minimised */
            glfwWaitEventsTimeout(0.1);
            continue;
        }
        if (!build_scene(a, width, height, a->replay ? a->nav.paused : a->controls.playback.paused))
            break;
        sk_render_draw(a->render, &a->scene, &a->camera, width, height);
        glfwSwapBuffers(w);
    }
    return a->status;
}

static int run_screenshot(app *a)
{
    const sk_view_options *o = a->opt;
    if (a->replay) { /* --frames N: frame N */
        sk_replay_nav_goto(&a->nav, o->frames);
        if (!show_frame(a))
            return a->status;
    } else {
        for (long k = 0; k < o->frames; k++)
            sk_view_sim_step(&a->sim);
    }
    update_strain_scale(a);
    frame_all(a, o->width, o->height);
    if (!build_scene(a, o->width, o->height, false))
        return a->status;
    return write_picture(a, o->screenshot, o->width, o->height);
}

/* Opens the window and its GL context, then runs the chosen mode. */
static int run_window(app *a)
{
    const sk_view_options *o = a->opt;
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        fprintf(stderr, "skein-view: no display (set DISPLAY or run under xvfb-run)\n");
        return SK_ERR_UNSUPPORTED;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    /* Pictures come from an offscreen framebuffer: the window then only holds the context. */
    glfwWindowHint(GLFW_VISIBLE, o->screenshot ? GLFW_FALSE : GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, o->screenshot ? 0 : 4);
    int width = o->screenshot ? 64 : o->width, height = o->screenshot ? 64 : o->height;
    a->window = glfwCreateWindow(width, height, "skein-view", NULL, NULL);
    if (!a->window) {
        fprintf(stderr, "skein-view: cannot open an OpenGL 3.3 core window: %s\n", glfw_error);
        glfwTerminate();
        return SK_ERR_IO;
    }
    glfwMakeContextCurrent(a->window);
    int rc;
    a->render = sk_render_create(&a->err);
    if (!a->render)
        rc = SK_ERR_IO;
    else
        rc = o->screenshot ? run_screenshot(a) : run_interactive(a);
    if (rc != 0 && a->err.message[0])
        fprintf(stderr, "skein-view: %s\n", a->err.message);
    sk_render_destroy(a->render);
    glfwDestroyWindow(a->window);
    glfwTerminate();
    return rc;
}

/* skein-view OUT.h5: the chosen ropes' frames read, the first shown (or --frames N's), then the window. */
static int run_replay(const sk_view_options *o, sk_error *err)
{
    if (o->n_sets > 0)
        return sk_fail(err, SK_ERR_INVALID, "--set does not apply to a replay (the file holds its scenario)");
    sk_replay r;
    int rc = sk_replay_open(o->file, &r, err);
    if (rc != 0)
        return rc;
    size_t *ropes = NULL;
    int n = 0;
    if (o->n_ropes > 0 || o->has_group)
        rc = sk_view_options_ropes(o, r.scenario, &ropes, &n, err);
    if (rc == 0)
        rc = sk_replay_read(&r, ropes, n, err);
    free(ropes);
    if (rc == 0 && o->frames >= r.frames)
        rc = sk_fail(err, SK_ERR_INVALID, "--frames %ld: %s holds %ld frame%s (0 to %ld)", o->frames, o->file,
                     r.frames, r.frames == 1 ? "" : "s", r.frames - 1);
    app a = {.opt = o, .scenario = r.scenario, .camera = sk_camera_default(), .replay = &r, .shown = -1};
    if (rc == 0) {
        size_t *global = malloc((size_t)r.n_ropes * sizeof *global);
        if (!global) {
            rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
        } else {
            for (int k = 0; k < r.n_ropes; k++)
                global[k] = r.ropes[k].global;
            rc = sk_view_sim_init(&a.sim, r.scenario, global, r.n_ropes, err);
            free(global);
        }
    }
    if (rc == 0) {
        a.controls = sk_view_controls_make(&a.sim, o->paused);
        a.nav = sk_replay_nav_make(r.time, r.frames, o->paused);
        if (!show_frame(&a)) {
            rc = a.status;
            *err = a.err;
        } else {
            rc = run_window(&a);
            err->message[0] = '\0'; /* run_window has printed its failure */
        }
    }
    sk_scene_free(&a.scene);
    sk_view_sim_free(&a.sim);
    sk_replay_free(&r);
    return rc;
}

int main(int argc, char **argv)
{
    sk_view_options o;
    sk_error err = {0};
    int rc = sk_view_options_parse(argc, argv, &o, &err);
    if (rc != 0) {
        fprintf(stderr, "skein-view: %s\n", err.message);
        return sk_view_exit_status(rc);
    }
    if (o.help) {
        printf("%s%s%s%s", sk_view_usage, sk_view_key_help, sk_view_usage_tail, sk_replay_key_help);
        sk_view_options_free(&o);
        return 0;
    }
    /* the picture's path, before anything is read or drawn (the warm start's file once it is known) */
    if (o.screenshot && (rc = sk_screenshot_check(o.screenshot, o.file, NULL, &err)) != 0) {
        fprintf(stderr, "skein-view: %s\n", err.message);
        sk_view_options_free(&o);
        return sk_view_exit_status(rc);
    }
    if (sk_view_is_hdf5(o.file)) {
        rc = run_replay(&o, &err);
        if (rc != 0 && err.message[0])
            fprintf(stderr, "skein-view: %s\n", err.message);
        sk_view_options_free(&o);
        return sk_view_exit_status(rc);
    }
    sk_load_options lo = {.sets = o.sets, .n_sets = o.n_sets, .label = "--set"};
    sk_scenario *s = sk_scenario_open(o.file, &lo, &err);
    if (!s) {
        rc = err.status;
        fprintf(stderr, "skein-view: %s\n", err.message);
        sk_view_options_free(&o);
        return sk_view_exit_status(rc);
    }
    size_t *ropes = NULL;
    int n;
    app a = {.opt = &o, .scenario = s, .camera = sk_camera_default()};
    const char *warm = sk_scenario_initial_file(s);
    if (o.screenshot && warm)
        rc = sk_screenshot_check(o.screenshot, o.file, warm, &err);
    if (rc == 0)
        rc = sk_view_options_ropes(&o, s, &ropes, &n, &err);
    if (rc == 0) {
        rc = sk_view_sim_init(&a.sim, s, ropes, n, &err);
        if (rc == 0 && warm)
            rc = sk_view_sim_warm_start(&a.sim, &err);
        free(ropes);
    }
    if (rc != 0) {
        fprintf(stderr, "skein-view: %s\n", err.message);
    } else {
        a.controls = sk_view_controls_make(&a.sim, o.paused);
        update_strain_scale(&a);
        rc = run_window(&a);
    }
    sk_scene_free(&a.scene);
    sk_view_sim_free(&a.sim);
    sk_scenario_destroy(s);
    sk_view_options_free(&o);
    return sk_view_exit_status(rc);
}
