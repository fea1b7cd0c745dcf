/* Writing a picture as PNG (stb_image_write): to a temporary name first, renamed when complete, so a
 * failed write never leaves a file that looks finished. */
#ifndef SKEIN_VIEWER_SCREENSHOT_H
#define SKEIN_VIEWER_SCREENSHOT_H

#include <stddef.h>

#include "skein/types.h"

/* rgb: height rows of width pixels, top row first, 3 bytes per pixel. Returns 0 or SK_ERR_IO
 * with err naming the file. */
int sk_screenshot_write(const char *path, int width, int height, const unsigned char *rgb, sk_error *err);

/* Before anything is loaded or drawn: --screenshot PATH passes the checks skein run's outputs pass
 * (util/output_paths.h): not a directory, a device or a FIFO, not the file shown (input) nor the warm start
 * it reads (warm_start, may be NULL), in a directory where a file can be created. Returns 0 or
 * SK_ERR_INVALID with err naming --screenshot and the path. */
int sk_screenshot_check(const char *path, const char *input, const char *warm_start, sk_error *err);

/* The first of skein-view-0001.png, skein-view-0002.png, ... that does not exist in the current
 * directory. Returns 0, or SK_ERR_IO when all 9999 exist. */
int sk_screenshot_next_name(char *name, size_t size, sk_error *err);

#endif
