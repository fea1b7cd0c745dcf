/* HDF5's reason for a failure, kept until it is reported, and text from a file made safe to print. Part of
 * skein_util, the internal library that libskein and skein-view both link. */
#ifndef SKEIN_UTIL_H5_FAILURE_H
#define SKEIN_UTIL_H5_FAILURE_H

#include <stdbool.h>
#include <stddef.h>

/* Called at once after a failing HDF5 call (any later call clears HDF5's error stack): keeps the innermost
 * message of the stack, unless one is already kept (the first failure is the cause). Returns -1. */
int sk_h5_failed(void);

/* Whether a reason is kept. */
bool sk_h5_has_failure(void);

/* Keeps a reason of our own ("out of memory"), replacing any kept one. */
void sk_h5_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef enum sk_h5_reason {
    SK_H5_NO_REASON,     /* HDF5 gave none: out is empty */
    SK_H5_SYSTEM_REASON, /* the system's own words for an I/O error ("No space left on device") */
    SK_H5_HDF5_REASON,   /* HDF5's description, its newlines made spaces */
} sk_h5_reason;

/* Takes the kept reason (after sk_h5_failed() for a failing call just before) into out and clears it,
 * with HDF5's error stack; says which kind of reason it is. */
sk_h5_reason sk_h5_failure_reason(char *out, size_t size);

/* Replaces every control character of text (bytes below 0x20, and 0x7f) with '?', in place: a string from a
 * file, printed, stays on its line and cannot drive the terminal. Returns text. */
char *sk_h5_printable(char *text);

#endif
