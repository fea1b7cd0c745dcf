/* HDF5 helpers shared by the checkpoint and the HDF5 output (private to the library): writing scalar
 * attributes, blocks of datasets read and written. Closing ids, HDF5's reason for a failure and the readers of
 * attributes and extents from a file that may have been made on purpose are skein_util's (util/h5_failure.h,
 * util/h5_read.h), which skein-view's replay reads its files with too; this header includes them. */
#ifndef SKEIN_H5_COMMON_H
#define SKEIN_H5_COMMON_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/h5_failure.h"
#include "util/h5_read.h"

/* A scalar attribute `name` of `type` on loc; 0, or -1 with the reason kept. */
int sk_h5_set_attr(hid_t loc, const char *name, hid_t type, const void *value);
int sk_h5_set_i64(hid_t loc, const char *name, int64_t value);
/* A variable-length UTF-8 string attribute; NULL writes "". */
int sk_h5_set_text(hid_t loc, const char *name, const char *value);

/* ---- blocks of datasets ---- */

/* The block of dataset d whose first `lead` dimensions start at start[] and span count[], its other dimensions
 * whole, read into out or written from in as memtype (the write with transfers dxpl: H5P_DEFAULT, or a
 * collective transfer's). A block outside the dataset's extent fails; one of no elements transfers nothing.
 * 0, or -1 with the reason kept. */
int sk_h5_read_block(hid_t d, hid_t memtype, int lead, const hsize_t *start, const hsize_t *count, void *out);
int sk_h5_write_block(hid_t d, hid_t memtype, hid_t dxpl, int lead, const hsize_t *start, const hsize_t *count,
                      const void *in);

/* This process's part, with no elements, in a collective write of d (both selections empty). 0, or -1 with
 * the reason kept. */
int sk_h5_block_none(hid_t d, hid_t memtype, hid_t dxpl, const void *buf);

#endif
