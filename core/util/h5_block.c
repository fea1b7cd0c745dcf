/* Blocks of HDF5 datasets read and written (h5_block.h). */
#include "util/h5_block.h"

#include <stdbool.h>

#include "util/h5_failure.h"
#include "util/h5_read.h"

/* sk_h5_read_block into out, or (write) sk_h5_write_block from in. */
static int block(hid_t d, hid_t memtype, hid_t dxpl, int lead, const hsize_t *start, const hsize_t *count, void *out,
                 const void *in, bool write)
{
    hsize_t dims[H5S_MAX_RANK], first[H5S_MAX_RANK] = {0}, span[H5S_MAX_RANK];
    hid_t fs = H5Dget_space(d), ms = H5I_INVALID_HID;
    const int rank = fs >= 0 ? H5Sget_simple_extent_dims(fs, dims, NULL) : -1;
    bool inside = rank >= lead && lead >= 1, empty = false;
    for (int i = 0; inside && i < rank; i++) {
        first[i] = i < lead ? start[i] : 0;
        span[i] = i < lead ? count[i] : dims[i];
        inside = first[i] <= dims[i] && span[i] <= dims[i] - first[i];
        empty = empty || span[i] == 0;
    }
    int rc = -1;
    if (inside && empty)
        rc = 0;
    else if (inside && H5Sselect_hyperslab(fs, H5S_SELECT_SET, first, NULL, span, NULL) >= 0 &&
             (ms = H5Screate_simple(rank, span, NULL)) >= 0 &&
             (write ? H5Dwrite(d, memtype, ms, fs, dxpl, in) : H5Dread(d, memtype, ms, fs, dxpl, out)) >= 0)
        rc = 0;
    if (rc)
        sk_h5_failed();
    sk_h5_close(&ms, H5Sclose);
    sk_h5_close(&fs, H5Sclose);
    return rc;
}

int sk_h5_read_block(hid_t d, hid_t memtype, int lead, const hsize_t *start, const hsize_t *count, void *out)
{
    return block(d, memtype, H5P_DEFAULT, lead, start, count, out, NULL, false);
}

int sk_h5_write_block(hid_t d, hid_t memtype, hid_t dxpl, int lead, const hsize_t *start, const hsize_t *count,
                      const void *in)
{
    return block(d, memtype, dxpl, lead, start, count, NULL, in, true);
}

int sk_h5_block_none(hid_t d, hid_t memtype, hid_t dxpl, const void *buf)
{
    hid_t fs = H5Dget_space(d), ms = H5I_INVALID_HID;
    const int rc = fs >= 0 && (ms = H5Scopy(fs)) >= 0 && H5Sselect_none(fs) >= 0 && H5Sselect_none(ms) >= 0 &&
                           H5Dwrite(d, memtype, ms, fs, dxpl, buf) >= 0
                       ? 0
                       : sk_h5_failed();
    sk_h5_close(&ms, H5Sclose);
    sk_h5_close(&fs, H5Sclose);
    return rc;
}
