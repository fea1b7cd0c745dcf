/* HDF5's reason for a failure (h5_failure.h). */
#include "util/h5_failure.h"

#include <hdf5.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

char *sk_h5_printable(char *text)
{
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return text;
}
