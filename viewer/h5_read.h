/* The viewer's readers of what skein run --h5 writes, for a replay: one attribute's value or text, and a
 * dataset's extents bounded by the bytes the file stores for it, so that a crafted file cannot make the viewer
 * size a buffer larger than the file could fill. Sizes computed from the file's counts go through
 * sk_view_alloc_array, which refuses a product that overflows. */
#ifndef SKEIN_VIEWER_H5_READ_H
#define SKEIN_VIEWER_H5_READ_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>

/* Attribute `name` of loc holding exactly one value of memtype's class, read as memtype. */
bool sk_view_h5_scalar(hid_t loc, const char *name, hid_t memtype, void *out);

/* Attribute `name` of loc, a variable-length string (malloc'd), or NULL. */
char *sk_view_h5_text(hid_t loc, const char *name);

/* The extents of dataset loc/name, which must exist, have the given rank, and hold no more elements of
 * elem_size bytes than the file stores for it (chunks compressed by deflate at most about 1032 to 1). */
bool sk_view_h5_dims(hid_t loc, const char *name, int rank, hsize_t *dims, size_t elem_size);

/* n items of size bytes (at least one byte); NULL when out of memory or when n * size overflows. */
void *sk_view_alloc_array(size_t n, size_t size);

#endif
