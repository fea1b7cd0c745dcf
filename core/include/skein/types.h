/* skein's basic types: the build's real type, 3-vectors, and statuses with one-line messages. */
#ifndef SKEIN_TYPES_H
#define SKEIN_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the library's public functions: the shared library exports these and nothing else. */
#define SK_API __attribute__((visibility("default")))

/* The build's scalar type: double by default, float in a build configured with -DSKEIN_REAL=float.
 * A program must be compiled with the same choice as the library it links (skein.pc and the CMake
 * package define SKEIN_REAL_FLOAT for a float build); sk_real_size() tells at run time. */
#ifdef SKEIN_REAL_FLOAT
typedef float sk_real;
#define SK_REAL_NAME "float"
#define SK_REAL_FMT "%.9g" /* enough digits that a printed number reads back to the same bits */
#else
typedef double sk_real;
#define SK_REAL_NAME "double"
#define SK_REAL_FMT "%.17g"
#endif

/* sizeof(sk_real) in the library as built: a program compiled for the other real type can refuse to run. */
SK_API int sk_real_size(void);

typedef struct sk_vec3 {
    sk_real x, y, z;
} sk_vec3;

/* What a call returned. Every failure comes with a one-line message in an sk_error that names the file,
 * the key path or the value at fault. */
typedef enum sk_status {
    SK_OK = 0,
    SK_ERR_INVALID,     /* invalid input: a scenario, a key path, an option value, an argument */
    SK_ERR_UNSUPPORTED, /* something this build or this CPU cannot do (an instruction set) */
    SK_ERR_MISMATCH,    /* a checkpoint or journal that belongs to another run (scenario, engine, plan) */
    SK_ERR_CORRUPT,     /* a file that is not what it claims: damaged, cut short, another format */
    SK_ERR_IO,          /* a file that could not be read or written (missing, permissions, disk full) */
    SK_ERR_NO_MEMORY,   /* an allocation failed */
    SK_ERR_INTERRUPTED  /* stopped on request (sk_run's stop flag) */
} sk_status;

typedef struct sk_error {
    sk_status status;  /* SK_OK when no error */
    char message[768]; /* one line, no trailing newline: "file: key.path: what is wrong" */
} sk_error;

/* Sets err (when not NULL) to status and the formatted message, and returns status, so that a function
 * can `return sk_fail(err, SK_ERR_IO, "%s: %s", path, strerror(errno));`. Frame sinks use it too. */
SK_API sk_status sk_fail(sk_error *err, sk_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A status's name: "ok", "invalid", "unsupported", "mismatch", "corrupt", "io", "no memory",
 * "interrupted". */
SK_API const char *sk_status_name(sk_status status);

#ifdef __cplusplus
}
#endif

#endif
