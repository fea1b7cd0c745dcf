/* PNG output through stb_image_write; this file holds its implementation. */
#include "screenshot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    size_t len = strlen(path) + 32;
    char *tmp = malloc(len);
    if (!tmp)
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
    snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());
    png_sink sink = {fopen(tmp, "wb"), false};
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

int sk_screenshot_next_name(char *name, size_t size, sk_error *err)
{
    for (int i = 1; i <= 9999; i++) {
        snprintf(name, size, "skein-view-%04d.png", i);
        if (access(name, F_OK) != 0)
            return 0;
    }
    return sk_fail(err, SK_ERR_IO, "skein-view-0001.png .. skein-view-9999.png all exist");
}
