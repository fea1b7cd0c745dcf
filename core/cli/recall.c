/* skein run --resume FILE alone: the checkpoint recorded its run (the scenario as loaded, overrides applied,
 * the plan, the outputs and the engine), so the command line need not say it again. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "io/checkpoint/checkpoint.h"
#include "skein/output.h"

/* A copy of text, or NULL for NULL or "" (a checkpoint records "" for an output it does not have). */
static bool copy_text(const char *text, char **out)
{
    *out = NULL;
    if (!text || !text[0])
        return true;
    return (*out = strdup(text)) != NULL;
}

/* The directory part of path ("." when it has none), malloc'd. */
static char *directory_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* Whether a and b are the same directory. */
static bool same_directory(const char *a, const char *b)
{
    char *da = directory_part(a), *db = directory_part(b);
    struct stat sa, sb;
    const bool same = da && db && stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev &&
                      sa.st_ino == sb.st_ino;
    free(da);
    free(db);
    return same;
}

/* Whether the run that recorded the output path wrote there: beside path, as it resolves now, lies the
 * temporary its checkpoint names for it (temp, checked when the checkpoint was opened to be a temporary of
 * that output) or what a Ctrl-C of it kept (PATH.incomplete); a file for a file, a directory for --vtk. */
static bool written_there(const char *path, const char *temp, bool directory)
{
    struct stat st;
    if (temp && lstat(temp, &st) == 0 && (directory ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)) &&
        same_directory(path, temp))
        return true;
    const size_t len = strlen(path);
    char *kept = malloc(len + sizeof SK_INCOMPLETE_SUFFIX);
    if (!kept)
        return false;
    memcpy(kept, path, len);
    memcpy(kept + len, SK_INCOMPLETE_SUFFIX, sizeof SK_INCOMPLETE_SUFFIX);
    const bool there = lstat(kept, &st) == 0 && (directory ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
    free(kept);
    return there;
}

/* An output path the checkpoint recorded, taken without the user naming it: the checkpoint is a file, and a
 * crafted one must not choose what a run replaces. So it must name nothing yet (an interrupted run never
 * leaves a file under an output's own name: it keeps FILE.incomplete or temporaries), have no control
 * character, and be a relative path that stays below the current directory (no "..") or one the run that
 * recorded it is seen to have written to (written_there: a job requeued with its checkpoint alone, its
 * outputs on /scratch). Otherwise the user names it. */
static int check_recalled_output(const char *checkpoint, const char *option, const char *path, const char *temp,
                                 sk_error *err)
{
    bool printable = true;
    for (const char *p = path; printable && *p; p++)
        printable = (unsigned char)*p >= 0x20 && *p != 0x7f;
    bool below = printable && path[0] != '/';
    for (const char *p = path; below && (p = strstr(p, "..")); p += 2)
        below = !((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'));
    if (!below && !(printable && written_there(path, temp, strcmp(option, "--vtk") == 0))) {
        char shown[256]; /* the path as it can be printed: control characters as '?' */
        size_t n = 0;
        for (const char *p = path; *p && n + 1 < sizeof shown; p++)
            shown[n++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
        shown[n] = '\0';
        return sk_fail(err, SK_ERR_INVALID,
                       "%s: records the output %s, outside the current directory; name it again with %s to write "
                       "there",
                       checkpoint, shown, option);
    }
    struct stat st;
    if (lstat(path, &st) == 0)
        return sk_fail(err, SK_ERR_INVALID,
                       "%s: records the output %s, which is there already; name it again with %s to replace it",
                       checkpoint, path, option);
    return 0;
}

int cli_recall(cli_options *o, cli_recalled *r, sk_error *err)
{
    *r = (cli_recalled){0};
    sk_checkpoint *c = sk_checkpoint_open(o->resume, NULL, err);
    if (!c)
        return err->status;
    const sk_checkpoint_info *m = sk_checkpoint_meta(c);
    int rc = 0;
    if (!copy_text(m->scenario, &r->scenario) || !copy_text(m->source, &r->source) || !copy_text(m->csv, &r->csv) ||
        !copy_text(m->h5, &r->h5) || !copy_text(m->vtk, &r->vtk) || !copy_text(m->results, &r->results) ||
        !copy_text(m->engine, &r->engine) ||
        !(r->ropes = malloc((m->n_ropes ? m->n_ropes : 1) * sizeof *r->ropes)))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    else if (!r->scenario)
        rc = sk_fail(err, SK_ERR_CORRUPT, "%s: records no scenario; resume it with its scenario FILE", o->resume);
    if (rc == 0) {
        if (m->n_ropes)
            memcpy(r->ropes, m->ropes, m->n_ropes * sizeof *r->ropes);
        o->scenario_text = r->scenario;
        o->scenario_source = r->source ? r->source : o->resume;
        if (!o->has_steps && !o->has_duration) {
            o->has_steps = true;
            o->steps = m->steps;
        }
        if (!o->has_every) {
            o->has_every = true;
            o->every = m->every;
        }
        if (!o->ropes) {
            o->recalled_ropes = r->ropes;
            o->n_recalled_ropes = m->n_ropes;
        }
        if (!o->csv && r->csv && !(rc = check_recalled_output(o->resume, "--csv", r->csv, m->csv_temp, err)))
            o->csv = r->csv;
        if (rc == 0 && !o->h5 && r->h5 && !(rc = check_recalled_output(o->resume, "--h5", r->h5, m->h5_temp, err)))
            o->h5 = r->h5;
        if (rc == 0 && !o->vtk && r->vtk && !(rc = check_recalled_output(o->resume, "--vtk", r->vtk, m->vtk_temp, err)))
            o->vtk = r->vtk;
        /* the layout goes with the directory it recorded */
        if (o->vtk && !o->vtk_cells && r->vtk && strcmp(o->vtk, r->vtk) == 0)
            o->vtk_cells = m->vtk_cells == SK_VTK_POLYLINES ? "ropes" : NULL;
        if (rc == 0 && !o->results && r->results &&
            !(rc = check_recalled_output(o->resume, "--results", r->results, m->results_temp, err)))
            o->results = r->results;
        if (!o->engine)
            o->engine = r->engine;
    }
    sk_checkpoint_close(c);
    if (rc)
        cli_recalled_free(r);
    return rc;
}

void cli_recalled_free(cli_recalled *r)
{
    free(r->scenario);
    free(r->source);
    free(r->csv);
    free(r->h5);
    free(r->vtk);
    free(r->results);
    free(r->engine);
    free(r->ropes);
    *r = (cli_recalled){0};
}
