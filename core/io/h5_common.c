/* HDF5 helpers shared by the checkpoint and the HDF5 output: closing ids, HDF5's reason for a failure,
 * scalar attributes. */
#include "io/h5_common.h"

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
        return SK_H5_SYSTEM_REASON;
    }
    for (char *c = why; *c; c++)
        if (*c == '\n')
            *c = ' ';
    snprintf(out, size, "%s", why);
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
