/* HDF5 helpers shared by the checkpoint and the HDF5 output: closing ids, HDF5's reason for a failure,
 * scalar attributes written, blocks of datasets read and written, and attributes and extents read back from files nobody vouches for. */
#include "io/hdf5/h5_common.h"

#include "base/checked.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sk_h5_close(hid_t *id, herr_t (*close)(hid_t))
{
    if (*id >= 0)
        close(*id);
    *id = H5I_INVALID_HID;
}

/* ---- HDF5's reason for a failure --------------------------------------------------------------------- */

/* Kept per thread until the failure is reported. */
static _Thread_local char last_failure[256];

static herr_t innermost(unsigned n, const H5E_error2_t *e, void *data)
{
    if (n == 0 && e->desc)
        snprintf(data, sizeof last_failure, "%s", e->desc);
    return 0;
}

int sk_h5_failed(void)
{
    if (!last_failure[0]) /* the first failure is the cause; what fails after it only follows from it */
        H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, last_failure);
    return -1;
}

bool sk_h5_has_failure(void) { return last_failure[0] != '\0'; }

void sk_h5_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_failure, sizeof last_failure, fmt, ap);
    va_end(ap);
}

sk_h5_reason sk_h5_failure_reason(char *out, size_t size)
{
    sk_h5_failed(); /* a failing call just before: its own message */
    char why[sizeof last_failure];
    memcpy(why, last_failure, sizeof why);
    last_failure[0] = '\0';
    H5Eclear2(H5E_DEFAULT);
    const char *sys = strstr(why, "error message = '");
    if (sys) {
        sys += strlen("error message = '");
        const char *end = strchr(sys, '\'');
        snprintf(out, size, "%.*s", (int)(end ? end - sys : (ptrdiff_t)strlen(sys)), sys);
        sk_h5_printable(out);
        return SK_H5_SYSTEM_REASON;
    }
    /* HDF5's descriptions can quote names read from the file */
    for (char *c = why; *c; c++)
        if (*c == '\n')
            *c = ' ';
    snprintf(out, size, "%s", sk_h5_printable(why));
    return why[0] ? SK_H5_HDF5_REASON : SK_H5_NO_REASON;
}

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

/* ---- reading ----------------------------------------------------------------------------------------- */

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

char *sk_h5_printable(char *text)
{
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return text;
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
