/* The exit statuses of skein's programs (skein and skein-view), as the README documents them, and the
 * status of a failed library call mapped onto them. */
#ifndef SKEIN_CLI_EXIT_STATUS_H
#define SKEIN_CLI_EXIT_STATUS_H

#include "skein/types.h"

enum {
    SK_EXIT_OK = 0,
    SK_EXIT_FAILURE = 1,     /* I/O, out of memory */
    SK_EXIT_USAGE = 2,       /* bad usage, an invalid scenario, a checkpoint that is not this run's */
    SK_EXIT_DIVERGED = 3,    /* finished, but some ropes diverged */
    SK_EXIT_BEYOND = 4,      /* skein compare: the engines differ beyond the tolerance */
    SK_EXIT_INTERRUPTED = 130
};

static inline int sk_exit_status(sk_status status)
{
    switch (status) {
    case SK_OK: return SK_EXIT_OK;
    case SK_ERR_INVALID:
    case SK_ERR_UNSUPPORTED:
    case SK_ERR_MISMATCH:
    case SK_ERR_CORRUPT: return SK_EXIT_USAGE;
    case SK_ERR_INTERRUPTED: return SK_EXIT_INTERRUPTED;
    case SK_ERR_IO:
    case SK_ERR_NO_MEMORY: break;
    }
    return SK_EXIT_FAILURE;
}

#endif
