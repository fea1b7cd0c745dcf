/* Statuses and their one-line messages; what the library is (its version, its real type). */
#include <stdarg.h>
#include <stdio.h>

#include "skein/skein.h"

sk_status sk_fail(sk_error *err, sk_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

const char *sk_status_name(sk_status status)
{
    switch (status) {
    case SK_OK: return "ok";
    case SK_ERR_INVALID: return "invalid";
    case SK_ERR_UNSUPPORTED: return "unsupported";
    case SK_ERR_MISMATCH: return "mismatch";
    case SK_ERR_CORRUPT: return "corrupt";
    case SK_ERR_IO: return "io";
    case SK_ERR_NO_MEMORY: return "no memory";
    case SK_ERR_INTERRUPTED: return "interrupted";
    }
    return "unknown";
}

const char *sk_version(void) { return SKEIN_VERSION_STRING; }

int sk_real_size(void) { return (int)sizeof(sk_real); }
