/* HDF5 helpers shared by the checkpoint and the HDF5 output: scalar attributes written, blocks of datasets
 * read and written (h5_common.h). */
#include "io/hdf5/h5_common.h"

/* ---- attributes -------------------------------------------------------------------------------------- */

int sk_h5_set_attr(hid_t loc, const char *name, hid_t type, const void *value)
{
    hid_t space = H5Screate(H5S_SCALAR), a = H5I_INVALID_HID;
    int rc = -1;
    if (space >= 0 && (a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT)) >= 0)
        rc = H5Awrite(a, type, value) < 0 ? -1 : 0;
    if (rc)
        sk_h5_failed();
    sk_h5_close(&a, H5Aclose);
    sk_h5_close(&space, H5Sclose);
    return rc;
}

int sk_h5_set_i64(hid_t loc, const char *name, int64_t value)
{
    return sk_h5_set_attr(loc, name, H5T_NATIVE_INT64, &value);
}

int sk_h5_set_text(hid_t loc, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    int rc = -1;
    const char *text = value ? value : "";
    if (type >= 0 && H5Tset_size(type, H5T_VARIABLE) >= 0 && H5Tset_cset(type, H5T_CSET_UTF8) >= 0)
        rc = sk_h5_set_attr(loc, name, type, &text);
    else
        sk_h5_failed();
    sk_h5_close(&type, H5Tclose);
    return rc;
}

/* ---- blocks of datasets ------------------------------------------------------------------------------ */

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
