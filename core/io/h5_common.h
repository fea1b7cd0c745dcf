/* HDF5 helpers shared by the checkpoint and the HDF5 output (private to the library): closing ids,
 * keeping HDF5's reason for a failure until it is reported, and writing scalar attributes. */
#ifndef SKEIN_H5_COMMON_H
#define SKEIN_H5_COMMON_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Closes *id with `close` when it is valid; leaves it invalid either way. */
void sk_h5_close(hid_t *id, herr_t (*close)(hid_t));

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

/* A scalar attribute `name` of `type` on loc; 0, or -1 with the reason kept. */
int sk_h5_set_attr(hid_t loc, const char *name, hid_t type, const void *value);
int sk_h5_set_i64(hid_t loc, const char *name, int64_t value);
/* A variable-length UTF-8 string attribute; NULL writes "". */
int sk_h5_set_text(hid_t loc, const char *name, const char *value);

#endif
