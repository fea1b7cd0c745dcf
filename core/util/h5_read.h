/* Reading what an HDF5 file says, trusting none of it: one attribute's value or text, and a dataset's extents
 * bounded by the bytes the file stores for it. The checkpoint, the warm start and skein-view's replay read
 * their files with these. Part of skein_util, the internal library that libskein and skein-view both link. */
#ifndef SKEIN_UTIL_H5_READ_H
#define SKEIN_UTIL_H5_READ_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>

/* Closes *id with `close` when it is valid; leaves it invalid either way. */
void sk_h5_close(hid_t *id, herr_t (*close)(hid_t));

/* A scalar attribute `name` of loc read as memtype: false when it is missing, holds more than one value
 * (it would be read past out), or is of another class than memtype (a string read as a number). A failure
 * to read one that exists keeps HDF5's reason (util/h5_failure.h). */
bool sk_h5_get_scalar(hid_t loc, const char *name, hid_t memtype, void *out);

/* A string attribute `name` of loc (one variable-length string), malloc'd; NULL when missing, not a single
 * variable-length string, or unreadable. The text is as stored: sk_h5_printable before it is printed. */
char *sk_h5_get_text(hid_t loc, const char *name);

/* Whether dataset loc/name exists with the given rank (its dimensions then in dims), and holds no more
 * elements (elem_size bytes each in memory) than the file stores for it: a reader then allocates no more
 * for it than the file can hold (an extent is only a number in the file, and chunks never written read as
 * fill values, so a crafted extent asks for any size). Stored bytes count 1032 times, the most deflate (the
 * one compression skein writes) packs into one; one slice of dimension 0 more is allowed, the frame a
 * stopped run may have added without writing it. */
bool sk_h5_get_dims(hid_t loc, const char *name, int rank, hsize_t *dims, size_t elem_size);

#endif
