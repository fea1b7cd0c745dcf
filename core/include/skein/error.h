/* One-line errors with the exit status the command line returns for them. */
#ifndef SKEIN_ERROR_H
#define SKEIN_ERROR_H

/* Exit statuses, as documented in the README. */
enum {
    SK_EXIT_OK = 0,
    SK_EXIT_FAILURE = 1,     /* I/O and anything else */
    SK_EXIT_USAGE = 2,       /* bad usage or invalid scenario */
    SK_EXIT_DIVERGED = 3,    /* finished, but some ropes diverged */
    SK_EXIT_INTERRUPTED = 130
};

typedef struct sk_error {
    int status;        /* one of SK_EXIT_*; 0 when no error */
    char message[768]; /* one line, no trailing newline: "file: key.path: what is wrong" */
} sk_error;

/* Sets err (when not NULL) and returns status, so callers can `return sk_fail(...)`. */
int sk_fail(sk_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
