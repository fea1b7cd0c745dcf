/* PNG output through stb_image_write; this file holds its implementation. */
#include "screenshot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/output_paths.h"

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

/* The checks skein run makes of its outputs' paths (util/output_paths.h), for the one picture: not a
 * directory, not a device, FIFO or socket, not a file the viewer reads, in a directory that takes files. */
int sk_screenshot_check(const char *path, const char *input, const char *warm_start, sk_error *err)
{
    char shown[4096 + 96], warm[4096 + 128];
    snprintf(shown, sizeof shown, "the file %s itself, which skein-view reads; the picture would replace it", input);
    snprintf(warm, sizeof warm, "the warm start's file %s (initial.from) itself; the picture would replace it",
             warm_start ? warm_start : "");
    const sk_output_path out = {.option = "--screenshot", .path = path};
    const sk_input_path inputs[2] = {{input, shown}, {warm_start, warm}};
    return sk_output_paths_check(&out, 1, inputs, 2, err);
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
