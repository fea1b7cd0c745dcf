/* PNG output through stb_image_write; this file holds its implementation. */
/* realpath is X/Open, beside the POSIX the build asks for */
#define _XOPEN_SOURCE 700
#include "screenshot.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO /* we write the bytes ourselves, to see write errors */
#include <stb_image_write.h>

typedef struct png_sink {
    FILE *f;
    bool failed;
} png_sink;

static void sink_write(void *context, void *data, int size)
{
    png_sink *s = context;
    if (!s->failed && fwrite(data, 1, (size_t)size, s->f) != (size_t)size)
        s->failed = true;
}

int sk_screenshot_write(const char *path, int width, int height, const unsigned char *rgb, sk_error *err)
{
    /* A fresh temporary (mkstemp: created with O_EXCL, so a symbolic link planted at a guessable name is
     * never written through), renamed over path when complete: the rename replaces whatever path is, a
     * planted link included, rather than following it. */
    const size_t len = strlen(path);
    char *tmp = malloc(len + sizeof ".tmp.XXXXXX");
    if (!tmp)
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    const int fd = mkstemp(tmp);
    const mode_t mask = umask(0); /* mkstemp's 0600, widened to what the user's files get */
    umask(mask);
    png_sink sink = {NULL, false};
    if (fd >= 0 && (fchmod(fd, 0666 & ~mask) != 0 || !(sink.f = fdopen(fd, "wb")))) {
        const int e = errno;
        close(fd);
        remove(tmp);
        errno = e;
    }
    if (!sink.f) {
        int e = errno;
        free(tmp);
        return sk_fail(err, SK_ERR_IO, "%s: cannot write: %s", path, strerror(e));
    }
    int ok = stbi_write_png_to_func(sink_write, &sink, width, height, 3, rgb, width * 3);
    int e = errno;
    if (fclose(sink.f) != 0 && !sink.failed) {
        sink.failed = true;
        e = errno;
    }
    if (!ok || sink.failed || rename(tmp, path) != 0) {
        if (ok && !sink.failed)
            e = errno;
        remove(tmp);
        free(tmp);
        if (!ok)
            return sk_fail(err, SK_ERR_IO, "%s: cannot encode the PNG", path);
        return sk_fail(err, SK_ERR_IO, "%s: cannot write: %s", path, strerror(e));
    }
    free(tmp);
    return 0;
}

/* Where a path is: its file when it exists, and its directory's real path with its name. */
typedef struct identity {
    bool exists;
    struct stat st;
    char where[PATH_MAX + NAME_MAX + 2]; /* "" when unknown */
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
    id->exists = stat(path, &id->st) == 0;
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
        return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino;
    return a->where[0] && strcmp(a->where, b->where) == 0;
}

/* The checks skein run makes of its outputs' paths (docs: README, "Outputs"), for the one picture: not a
 * directory, not a device, FIFO or socket, not a file the viewer reads, in a directory that takes files. */
int sk_screenshot_check(const char *path, const char *input, const char *warm_start, sk_error *err)
{
    char shown[4096 + 96], warm[4096 + 128];
    snprintf(shown, sizeof shown, "the file %s itself, which skein-view reads; the picture would replace it", input);
    snprintf(warm, sizeof warm, "the warm start's file %s (initial.from) itself; the picture would replace it",
             warm_start ? warm_start : "");
    const char *option = "--screenshot";
    identity out;
    identify(path, &out);
    if (out.exists && S_ISDIR(out.st.st_mode))
        return sk_fail(err, SK_ERR_INVALID, "%s %s: is a directory; name a file", option, path);
    if (out.exists && !S_ISREG(out.st.st_mode))
        return sk_fail(err, SK_ERR_INVALID,
                       "%s %s: is not a regular file (a device, a FIFO or a socket), which the output would "
                       "replace; name a file",
                       option, path);
    const char *inputs[2] = {input, warm_start}, *labels[2] = {shown, warm};
    for (int k = 0; k < 2; k++) {
        if (!inputs[k])
            continue;
        identity in;
        identify(inputs[k], &in);
        if (in.exists && same(&out, &in))
            return sk_fail(err, SK_ERR_INVALID, "%s %s: is %s", option, path, labels[k]);
    }
    char dir[PATH_MAX], probe[PATH_MAX + 32];
    directory_of(path, dir, sizeof dir);
    snprintf(probe, sizeof probe, "%s/.skein-check.XXXXXX", dir);
    const int fd = mkstemp(probe);
    if (fd < 0)
        return sk_fail(err, SK_ERR_INVALID, "%s %s: cannot create a file in %s: %s", option, path, dir,
                       strerror(errno));
    close(fd);
    unlink(probe);
    return 0;
}

int sk_screenshot_next_name(char *name, size_t size, sk_error *err)
{
    for (int i = 1; i <= 9999; i++) {
        snprintf(name, size, "skein-view-%04d.png", i);
        struct stat st;
        if (lstat(name, &st) != 0) /* a link there, even one to nothing, is a name taken */
            return 0;
    }
    return sk_fail(err, SK_ERR_IO, "skein-view-0001.png .. skein-view-9999.png all exist");
}
