/* The orbit camera: a target, a distance and two angles; view and projection matrices, framing a box,
 * and the pixel a world point lands on. Pure maths in double, no GL, so it is tested without a window. */
#ifndef SKEIN_VIEWER_CAMERA_H
#define SKEIN_VIEWER_CAMERA_H

#include <stdbool.h>

/* A 4x4 matrix, column-major as OpenGL reads it: m[col * 4 + row]. */
typedef struct sk_mat4 {
    double m[16];
} sk_mat4;

typedef struct sk_camera {
    double target[3]; /* the point orbited and looked at (m) */
    double distance;  /* eye to target (m), > 0 */
    double yaw;       /* rad, around +y; 0 looks along -z (x to the right, y up) */
    double pitch;     /* rad, elevation of the eye above the target, in (-pi/2, pi/2) */
    double fov_y;     /* vertical field of view (rad) */
    double radius;    /* size of the scene last framed (m): sets how far the far plane reaches */
} sk_camera;

/* Pitch stays this far from straight up or down, where the view's up vector would be undefined. */
#define SK_CAMERA_PITCH_LIMIT 1.55

/* A camera looking at the origin from a slight angle above and to the side, at 10 m. */
sk_camera sk_camera_default(void);

/* The eye position: target + distance * (cos(pitch) sin(yaw), sin(pitch), cos(pitch) cos(yaw)). */
void sk_camera_eye(const sk_camera *c, double eye[3]);

/* World to eye space (gluLookAt from the eye to the target, y up). */
sk_mat4 sk_camera_view(const sk_camera *c);

/* Eye space to clip space (gluPerspective) for a viewport of the given aspect (width / height). */
sk_mat4 sk_camera_projection(const sk_camera *c, double aspect);

/* Near and far clipping distances: near = distance / 100, far reaches 50 scene radii past the target. */
void sk_camera_clip_planes(const sk_camera *c, double *near_plane, double *far_plane);

/* a * b */
sk_mat4 sk_mat4_mul(const sk_mat4 *a, const sk_mat4 *b);

/* Turns the eye around the target by the given angles (rad); the distance does not change. */
void sk_camera_orbit(sk_camera *c, double dyaw, double dpitch);

/* Multiplies the distance by factor (> 0), kept within [1e-6, 1e9] m. */
void sk_camera_zoom(sk_camera *c, double factor);

/* Moves the target within the view plane by dx, dy viewport heights (right and up on screen). */
void sk_camera_pan(sk_camera *c, double dx, double dy);

/* Points the camera at the centre of the box [lo, hi] and moves it as close as it can while every
 * corner of the box (and so every point in it) stays inside the central 85% of the view for the given
 * aspect. The angles are kept. An empty, invalid or point-like box is framed as a box 1 m across. */
void sk_camera_frame(sk_camera *c, const double lo[3], const double hi[3], double aspect);

/* The pixel a world point projects to in a width x height viewport: x to the right from the left edge,
 * y downwards from the top edge (image rows), pixel (i, j) covering [i, i+1) x [j, j+1). Returns false
 * when the point is behind the eye (no pixel). */
bool sk_camera_project(const sk_camera *c, int width, int height, const double world[3], double *px,
                       double *py);

#endif
