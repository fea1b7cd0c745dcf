/* sk_fail: formats a one-line error into an sk_error. */
#include <stdarg.h>
#include <stdio.h>

#include "skein/error.h"

int sk_fail(sk_error *err, int status, const char *fmt, ...)
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
