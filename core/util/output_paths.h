/* The checks every program of the project makes on the files it is about to write (skein run's outputs,
 * skein-view's screenshot), before anything is computed: one place, so that they cannot drift apart. Part of
 * skein_util, the internal library that libskein and skein-view both link. */
#ifndef SKEIN_UTIL_OUTPUT_PATHS_H
#define SKEIN_UTIL_OUTPUT_PATHS_H

#include <stdbool.h>

#include "skein/types.h"

typedef struct sk_output_path {
    const char *option; /* how messages name it: "--csv", "--checkpoint's journal" */
    const char *path;
    bool directory;     /* the output is a directory (skein run --vtk) */
    /* Whether the writer can take path, when it has its own rules (a directory's contents): SK_OK, or a
     * status with err "PATH: why". NULL: none. */
    sk_status (*check)(const char *path, sk_error *err);
} sk_output_path;

/* A file the program reads, which no output may be. label completes "OPTION PATH: is LABEL", e.g. "the
 * scenario file ball.json itself; the run would overwrite its input". */
typedef struct sk_input_path {
    const char *path;
    const char *label;
} sk_input_path;

/* Each output, in order: not an existing directory (unless it is one), not an existing file that is not a
 * regular file (a device, a FIFO, a socket: renaming onto it would replace it with a plain file), not any of
 * the inputs (NULL paths skipped), not the same file as an earlier output (compared by device and inode when
 * both exist, by their directory's real path and their name otherwise), and in a directory where a file can
 * be created (tried by creating one); then its own check, if it has one. SK_ERR_INVALID with err "OPTION PATH: why". */
sk_status sk_output_paths_check(const sk_output_path *outs, int n, const sk_input_path *inputs, int n_inputs,
                                sk_error *err);

/* Whether path exists and is neither a regular file nor a directory (following links). */
bool sk_output_path_is_special(const char *path);

/* Whether a and b name the same file, as sk_output_paths_check compares them. */
bool sk_output_paths_same(const char *a, const char *b);

#endif
