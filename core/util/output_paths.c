/* Output paths checked before anything is written (output_paths.h). */
/* realpath is X/Open, beside the POSIX the build asks for */
#define _XOPEN_SOURCE 700
#include "util/output_paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skein/types.h"

typedef struct identity {
    bool exists;
    dev_t dev;
    ino_t ino;
    mode_t mode;
    char where[PATH_MAX + NAME_MAX + 2]; /* the directory's real path, '/', the name; "" when unknown */
} identity;

/* The directory part of path ("." when it has none) into dir. */
static void directory_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, size, ".");
    else if (slash == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

static void identify(const char *path, identity *id)
{
    struct stat st;
    id->exists = stat(path, &st) == 0;
    if (id->exists) {
        id->dev = st.st_dev;
        id->ino = st.st_ino;
        id->mode = st.st_mode;
    }
    char dir[PATH_MAX], real[PATH_MAX];
    directory_of(path, dir, sizeof dir);
    const char *slash = strrchr(path, '/');
    id->where[0] = '\0';
    if (realpath(dir, real))
        snprintf(id->where, sizeof id->where, "%s/%s", real, slash ? slash + 1 : path);
}

static bool same(const identity *a, const identity *b)
{
    if (a->exists && b->exists)
        return a->dev == b->dev && a->ino == b->ino;
    return a->where[0] && strcmp(a->where, b->where) == 0;
}

bool sk_output_paths_same(const char *a, const char *b)
{
    identity x, y;
    identify(a, &x);
    identify(b, &y);
    return same(&x, &y);
}

bool sk_output_path_is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Creates and removes a file beside path: the directory exists and takes new files. */
static sk_status try_create(const sk_output_path *out, sk_error *err)
{
    char dir[PATH_MAX], probe[PATH_MAX + 32];
    directory_of(out->path, dir, sizeof dir);
    snprintf(probe, sizeof probe, "%s/.skein-check.XXXXXX", dir);
    const int fd = mkstemp(probe);
    if (fd < 0)
        return sk_fail(err, SK_ERR_INVALID, "%s %s: cannot create a file in %s: %s", out->option, out->path, dir,
                       strerror(errno));
    close(fd);
    unlink(probe);
    return SK_OK;
}

sk_status sk_output_paths_check(const sk_output_path *outs, int n, const sk_input_path *inputs, int n_inputs,
                                sk_error *err)
{
    identity *ids = calloc((size_t)(n > 0 ? n : 1), sizeof *ids);
    if (!ids)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    sk_status rc = SK_OK;
    for (int i = 0; rc == SK_OK && i < n; i++) {
        const sk_output_path *o = &outs[i];
        identify(o->path, &ids[i]);
        if (!o->directory && ids[i].exists && S_ISDIR(ids[i].mode)) {
            rc = sk_fail(err, SK_ERR_INVALID, "%s %s: is a directory; name a file", o->option, o->path);
            break;
        }
        if (ids[i].exists && !S_ISDIR(ids[i].mode) && !S_ISREG(ids[i].mode)) {
            rc = sk_fail(err, SK_ERR_INVALID,
                         "%s %s: is not a regular file (a device, a FIFO or a socket), which the output would "
                         "replace; name a file",
                         o->option, o->path);
            break;
        }
        for (int k = 0; rc == SK_OK && k < n_inputs; k++) {
            if (!inputs[k].path)
                continue;
            identity in;
            identify(inputs[k].path, &in);
            if (in.exists && same(&ids[i], &in))
                rc = sk_fail(err, SK_ERR_INVALID, "%s %s: is %s", o->option, o->path, inputs[k].label);
        }
        for (int k = 0; rc == SK_OK && k < i; k++)
            if (same(&ids[i], &ids[k]))
                rc = sk_fail(err, SK_ERR_INVALID, "%s %s and %s %s: the same file; give each output its own",
                             outs[k].option, outs[k].path, o->option, o->path);
        sk_error why;
        if (rc == SK_OK && o->check && o->check(o->path, &why))
            rc = sk_fail(err, SK_ERR_INVALID, "%s %s", o->option, why.message);
    }
    free(ids);
    for (int i = 0; rc == SK_OK && i < n; i++)
        rc = try_create(&outs[i], err);
    return rc;
}
