/* HDF5 helpers shared by the checkpoint and the HDF5 output: scalar attributes written (h5_common.h). */
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
