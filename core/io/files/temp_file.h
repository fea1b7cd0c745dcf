/* A text output written under a temporary name beside its target and renamed onto it only when complete, so a
 * file under its own name is never half written: the CSV frames and the results table. */
#ifndef SKEIN_IO_TEMP_FILE_H
#define SKEIN_IO_TEMP_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "skein/types.h"

typedef struct sk_temp_file {
    char *path; /* the target */
    char *temp; /* PATH.tmp.XXXXXX */
    FILE *f;
} sk_temp_file;

/* Creates PATH.tmp.XXXXXX with the permissions a plain fopen would give. SK_ERR_NO_MEMORY or SK_ERR_IO naming
 * path; on failure nothing is left, on disk or in t. */
sk_status sk_temp_file_open(sk_temp_file *t, const char *path, sk_error *err);

/* A failed call on the output, with its errno: "PATH: what: reason" (SK_ERR_IO). */
sk_status sk_temp_file_fail(const sk_temp_file *t, sk_error *err, const char *what, int errnum);

/* Flushes, fsyncs and closes the temporary and renames it onto the target, or with incomplete onto
 * PATH.incomplete (a run stopped early: the name says so, and an earlier complete file stays). On failure the
 * temporary is removed and the target untouched. Frees t's names either way. */
sk_status sk_temp_file_commit(sk_temp_file *t, bool incomplete, sk_error *err);

/* Closes and removes the temporary, leaving the target untouched; frees t's names. */
void sk_temp_file_abort(sk_temp_file *t);

#endif
