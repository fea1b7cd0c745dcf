/* The files a run writes, checked before anything is allocated or stepped: a run that could not finish
 * writing must not start. The checks themselves are the library's (util/output_paths.h), the viewer's too;
 * here: which files a run writes, and the names a Ctrl-C would keep them under (FILE.incomplete). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/text/text_outputs.h"
#include "cli.h"
#include "util/output_paths.h"
#include "skein/output.h"

#define JOURNAL_SUFFIX ".frames"
#define MAX_OUTPUTS 7

/* The files the run writes, in outs[MAX_OUTPUTS] (the journal's and the lock's names in journal and lock); returns how many, or -1
 * with err set when the checkpoint's path is too long. */
static int list_outputs(const cli_options *o, sk_output_path *outs, char *journal, size_t journal_size, char *lock,
                        size_t lock_size, sk_error *err)
{
    const char *checkpoint = o->checkpoint ? o->checkpoint : o->resume;
    int n = 0;
    if (o->csv)
        outs[n++] = (sk_output_path){.option = "--csv", .path = o->csv};
    if (o->h5)
        outs[n++] = (sk_output_path){.option = "--h5", .path = o->h5};
    if (o->vtk)
        outs[n++] = (sk_output_path){.option = "--vtk", .path = o->vtk, .directory = true, .check = sk_vtk_check_target};
    if (o->results)
        outs[n++] = (sk_output_path){.option = "--results", .path = o->results};
    if (checkpoint) {
        outs[n++] = (sk_output_path){.option = o->checkpoint ? "--checkpoint" : "--resume", .path = checkpoint};
        if (strlen(checkpoint) >= PATH_MAX) {
            sk_fail(err, SK_ERR_INVALID, "%s %.40s...: the path is too long", outs[n - 1].option, checkpoint);
            return -1;
        }
        snprintf(journal, journal_size, "%s" JOURNAL_SUFFIX, checkpoint);
        outs[n++] = (sk_output_path){.option = o->checkpoint ? "--checkpoint's journal" : "--resume's journal",
                                     .path = journal};
        snprintf(lock, lock_size, "%s" CLI_CLAIM_SUFFIX, checkpoint);
        outs[n++] = (sk_output_path){.option = o->checkpoint ? "--checkpoint's lock" : "--resume's lock", .path = lock};
    }
    return n;
}

/* Whether the first bytes of the file at path are the n bytes of head. */
static bool starts_with(const char *path, const char *head, size_t n)
{
    char buf[64];
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    const ssize_t got = read(fd, buf, n < sizeof buf ? n : sizeof buf);
    close(fd);
    return got == (ssize_t)n && memcmp(buf, head, n) == 0;
}

/* FILE.incomplete, where a Ctrl-C keeps what an output got: absent, or what such a Ctrl-C of skein's kept (a
 * regular file that starts as this output does; for --vtk, a directory holding only skein's files), which the
 * next Ctrl-C replaces. Anything else there is the user's, and is refused before the first step. */
static int check_incomplete(const sk_output_path *out, sk_error *err)
{
    char name[PATH_MAX + sizeof SK_INCOMPLETE_SUFFIX];
    if (strlen(out->path) >= PATH_MAX)
        return sk_fail(err, SK_ERR_INVALID, "%s %.40s...: the path is too long", out->option, out->path);
    snprintf(name, sizeof name, "%s" SK_INCOMPLETE_SUFFIX, out->path);
    struct stat st;
    if (lstat(name, &st) != 0)
        return 0;
    bool ours;
    if (out->directory) {
        sk_error why;
        ours = S_ISDIR(st.st_mode) && sk_vtk_check_target(name, &why) == SK_OK;
    } else if (!S_ISREG(st.st_mode)) {
        ours = false;
    } else if (strcmp(out->option, "--csv") == 0) {
        ours = starts_with(name, SK_CSV_HEADER "\n", sizeof SK_CSV_HEADER);
    } else if (strcmp(out->option, "--results") == 0) {
        ours = starts_with(name, "rope,group", 10);
    } else { /* --h5: an HDF5 file's signature */
        ours = starts_with(name, "\211HDF\r\n\032\n", 8);
    }
    if (ours)
        return 0;
    return sk_fail(err, SK_ERR_INVALID,
                   "%s %s: %s is there and is not what a stopped run of skein kept; a Ctrl-C would replace it: "
                   "move it away or name another output",
                   out->option, out->path, name);
}

int cli_check_outputs(const cli_options *o, const char *scenario, sk_error *err)
{
    char journal[PATH_MAX + sizeof JOURNAL_SUFFIX], lock[PATH_MAX + sizeof CLI_CLAIM_SUFFIX];
    sk_output_path outs[MAX_OUTPUTS];
    const int n = list_outputs(o, outs, journal, sizeof journal, lock, sizeof lock, err);
    if (n < 0)
        return err->status;
    char label[PATH_MAX + 128] = "";
    if (scenario)
        snprintf(label, sizeof label, "the scenario file %s itself; the run would overwrite its input", scenario);
    const sk_input_path input = {.path = scenario, .label = label};
    int rc = sk_output_paths_check(outs, n, &input, 1, err);
    /* the checkpoint, its journal and its lock, listed last, are never kept as .incomplete */
    const int kept = n - (o->checkpoint || o->resume ? 3 : 0);
    for (int i = 0; rc == 0 && i < kept; i++)
        rc = check_incomplete(&outs[i], err);
    return rc;
}

int cli_check_warm_start(const cli_options *o, const sk_scenario *s, sk_error *err)
{
    if (!s->has_initial)
        return 0;
    char journal[PATH_MAX + sizeof JOURNAL_SUFFIX], lock[PATH_MAX + sizeof CLI_CLAIM_SUFFIX];
    sk_output_path outs[MAX_OUTPUTS];
    const int n = list_outputs(o, outs, journal, sizeof journal, lock, sizeof lock, err);
    if (n < 0)
        return err->status;
    for (int i = 0; i < n; i++)
        if (sk_output_paths_same(outs[i].path, s->initial_path)) {
            struct stat st;
            if (stat(s->initial_path, &st) == 0)
                return sk_fail(err, SK_ERR_INVALID,
                               "%s %s: is the warm start's file %s (initial.from) itself; the run would overwrite "
                               "its input",
                               outs[i].option, outs[i].path, s->initial_path);
        }
    return 0;
}
