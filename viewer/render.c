/* The OpenGL side: four small shader programs (discs, thin quads, world lines and triangles, screen
 * overlay), streamed vertex buffers, and an offscreen framebuffer for pictures. */
#include "render.h"

#include <epoxy/gl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vertex of a link quad: both ends, so the shader can offset across the link in screen space
 * (glLineWidth > 1 is an error in a core context). corner: (0 at a or 1 at b, -1 or +1 across). */
typedef struct segment_vertex {
    float a[3], b[3];
    float rgb[3];
    float width;
    float corner[2];
} segment_vertex;

typedef struct gl_stream {
    GLuint vao, vbo;
} gl_stream;

struct sk_render {
    GLuint point_prog, segment_prog, flat_prog, overlay_prog;
    GLint point_mvp, segment_mvp, segment_viewport, flat_mvp, overlay_viewport;
    gl_stream points, segments, lines, triangles, overlay;
    segment_vertex *seg_vertices;
    int seg_cap;
};

static const char point_vs[] =
    "#version 330 core\n"
    "uniform mat4 u_mvp;\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_rgb;\n"
    "layout(location = 2) in vec3 a_rim;\n"
    "layout(location = 3) in float a_size;\n"
    "flat out vec3 v_rgb;\n"
    "flat out vec3 v_rim;\n"
    "flat out float v_inner;\n"
    "void main() {\n"
    "    gl_Position = u_mvp * vec4(a_pos, 1.0);\n"
    "    gl_Position.z -= 0.002 * gl_Position.w; /* in front of the links a particle joins */\n"
    "    gl_PointSize = a_size;\n"
    "    v_rgb = a_rgb;\n"
    "    v_rim = a_rim;\n"
    "    v_inner = 1.0 - 2.0 * max(1.0, 0.15 * a_size) / a_size; /* sk_scene_rim_width */\n"
    "}\n";

static const char point_fs[] =
    "#version 330 core\n"
    "flat in vec3 v_rgb;\n"
    "flat in vec3 v_rim;\n"
    "flat in float v_inner;\n"
    "out vec4 o_colour;\n"
    "void main() {\n"
    "    float r = length(gl_PointCoord * 2.0 - 1.0);\n"
    "    if (r > 1.0) discard;\n"
    "    o_colour = vec4(r > v_inner ? v_rim : v_rgb, 1.0);\n"
    "}\n";

static const char segment_vs[] =
    "#version 330 core\n"
    "uniform mat4 u_mvp;\n"
    "uniform vec2 u_viewport;\n"
    "layout(location = 0) in vec3 a_a;\n"
    "layout(location = 1) in vec3 a_b;\n"
    "layout(location = 2) in vec3 a_rgb;\n"
    "layout(location = 3) in float a_width;\n"
    "layout(location = 4) in vec2 a_corner;\n"
    "flat out vec3 v_rgb;\n"
    "void main() {\n"
    "    vec4 ca = u_mvp * vec4(a_a, 1.0);\n"
    "    vec4 cb = u_mvp * vec4(a_b, 1.0);\n"
    "    vec2 half_vp = 0.5 * u_viewport;\n"
    "    vec2 d = (cb.xy / cb.w - ca.xy / ca.w) * half_vp;\n"
    "    float l = length(d);\n"
    "    vec2 dir = l > 1e-6 ? d / l : vec2(1.0, 0.0);\n"
    "    vec2 across = vec2(-dir.y, dir.x);\n"
    "    float at_b = a_corner.x;\n"
    "    vec4 c = at_b > 0.5 ? cb : ca;\n"
    "    /* Half a width across and past each end, in pixels, so links meet without gaps. */\n"
    "    vec2 off = (across * a_corner.y + dir * (2.0 * at_b - 1.0)) * (0.5 * a_width);\n"
    "    gl_Position = c + vec4(off / half_vp * c.w, 0.0, 0.0);\n"
    "    v_rgb = a_rgb;\n"
    "}\n";

static const char segment_fs[] =
    "#version 330 core\n"
    "flat in vec3 v_rgb;\n"
    "out vec4 o_colour;\n"
    "void main() { o_colour = vec4(v_rgb, 1.0); }\n";

static const char flat_vs[] =
    "#version 330 core\n"
    "uniform mat4 u_mvp;\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec4 a_rgba;\n"
    "out vec4 v_rgba;\n"
    "void main() { gl_Position = u_mvp * vec4(a_pos, 1.0); v_rgba = a_rgba; }\n";

static const char overlay_vs[] =
    "#version 330 core\n"
    "uniform vec2 u_viewport;\n"
    "layout(location = 0) in vec2 a_xy;\n"
    "layout(location = 1) in vec4 a_rgba;\n"
    "out vec4 v_rgba;\n"
    "void main() {\n"
    "    gl_Position = vec4(a_xy.x / u_viewport.x * 2.0 - 1.0, 1.0 - a_xy.y / u_viewport.y * 2.0, 0.0, 1.0);\n"
    "    v_rgba = a_rgba;\n"
    "}\n";

static const char smooth_fs[] =
    "#version 330 core\n"
    "in vec4 v_rgba;\n"
    "out vec4 o_colour;\n"
    "void main() { o_colour = v_rgba; }\n";

static GLuint compile(GLenum type, const char *const *sources, int n, const char *what, sk_error *err)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, n, sources, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        log[strcspn(log, "\n")] = '\0';
        sk_fail(err, SK_ERR_IO, "the %s shader does not compile: %s", what, log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

static GLuint program(const char *vs, const char *fs, const char *what, sk_error *err)
{
    GLuint v = compile(GL_VERTEX_SHADER, &vs, 1, what, err);
    GLuint f = v ? compile(GL_FRAGMENT_SHADER, &fs, 1, what, err) : 0;
    if (!f) {
        glDeleteShader(v);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        log[strcspn(log, "\n")] = '\0';
        sk_fail(err, SK_ERR_IO, "the %s shaders do not link: %s", what, log);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

typedef struct attribute {
    GLint size;
    size_t offset;
} attribute;

static void make_stream(gl_stream *s, GLsizei stride, const attribute *attrs, int n)
{
    glGenVertexArrays(1, &s->vao);
    glGenBuffers(1, &s->vbo);
    glBindVertexArray(s->vao);
    glBindBuffer(GL_ARRAY_BUFFER, s->vbo);
    for (int i = 0; i < n; i++) {
        glEnableVertexAttribArray((GLuint)i);
        glVertexAttribPointer((GLuint)i, attrs[i].size, GL_FLOAT, GL_FALSE, stride, (const void *)attrs[i].offset);
    }
    glBindVertexArray(0);
}

static void free_stream(gl_stream *s)
{
    glDeleteBuffers(1, &s->vbo);
    glDeleteVertexArrays(1, &s->vao);
}

sk_render *sk_render_create(sk_error *err)
{
    sk_render *r = calloc(1, sizeof *r);
    if (!r) {
        sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
        return NULL;
    }
    r->point_prog = program(point_vs, point_fs, "particle", err);
    r->segment_prog = r->point_prog ? program(segment_vs, segment_fs, "link", err) : 0;
    r->flat_prog = r->segment_prog ? program(flat_vs, smooth_fs, "grid", err) : 0;
    r->overlay_prog = r->flat_prog ? program(overlay_vs, smooth_fs, "overlay", err) : 0;
    if (!r->overlay_prog) {
        sk_render_destroy(r);
        return NULL;
    }
    r->point_mvp = glGetUniformLocation(r->point_prog, "u_mvp");
    r->segment_mvp = glGetUniformLocation(r->segment_prog, "u_mvp");
    r->segment_viewport = glGetUniformLocation(r->segment_prog, "u_viewport");
    r->flat_mvp = glGetUniformLocation(r->flat_prog, "u_mvp");
    r->overlay_viewport = glGetUniformLocation(r->overlay_prog, "u_viewport");

    const attribute point_attrs[] = {{3, offsetof(sk_scene_point, pos)},
                                     {3, offsetof(sk_scene_point, rgb)},
                                     {3, offsetof(sk_scene_point, rim)},
                                     {1, offsetof(sk_scene_point, size)}};
    make_stream(&r->points, sizeof(sk_scene_point), point_attrs, 4);
    const attribute segment_attrs[] = {{3, offsetof(segment_vertex, a)},
                                       {3, offsetof(segment_vertex, b)},
                                       {3, offsetof(segment_vertex, rgb)},
                                       {1, offsetof(segment_vertex, width)},
                                       {2, offsetof(segment_vertex, corner)}};
    make_stream(&r->segments, sizeof(segment_vertex), segment_attrs, 5);
    const attribute vertex_attrs[] = {{3, offsetof(sk_scene_vertex, pos)}, {4, offsetof(sk_scene_vertex, rgba)}};
    make_stream(&r->lines, sizeof(sk_scene_vertex), vertex_attrs, 2);
    make_stream(&r->triangles, sizeof(sk_scene_vertex), vertex_attrs, 2);
    const attribute overlay_attrs[] = {{2, offsetof(sk_scene_overlay_vertex, xy)},
                                       {4, offsetof(sk_scene_overlay_vertex, rgba)}};
    make_stream(&r->overlay, sizeof(sk_scene_overlay_vertex), overlay_attrs, 2);
    return r;
}

void sk_render_destroy(sk_render *r)
{
    if (!r)
        return;
    if (r->points.vao) {
        free_stream(&r->points);
        free_stream(&r->segments);
        free_stream(&r->lines);
        free_stream(&r->triangles);
        free_stream(&r->overlay);
    }
    glDeleteProgram(r->point_prog);
    glDeleteProgram(r->segment_prog);
    glDeleteProgram(r->flat_prog);
    glDeleteProgram(r->overlay_prog);
    free(r->seg_vertices);
    free(r);
}

static void upload(const gl_stream *s, const void *data, size_t bytes)
{
    glBindVertexArray(s->vao);
    glBindBuffer(GL_ARRAY_BUFFER, s->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, data, GL_STREAM_DRAW);
}

/* Six vertices (two triangles) per link. Returns false when memory runs out (links are then skipped). */
static bool expand_segments(sk_render *r, const sk_scene *sc)
{
    int need = sc->n_segments * 6;
    if (need > r->seg_cap) {
        segment_vertex *p = realloc(r->seg_vertices, (size_t)need * sizeof *p);
        if (!p)
            return false;
        r->seg_vertices = p;
        r->seg_cap = need;
    }
    static const float corners[6][2] = {{0, -1}, {1, -1}, {1, 1}, {0, -1}, {1, 1}, {0, 1}};
    for (int s = 0; s < sc->n_segments; s++)
        for (int c = 0; c < 6; c++) {
            segment_vertex *v = &r->seg_vertices[s * 6 + c];
            const sk_scene_segment *g = &sc->segments[s];
            memcpy(v->a, g->a, sizeof v->a);
            memcpy(v->b, g->b, sizeof v->b);
            memcpy(v->rgb, g->rgb, sizeof v->rgb);
            v->width = g->width;
            memcpy(v->corner, corners[c], sizeof v->corner);
        }
    return true;
}

void sk_render_draw(sk_render *r, const sk_scene *sc, const sk_camera *cam, int width, int height)
{
    glViewport(0, 0, width, height);
    glClearColor(sk_scene_background[0], sk_scene_background[1], sk_scene_background[2], 1);
    glClearDepth(1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    sk_mat4 view = sk_camera_view(cam), proj = sk_camera_projection(cam, (double)width / height);
    sk_mat4 mvp = sk_mat4_mul(&proj, &view);
    GLfloat m[16];
    for (int i = 0; i < 16; i++)
        m[i] = (GLfloat)mvp.m[i];
    GLfloat viewport[2] = {(GLfloat)width, (GLfloat)height};

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_PROGRAM_POINT_SIZE);

    /* The translucent ground first without writing depth, then the grid on it, then the ropes. */
    glUseProgram(r->flat_prog);
    glUniformMatrix4fv(r->flat_mvp, 1, GL_FALSE, m);
    if (sc->n_triangles) {
        glDepthMask(GL_FALSE);
        upload(&r->triangles, sc->triangles, (size_t)sc->n_triangles * sizeof *sc->triangles);
        glDrawArrays(GL_TRIANGLES, 0, sc->n_triangles);
        glDepthMask(GL_TRUE);
    }
    if (sc->n_lines) {
        upload(&r->lines, sc->lines, (size_t)sc->n_lines * sizeof *sc->lines);
        glDrawArrays(GL_LINES, 0, sc->n_lines);
    }
    if (sc->n_segments && expand_segments(r, sc)) {
        glUseProgram(r->segment_prog);
        glUniformMatrix4fv(r->segment_mvp, 1, GL_FALSE, m);
        glUniform2fv(r->segment_viewport, 1, viewport);
        upload(&r->segments, r->seg_vertices, (size_t)sc->n_segments * 6 * sizeof *r->seg_vertices);
        glDrawArrays(GL_TRIANGLES, 0, sc->n_segments * 6);
    }
    if (sc->n_points) {
        glUseProgram(r->point_prog);
        glUniformMatrix4fv(r->point_mvp, 1, GL_FALSE, m);
        upload(&r->points, sc->points, (size_t)sc->n_points * sizeof *sc->points);
        glDrawArrays(GL_POINTS, 0, sc->n_points);
    }
    if (sc->n_overlay) {
        glDisable(GL_DEPTH_TEST);
        glUseProgram(r->overlay_prog);
        glUniform2fv(r->overlay_viewport, 1, viewport);
        upload(&r->overlay, sc->overlay, (size_t)sc->n_overlay * sizeof *sc->overlay);
        glDrawArrays(GL_TRIANGLES, 0, sc->n_overlay);
    }
    glBindVertexArray(0);
    glUseProgram(0);
}

int sk_render_pixels(sk_render *r, const sk_scene *sc, const sk_camera *cam, int width, int height,
                     unsigned char *rgb, sk_error *err)
{
    GLuint fbo, colour, depth;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &colour);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, colour);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
    int rc = 0;
    unsigned char *rgba = malloc((size_t)width * height * 4);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        rc = sk_fail(err, SK_ERR_IO, "cannot make a %dx%d offscreen framebuffer", width, height);
    } else if (!rgba) {
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    } else {
        sk_render_draw(r, sc, cam, width, height);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
        /* GL's rows start at the bottom; images start at the top. */
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++)
                for (int c = 0; c < 3; c++)
                    rgb[((size_t)y * width + x) * 3 + c] = rgba[((size_t)(height - 1 - y) * width + x) * 4 + c];
    }
    free(rgba);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteRenderbuffers(1, &colour);
    glDeleteRenderbuffers(1, &depth);
    glDeleteFramebuffers(1, &fbo);
    return rc;
}
