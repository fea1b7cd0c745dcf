/* HDF5 helpers shared by the checkpoint and the HDF5 output (private to the library): closing ids,
 * keeping HDF5's reason for a failure until it is reported, writing scalar attributes, blocks of datasets
 * read and written, and attributes read
 * back from a file that may have been made on purpose (skein-view's replay reads its files with these too). */
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

/* ---- blocks of datasets ---- */

/* The block of dataset d whose first `lead` dimensions start at start[] and span count[], its other dimensions
 * whole, read into out or written from in as memtype (the write with transfers dxpl: H5P_DEFAULT, or a
 * collective transfer's). A block outside the dataset's extent fails; one of no elements transfers nothing.
 * 0, or -1 with the reason kept. */
int sk_h5_read_block(hid_t d, hid_t memtype, int lead, const hsize_t *start, const hsize_t *count, void *out);
int sk_h5_write_block(hid_t d, hid_t memtype, hid_t dxpl, int lead, const hsize_t *start, const hsize_t *count,
                      const void *in);

/* This process's part, with no elements, in a collective write of d (both selections empty). 0, or -1 with
 * the reason kept. */
int sk_h5_block_none(hid_t d, hid_t memtype, hid_t dxpl, const void *buf);

/* ---- reading what a file says, trusting none of it ---- */

/* A scalar attribute `name` of loc read as memtype: false when it is missing, holds more than one value
 * (it would be read past out), or is of another class than memtype (a string read as a number). */
bool sk_h5_get_scalar(hid_t loc, const char *name, hid_t memtype, void *out);

/* A string attribute `name` of loc (one variable-length string), malloc'd; NULL when missing, not a single
 * variable-length string, or unreadable. The text is as stored: sk_h5_printable before it is printed. */
char *sk_h5_get_text(hid_t loc, const char *name);

/* Replaces every control character of text (bytes below 0x20, and 0x7f) with '?', in place: a string from a
 * file, printed, stays on its line and cannot drive the terminal. Returns text. */
char *sk_h5_printable(char *text);

/* Whether dataset loc/name exists with the given rank (its dimensions then in dims), and holds no more
 * elements (elem_size bytes each in memory) than the file stores for it: a reader then allocates no more
 * for it than the file can hold (an extent is only a number in the file, and chunks never written read as
 * fill values, so a crafted extent asks for any size). Stored bytes count 1032 times, the most deflate (the
 * one compression skein writes) packs into one; one slice of dimension 0 more is allowed, the frame a
 * stopped run may have added without writing it. */
bool sk_h5_get_dims(hid_t loc, const char *name, int rank, hsize_t *dims, size_t elem_size);

#endif
