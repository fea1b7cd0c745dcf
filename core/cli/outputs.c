/* The files a run writes, checked before anything is allocated or stepped: a run that could not finish
 * writing must not start. Each output is a file of its own, not a directory, not the scenario it reads, in
 * a directory where a file can be created (tried by creating one). --vtk's output is a directory: absent, empty,
 * or an earlier VTK output of skein's (sk_vtk_check_target). Files are compared by device and inode
 * when they exist, by their directory's real path and their name when they do not yet. */
/* realpath is X/Open, beside the POSIX the build asks for */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define JOURNAL_SUFFIX ".frames"

typedef struct output {
    const char *option; /* "--csv", or "--checkpoint's journal" */
    const char *path;
    bool directory; /* the output is a directory (--vtk) */
    bool exists;
    dev_t dev;
    ino_t ino;
    char where[PATH_MAX + NAME_MAX + 2]; /* the directory's real path, '/', the name; "" when unknown */
} output;

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

static void identify(output *out)
{
    struct stat st;
    out->exists = stat(out->path, &st) == 0;
    if (out->exists) {
        out->dev = st.st_dev;
        out->ino = st.st_ino;
    }
    char dir[PATH_MAX], real[PATH_MAX];
    directory_of(out->path, dir, sizeof dir);
    const char *slash = strrchr(out->path, '/');
    out->where[0] = '\0';
    if (realpath(dir, real))
        snprintf(out->where, sizeof out->where, "%s/%s", real, slash ? slash + 1 : out->path);
}

static bool same_file(const output *a, const output *b)
{
    if (a->exists && b->exists)
        return a->dev == b->dev && a->ino == b->ino;
    return a->where[0] && strcmp(a->where, b->where) == 0;
}

/* Creates and removes a file beside path: the directory exists and takes new files. */
static int try_create(const output *out, sk_error *err)
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
    return 0;
}

/* The files the run writes, in outs[5] (the journal's name in journal); returns how many, or -1 with err set
 * when the checkpoint's path is too long. */
static int list_outputs(const cli_options *o, output *outs, char *journal, size_t journal_size, sk_error *err)
{
    const char *checkpoint = o->checkpoint ? o->checkpoint : o->resume;
    int n = 0;
    if (o->csv)
        outs[n++] = (output){.option = "--csv", .path = o->csv};
    if (o->h5)
        outs[n++] = (output){.option = "--h5", .path = o->h5};
    if (o->vtk)
        outs[n++] = (output){.option = "--vtk", .path = o->vtk, .directory = true};
    if (o->results)
        outs[n++] = (output){.option = "--results", .path = o->results};
    if (checkpoint) {
        outs[n++] = (output){.option = o->checkpoint ? "--checkpoint" : "--resume", .path = checkpoint};
        if (strlen(checkpoint) >= PATH_MAX) {
            sk_fail(err, SK_ERR_INVALID, "%s %.40s...: the path is too long", outs[n - 1].option, checkpoint);
            return -1;
        }
        snprintf(journal, journal_size, "%s" JOURNAL_SUFFIX, checkpoint);
        outs[n++] = (output){.option = o->checkpoint ? "--checkpoint's journal" : "--resume's journal", .path = journal};
    }
    return n;
}

int cli_check_outputs(const cli_options *o, const char *scenario, sk_error *err)
{
    char journal[PATH_MAX + sizeof JOURNAL_SUFFIX];
    output outs[5];
    const int n = list_outputs(o, outs, journal, sizeof journal, err);
    if (n < 0)
        return err->status;
    output input = {.path = scenario};
    if (scenario)
        identify(&input);
    for (int i = 0; i < n; i++) {
        identify(&outs[i]);
        struct stat st;
        if (!outs[i].directory && outs[i].exists && stat(outs[i].path, &st) == 0 && S_ISDIR(st.st_mode))
            return sk_fail(err, SK_ERR_INVALID, "%s %s: is a directory; name a file", outs[i].option, outs[i].path);
        if (scenario && input.exists && same_file(&outs[i], &input))
            return sk_fail(err, SK_ERR_INVALID, "%s %s: is the scenario file %s itself; the run would overwrite its input",
                           outs[i].option, outs[i].path, scenario);
        for (int k = 0; k < i; k++)
            if (same_file(&outs[i], &outs[k]))
                return sk_fail(err, SK_ERR_INVALID, "%s %s and %s %s: the same file; give each output its own",
                               outs[k].option, outs[k].path, outs[i].option, outs[i].path);
        sk_error why;
        if (outs[i].directory && sk_vtk_check_target(outs[i].path, &why))
            return sk_fail(err, SK_ERR_INVALID, "%s %s", outs[i].option, why.message);
    }
    for (int i = 0; i < n; i++) {
        const int rc = try_create(&outs[i], err);
        if (rc)
            return rc;
    }
    return 0;
}

int cli_check_warm_start(const cli_options *o, const sk_scenario *s, sk_error *err)
{
    if (!s->has_initial)
        return 0;
    char journal[PATH_MAX + sizeof JOURNAL_SUFFIX];
    output outs[5];
    const int n = list_outputs(o, outs, journal, sizeof journal, err);
    if (n < 0)
        return err->status;
    output input = {.path = s->initial_path};
    identify(&input);
    for (int i = 0; i < n && input.exists; i++) {
        identify(&outs[i]);
        if (same_file(&outs[i], &input))
            return sk_fail(err, SK_ERR_INVALID,
                           "%s %s: is the warm start's file %s (initial.from) itself; the run would overwrite its input",
                           outs[i].option, outs[i].path, s->initial_path);
    }
    return 0;
}
