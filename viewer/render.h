/* Drawing a scene with OpenGL 3.3 core (epoxy loads the functions): shaders, buffers, the draw order,
 * and reading a frame back for screenshots. Needs a current GL context. */
#ifndef SKEIN_VIEWER_RENDER_H
#define SKEIN_VIEWER_RENDER_H

#include "camera.h"
#include "scene.h"
#include "skein/types.h"

typedef struct sk_render sk_render;

/* Compiles the shaders and makes the buffers. NULL with err set when that fails. */
sk_render *sk_render_create(sk_error *err);
void sk_render_destroy(sk_render *r);

/* Draws sc seen by cam into the bound framebuffer, a width x height viewport. */
void sk_render_draw(sk_render *r, const sk_scene *sc, const sk_camera *cam, int width, int height);

/* Draws the same into an offscreen framebuffer of width x height (no multisampling, so every pixel
 * has exactly the colour drawn) and reads it into rgb: top row first, 3 bytes per pixel. Returns 0
 * or SK_ERR_IO with err set. */
int sk_render_pixels(sk_render *r, const sk_scene *sc, const sk_camera *cam, int width, int height,
                     unsigned char *rgb, sk_error *err);

#endif
