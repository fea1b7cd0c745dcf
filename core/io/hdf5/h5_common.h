/* HDF5 helpers shared by the checkpoint and the HDF5 output (private to the library): writing scalar
 * attributes. Closing ids, HDF5's reason for a failure, the readers of attributes and extents from a file that
 * may have been made on purpose and blocks of datasets read and written are skein_util's (util/h5_failure.h,
 * util/h5_read.h, util/h5_block.h), which skein-view's replay reads its files with too; this header includes
 * them. */
#ifndef SKEIN_H5_COMMON_H
#define SKEIN_H5_COMMON_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/h5_block.h"
#include "util/h5_failure.h"
#include "util/h5_read.h"

/* A scalar attribute `name` of `type` on loc; 0, or -1 with the reason kept. */
int sk_h5_set_attr(hid_t loc, const char *name, hid_t type, const void *value);
int sk_h5_set_i64(hid_t loc, const char *name, int64_t value);
/* A variable-length UTF-8 string attribute; NULL writes "". */
int sk_h5_set_text(hid_t loc, const char *name, const char *value);

#endif
