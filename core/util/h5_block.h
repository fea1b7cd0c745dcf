/* A block of an HDF5 dataset read or written, its extent checked first: the checkpoint, the HDF5 output, the
 * warm start and skein-view's replay. Part of skein_util, the internal library that libskein and skein-view
 * both link. */
#ifndef SKEIN_UTIL_H5_BLOCK_H
#define SKEIN_UTIL_H5_BLOCK_H

#include <hdf5.h>

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
