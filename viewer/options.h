/* skein-view's command line: options parsed and checked with one-line errors, the --help text, and the
 * chosen ropes resolved against the scenario. */
#ifndef SKEIN_VIEWER_OPTIONS_H
#define SKEIN_VIEWER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "skein/types.h"
#include "skein/scenario.h"

typedef struct sk_view_options {
    const char *file;
    long *ropes; /* --rope values in the order given (global, or within --group) */
    int n_ropes;
    bool has_group;
    long group;
    const char *screenshot; /* NULL: interactive */
    long frames;            /* steps before the screenshot */
    bool has_frames;
    int width, height;   /* window and picture size (pixels) */
    double strain_scale; /* 0: automatic */
    bool paused;
    const char **sets; /* --set PATH=VALUE, in order */
    int n_sets;
    bool help;
} sk_view_options;

/* Parses argv. Returns 0 or SK_ERR_INVALID with a one-line message (then nothing needs freeing). */
int sk_view_options_parse(int argc, char **argv, sk_view_options *o, sk_error *err);
void sk_view_options_free(sk_view_options *o);

/* The global indices of the chosen ropes (duplicates dropped, order kept; the first rope of the group,
 * or of the scenario, when none is given). Returns 0 or SK_ERR_INVALID naming the bad --rope or
 * --group. *global is malloc'd. */
int sk_view_options_ropes(const sk_view_options *o, const sk_scenario *s, size_t **global, int *n,
                          sk_error *err);

/* Whether the file looks like HDF5 (a .h5 or .hdf5 name, or HDF5's signature in its first bytes). */
bool sk_view_is_hdf5(const char *path);

/* The --help text up to the keys (sk_view_key_help follows it). */
extern const char sk_view_usage[];
/* What follows the keys in --help. */
extern const char sk_view_usage_tail[];

/* The exit status of a failed call, as the usage text gives them (the skein program's): 0 done; 2 bad usage,
 * an invalid scenario or file; 130 interrupted; 1 anything else (I/O, memory). */
int sk_view_exit_status(sk_status status);

#endif
