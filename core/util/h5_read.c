/* Attributes and extents read back from HDF5 files nobody vouches for (h5_read.h). */
#include "util/h5_read.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/h5_failure.h"

void sk_h5_close(hid_t *id, herr_t (*close)(hid_t))
{
    if (*id >= 0)
        close(*id);
    *id = H5I_INVALID_HID;
}

/* Whether attribute a holds exactly one value: HDF5 reads every element of its dataspace into the buffer. */
static bool one_value(hid_t a)
{
    hid_t space = H5Aget_space(a);
    const bool one = space >= 0 && H5Sget_simple_extent_npoints(space) == 1;
    sk_h5_close(&space, H5Sclose);
    return one;
}

bool sk_h5_get_scalar(hid_t loc, const char *name, hid_t memtype, void *out)
{
    if (H5Aexists(loc, name) <= 0)
        return false;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT), type = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID;
    const bool ok = type >= 0 && H5Tget_class(type) == H5Tget_class(memtype) && one_value(a) &&
                    H5Aread(a, memtype, out) >= 0;
    if (!ok)
        sk_h5_failed();
    sk_h5_close(&type, H5Tclose);
    sk_h5_close(&a, H5Aclose);
    return ok;
}

char *sk_h5_get_text(hid_t loc, const char *name)
{
    if (H5Aexists(loc, name) <= 0)
        return NULL;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT), ftype = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID,
          mtype = H5I_INVALID_HID;
    char *value = NULL, *copy = NULL;
    /* read as a variable-length C string of the file's character set: HDF5 converts nothing */
    if (ftype >= 0 && H5Tget_class(ftype) == H5T_STRING && H5Tis_variable_str(ftype) > 0 && one_value(a) &&
        (mtype = H5Tcopy(H5T_C_S1)) >= 0 && H5Tset_size(mtype, H5T_VARIABLE) >= 0 &&
        H5Tset_cset(mtype, H5Tget_cset(ftype)) >= 0 && H5Aread(a, mtype, &value) >= 0 && value) {
        copy = strdup(value);
        H5free_memory(value);
    } else {
        sk_h5_failed();
    }
    sk_h5_close(&mtype, H5Tclose);
    sk_h5_close(&ftype, H5Tclose);
    sk_h5_close(&a, H5Aclose);
    return copy;
}

bool sk_h5_get_dims(hid_t loc, const char *name, int rank, hsize_t *dims, size_t elem_size)
{
    if (rank < 1 || H5Lexists(loc, name, H5P_DEFAULT) <= 0)
        return false;
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    bool ok = space >= 0 && H5Sget_simple_extent_ndims(space) == rank &&
              H5Sget_simple_extent_dims(space, dims, NULL) == rank;
    _Static_assert(sizeof(hsize_t) <= sizeof(size_t), "an extent is a size");
    size_t slice = elem_size, bytes = 0, room = 0; /* one index of dimension 0; all of them; what may be */
    for (int i = 1; ok && i < rank; i++)
        ok = sk_size_mul(slice, (size_t)dims[i], &slice);
    ok = ok && sk_size_mul(slice, (size_t)dims[0], &bytes);
    if (ok) {
        const hsize_t stored = H5Dget_storage_size(d);
        ok = sk_size_mul(stored, 1032, &room) && sk_size_add(room, slice, &room) && bytes <= room;
    }
    if (d < 0 || space < 0)
        sk_h5_failed();
    sk_h5_close(&space, H5Sclose);
    sk_h5_close(&d, H5Dclose);
    return ok;
}
