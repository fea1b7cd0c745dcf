/* The orbit camera's maths: matrices as gluLookAt and gluPerspective build them, framing, projection. */
#include "camera.h"

#include <math.h>

static const double pi = 3.14159265358979323846;

sk_camera sk_camera_default(void)
{
    sk_camera c = {
        .target = {0, 0, 0},
        .distance = 10,
        .yaw = 0.45,
        .pitch = 0.35,
        .fov_y = 45 * pi / 180,
        .radius = 1,
    };
    return c;
}

void sk_camera_eye(const sk_camera *c, double eye[3])
{
    double cp = cos(c->pitch);
    eye[0] = c->target[0] + c->distance * cp * sin(c->yaw);
    eye[1] = c->target[1] + c->distance * sin(c->pitch);
    eye[2] = c->target[2] + c->distance * cp * cos(c->yaw);
}

static void normalize(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The eye's axes in world space: forward (towards the target), right and up on screen. */
static void camera_axes(const sk_camera *c, double forward[3], double right[3], double up[3])
{
    double eye[3];
    sk_camera_eye(c, eye);
    for (int i = 0; i < 3; i++)
        forward[i] = c->target[i] - eye[i];
    normalize(forward);
    const double world_up[3] = {0, 1, 0};
    cross(forward, world_up, right);
    normalize(right);
    cross(right, forward, up);
}

sk_mat4 sk_camera_view(const sk_camera *c)
{
    double f[3], s[3], u[3], eye[3];
    camera_axes(c, f, s, u);
    sk_camera_eye(c, eye);
    sk_mat4 v = {{0}};
    for (int i = 0; i < 3; i++) {
        v.m[i * 4 + 0] = s[i];
        v.m[i * 4 + 1] = u[i];
        v.m[i * 4 + 2] = -f[i];
    }
    v.m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    v.m[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    v.m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
    v.m[15] = 1;
    return v;
}

void sk_camera_clip_planes(const sk_camera *c, double *near_plane, double *far_plane)
{
    *near_plane = c->distance / 100;
    *far_plane = c->distance + 50 * c->radius;
}

sk_mat4 sk_camera_projection(const sk_camera *c, double aspect)
{
    double n, f;
    sk_camera_clip_planes(c, &n, &f);
    double t = 1 / tan(c->fov_y / 2);
    sk_mat4 p = {{0}};
    p.m[0] = t / aspect;
    p.m[5] = t;
    p.m[10] = (f + n) / (n - f);
    p.m[11] = -1;
    p.m[14] = 2 * f * n / (n - f);
    return p;
}

sk_mat4 sk_mat4_mul(const sk_mat4 *a, const sk_mat4 *b)
{
    sk_mat4 r;
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += a->m[k * 4 + row] * b->m[col * 4 + k];
            r.m[col * 4 + row] = s;
        }
    return r;
}

void sk_camera_orbit(sk_camera *c, double dyaw, double dpitch)
{
    c->yaw = fmod(c->yaw + dyaw, 2 * pi);
    c->pitch += dpitch;
    if (c->pitch > SK_CAMERA_PITCH_LIMIT)
        c->pitch = SK_CAMERA_PITCH_LIMIT;
    if (c->pitch < -SK_CAMERA_PITCH_LIMIT)
        c->pitch = -SK_CAMERA_PITCH_LIMIT;
}

void sk_camera_zoom(sk_camera *c, double factor)
{
    if (!(factor > 0))
        return;
    c->distance *= factor;
    if (c->distance < 1e-6)
        c->distance = 1e-6;
    if (c->distance > 1e9)
        c->distance = 1e9;
}

void sk_camera_pan(sk_camera *c, double dx, double dy)
{
    double f[3], s[3], u[3];
    camera_axes(c, f, s, u);
    /* One viewport height at the target's depth is 2 d tan(fov/2) metres. */
    double h = 2 * c->distance * tan(c->fov_y / 2);
    for (int i = 0; i < 3; i++)
        c->target[i] -= (s[i] * dx + u[i] * dy) * h;
}

/* Whether every corner of the box is in front of the near plane and projects inside the central
 * fraction `fill` of a viewport of the given aspect. The box is convex and so is the view frustum:
 * when the corners are inside, so is every point of the box. */
static bool corners_fit(const sk_camera *c, const double lo[3], const double hi[3], double aspect, double fill)
{
    sk_mat4 v = sk_camera_view(c), p = sk_camera_projection(c, aspect);
    sk_mat4 m = sk_mat4_mul(&p, &v);
    double n, f;
    sk_camera_clip_planes(c, &n, &f);
    for (int k = 0; k < 8; k++) {
        double q[3] = {k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]};
        double clip[4];
        for (int row = 0; row < 4; row++)
            clip[row] = m.m[row] * q[0] + m.m[4 + row] * q[1] + m.m[8 + row] * q[2] + m.m[12 + row];
        /* clip w is the depth in front of the eye. */
        if (!(clip[3] > 1.01 * n && clip[3] < f))
            return false;
        if (fabs(clip[0] / clip[3]) > fill || fabs(clip[1] / clip[3]) > fill)
            return false;
    }
    return true;
}

void sk_camera_frame(sk_camera *c, const double lo_in[3], const double hi_in[3], double aspect)
{
    double lo[3], hi[3], r2 = 0;
    bool valid = true;
    for (int i = 0; i < 3; i++) {
        valid = valid && isfinite(lo_in[i]) && isfinite(hi_in[i]) && lo_in[i] <= hi_in[i];
        r2 += (hi_in[i] - lo_in[i]) * (hi_in[i] - lo_in[i]) / 4;
    }
    double r = sqrt(r2);
    for (int i = 0; i < 3; i++) {
        double mid = valid ? (lo_in[i] + hi_in[i]) / 2 : 0;
        /* A point (or nothing) is framed as a box 1 m across. */
        lo[i] = valid && r > 1e-6 ? lo_in[i] : mid - 0.5;
        hi[i] = valid && r > 1e-6 ? hi_in[i] : mid + 0.5;
        c->target[i] = mid;
    }
    if (!(valid && r > 1e-6))
        r = sqrt(0.75);
    c->radius = r;
    /* The bounding sphere fits when r / d <= sin of the smaller half-angle of the view: a distance that
     * always works. Then the shortest distance (bisection) at which the box's corners fit in the central
     * 85% of the view, so a long thin rope fills the picture. */
    double half_v = c->fov_y / 2;
    double half_h = atan(tan(half_v) * aspect);
    double half = half_v < half_h ? half_v : half_h;
    const double fill = 0.85;
    double far_d = r / (fill * sin(half)), near_d = 0;
    c->distance = far_d;
    if (!corners_fit(c, lo, hi, aspect, fill))
        return; /* cannot happen for a sphere of radius r at far_d; keep the safe distance */
    for (int it = 0; it < 50; it++) {
        c->distance = (far_d + near_d) / 2;
        if (corners_fit(c, lo, hi, aspect, fill))
            far_d = c->distance;
        else
            near_d = c->distance;
    }
    c->distance = far_d;
}

bool sk_camera_project(const sk_camera *c, int width, int height, const double world[3], double *px,
                       double *py)
{
    sk_mat4 v = sk_camera_view(c);
    sk_mat4 p = sk_camera_projection(c, (double)width / height);
    sk_mat4 m = sk_mat4_mul(&p, &v);
    double clip[4];
    for (int row = 0; row < 4; row++)
        clip[row] = m.m[row] * world[0] + m.m[4 + row] * world[1] + m.m[8 + row] * world[2] + m.m[12 + row];
    if (!(clip[3] > 0))
        return false;
    double nx = clip[0] / clip[3], ny = clip[1] / clip[3];
    *px = (nx + 1) / 2 * width;
    *py = (1 - ny) / 2 * height;
    return true;
}
