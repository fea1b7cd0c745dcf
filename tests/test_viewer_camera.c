/* The viewer's orbit camera without a window: projection worked out by hand, the target at the centre,
 * orbit and zoom and pan, and framing that keeps every point of a box inside the view. */
#include <math.h>
#include <stdlib.h>

#include "camera.h"
#include "check.h"

static const double pi = 3.14159265358979323846;

static double eye_distance(const sk_camera *c)
{
    double e[3];
    sk_camera_eye(c, e);
    return sqrt((e[0] - c->target[0]) * (e[0] - c->target[0]) + (e[1] - c->target[1]) * (e[1] - c->target[1]) +
                (e[2] - c->target[2]) * (e[2] - c->target[2]));
}

/* Camera on +z at 10 m looking at the origin, fov 90 degrees (tan 45 = 1), square 200 x 200 view:
 * a point at depth z_eye lands at ndc = (x, y) / depth, pixel = (ndc.x + 1) * 100, (1 - ndc.y) * 100. */
static int by_hand(void)
{
    sk_camera c = sk_camera_default();
    c.target[0] = c.target[1] = c.target[2] = 0;
    c.yaw = 0;
    c.pitch = 0;
    c.distance = 10;
    c.fov_y = pi / 2;
    double px, py;
    const double a[3] = {5, 0, 0}; /* depth 10: ndc x 0.5 */
    CHECK(sk_camera_project(&c, 200, 200, a, &px, &py));
    CHECK_NEAR(px, 150, 1e-9);
    CHECK_NEAR(py, 100, 1e-9);
    const double b[3] = {0, 2.5, 5}; /* depth 5: ndc y 0.5, above the centre */
    CHECK(sk_camera_project(&c, 200, 200, b, &px, &py));
    CHECK_NEAR(px, 100, 1e-9);
    CHECK_NEAR(py, 50, 1e-9);
    /* A 400 x 200 view (aspect 2) halves ndc x: (5, 0, 0) goes to x = (0.25 + 1) * 200. */
    CHECK(sk_camera_project(&c, 400, 200, a, &px, &py));
    CHECK_NEAR(px, 250, 1e-9);
    /* Yaw 90 degrees puts the eye on +x looking along -x: right on screen is -z. */
    c.yaw = pi / 2;
    const double d[3] = {0, 0, 5};
    CHECK(sk_camera_project(&c, 200, 200, d, &px, &py));
    CHECK_NEAR(px, 50, 1e-9);
    CHECK_NEAR(py, 100, 1e-9);
    /* Behind the eye: no pixel. */
    const double behind[3] = {20, 0, 0};
    CHECK(!sk_camera_project(&c, 200, 200, behind, &px, &py));
    return 0;
}

/* Clip planes: near = d / 100, far = d + 50 r; the projection maps them to ndc z = -1 and +1. */
static int clip_planes(void)
{
    sk_camera c = sk_camera_default();
    c.distance = 8;
    c.radius = 2;
    double n, f;
    sk_camera_clip_planes(&c, &n, &f);
    CHECK_NEAR(n, 0.08, 1e-15);
    CHECK_NEAR(f, 108, 1e-12);
    sk_mat4 p = sk_camera_projection(&c, 1.5);
    /* Eye-space z = -depth; ndc z = (m10 z + m14) / -z. */
    CHECK_NEAR((p.m[10] * -n + p.m[14]) / n, -1, 1e-12);
    CHECK_NEAR((p.m[10] * -f + p.m[14]) / f, 1, 1e-12);
    return 0;
}

static int target_at_centre(void)
{
    const int sizes[][2] = {{1024, 768}, {640, 480}, {300, 900}, {17, 16}};
    for (int k = 0; k < 40; k++) {
        sk_camera c = sk_camera_default();
        c.target[0] = k * 0.7 - 3;
        c.target[1] = 100 - k * 5.5;
        c.target[2] = k * k * 0.01;
        c.yaw = k * 0.37 - 4;
        c.pitch = (k % 9 - 4) * 0.35;
        c.distance = 0.01 * pow(1.6, k % 17);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            double px, py;
            CHECK(sk_camera_project(&c, sizes[s][0], sizes[s][1], c.target, &px, &py));
            CHECK_NEAR(px, sizes[s][0] / 2.0, 1e-9 * sizes[s][0]);
            CHECK_NEAR(py, sizes[s][1] / 2.0, 1e-9 * sizes[s][1]);
        }
    }
    return 0;
}

/* The view matrix takes the eye to the origin and the target to (0, 0, -distance). */
static int view_matrix(void)
{
    sk_camera c = sk_camera_default();
    c.target[0] = 1;
    c.target[1] = -2;
    c.target[2] = 3;
    c.distance = 7;
    sk_mat4 v = sk_camera_view(&c);
    double e[3];
    sk_camera_eye(&c, e);
    for (int row = 0; row < 3; row++) {
        double at_eye = v.m[row] * e[0] + v.m[4 + row] * e[1] + v.m[8 + row] * e[2] + v.m[12 + row];
        double at_target = v.m[row] * c.target[0] + v.m[4 + row] * c.target[1] + v.m[8 + row] * c.target[2] +
                           v.m[12 + row];
        CHECK_NEAR(at_eye, 0, 1e-12);
        CHECK_NEAR(at_target, row == 2 ? -7 : 0, 1e-12);
    }
    /* Its 3x3 part is a rotation: orthonormal columns. */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double dot = 0;
            for (int r = 0; r < 3; r++)
                dot += v.m[i * 4 + r] * v.m[j * 4 + r];
            CHECK_NEAR(dot, i == j ? 1 : 0, 1e-12);
        }
    return 0;
}

static int orbit_keeps_distance(void)
{
    sk_camera c = sk_camera_default();
    c.target[0] = 4;
    c.target[1] = 5;
    c.target[2] = -6;
    c.distance = 3.5;
    for (int k = 0; k < 100; k++) {
        sk_camera_orbit(&c, 0.31 * (k % 7 - 3), 0.23 * (k % 5 - 2));
        CHECK_NEAR(eye_distance(&c), 3.5, 1e-12);
        CHECK(c.target[0] == 4 && c.target[1] == 5 && c.target[2] == -6);
        CHECK(fabs(c.pitch) <= SK_CAMERA_PITCH_LIMIT);
    }
    /* Pitch stops short of straight up. */
    sk_camera_orbit(&c, 0, 10);
    CHECK(c.pitch == SK_CAMERA_PITCH_LIMIT);
    sk_camera_orbit(&c, 0, -20);
    CHECK(c.pitch == -SK_CAMERA_PITCH_LIMIT);
    return 0;
}

static int zoom_and_pan(void)
{
    sk_camera c = sk_camera_default();
    c.target[0] = c.target[1] = c.target[2] = 0;
    c.yaw = 0;
    c.pitch = 0;
    c.distance = 10;
    c.fov_y = pi / 2;
    sk_camera_zoom(&c, 0.5);
    CHECK_NEAR(c.distance, 5, 1e-15);
    sk_camera_zoom(&c, 0); /* ignored */
    CHECK_NEAR(c.distance, 5, 1e-15);
    sk_camera_zoom(&c, 1e-12);
    CHECK(c.distance == 1e-6);
    c.distance = 10;
    /* One viewport height at the target is 2 * 10 * tan(45) = 20 m: a tenth of it moves the target
     * 2 m against the screen's right (x) and 1 m against its up (y). */
    sk_camera_pan(&c, 0.1, 0.05);
    CHECK_NEAR(c.target[0], -2, 1e-12);
    CHECK_NEAR(c.target[1], -1, 1e-12);
    CHECK_NEAR(c.target[2], 0, 1e-12);
    CHECK_NEAR(eye_distance(&c), 10, 1e-12);
    return 0;
}

/* Every corner and interior point of the box projects inside the viewport (inside its central 85%), and
 * the framing is tight: some corner reaches that border. */
static int frame_keeps_box_inside(void)
{
    const double boxes[][6] = {
        {0, 0, 0, 1, 1, 1},          {-200, 150, 0, 200, 250, 0}, /* flat: a horizontal rope */
        {0, -10, 0, 0.1, 20, 0.1},   /* a hanging rope */
        {5, 5, 5, 5, 5, 5},          /* one particle */
        {-1e3, -1, -1, 1e3, 1, 1},   {3, 4, -50, 3.5, 4.2, 60},
    };
    const int sizes[][2] = {{1024, 768}, {480, 900}, {2000, 300}};
    unsigned seed = 12345;
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int a = 0; a < 6; a++) {
                sk_camera c = sk_camera_default();
                c.yaw = a * 1.1 - 2;
                c.pitch = (a - 2.5) * 0.4;
                const double *lo = boxes[b], *hi = boxes[b] + 3;
                int w = sizes[s][0], h = sizes[s][1];
                sk_camera_frame(&c, lo, hi, (double)w / h);
                bool point = lo[0] == hi[0] && lo[1] == hi[1] && lo[2] == hi[2];
                double reach = 0;
                for (int k = 0; k < 8 + 50; k++) {
                    double p[3];
                    for (int i = 0; i < 3; i++) {
                        double lo_i = point ? lo[i] - 0.5 : lo[i], hi_i = point ? hi[i] + 0.5 : hi[i];
                        seed = seed * 1103515245u + 12345u;
                        double u = k < 8 ? ((k >> i) & 1) : (seed >> 8) / 16777216.0;
                        p[i] = lo_i + (hi_i - lo_i) * u;
                    }
                    double px, py;
                    CHECK(sk_camera_project(&c, w, h, p, &px, &py));
                    double nx = fabs(px / w * 2 - 1), ny = fabs(py / h * 2 - 1);
                    CHECK(nx <= 0.85 + 1e-9 && ny <= 0.85 + 1e-9);
                    if (nx > reach)
                        reach = nx;
                    if (ny > reach)
                        reach = ny;
                }
                CHECK(reach > 0.84);
            }
    return 0;
}

/* A box that is not one (non-finite or inverted) frames the origin, 1 m across. */
static int frame_bad_box(void)
{
    sk_camera c = sk_camera_default();
    const double lo[3] = {NAN, 0, 0}, hi[3] = {1, 1, 1};
    sk_camera_frame(&c, lo, hi, 1.0);
    CHECK(c.target[0] == 0 && c.target[1] == 0 && c.target[2] == 0);
    CHECK(c.distance > 0 && isfinite(c.distance));
    const double lo2[3] = {2, 0, 0}, hi2[3] = {1, 1, 1};
    sk_camera_frame(&c, lo2, hi2, 1.0);
    CHECK(c.target[0] == 0 && isfinite(c.distance));
    return 0;
}

CHECK_MAIN({"by_hand", by_hand}, {"clip_planes", clip_planes}, {"target_at_centre", target_at_centre},
           {"view_matrix", view_matrix}, {"orbit_keeps_distance", orbit_keeps_distance},
           {"zoom_and_pan", zoom_and_pan}, {"frame_keeps_box_inside", frame_keeps_box_inside},
           {"frame_bad_box", frame_bad_box})
